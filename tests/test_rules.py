"""The Mü rule kernels (musim.games.mu.rules) against the slow reference (tests/reference.py).

Random states come from numpy generators with fixed seeds; the rulebook's
worked examples (docs/rules.md §2 and the rulebook's) are explicit tests at the end.
"""

import functools

import numpy as np
import pytest
import reference as ref

from musim.core.deck import MU
from musim.games.mu import rules

RULEBOOK = rules.rulebook_targets()

TYPES = list(range(-1, 15))  # -1 none, 0..4 colours, 5..14 numbers
PAIRS = [(c, v) for c in TYPES for v in TYPES]  # includes chief == vice (not allowed, must stay consistent)
PLAYERS = (3, 4, 5, 6)


# ---------------------------------------------------------------- helpers


def card(text, copy=0):
    """Card index of e.g. 'R7' (copy=1: the second 7)."""
    return MU.copies(text)[copy]


def cards(*texts):
    """Card indices of texts; a repeated 1 or 7 takes the next copy."""
    out = []
    for t in texts:
        out.append(card(t, sum(1 for u in texts[: len(out)] if u == t)))
    return out


def u64(cards_list):
    return np.uint64(ref.mask_of(cards_list))


@functools.cache
def contract(chief_trump, vice_trump):
    return rules.contract(chief_trump, vice_trump)


def random_pair(rng):
    return PAIRS[rng.integers(len(PAIRS))]


def kernel_winner(trick, chief_trump, vice_trump):
    klass, power, _ = contract(chief_trump, vice_trump)
    arr = np.full(6, -1, np.int64)
    arr[: len(trick)] = trick
    return rules.trick_winner(arr, len(trick), klass, power)


def kernel_legal(hand, led, chief_trump, vice_trump):
    klass, _, class_mask = contract(chief_trump, vice_trump)
    return ref.cards_of(rules.legal_moves(u64(hand), -1 if led is None else led, klass, class_mask))


def deal(rng, n):
    """Random Mü deal as n lists of card indices (3 players: three random colours)."""
    if n == 3:
        colours = sorted(rng.choice(5, 3, replace=False))
        deck = [c for c in range(60) if ref.colour(c) in colours]
    else:
        deck = list(range(60))
    deck = [int(c) for c in rng.permutation(deck)]
    size = ref.HAND_SIZE[n]
    return [sorted(deck[s * size : (s + 1) * size]) for s in range(n)]


def check_outcome(laid, last_lay):
    """auction_result and eklat_scores against the reference; returns the reference result."""
    n = len(laid)
    want = ref.auction_outcome(laid, last_lay)
    counts = np.array([len(x) for x in laid], np.int64)
    out_tied = np.full(n, -9, np.int64)
    chief, vice, provoker, n_tied = rules.auction_result(
        np.array([ref.mask_of(x) for x in laid], np.uint64),
        counts,
        np.array([-1 if t is None else t for t in last_lay], np.int64),
        n,
        out_tied,
    )
    if want.eklat:
        assert (chief, vice) == (-1, -1), (laid, last_lay)
        assert sorted(out_tied[:n_tied].tolist()) == want.tied
        assert provoker == (-1 if want.provoker is None else want.provoker)
        scores = np.full(n, -999, np.int64)
        rules.eklat_scores(counts, n, provoker, scores)
        assert scores.tolist() == want.scores
    else:
        assert chief == want.chief, (laid, last_lay)
        assert vice == (-1 if want.vice is None else want.vice), (laid, last_lay)
        assert (provoker, n_tied) == (-1, 1)
    return want


def check_score(n, bid, chief, partner, chief_trump, card_points):
    """score_played against the reference; returns the reference DealScore."""
    want = ref.score_deal(n, bid, chief, partner, chief_trump, card_points)
    out = np.full(n, -999, np.int64)
    got = rules.score_played(
        n, bid, chief, -1 if partner is None else partner, chief_trump, np.array(card_points, np.int64), out, RULEBOOK
    )
    assert tuple(int(x) for x in got) == (want.team, want.made, want.shortfall, want.bonus)
    assert out.tolist() == want.scores
    return want


# ---------------------------------------------------------------- trumps and tricks


def test_contract_class_masks_and_power_order():
    for chief_trump, vice_trump in PAIRS:
        klass, power, class_mask = rules.contract(chief_trump, vice_trump)
        want_class = [ref.card_class(c, chief_trump, vice_trump) for c in range(60)]
        want_code = [rules.TRUMP if k == ref.TRUMP else k for k in want_class]
        assert klass.tolist() == want_code
        for k in range(rules.N_CLASSES):
            assert int(class_mask[k]) == ref.mask_of([c for c in range(60) if want_code[c] == k])
        # power must order cards exactly as (tier, number) does, equal keys <=> equal power
        key = {c: (ref.card_tier(c, chief_trump, vice_trump), ref.number(c)) for c in range(60)}
        order = sorted(range(60), key=lambda c: key[c])
        for a, b in zip(order, order[1:]):
            assert (key[a] == key[b]) == (power[a] == power[b]), (a, b, chief_trump, vice_trump)
            assert power[a] <= power[b], (a, b, chief_trump, vice_trump)


def test_legal_moves_random_hands():
    rng = np.random.default_rng(101)
    followed = 0
    for _ in range(4000):
        chief_trump, vice_trump = random_pair(rng)
        perm = [int(c) for c in rng.permutation(60)]
        hand = perm[: rng.integers(1, 16)]
        led = None if rng.random() < 0.1 else perm[-1]
        want = ref.legal_cards(hand, led, chief_trump, vice_trump)
        assert kernel_legal(hand, led, chief_trump, vice_trump) == sorted(want), (hand, led, chief_trump, vice_trump)
        followed += len(want) < len(hand)
    assert followed > 1000  # the must-follow case is well covered


def random_trick(rng):
    """1..6 distinct cards; half the time from a small pool so trumps and equal cards meet often."""
    size = rng.integers(1, 7)
    if rng.random() < 0.5:
        pool = list(range(60))
    else:
        types = rng.choice(15, 2, replace=False)
        pool = [c for c in range(60) if any(ref.matches(int(t), c) for t in types)]
    return [int(c) for c in rng.choice(pool, size, replace=False)]


def test_trick_winner_random_tricks():
    rng = np.random.default_rng(102)
    not_first = 0
    for _ in range(6000):
        chief_trump, vice_trump = random_pair(rng)
        trick = random_trick(rng)
        want = ref.trick_winner(trick, chief_trump, vice_trump)
        assert kernel_winner(trick, chief_trump, vice_trump) == want, (
            [ref.card_text(c) for c in trick],
            chief_trump,
            vice_trump,
        )
        not_first += want > 0
    assert not_first > 1500


def test_mask_points_random_masks():
    rng = np.random.default_rng(103)
    for _ in range(3000):
        hand = [c for c in range(60) if rng.random() < rng.random()]
        assert rules.mask_points(u64(hand)) == ref.points_of(hand)
    assert rules.mask_points(u64(list(range(60)))) == 60


# ---------------------------------------------------------------- auction


def test_lay_limit_exhaustive():
    for own in range(16):
        for top in range(16):
            for in_hand in range(16):
                assert rules.lay_limit(own, top, in_hand) == ref.lay_limit(own, top, in_hand), (own, top, in_hand)


def test_top_other_random():
    rng = np.random.default_rng(104)
    for _ in range(3000):
        n = int(rng.integers(3, 7))
        counts = rng.integers(0, 13, n)
        seat = int(rng.integers(n))
        want = max(int(counts[s]) for s in range(n) if s != seat)
        assert rules.top_other(counts.astype(np.int64), n, seat) == want


def run_random_auction(rng, n):
    """Drive a reference auction with random legal actions, checking the kernels at each turn."""
    a = ref.Auction(deal(rng, n), dealer=int(rng.integers(n)))
    p_pass = rng.uniform(0.2, 0.9)
    history = []
    while not a.ended:
        seat = a.seat
        hand = a.hands[seat]
        counts = np.array(a.counts(), np.int64)
        top = rules.top_other(counts, n, seat)
        assert top == a.top_other(seat)
        limit = a.limit()
        assert rules.lay_limit(int(counts[seat]), top, len(hand)) == limit
        if limit < len(hand):
            assert not a.is_legal(hand[: limit + 1])  # one card too many is refused
        if limit == 0 or rng.random() < p_pass:
            action = []
        else:
            k = int(rng.integers(1, limit + 1))
            action = [int(c) for c in rng.choice(hand, k, replace=False)]
        a.act(action)
        history.append(len(action))
        ended_by_history = len(history) >= n and not any(history[-n:])
        assert a.ended == ended_by_history
        assert bool(rules.auction_over(a.passes, n)) == a.ended
    assert not a.is_legal([])  # nothing is legal after the end
    return a


def test_random_auctions():
    rng = np.random.default_rng(105)
    seen = {"eklat_nobody": 0, "eklat": 0, "vice": 0, "no_vice": 0}
    for i in range(2000):
        n = PLAYERS[i % 4]
        a = run_random_auction(rng, n)
        res = check_outcome(a.laid, a.last_lay)
        if res.eklat:
            seen["eklat_nobody" if res.bid == 0 else "eklat"] += 1
        else:
            seen["vice" if res.vice is not None else "no_vice"] += 1
    assert min(seen.values()) > 20, seen


def test_auction_result_random_states():
    """Arbitrary end states with frequent ties in the top count."""
    rng = np.random.default_rng(106)
    eklats = 0
    for _ in range(4000):
        n = int(rng.integers(3, 7))
        perm = [int(c) for c in rng.permutation(60)]
        counts = rng.integers(0, int(rng.integers(1, 6)), n)
        laid, pos = [], 0
        for s in range(n):
            laid.append(perm[pos : pos + counts[s]])
            pos += counts[s]
        turns = [int(t) for t in rng.permutation(40)[:n]]
        last_lay = [turns[s] if counts[s] else None for s in range(n)]
        eklats += check_outcome(laid, last_lay).eklat
    assert 500 < eklats < 3500


def random_vice_contest(rng, n):
    """Laid sets for n >= 4 where the other players often tie in count and in numbers."""
    pool = [int(c) for c in rng.permutation(60)]

    def take(numbers):
        chosen = []
        for d in numbers:
            c = next((c for c in pool if ref.number(c) == d and c not in chosen), None)
            if c is None:
                return None
            chosen.append(c)
        for c in chosen:
            pool.remove(c)
        return chosen

    size = int(rng.integers(1, 6))
    base = [int(d) for d in rng.integers(0, 10, size)]
    chief = int(rng.integers(n))
    laid = [[] for _ in range(n)]
    for s in range(n):
        if s == chief:
            continue
        mode = rng.integers(4)
        if mode == 0:
            numbers = []
        elif mode == 1:
            numbers = base  # same numbers: a full tie
        elif mode == 2:
            numbers = list(base)
            numbers[rng.integers(size)] = int(rng.integers(10))  # differs in one place (or not)
        else:
            numbers = [int(d) for d in rng.integers(0, 10, int(rng.integers(1, size + 1)))]
        laid[s] = take(numbers) or []
    most = max(len(x) for x in laid)
    laid[chief] = pool[: most + 1 + int(rng.integers(3))]
    return laid


def test_vice_tiebreak_random():
    rng = np.random.default_rng(107)
    seen = {"by_numbers": 0, "full_tie": 0}
    for _ in range(4000):
        n = int(rng.integers(4, 7))
        laid = random_vice_contest(rng, n)
        res = check_outcome(laid, [s for s in range(n)])
        assert not res.eklat
        others = [s for s in range(n) if s != res.chief and laid[s]]
        most = max((len(laid[s]) for s in others), default=0)
        contenders = [s for s in others if len(laid[s]) == most]
        if len(contenders) > 1:
            seen["full_tie" if res.vice is None else "by_numbers"] += 1
    assert min(seen.values()) > 300, seen


def test_no_vice_with_three_players():
    rng = np.random.default_rng(108)
    for _ in range(500):
        perm = [int(c) for c in rng.permutation(36)]
        k = [int(x) for x in rng.integers(0, 4, 2)]
        laid = [perm[:5], perm[5 : 5 + k[0]], perm[10 : 10 + k[1]]]
        res = check_outcome(laid, [0, 1, 2])
        assert res.chief == 0 and res.vice is None


def test_nameable_types_random():
    rng = np.random.default_rng(109)
    for _ in range(3000):
        laid = [int(c) for c in rng.choice(60, int(rng.integers(1, 9)), replace=False)]
        exclude = int(rng.integers(-1, 15))
        got = rules.nameable_types(u64(laid), exclude)
        got_types = {t for t in range(15) if got >> t & 1}
        assert got >> 15 == 0
        if exclude < 0:  # the vice names first, from their own laid cards
            assert got_types == ref.vice_may_name(laid)
        else:  # the chief: not the vice's trump ("none" is always open, outside this mask)
            assert got_types == ref.chief_may_name(laid, exclude) - {None}


def test_partner_allowed_all_seats():
    for n in PLAYERS:
        for chief in range(n):
            for vice in [-1] + [s for s in range(n) if s != chief]:
                want = ref.partner_choices(n, chief, None if vice < 0 else vice)
                got = [p for p in range(-1, n + 1) if rules.partner_allowed(p, chief, vice, n)]
                assert got == want, (n, chief, vice)


# ---------------------------------------------------------------- scoring


def test_hand_size_and_target_table():
    for n in PLAYERS:
        assert rules.hand_size(n) == ref.HAND_SIZE[n]
        assert rules.hand_size(n) * n == (36 if n == 3 else 60)  # every card of the deal is dealt
        table = ref.TARGET_TABLE[n]
        assert len(table) == ref.HAND_SIZE[n]  # bids run 1..hand size
        for bid, printed in enumerate(table, start=1):
            assert rules.target(n, bid) == ref.target(n, bid) == printed, (n, bid)


def test_achieved_rank_every_team_score():
    for n in PLAYERS:
        for team in range(ref.POINTS_IN_PLAY[n] + 1):
            assert rules.achieved_rank(n, team, RULEBOOK) == ref.achieved_rank(n, team), (n, team)
    assert rules.achieved_rank(3, 36, RULEBOOK) == 12 and rules.achieved_rank(4, 60, RULEBOOK) == 15


def test_bonus_every_bid_and_trump():
    for bid in range(1, 16):
        for t in TYPES:
            assert rules.bonus(bid, t) == ref.bonus(bid, t), (bid, t)


def random_card_points(rng, n, team, chief, partner):
    """Card points per seat summing to the deal's points, the chief's team holding `team`."""
    pts = [0] * n
    if partner is None:
        pts[chief] = team
    else:
        pts[chief] = int(rng.integers(team + 1))
        pts[partner] = team - pts[chief]
    opponents = [s for s in range(n) if s not in (chief, partner)]
    for _ in range(ref.POINTS_IN_PLAY[n] - team):
        pts[opponents[rng.integers(len(opponents))]] += 1
    return pts


def test_score_played_every_bid_and_team_score():
    rng = np.random.default_rng(110)
    made = failed = 0
    for n in PLAYERS:
        for bid in range(1, ref.HAND_SIZE[n] + 1):
            for team in range(ref.POINTS_IN_PLAY[n] + 1):
                chief = int(rng.integers(n))
                partner = None if n == 3 else int(rng.choice([s for s in range(n) if s != chief]))
                chief_trump = TYPES[rng.integers(len(TYPES))]
                res = check_score(n, bid, chief, partner, chief_trump, random_card_points(rng, n, team, chief, partner))
                made += res.made
                failed += not res.made
                # beyond the card points: bonus to chief and partner, or -10s / +5s per opponent
                extra = sum(res.scores) - ref.POINTS_IN_PLAY[n]
                if res.made:
                    assert extra == res.bonus * (1 if partner is None else 2)
                else:
                    assert extra == res.shortfall * (5 * (n - 1 - (partner is not None)) - 10)
    assert made > 500 and failed > 500


def test_random_deals_played_out():
    """Whole deals with random legal play: legality, winners, points and scores all agree."""
    rng = np.random.default_rng(111)
    for i in range(240):
        n = PLAYERS[i % 4]
        hands = deal(rng, n)
        chief_trump, vice_trump = random_pair(rng)
        chief = int(rng.integers(n))
        leader = chief
        won = [[] for _ in range(n)]
        for _ in range(ref.HAND_SIZE[n]):
            trick = []
            for j in range(n):
                p = (leader + j) % n
                led = trick[0] if trick else None
                legal = ref.legal_cards(hands[p], led, chief_trump, vice_trump)
                assert kernel_legal(hands[p], led, chief_trump, vice_trump) == sorted(legal)
                c = legal[rng.integers(len(legal))]
                hands[p].remove(c)
                trick.append(c)
            w = ref.trick_winner(trick, chief_trump, vice_trump)
            assert kernel_winner(trick, chief_trump, vice_trump) == w
            leader = (leader + w) % n
            won[leader] += trick
        assert not any(hands)
        card_points = [ref.points_of(x) for x in won]
        assert [rules.mask_points(u64(x)) for x in won] == card_points
        assert sum(card_points) == ref.POINTS_IN_PLAY[n]
        partner = None if n == 3 else (chief + 1) % n
        check_score(n, int(rng.integers(1, ref.HAND_SIZE[n] + 1)), chief, partner, chief_trump, card_points)


# ---------------------------------------------------------------- the rulebook's worked examples


def test_example_trump_order_chief_0_vice_green():
    """docs/rules.md §2.7: chief 0, vice G: G0 > the other 0s (first played wins) > G9 > G8 > ... > G1."""
    chief_trump, vice_trump = 5 + 0, 2
    ladder = [
        ["G0"],
        ["R0", "Y0", "B0", "K0"],
        ["G9"],
        ["G8"],
        ["G7"],
        ["G6"],
        ["G5"],
        ["G4"],
        ["G3"],
        ["G2"],
        ["G1"],
        ["R9"],
    ]  # R9: not trump, beaten by every trump
    for hi in range(len(ladder)):
        for lo in range(hi, len(ladder)):
            for a in ladder[hi]:
                for b in ladder[lo]:
                    if a == b:
                        continue
                    both = [card(a), card(b)]
                    assert kernel_winner(both, chief_trump, vice_trump) == 0, (a, b)
                    if hi != lo:  # strictly stronger card wins when played second
                        assert kernel_winner(both[::-1], chief_trump, vice_trump) == 1, (b, a)
    tricks = {  # trick -> winning position
        ("R0", "G0", "Y0"): 1,
        ("Y0", "B0", "R0", "K0"): 0,
        ("Y5", "B0", "R0"): 1,
        ("G9", "K0"): 1,
        ("G1", "G9", "G8", "R9"): 1,
        ("R9", "G1"): 1,
        ("R3", "R9", "Y9", "R8"): 1,  # no trump: highest of the led colour
        ("G7", "G7"): 0,  # two identical vice trumps: the first played
        ("R5", "R7", "R7", "R6"): 1,  # two identical non-trump 7s
    }
    for texts, want in tricks.items():
        trick = cards(*texts)
        assert kernel_winner(trick, chief_trump, vice_trump) == want, texts
        assert ref.trick_winner(trick, chief_trump, vice_trump) == want, texts


def test_example_number_trump_leaves_its_colour():
    """A red 6 under number trump 6 is a trump, so a red lead need not be followed with it."""
    chief_trump, vice_trump = 5 + 6, -1
    hand = cards("R6", "Y2")
    assert kernel_legal(hand, card("R4"), chief_trump, vice_trump) == sorted(hand)
    assert kernel_legal(hand, card("G6"), chief_trump, vice_trump) == [card("R6")]


def test_example_five_player_failed_deal():
    """Bid 4, team 29 (Dagmar 20 + Anna 9): rank 2, shortfall 2; chief -20, three opponents +10."""
    anna, _beate, _conny, dagmar, _emma = range(5)
    card_points = [9, 10, 11, 20, 10]
    res = check_score(5, 4, dagmar, anna, 3, card_points)
    assert (res.team, res.made, res.shortfall) == (29, False, 2)
    assert rules.achieved_rank(5, 29, RULEBOOK) == 2
    assert res.scores == [9, 20, 21, 0, 20]
    # "If Dagmar and Anna had only scored 18 trick points together": difference 4
    res = check_score(5, 4, dagmar, anna, 3, [8, 14, 14, 10, 14])
    assert (res.team, res.shortfall) == (18, 4) and res.scores == [8, 34, 34, -30, 34]


def test_example_targets_and_bonuses():
    assert rules.target(5, 4) == 33  # Example 6: five players, four cards laid
    assert rules.bonus(4, 3) == 40  # Example 7: colour trump (blue), bid 4
    assert rules.bonus(5, 5 + 7) == 60  # Example 9: rank 5 with 7 as trump
    # the bonus table's corners: colour 10+, 1/7 9+, other numbers 8+, none 7+ give 100
    assert [rules.bonus(1, t) for t in (0, 5 + 1, 5 + 5, -1)] == [10, 20, 30, 40]
    assert [rules.bonus(b, t) for b, t in ((10, 4), (9, 5 + 7), (8, 5 + 0), (7, -1))] == [100] * 4
    assert [rules.bonus(b, t) for b, t in ((9, 4), (8, 5 + 7), (7, 5 + 9), (6, -1))] == [90] * 4
    assert rules.bonus(15, 0) == 100
    # a 5-player chief team of 33 points with bid 4 makes it
    res = check_score(5, 4, 3, 0, 3, [13, 9, 9, 20, 9])
    assert res.made and res.scores == [53, 9, 9, 60, 9]


ANNA, BEATE, CONNY, DAGMAR, EMMA = range(5)


def example_auction(dagmar_last):
    """The Mü rulebook's Example 1, concretely: Anna deals; Dagmar lays `dagmar_last` in the last round.

    Round 1: Anna 1, Beate passes, Conny 1, Dagmar ups to 2, Emma passes (she
    could lay 3).  Round 2: Anna matches Dagmar (2), Beate lays 1 underground,
    Conny goes to 3, Dagmar and Emma pass.  Round 3: Anna to 3, Beate and Conny
    pass, Dagmar lays; then Emma, Anna, Beate, Conny and Dagmar pass.
    """
    script = [
        (ANNA, ["R9"]),
        (BEATE, []),
        (CONNY, ["G9"]),
        (DAGMAR, ["B1", "B7"]),
        (EMMA, []),
        (ANNA, ["R6"]),
        (BEATE, ["K5"]),
        (CONNY, ["G8", "R3"]),
        (DAGMAR, []),
        (EMMA, []),
        (ANNA, ["Y2"]),
        (BEATE, []),
        (CONNY, []),
        (DAGMAR, dagmar_last),
        (EMMA, []),
        (ANNA, []),
        (BEATE, []),
        (CONNY, []),
        (DAGMAR, []),
    ]
    laid = {s: [] for s in range(5)}
    for s, texts in script:
        laid[s] += texts
    hands = [cards(*laid[s]) for s in range(5)]
    to_lay = [list(h) for h in hands]  # each seat's laid cards in laying order, copies resolved
    rest = [c for c in range(60) if all(c not in h for h in hands)]
    for s in range(5):
        while len(hands[s]) < 12:
            hands[s].append(rest.pop(0))
    a = ref.Auction(hands, dealer=ANNA)
    for seat, texts in script:
        assert not a.ended and a.seat == seat
        counts = np.array(a.counts(), np.int64)
        limit = rules.lay_limit(int(counts[seat]), rules.top_other(counts, 5, seat), len(a.hands[seat]))
        assert limit == a.limit()
        assert len(texts) <= limit
        action = to_lay[seat][: len(texts)]
        del to_lay[seat][: len(texts)]
        assert [ref.card_text(c) for c in action] == texts
        a.act(action)
    assert a.ended and rules.auction_over(a.passes, 5)
    return a


def test_example_auction_limits():
    a = ref.Auction([list(range(12 * s, 12 * s + 12)) for s in range(5)], dealer=ANNA)
    assert a.limit() == 1  # the dealer opens with one card
    a.act([0])
    a.act([])
    a.act([24])
    assert a.limit() == 2  # Dagmar may go one above the top
    a.act([36, 37])
    assert a.limit() == 3  # "Emma, who may now play up to three cards"
    assert rules.lay_limit(0, 2, 12) == 3 and rules.lay_limit(2, 1, 10) == 1 and rules.lay_limit(1, 1, 11) == 1


def test_example_eklat():
    """The Mü rulebook's Example 3: Anna, Conny and Dagmar tie at 3, Dagmar laid last: -30, +15, +15."""
    a = example_auction(["B7"])
    assert a.counts() == [3, 1, 3, 3, 0]
    res = check_outcome(a.laid, a.last_lay)
    assert res.eklat and res.tied == [ANNA, CONNY, DAGMAR] and res.provoker == DAGMAR
    assert res.scores == [15, 0, 15, -30, 0]


def test_example_chief_vice_and_trump_choice():
    """The Mü rulebook's Examples 2, 4, 5, 6: Dagmar chief with 4; Conny vice (9-8-3 beats Anna's 9-6-2)."""
    a = example_auction(["B7", "B8"])
    assert a.counts() == [3, 1, 3, 4, 0]
    res = check_outcome(a.laid, a.last_lay)
    assert (res.chief, res.vice, res.bid) == (DAGMAR, CONNY, 4)
    # Example 5: Dagmar may choose from blue, 1, 7 or 8
    allowed = rules.nameable_types(u64(a.laid[DAGMAR]), -1)
    assert {t for t in range(15) if allowed >> t & 1} == {3, 5 + 1, 5 + 7, 5 + 8}
    assert rules.target(5, res.bid) == 33
    assert not rules.partner_allowed(CONNY, DAGMAR, CONNY, 5) and rules.partner_allowed(ANNA, DAGMAR, CONNY, 5)


@pytest.mark.parametrize("order", [(1, 2), (2, 1)])
def test_example_vice_tiebreak_8661_beats_8654(order):
    """docs/rules.md §2.4: laid numbers 8-6-6-1 beat 8-6-5-4, whichever seat holds them."""
    laid = [cards("K0", "K2", "K3", "K4", "K5"), [], [], []]
    laid[order[0]] = cards("R8", "R6", "Y6", "R1")
    laid[order[1]] = cards("G8", "G6", "G5", "G4")
    res = check_outcome(laid, [4, 1, 2, 3])
    assert res.chief == 0 and res.vice == order[0]
    laid[order[1]] = cards("G8", "G6", "B6", "G1")  # the same numbers: no vice
    assert check_outcome(laid, [4, 1, 2, 3]).vice is None


def test_example_everyone_passes():
    a = ref.Auction([list(range(12 * s, 12 * s + 12)) for s in range(4)], dealer=2)
    for _ in range(4):
        a.act([])
    assert a.ended
    res = check_outcome(a.laid, a.last_lay)
    assert res.eklat and res.provoker is None and res.scores == [0, 0, 0, 0]
