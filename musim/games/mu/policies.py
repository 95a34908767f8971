"""Decision policies for Mü: every choice of a deal, as numba kernels.

A deal asks its policies five kinds of question — how many and which cards to
lay on an auction turn, the vice's trump, the chief's trump, the partner, and
each card played.  Policies are small integer codes dispatched inside the deal
kernel, so that a new one (the double-dummy player) drops in as one more branch.  Each seat
decides by its own codes (simulate.run_policy: one auction and one card-play code a seat), so a
`random` seat may sit among `heuristic` ones, or a `dd` seat among others (simulate.play_tricks).

random     uniform over the legal choices: on an auction turn first the number of
           cards (pass = 0 .. lay limit, uniformly), then a uniform set of that
           many hand cards; trumps uniform over the nameable types (the chief's
           `none` included); partner uniform; cards uniform over the legal ones.
heuristic  a sensible club player, using only its own hand and public
           information (laid cards, played cards, the current trick):
  * hand value: for each trump type t it could name, the expected team points
    of the fitted hand model (hand_model.py, table in hand_table.py); the bid it
    can afford is the highest level whose target that estimate reaches (no
    safety margin: docs/performance.md for what a margin of 3 points changes);
  * auction (the `cautious` model): if it can afford more than the highest other bid, it lays exactly
    enough to stand alone on top (never ties, so never provokes an eklat); if it
    is already on top it passes; a player with nothing laid who cannot outbid
    but can afford level 1 lays one card "underground" to show its best type to
    the future chief; laid cards show the best type (lowest cards of it first);
  * trumps: vice and chief each name the nameable type of highest estimate
    (the heuristic never names `none`);
  * partner: the non-vice player whose laid cards show most of the chief trump
    (4 points a card) plus 1 per laid card; ties go to the first seat left of
    the chief;
  * play: lead a card that surely wins its class (no unseen card beats it),
    trumps first on the chief's team, the richest otherwise; with no such card
    lead the cheapest card of the longest side colour.  Following: when a
    teammate is winning, add the most points; when the other side is winning,
    win with the cheapest card that surely holds the trick if it carries any
    points, or with the cheapest winner if the trick holds 2+ points or this is
    the last card; otherwise throw the lowest-point, lowest card.
dd         (card play only) the double-dummy solver: see ddplay.py; the deal
           kernel dispatches it, the heuristic makes the other decisions.
search     (card play only) flat Monte Carlo search over the deals of the cards the seat
           cannot see, each card's worlds played out by the heuristic: see search_player.py; the
           deal kernel dispatches it, the heuristic makes the other decisions.
bold       (auction only; trumps and partner as the heuristic) bids to its hand's strength
           and takes the risks people take:
  * plan: the level the hand model's estimate reaches with BOLD_OPTIMISM points added
    (the cautious bidder adds none);
  * threat: with 4+ players the vice names its trump first and the chief may not name
    it, so when a player who would be its vice (another with the most laid cards) has
    laid a card of its best type, it bids one level more (THREAT_RAISE);
  * auction turn, with `goal` its plan (plus the threat's raise): below or level with the
    top and goal above it, it lays enough to stand alone on top (as the cautious bidder);
    alone on top, it raises one card a turn while its count is below goal (bidding high
    when strong, where the cautious bidder stops one above the others); below the top,
    goal at least 1 and within TIE_SLACK of it (it cannot outbid), one time in TIE_ODDS (a
    draw of the deal's stream) it lays enough to match the top: a tie that ends in an eklat
    unless someone raises; otherwise the underground card as the cautious bidder; laid
    cards show the best type as the cautious bidder's do.

learned    (auction only; trumps and partner as the heuristic) lays the number of cards a value model
           fitted by self-play rates best (learned/: docs/players.md).

AUCTIONS maps the names of the auction models (`--auction`) to their codes.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest, popcount
from musim.core.cards import CARD_POINTS, N_COLOURS, NUMBER_MASK, TYPE_MASK
from musim.core.rng import randint, random_bit
from musim.games.mu.hand_model import expected_points
from musim.games.mu.rules import (
    TRUMP,
    achieved_rank,
    beats,
    lay_limit,
    nameable_types,
    top_card,
    top_other,
)

RANDOM = 0
HEURISTIC = 1
DD = 2  # card play by the double-dummy solver (games/mu/ddplay.py); decided in the deal kernel
BOLD = 3  # the bold auction (module doc); trumps and partner as the heuristic
COMMITTED = 4  # an auction seat committed to bid plan_bid showing plan_type: `musim bid`'s holder
SEARCH = 5  # card play, the chief's trump and partner by the search player (games/mu/search_player.py)
LEARNED = 6  # the learned auction (games/mu/learned/); trumps and partner as the heuristic
SEARCH_UNIFORM = 7  # card play by the first search player (search_player.py: no exact endgame, no set-up)
AUCTIONS = {"cautious": HEURISTIC, "bold": BOLD, "learned": LEARNED}  # --auction name -> auction code
BOLD_OPTIMISM = 2.0  # team points the bold bidder adds to its estimate
THREAT_RAISE = 1  # levels the bold bidder adds while a would-be vice shows its best type
TIE_SLACK = 0  # the bold bidder matches a top count up to this many levels above its goal
TIE_ODDS = 3  # ... one time in TIE_ODDS (a draw of the deal's stream)
# --play name -> (auction/trump/partner code, card-play code) of a seat
NAMES = {
    "random": (RANDOM, RANDOM),
    "heuristic": (HEURISTIC, HEURISTIC),
    "dd": (HEURISTIC, DD),
    "search": (HEURISTIC, SEARCH),
    "search-uniform": (HEURISTIC, SEARCH_UNIFORM),
}


@flat_kernel(inline="always")
def seat_code(policy, seat):
    """The code `seat` decides by: `policy` holds one a seat (a row of simulate.run_policy), so
    that runs and the analyses share one compiled kernel of each caller."""
    return policy[seat]


@flat_kernel(inline="always")
def searching(code):
    """Does a seat of this card-play code play its cards by search (either search player)?"""
    return code == SEARCH or code == SEARCH_UNIFORM


@flat_kernel(inline="always")
def every_seat(policy, n, code):
    """Does each of the n seats decide by `code`?"""
    for s in range(n):
        if policy[s] != code:
            return False
    return True


@flat_kernel
def hand_estimates(hand, n, est):
    """Fill est[t] with the hand model's expected team points of naming each trump type t."""
    for t in range(15):
        est[t] = expected_points(hand, t, n)


@flat_kernel
def best_type(hand, allowed, n, est):
    """(type, estimate) of the best of the allowed types (bit t of `allowed`), or (-1, 0)."""
    hand_estimates(hand, n, est)
    best, best_est = -1, -1.0
    for t in range(15):
        if allowed >> t & 1 and est[t] > best_est:
            best, best_est = t, est[t]
    return best, best_est


@flat_kernel
def plan_auction(policy, n, held, plan_type, plan_bid, est, targets):
    """Before the auction: each planning player's best type and the bid it can afford under the
    run's target table `targets` ([n, bid]); `policy`: the auction code of each seat (the
    cautious, bold and learned auctions plan, the bold one with BOLD_OPTIMISM points more; the
    learned one lays cards of its best type and reads its estimates: learned/bidder.py)."""
    for s in range(n):
        code = seat_code(policy, s)
        if code != HEURISTIC and code != BOLD and code != LEARNED:
            continue
        optimism = BOLD_OPTIMISM if code == BOLD else 0.0
        t, e = best_type(held[s], nameable_types(held[s], -1), n, est)
        plan_type[s] = t
        plan_bid[s] = achieved_rank(n, int(e + optimism), targets)


@flat_kernel
def show_cards(avail, t, k):
    """k cards of `avail` to lay that show type t: its lowest cards first, then the lowest others."""
    chosen = np.uint64(0)
    for pool in (avail & TYPE_MASK[t], avail & ~TYPE_MASK[t]):
        d = 0
        while k > 0 and pool and d < 10:
            m = pool & NUMBER_MASK[d]
            while m and k > 0:
                chosen |= bit(lowest(m))
                m = drop_lowest(m)
                k -= 1
            d += 1
    return chosen


@flat_kernel(inline="always")
def random_subset(state, avail, k):
    """A uniformly chosen k-card subset of `avail`."""
    chosen = np.uint64(0)
    for _ in range(k):
        c = random_bit(state, avail)
        chosen |= bit(c)
        avail ^= bit(c)
    return chosen


@flat_kernel(inline="always")
def threatened(n, seat, laid, counts, top, t):
    """Has a player who would be `seat`'s vice (another with the top count of the others,
    4+ players) laid a card of type t?"""
    if n < 4 or top == 0:
        return False
    for s in range(n):
        if s != seat and counts[s] == top and laid[s] & TYPE_MASK[t]:
            return True
    return False


@flat_kernel(inline="always")
def lay_plan(n, seat, laid, counts, top, t, plan, bold):
    """(k, tie): how many cards the cautious (bold False) or bold bidder lays (module doc), and
    the count it lays instead when its tie draw comes up (one time in TIE_ODDS; -1: no draw):
    `top` the top count of the others, t its best type, `plan` the level it affords.  The rule
    alone, so that weighted worlds (world_weights.py) ask it what a hand would have laid."""
    own = counts[seat]
    goal = plan + (THREAT_RAISE if bold and threatened(n, seat, laid, counts, top, t) else 0)
    if own > top:
        return (1 if bold and own < goal else 0), -1
    if goal > top:
        return top + 1 - own, -1
    tie = top - own if bold and own < top and goal >= 1 and goal + TIE_SLACK >= top else -1
    return (1 if own == 0 and top >= 2 and goal >= 1 else 0), tie


@flat_kernel
def planned_lay(n, seat, avail, laid, counts, top, t, plan, bold, state):
    """The cautious or bold bidder's lay (lay_plan, its tie drawn from the deal's stream) from its
    available cards; the caller has checked that the lay limit allows a card."""
    k, tie = lay_plan(n, seat, laid, counts, top, t, plan, bold)
    if tie >= 0 and randint(state, TIE_ODDS) == 0:
        k = tie
    return show_cards(avail, t, k)


@flat_kernel(inline="always")
def choose_lay(policy, n, seat, held, laid, counts, plan_type, plan_bid, state):
    """Cards `seat` lays on its auction turn (0 = pass)."""
    avail = held[seat] & ~laid[seat]
    top = top_other(counts, n, seat)
    limit = lay_limit(counts[seat], top, popcount(avail))
    if limit <= 0:
        return np.uint64(0)
    if policy == RANDOM:
        return random_subset(state, avail, randint(state, limit + 1))
    if policy == COMMITTED:
        return committed_lay(avail, counts[seat], top, plan_type[seat], plan_bid[seat], limit)
    return planned_lay(n, seat, avail, laid, counts, top, plan_type[seat], plan_bid[seat], policy == BOLD, state)


@flat_kernel(inline="always")
def committed_lay(avail, own, top, shown, goal, limit):
    """The lay of a seat committed to bid `goal`: while nobody else has laid `goal` cards or more,
    as many as the rules allow towards `goal` (its lowest cards of type `shown` first); else
    none (it never ties, nor bids above `goal`)."""
    if own >= goal or top >= goal:
        return np.uint64(0)
    return show_cards(avail, shown, min(goal - own, limit))


@flat_kernel
def choose_trump(policy, n, hand, laid, exclude, may_pass, est, state):
    """Trump type named by a player with these laid cards; -1 = `none` (only if may_pass)."""
    allowed = nameable_types(laid, exclude)
    if policy == RANDOM:
        options = popcount(np.uint64(allowed)) + (1 if may_pass else 0)
        pick = randint(state, options)
        for t in range(15):
            if allowed >> t & 1:
                if pick == 0:
                    return t
                pick -= 1
        return -1
    return best_type(hand, allowed, n, est)[0]


@flat_kernel
def choose_partner(policy, n, chief, vice, laid, chief_trump, state):
    """The partner the chief names (4+ players)."""
    if policy == RANDOM:
        pick = randint(state, n - 1 - (1 if vice >= 0 else 0))
        for s in range(n):
            if s != chief and s != vice:
                if pick == 0:
                    return s
                pick -= 1
    best, best_score = -1, -1
    for k in range(1, n):
        s = (chief + k) % n
        if s == vice:
            continue
        score = popcount(laid[s])
        if chief_trump >= 0:
            score += 4 * popcount(laid[s] & TYPE_MASK[chief_trump])
        if score > best_score:
            best, best_score = s, score
    return best


@flat_kernel(inline="always")
def cheapest(mask, power):
    """A card of minimal power, ties broken by most points."""
    best = lowest(mask)
    m = drop_lowest(mask)
    while m:
        c = lowest(m)
        if power[c] < power[best] or (power[c] == power[best] and CARD_POINTS[c] > CARD_POINTS[best]):
            best = c
        m = drop_lowest(m)
    return best


@flat_kernel(inline="always")
def by_points(mask, power, most):
    """The card with the most (or fewest) points, ties broken by lowest power."""
    best = lowest(mask)
    m = drop_lowest(mask)
    while m:
        c = lowest(m)
        pc, pb = CARD_POINTS[c], CARD_POINTS[best]
        if (pc > pb if most else pc < pb) or (pc == pb and power[c] < power[best]):
            best = c
        m = drop_lowest(m)
    return best


@flat_kernel(inline="always")
def top_power(mask, power, tier_mask):
    """Highest power among the cards of a mask of trumps and one side colour (-1 if empty)."""
    return power[top_card(mask, tier_mask)] if mask else -1


@flat_kernel(inline="always")
def heuristic_lead(hand, unseen, on_chief_team, power, class_mask, tier_mask):
    """Lead a sure winner if there is one, else the cheapest card of the longest side colour."""
    best, best_key = -1, -1
    for k in range(6):
        mine = hand & class_mask[k]
        if not mine:
            continue
        top = top_card(mine, tier_mask)
        if top_power(unseen & class_mask[k], power, tier_mask) <= power[top]:
            key = CARD_POINTS[top] + (10 if (k == TRUMP and on_chief_team) else 0)
            if key > best_key:
                best, best_key = top, key
    if best >= 0:
        return best
    longest, length = TRUMP, -1
    for k in range(N_COLOURS):
        cnt = popcount(hand & class_mask[k])
        if cnt > length and cnt > 0:
            longest, length = k, cnt
    return by_points(hand & class_mask[longest], power, False)


@flat_kernel(inline="always")
def heuristic_follow(legal, trick, count, last, winner_pos, mate_winning, unseen, klass, power, class_mask, tier_mask):
    """Card to play to a trick in progress (see module doc)."""
    if mate_winning:
        return by_points(legal, power, True)
    led_class = klass[trick[0]]
    wcard = trick[winner_pos]
    threat = top_power(unseen & (class_mask[TRUMP] | class_mask[led_class]), power, tier_mask)
    winners = np.uint64(0)
    sure = np.uint64(0)
    m = legal
    while m:
        c = lowest(m)
        m = drop_lowest(m)
        if beats(c, wcard, klass, power):
            winners |= bit(c)
            if power[c] >= threat:
                sure |= bit(c)
    if winners:
        pts = 0
        for j in range(count):
            pts += CARD_POINTS[trick[j]]
        if sure:
            c = cheapest(sure, power)
            if pts + CARD_POINTS[c] > 0:
                return c
        if pts >= 2 or last:
            c = cheapest(winners, power)
            if pts + CARD_POINTS[c] > 0:
                return c
    return by_points(legal, power, False)


@flat_kernel(inline="always")
def choose_card(
    policy,
    legal,
    hand,
    unseen,
    trick,
    count,
    last,
    winner_pos,
    mate_winning,
    on_chief_team,
    klass,
    power,
    class_mask,
    tier_mask,
    state,
):
    """The card to play from `legal`; `unseen` = all cards neither played nor in `hand`."""
    if policy == RANDOM:
        return random_bit(state, legal)
    if count == 0:
        return heuristic_lead(hand, unseen, on_chief_team, power, class_mask, tier_mask)
    return heuristic_follow(
        legal, trick, count, last, winner_pos, mate_winning, unseen, klass, power, class_mask, tier_mask
    )
