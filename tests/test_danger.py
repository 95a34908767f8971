"""Danger (docs/rules.md §9): the rules one by one on stacked stocks, the worked example of docs/rules.md,
the kernels against a plain-Python reference on random states, invariants of simulated games,
records and their replay, illegal records, the deck's options, and the heuristic against random."""

import json
import random
from functools import partial
from pathlib import Path

import numpy as np
import pytest
import reference_danger as ref
from cli_runs import cli_record, cli_replay, cli_run
from click.testing import CliRunner
from illegal_records import replay_error

from musim.cli import cli
from musim.core.deck import DANGER, danger_deck
from musim.games.danger import policies, rules
from musim.games.danger.record import record, replay
from musim.games.danger.rules import (
    BLOCKED,
    CARD,
    OFFER,
    OPEN,
    OVER,
    PHASE,
    PILE_END,
    ROUND,
    ROW,
    SEAT,
    SECURE,
    SECURED,
    TAKE,
    card_table,
    new_table,
)
from musim.games.danger.simulate import simulate_deals
from musim.io.batch import InputError
from musim.play.duplicate import duplicate_advantage

PLAYERS = (3, 4, 5)
POLICIES = ("random", "heuristic")
R, Y, G, B = range(4)


def stacked(*top, deck=DANGER):
    """Card indices of the whole deck: the cards `top` first (a repeat takes the next copy), then the rest."""
    head, used = [], 0
    for text in top:
        c = deck.index(text, deck.full & ~used)
        used |= 1 << c
        head.append(c)
    return head + [c for c in range(deck.n_cards) if not used >> c & 1]


def table(*top, n=3, starter=0, rounds=5, deck=DANGER):
    t = new_table()
    rules.reset(t, n, starter, rounds, card_table(deck), np.array(stacked(*top, deck=deck), np.int64))
    return t


def draw(t, times=1, secure=-1):
    """The seats to move take the stock's top card `times` times, declining to secure."""
    for _ in range(times):
        assert t.g[PHASE] == TAKE
        rules.take(t, False)
        if t.g[PHASE] == SECURE:
            rules.secure(t, secure)


# ---------------------------------------------------------------- the deck


def test_the_deck_is_108_single_colour_and_18_two_colour_cards_in_two_words():
    assert DANGER.n_cards == 126 and DANGER.words == 2
    assert DANGER.format(DANGER.kind_mask("R5")) == ["R5"] * 3
    assert DANGER.format(DANGER.colour_mask("GB")) == ["GB1", "GB2", "GB3"]
    kind = card_table(DANGER)
    assert kind[DANGER.index("YB2", DANGER.full)].tolist() == [Y, B, 2]
    assert kind[DANGER.index("G9", DANGER.full)].tolist() == [G, -1, 9]
    assert danger_deck(1, 0).n_cards == 36 and danger_deck(2, 1).n_cards == 78 and danger_deck(1, 0).words == 1


# ---------------------------------------------------------------- the rules, one by one


def test_a_card_goes_to_the_row_of_its_colour():
    t = table("R5", "Y3", "G9", "R4")
    draw(t, 4)
    assert t.total[0, R] == 9 and t.total[1, Y] == 3 and t.total[2, G] == 9
    assert t.total[:3].sum() == 21 and t.g[SEAT] == 1


def test_a_row_above_15_is_blocked_worth_0_and_its_cards_are_discarded_then():
    t = table("R9", "Y1", "G1", "R7", "Y2", "G2", "R1")
    draw(t, 4)  # seat 0: R9 then R7 = 16
    assert t.state[0, R] == BLOCKED and rules.counted(t, 0, R) == 0
    draw(t, 2)
    assert t.g[SEAT] == 0 and t.g[PILE_END] == 0
    rules.take(t, False)  # R1: its row is blocked, discarded
    assert t.g[PILE_END] == 1 and t.total[0, R] == 16 and t.g[SEAT] == 1 and t.g[OFFER] == t.pile[0]


def test_a_row_of_exactly_15_is_not_blocked():
    t = table("R9", "Y1", "G1", "R6")
    draw(t, 4)
    assert t.total[0, R] == 15 and t.state[0, R] == OPEN


def test_a_two_colour_card_goes_in_either_open_row_the_players_choice():
    t = table("RY2")
    rules.take(t, False)
    assert t.g[PHASE] == ROW and rules.open_rows(t, 0, t.g[CARD]) == (1 << R) | (1 << Y)
    rules.place(t, Y)
    assert t.total[0, Y] == 2 and t.total[0, R] == 0


def test_a_two_colour_card_with_one_row_closed_goes_in_the_other_and_with_both_closed_is_discarded():
    t = table("RY1")
    t.state[0, R] = SECURED
    rules.take(t, False)
    assert t.total[0, Y] == 1 and t.g[PHASE] == TAKE
    t = table("RY1")
    t.state[0, R], t.state[0, Y] = SECURED, BLOCKED
    rules.take(t, False)
    assert t.g[PILE_END] == 1 and t.g[SEAT] == 1 and t.g[OFFER] == t.pile[0]


def test_the_next_player_may_take_the_discard_instead_of_the_stock():
    t = table("R1", "G2")
    t.state[0, R] = SECURED
    rules.take(t, False)  # seat 0 discards R1
    assert rules.can_take_offer(t)
    rules.take(t, True)
    assert t.total[1, R] == 1 and t.g[PILE_END] == 0 and t.counts[1, rules.TAKEN] == 1
    assert not rules.can_take_offer(t)  # seat 2: nothing was discarded by seat 1


def test_a_discard_the_taker_cannot_place_is_discarded_again_and_offered_on():
    t = table("R1", "G2")
    t.state[0, R], t.state[1, R] = SECURED, BLOCKED
    rules.take(t, False)  # seat 0 discards R1
    r1 = t.g[OFFER]
    assert rules.can_take_offer(t)  # RULES §9: no exception for a card seat 1 cannot place
    rules.take(t, True)
    assert t.g[SEAT] == 2 and t.g[OFFER] == r1 and t.g[PILE_END] == 1 and t.pile[0] == r1
    assert t.counts[1, rules.TAKEN] == 1 and t.counts[1, rules.DISCARDS] == 1 and t.total[1, R] == 0
    rules.take(t, True)  # seat 2 places it
    assert t.total[2, R] == 1 and t.g[PILE_END] == 0


def test_the_discard_is_offered_to_the_next_player_only():
    t = table("R1", "G2", "B3")
    t.state[0, R] = SECURED
    draw(t, 2)  # seat 0 discards R1, seat 1 draws G2 instead
    assert t.g[OFFER] < 0 and t.g[PILE_END] == 1


def test_securing_from_the_second_card_in_a_row_without_the_lowest_total():
    t = table("R5", "Y1", "G1", "Y4")
    rules.take(t, False)  # seat 0: R5, its first card: no securing yet
    assert t.g[PHASE] == TAKE and t.g[SEAT] == 1
    draw(t, 2)  # seat 1 Y1, seat 2 G1
    rules.take(t, False)  # seat 0: Y4, its second card
    assert t.g[PHASE] == SECURE and t.g[SEAT] == 0
    assert rules.securable(t) == (1 << R) | (1 << Y)  # R5 > 0 and Y4 > min(4, 1, 0); G and B: 0, lowest
    rules.secure(t, R)
    assert t.state[0, R] == SECURED and t.g[SEAT] == 1


def test_a_shared_lowest_total_may_not_be_secured():
    t = table("R5", "R5", "R5", "Y1", "Y1", "Y1")
    draw(t, 5)
    assert t.g[SEAT] == 2 and t.g[PHASE] == TAKE
    rules.take(t, False)  # seat 2's second card: every seat has R5 and Y1, all lowest
    assert t.g[PHASE] == TAKE and t.g[SEAT] == 0


def test_a_blocked_row_counts_0_when_comparing_totals_for_securing():
    t = table("R9", "R1", "G1", "R8", "Y1", "R1")
    draw(t, 5)  # seat 0: R9 + R8 = 17, blocked; seat 1: R1, Y1; seat 2: G1
    rules.take(t, False)  # seat 2: R1, its second card: red counts 0 / 1 / 1, so 1 is not the lowest
    assert t.g[PHASE] == SECURE and rules.securable(t) >> R & 1


def test_the_fourth_row_secured_or_blocked_ends_the_round_at_once():
    t = table("R5", "Y1", "G1", "R9", "Y1", "G2", "R1")
    t.state[0, Y], t.state[0, G], t.state[0, B] = SECURED, SECURED, BLOCKED
    t.closed[0] = 3
    draw(t, 3)
    rules.take(t, False)  # seat 0: R5 + R9 = 14, may secure R (the fourth row)
    assert t.g[PHASE] == SECURE
    rules.secure(t, R)
    assert t.g[ROUND] == 1 and t.ends[rules.FOURTH] == 1 and t.g[SEAT] == 1  # round 2 starts one seat further left
    assert (t.total == 0).all() and (t.state == OPEN).all()


def test_blocking_the_fourth_row_ends_the_round_at_once_without_securing():
    t = table("R9", "Y1", "G1", "R8")
    t.state[0, Y], t.state[0, G], t.state[0, B] = SECURED, SECURED, SECURED
    t.closed[0] = 3
    draw(t, 3)
    rules.take(t, False)  # seat 0: R9 + R8 = 17, its fourth row blocked
    assert t.g[ROUND] == 1 and t.ends[rules.FOURTH] == 1 and t.g[PHASE] == TAKE and t.g[SEAT] == 1
    assert t.counts[0, rules.BLOCKED_ROWS + R] == 1


def test_the_worked_example_of_docs_rules_md():
    """Round scoring (docs/rules.md §9.3): red 12 / 7 / 7, yellow blocked (19) / 6 / 0, green 10 / 10 / 3,
    blue 4 / 4 / 4: seat 0 scores 12 + 10 = 22, seat 1 6 + 10 = 16, seat 2 nothing."""
    t = table()
    totals = {R: (12, 7, 7), Y: (19, 6, 0), G: (10, 10, 3), B: (4, 4, 4)}
    for c, row in totals.items():
        for s, v in enumerate(row):
            t.total[s, c] = v
    t.state[0, Y] = BLOCKED
    rules.end_round(t, rules.FOURTH)
    assert t.scores[:3].tolist() == [22, 16, 0]
    assert t.counts[:3, rules.LOWEST].tolist() == [1, 2, 3]  # seat 2's empty yellow row is not counted


def test_the_stock_running_out_reshuffles_the_discards():
    deck = danger_deck(1, 0)
    t = table(n=3, deck=deck)
    t.g[rules.TOP] = t.g[rules.STOCK_END] - 1  # one card left
    for k in range(3):
        t.pile[k] = k
        t.where[k] = rules.IN_PILE
    t.g[PILE_END] = 3
    draw(t)
    assert rules.stock_empty(t)
    rules.refill(t)
    assert t.g[rules.STOCK_END] == 3 and t.g[PILE_END] == 0 and t.g[rules.RESHUFFLES] == 1


def test_a_round_without_a_card_to_take_ends_exhausted():
    t = table(n=3, rounds=2)
    t.g[rules.TOP] = t.g[rules.STOCK_END]
    rules.next_turn(t)
    assert t.g[PHASE] == OVER and t.ends[rules.EXHAUSTED] == 2


def test_five_rounds_a_game_each_starting_one_seat_further_left():
    for n in PLAYERS:
        out = simulate_deals(n, 11, "heuristic", 0, 50)
        assert (out["ends"].sum(axis=1) == 5).all()
    t = table(n=4, starter=2, rounds=2)
    rules.end_round(t, rules.FOURTH)
    assert t.g[SEAT] == 3 and t.g[PHASE] == TAKE
    rules.end_round(t, rules.FOURTH)
    assert t.g[PHASE] == OVER


# ---------------------------------------------------------------- the heuristic's choices


def test_the_heuristic_takes_a_discard_that_fits_and_puts_a_two_colour_card_where_it_does_most_good():
    state = np.zeros(1, np.uint64)
    t = table("R5")
    t.g[OFFER], t.total[0, R] = DANGER.index("R5", DANGER.full), 10
    assert policies.choose_take(policies.HEURISTIC, t, state)  # 10 + 5 = 15 does not block
    t.total[0, R] = 11
    assert not policies.choose_take(policies.HEURISTIC, t, state)
    t = table("RY2")
    t.total[0, R], t.total[0, Y] = 10, 3
    rules.take(t, False)
    assert policies.choose_row(policies.HEURISTIC, t, state) == R  # 12 beats 5
    t.total[0, R] = 14
    assert policies.choose_row(policies.HEURISTIC, t, state) == Y  # R would block


def test_the_heuristic_secures_where_it_is_highest_or_at_13_and_more():
    state = np.zeros(1, np.uint64)
    t = table()
    t.placed[0] = 2
    t.total[0, R], t.total[1, R] = 6, 9  # not highest, not 13: kept open
    t.total[0, Y], t.total[1, Y] = 13, 14  # 13: secured despite seat 1's 14
    t.total[0, G], t.total[2, G] = 8, 8  # shares the highest
    assert rules.securable(t) == (1 << R) | (1 << Y) | (1 << G)
    assert policies.choose_secure(policies.HEURISTIC, t, state) == Y
    t.total[0, Y] = 12
    assert policies.choose_secure(policies.HEURISTIC, t, state) == G
    t.total[0, G] = 7
    assert policies.choose_secure(policies.HEURISTIC, t, state) == -1


def _choices(choose, t, times=4000):
    """How often the heuristic's `choose`(t) picks each colour over `times` draws of one stream."""
    state, counts = np.zeros(1, np.uint64), [0] * 4
    for _ in range(times):
        counts[choose(policies.HEURISTIC, t, state)] += 1
    return counts


def _even(counts, ways):
    """Each of `ways` colours within 5 standard deviations of an even share, the others never."""
    n = sum(counts)
    sd = (n * (1 / ways) * (1 - 1 / ways)) ** 0.5
    return all(abs(k - n / ways) < 5 * sd for k in counts[:ways]) and not any(counts[ways:])


def test_the_heuristic_breaks_ties_between_colours_evenly():
    t = table()
    t.placed[0] = 2
    for c in range(4):  # seat 0 highest in every colour, alike in all
        t.total[0, c], t.total[1, c], t.total[2, c] = 9, 4, 6
    assert _even(_choices(policies.choose_secure, t), 4)
    t = table("RY2")
    t.total[0, R] = t.total[0, Y] = 5
    rules.take(t, False)
    assert t.g[PHASE] == ROW and _even(_choices(policies.choose_row, t), 2)


def test_heuristic_games_secure_each_colour_alike():
    """The rules favour no colour and the deck holds each alike: rows secured per colour agree."""
    out = simulate_deals(4, 2026, "heuristic", 0, 2000)
    secured = out["parts"][:, :, rules.SECURED_ROWS : rules.SECURED_ROWS + 4].sum(axis=1)
    for a in range(4):
        for b in range(a + 1, 4):
            diff = secured[:, a] - secured[:, b]  # paired: the same games
            assert abs(diff.mean()) < 4 * diff.std() / len(diff) ** 0.5, (a, b, secured.mean(axis=0))


# ---------------------------------------------------------------- the kernels against the reference


def _same(t, s):
    if s.phase == "over":
        assert t.g[PHASE] == OVER
        assert t.scores[: s.n].tolist() == s.scores
        return
    assert t.g[PHASE] == {"take": TAKE, "row": ROW, "secure": SECURE}[s.phase]
    assert (t.g[SEAT], t.g[ROUND], t.g[OFFER], t.g[CARD]) == (s.seat, s.round, s.offer, s.hand)
    assert t.scores[: s.n].tolist() == s.scores
    assert t.stock[t.g[rules.TOP] : t.g[rules.STOCK_END]].tolist() == s.stock
    assert t.pile[: t.g[PILE_END]].tolist() == s.pile
    for seat in range(s.n):
        for c, letter in enumerate(ref.ROWS):
            assert t.total[seat, c] == s.total(seat, letter)
            assert (
                t.state[seat, c] == {None: OPEN, "secured": SECURED, "blocked": BLOCKED}[s.closed.get((seat, letter))]
            )
    assert [rules.ENDS[k] for k in range(3) for _ in range(t.ends[k])] == sorted(s.ends, key=rules.ENDS.index)


def test_the_kernels_against_the_plain_python_reference_on_random_states():
    rng = random.Random(41)
    states = 0
    for _ in range(120):
        deck = danger_deck(rng.randint(1, 3), rng.randint(0, 3))
        n = rng.choice(PLAYERS)
        order = list(range(deck.n_cards))
        rng.shuffle(order)
        starter, rounds = rng.randrange(n), rng.randint(1, 3)
        t = new_table()
        rules.reset(t, n, starter, rounds, card_table(deck), np.array(order, np.int64))
        s = ref.State(n, starter, rounds, list(order), {i: deck.text(i) for i in range(deck.n_cards)})
        _same(t, s)
        while s.phase != "over":
            if s.phase == "take":
                assert bool(rules.can_take_offer(t)) == s.may_take_offer()
                offer = s.may_take_offer() and rng.random() < 0.5
                if not offer and not s.stock:
                    new = list(s.pile)
                    rng.shuffle(new)
                    rules.refill(t)
                    t.stock[: len(new)] = new
                    s.refill(new)
                rules.take(t, offer)
                s.take(offer)
            elif s.phase == "row":
                rows = s.open_rows(s.seat, s.hand)
                assert rules.open_rows(t, s.seat, s.hand) == sum(1 << ref.ROWS.index(c) for c in rows)
                c = rng.choice(rows)
                rules.place(t, ref.ROWS.index(c))
                s.place(c)
            else:
                rows = s.may_secure()
                assert rules.securable(t) == sum(1 << ref.ROWS.index(c) for c in rows)
                c = rng.choice([None, *rows])
                rules.secure(t, -1 if c is None else ref.ROWS.index(c))
                s.secure(c)
            _same(t, s)
            states += 1
    assert states > 5000


# ---------------------------------------------------------------- simulated games


@pytest.mark.parametrize("players", PLAYERS)
def test_cards_are_conserved_and_every_turn_replays_legal(players):
    for options in ({}, {"copies": 1, "multicolour": 0}, {"copies": 2, "multicolour": 2, "rounds": 3}):
        deck = danger_deck(options.get("copies", 3), options.get("multicolour", 3))
        out = simulate_deals(players, 5, "random", 0, 100, **options)
        assert (np.sort(out["deck"], axis=1) == np.arange(deck.n_cards)).all()
        for policy in POLICIES:
            for index in range(0, 100, 10):
                rec = record(players, 5, policy, index, **options)
                result = replay(json.loads(json.dumps(rec)))
                row = simulate_deals(players, 5, policy, index, 1, **options)
                assert result["scores"] == row["scores"][0].tolist()
                assert [sum(r[s] for r in result["rounds"]) for s in range(players)] == result["scores"]
                assert result["turns"] == row["turns"][0] == row["parts"][0, :, rules.TURNS_OF].sum()
                secured = row["parts"][0, :, rules.SECURED_ROWS : rules.SECURED_ROWS + 4].tolist()
                assert result["secured"] == secured and result["reshuffles"] == row["reshuffles"][0]


def test_cards_are_conserved_at_every_step():
    """Stock, pile, the card in hand and the rows hold every card once, and the totals are the rows' values."""
    rng = random.Random(3)
    deck = DANGER
    kind = card_table(deck)
    order = list(range(deck.n_cards))
    rng.shuffle(order)
    t = new_table()
    rules.reset(t, 4, 0, 5, kind, np.array(order, np.int64))
    while t.g[PHASE] != OVER:
        where = t.where[: deck.n_cards]
        stock = set(t.stock[t.g[rules.TOP] : t.g[rules.STOCK_END]].tolist())
        pile = set(t.pile[: t.g[PILE_END]].tolist())
        assert stock == set(np.flatnonzero(where == rules.IN_STOCK).tolist())
        assert pile == set(np.flatnonzero(where == rules.IN_PILE).tolist())
        assert len(stock) + len(pile) + (where >= 0).sum() + (where == rules.IN_HAND).sum() == deck.n_cards
        for s in range(4):
            for c in range(4):
                assert t.total[s, c] == kind[np.flatnonzero(where == s * 4 + c), 2].sum()
        if t.g[PHASE] == TAKE:
            offer = rules.can_take_offer(t) and rng.random() < 0.5
            if not offer and rules.stock_empty(t):
                rules.refill(t)
            rules.take(t, offer)
        elif t.g[PHASE] == ROW:
            rules.place(t, rng.choice([c for c in range(4) if rules.open_rows(t, t.g[SEAT], t.g[CARD]) >> c & 1]))
        else:
            rules.secure(t, rng.choice([-1] + [c for c in range(4) if rules.securable(t) >> c & 1]))


# ---------------------------------------------------------------- records


def test_a_record_may_take_a_discard_the_seat_cannot_place():
    """Stacked: every seat blocks red (R9, R8), seat 0 draws R1 and discards it, seats 1 and 2 take
    it in turn and discard it again (RULES §9); the replay accepts all nine turns."""
    stock = ["R9"] * 3 + ["R8"] * 3 + ["R1"]
    rest = DANGER.format(DANGER.full)
    for c in stock:
        rest.remove(c)
    turns = [{"take": "stock"}] * 7 + [{"take": "discard"}] * 2
    rec = {"game": "danger", "players": 3, "dealer": 2, "stock": stock + rest, "turns": turns}
    with pytest.raises(InputError, match=r"9 turns, but the game goes on: seat 0 takes turn 9"):
        replay(rec)


_bad = partial(replay_error, replay)  # the error replaying a changed copy of a record: _bad(rec, change)


def test_illegal_records_name_the_first_illegal_step():
    rec = record(4, 2, "heuristic", 3)
    assert rec["reshuffles"], "pick a game whose stock runs out"
    turns = rec["turns"]
    message = _bad(rec, lambda r: r["turns"][0].update(take="discard"))
    starter = (rec["dealer"] + 1) % 4
    assert (
        message == f"turn 0 (seat {starter}, round 0): take: no discard on offer (the previous seat discarded nothing)"
    )
    assert "ends after" in _bad(rec, lambda r: r["turns"].append({"take": "stock"}))
    assert "but the game goes on" in _bad(rec, lambda r: r["turns"].pop())
    secure = next(i for i, t in enumerate(turns) if "secure" in t)
    assert _bad(rec, lambda r: r["turns"][secure].update(secure="X")).startswith(f"turn {secure} (seat ")
    row = next(i for i, t in enumerate(turns) if "row" in t)
    assert "may go in either of its rows" in _bad(rec, lambda r: r["turns"][row].pop("row"))
    early = _bad(rec, lambda r: r["turns"][0].update(secure="R"))
    assert early.startswith("turn 0 (seat ") and "no row may be secured now" in early
    assert "appears more often than available" in _bad(rec, lambda r: r["stock"].__setitem__(0, r["stock"][1]))
    assert _bad(rec, lambda r: r["stock"].pop()).startswith("stock: not the cards expected (missing ")
    assert _bad(rec, lambda r: r["reshuffles"][0].pop()).startswith("reshuffles[0]: not the cards expected")
    assert _bad(rec, lambda r: r["reshuffles"].append(["R1"])).startswith("reshuffles: ")
    assert _bad(rec, lambda r: r.update(game="mu")).startswith("game:")
    assert _bad(rec, lambda r: r.update(players=6)).startswith("players:")
    assert _bad(rec, lambda r: r.update(copies=4)).startswith("copies:")
    assert _bad(rec, lambda r: r["turns"].__setitem__(2, {"take": "both"})).startswith("turn 2 (seat ")


def stacked_record(top, turns):
    """A 3-player record (seat 0 starts) of a stock whose top cards are `top`."""
    return {
        "game": "danger",
        "players": 3,
        "dealer": 2,
        "stock": [DANGER.text(c) for c in stacked(*top)],
        "turns": turns,
    }


def test_securing_a_row_with_the_lowest_total_is_named():
    rec = stacked_record(["R5", "Y1", "G1", "Y4"], [{"take": "stock"}] * 3 + [{"take": "stock", "secure": "G"}])
    with pytest.raises(InputError, match=r"turn 3 \(seat 0, round 0\): secure: G may not be secured \(legal: R Y\)"):
        replay(rec)


def test_a_row_the_card_may_not_go_in_is_named():
    rec = stacked_record(["RY2"], [{"take": "stock", "row": "G"}])
    with pytest.raises(InputError, match=r"turn 0 \(seat 0, round 0\): row: G is not a row of the card \(legal: R Y\)"):
        replay(rec)
    rec = stacked_record(["R5"], [{"take": "stock", "row": "R"}])
    with pytest.raises(InputError, match=r"turn 0 \(seat 0, round 0\): row: the card taken leaves no choice of row"):
        replay(rec)


def test_a_run_record_and_replay_through_the_cli(tmp_path):
    output, table = cli_run(tmp_path, "danger", 5, 40, "--copies", "2")
    assert "B rows blocked" in output
    assert "  no card left to take   0.00% [" in output  # 40 games x 5 rounds, none without a fourth row
    rows = table.to_pandas()
    assert (rows["deck"].apply(len) == 72 + 18).all()
    rec = cli_record("danger", 5, 7, "--copies", "2")
    assert json.loads(rec)["copies"] == 2
    result = cli_replay(rec)
    row = table.slice(7, 1).to_pylist()[0]
    assert result["scores"] == [row[f"score_{i}"] for i in range(5)]
    assert [sum(r[c] for c in range(4)) for r in result["secured"]] == [
        sum(row[f"secured_{c}"][s] for c in "rygb") for s in range(5)
    ]


def test_an_option_out_of_range_is_a_one_line_error():
    res = CliRunner().invoke(cli, ["run", "--game", "danger", "--deals", "5", "--copies", "4"])
    assert res.exit_code != 0 and "Traceback" not in res.output and "copies" in res.output


def test_the_example_records_replay():
    path = Path(__file__).resolve().parent.parent / "docs" / "examples" / "danger-records.jsonl"
    res = CliRunner().invoke(cli, ["replay", str(path)])
    results = [json.loads(line) for line in res.output.splitlines()]
    assert res.exit_code == 0 and len(results) == 2 and all("scores" in r for r in results)


# ---------------------------------------------------------------- the heuristic against random


@pytest.mark.parametrize("players", PLAYERS)
def test_the_heuristic_beats_random_on_duplicate_games(players):
    mean, half = duplicate_advantage(simulate_deals, players, 3, 1000)
    assert mean - half > 0
