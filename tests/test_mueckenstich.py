"""Mückenstich (docs/rules.md §8): the rules one by one on hand-built deals, the kernels against a
plain-Python reference on random states, invariants of simulated deals, records and their
replay, illegal records, matches, and the heuristic against random."""

import copy
from functools import partial

import numpy as np
import pytest
import reference_mueckenstich as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from illegal_records import check_failure_to_follow, replay_error
from simulated_runs import check_same_rows_whatever_the_split, replayed_matches

from musim.core.deck import MUECKENSTICH as DECK
from musim.games.mueckenstich import rules, simulate
from musim.games.mueckenstich.record import record, replay
from musim.games.mueckenstich.simulate import simulate_deals
from musim.play.duplicate import duplicate_advantage
from musim.play.tricks import NO_TRUMP

PLAYERS = range(3, 7)
POLICIES = ("random", "heuristic")


def card(text):
    return DECK.kinds[text][0]


def trick_of(*texts):
    return np.array([card(t) for t in texts], np.int64)


# ---------------------------------------------------------------- the rules one by one


def test_deck_hands_discards_and_tricks():
    assert DECK.n_cards == 64 and len(DECK.kinds) == 4 * 13
    assert [len(DECK.kinds[t]) for t in ("R1", "R11", "R12", "RM")] == [1, 1, 2, 3]
    assert {n: int(rules.hand_size(n)) for n in PLAYERS} == {3: 20, 4: 15, 5: 12, 6: 10}
    assert {n: int(rules.discard_count(n)) for n in PLAYERS} == {3: 2, 4: 2, 5: 2, 6: 0}
    assert {n: int(rules.tricks_per_deal(n)) for n in PLAYERS} == {3: 18, 4: 13, 5: 10, 6: 10}
    assert {n: int(rules.match_deals(n)) for n in PLAYERS} == {3: 6, 4: 4, 5: 5, 6: 6}


def test_a_mosquito_is_its_colours_highest_card_and_the_later_equal_card_wins():
    assert rules.trick_winner(trick_of("R12", "RM", "R12"), 3, NO_TRUMP) == 1
    assert rules.trick_winner(trick_of("R12", "R5", "R12"), 3, NO_TRUMP) == 2
    assert rules.trick_winner(trick_of("RM", "RM", "R3", "RM"), 4, NO_TRUMP) == 3
    assert rules.trick_winner(trick_of("R3", "YM", "GM"), 3, NO_TRUMP) == 0  # mosquitoes of other colours
    # a mosquito must follow its colour like any other card, and is the only one of it held
    hand = np.uint64(DECK.parse(["RM", "Y3", "Y5"]))
    assert DECK.format(rules.legal(hand, card("R2"))) == ["RM"]
    assert rules.legal(hand, card("G2")) == hand == rules.legal(hand, -1)  # void in green: anything


def test_the_trump_decides_the_trick_as_it_stands_after_the_last_card():
    # Y5 led, G3 thrown, then RM names green: the trick in progress goes to G3
    assert rules.trick_winner(trick_of("Y5", "Y9", "G3", "RM", "Y12"), 5, DECK.colours.index("G")) == 2
    # named again red, the mosquito itself is the highest red: a trump
    assert rules.trick_winner(trick_of("Y5", "Y9", "G3", "RM", "Y12"), 5, DECK.colours.index("R")) == 3
    # no trump in the trick: the highest of the led colour
    assert rules.trick_winner(trick_of("Y5", "Y9", "G3", "RM", "Y12"), 5, DECK.colours.index("B")) == 4
    assert rules.trump_after(card("RM"), 2, NO_TRUMP) == 2 and rules.trump_after(card("R3"), 2, 1) == 1


def test_scoring_double_zero_and_the_first_mosquito_of_each_colour():
    won = np.uint64(DECK.parse(["R3", "R5", "Y7", "G2", "G12", "B1", "RM", "RM", "YM"]))
    r, y, g = (DECK.colours.index(c) for c in "RYG")
    # R double 2 x 2, Y zero 0, G 2 x 1, B 1; RM -5 (the second RM 0), YM -5
    assert rules.score(won, r, y) == 4 + 0 + 2 + 1 - 10
    assert rules.score(won, -1, -1) == 6 - 10
    assert rules.score(won, g, r) == 0 + 1 + 4 + 1 - 10
    assert rules.score(np.uint64(DECK.parse(["BM", "BM", "BM"])), -1, -1) == -5
    assert int(rules.single_seat(np.array([3, 1, 4, 1]), 4, False)) == -1  # two seats share the fewest
    assert int(rules.single_seat(np.array([3, 1, 4, 2]), 4, False)) == 1
    assert int(rules.single_seat(np.array([0, 2, 2, 0]), 4, True)) == -1
    assert int(rules.single_seat(np.array([0, 0, 1]), 3, True)) == 2


# ---------------------------------------------------------------- hand-built deals through replay


def build(forced, forbidden, undealt=("B9", "B10", "B11", "G11"), dealer=5, n=6):
    """A 6-player record whose first tricks are `forced` (each in play order from its leader);
    seats never get the colours `forbidden[s]`, and the rest of play is each seat's first legal
    card in hand order, a mosquito naming the trump in force (R if none)."""
    need = [[] for _ in range(n)]
    leader, trump = (dealer + 1) % n, None
    for k in range(len(forced) // n):  # forced holds whole tricks
        trick = forced[k * n : (k + 1) * n]
        for j, move in enumerate(trick):
            need[(leader + j) % n].append(move.partition(":")[0])
            trump = move.partition(":")[2] or trump
        leader = (leader + ref.winner([card(m.partition(":")[0]) for m in trick], _colour(trump))) % n
    pool = DECK.format(DECK.full)
    for t in undealt + tuple(t for seat in need for t in seat):
        pool.remove(t)
    hands = [list(h) for h in need]
    for t in pool:
        s = next(s for s in range(n) if len(hands[s]) < 10 and t[0] not in forbidden.get(s, ""))
        hands[s].append(t)
    held = [list(h) for h in hands]
    play, trump = [], None
    leader = (dealer + 1) % n
    for _ in range(10):
        trick = []
        for j in range(n):
            s = (leader + j) % n
            if len(play) < len(forced):
                move = forced[len(play)]
            else:
                ok = [t for t in held[s] if not trick or t[0] == trick[0][0]] or held[s]
                move = ok[0] + (":" + (trump or "R") if ok[0].endswith("M") else "")
            held[s].remove(move.partition(":")[0])
            trump = move.partition(":")[2] or trump
            play.append(move)
            trick.append(move)
        leader = (leader + ref.winner([card(m.partition(":")[0]) for m in trick], _colour(trump))) % n
    rec = {"game": "mueckenstich", "players": n, "dealer": dealer, "hands": hands, "discards": [[]] * n, "play": play}
    tricks, mosquitoes, _, _ = ref.scores(rec)
    rec["double"] = "B" if ref.single(tricks, False) is not None else None
    rec["zero"] = "Y" if ref.single(mosquitoes, True) is not None else None
    return rec


def _colour(letter):
    return None if letter is None else "RYGB".index(letter)


def test_a_mosquito_names_the_trump_for_the_trick_in_progress_and_until_the_next_one():
    forced = ["Y5", "Y9", "G3", "RM:G", "Y12", "Y2"]  # seats 0..5; seats 2 and 3 hold no yellow
    forced += ["B1", "B2", "G1", "B12", "B3", "B4"]  # seat 2 leads; seat 4 holds no blue: green is still trump
    forced += ["G2", "G4", "R1", "R2", "G5", "BM:R"]  # seat 4 leads green; seat 3's BM makes red trump
    rec = build(forced, {2: "Y", 3: "YG", 4: "B", 0: "G", 1: "G"})
    res = replay(rec)
    first, second, third = res["tricks"][:3]
    assert (first["winner"], first["trump_after"]) == (2, "G")
    assert first["cards"] == forced[:6]
    assert (second["leader"], second["winner"], second["trump_after"]) == (2, 4, "G")
    assert (third["leader"], third["winner"], third["trump_after"]) == (4, 1, "R")  # R2 is the highest red
    assert ref.scores(rec)[2] == res["scores"]


def test_the_later_of_two_equal_cards_wins_in_play():
    forced = ["R12", "R5", "R12", "R1", "R2", "R3"]  # seat 2's R12 beats seat 0's
    forced += ["RM:Y", "RM:Y", "R4", "R6", "R7", "R8"]  # seat 3's mosquito beats seat 2's; no yellow in the trick
    res = replay(build(forced, {}))
    assert [t["winner"] for t in res["tricks"][:2]] == [2, 3]
    assert res["tricks"][1]["trump_after"] == "Y"


def test_double_and_zero_are_required_from_the_single_seats_and_scored():
    rec = build(["Y5", "Y9", "G3", "RM:G", "Y12", "Y2"], {2: "Y", 3: "Y"})
    tricks, mosquitoes, _, _ = ref.scores(rec)
    res = replay(rec)
    assert res["tricks_won"] == tricks and res["mosquitoes"] == mosquitoes
    for double in ("R", "Y", "G", "B"):
        for zero in ("R", "Y", "G", "B"):
            trial = dict(rec, double=double if rec["double"] else None, zero=zero if rec["zero"] else None)
            if trial["double"] and trial["double"] == trial["zero"]:
                assert "already the double colour" in _error(trial)
                continue
            got = replay(trial)
            assert got["scores"] == ref.scores(trial)[2]
            assert (got["double"], got["zero"]) == (trial["double"], trial["zero"])


# ---------------------------------------------------------------- kernels against the reference


def test_legal_winner_and_score_against_the_reference():
    rng = np.random.default_rng(40)
    changed = 0
    for _ in range(5000):
        perm = [int(c) for c in rng.permutation(64)]
        hand = sorted(perm[: rng.integers(1, 21)])
        led = None if rng.random() < 0.1 else perm[-1]
        got = rules.legal(np.uint64(ref.mask_of(hand)), -1 if led is None else led)
        assert ref.cards_of(got) == ref.legal(hand, led)
        trick = perm[: rng.integers(1, 7)] if rng.random() < 0.5 else [int(c) for c in rng.choice(16, 6) + 16 * 2]
        trick = list(dict.fromkeys(trick))
        trump = int(rng.integers(-1, 4))
        want = ref.winner(trick, None if trump < 0 else trump)
        assert rules.trick_winner(np.array(trick, np.int64), len(trick), trump) == want
        changed += want != ref.winner(trick, None)
        won = perm[: rng.integers(0, 30)]
        double = int(rng.integers(-1, 4))
        zero = int(rng.integers(-1, 4))
        if zero == double and zero >= 0:
            zero = -1
        letters = [None if c < 0 else "RYGB"[c] for c in (double, zero)]
        assert rules.score(np.uint64(ref.mask_of(won)), double, zero) == ref.score(won, *letters)
        values = [int(v) for v in rng.integers(0, 4, size=int(rng.integers(3, 7)))]
        for most in (False, True):
            seat = ref.single(values, most)
            assert rules.single_seat(np.array(values, np.int64), len(values), most) == (-1 if seat is None else seat)
    assert changed > 500


# ---------------------------------------------------------------- simulated deals


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(3, 6), policy=st.sampled_from(POLICIES), seed=st.integers(0, 2**63 - 1), deal=st.integers(0, 2**40)
)
def test_deal_invariants(n, policy, seed, deal):
    """Cards conserved (60 dealt, 4 not), discards from the hand, tricks add up to the hand size
    less the discards, every mosquito played is won, one trump named per mosquito played."""
    out = simulate_deals(n, seed, policy, deal, 1)
    hands, discards = out["hands"][0], out["discards"][0]
    union = 0
    for h, d in zip(hands, discards):
        assert bin(int(h)).count("1") == rules.hand_size(n) and union & int(h) == 0
        assert bin(int(d)).count("1") == rules.discard_count(n) and int(d) & ~int(h) == 0
        union |= int(h)
    assert bin(union).count("1") == 60
    assert out["tricks"][0].sum() == rules.tricks_per_deal(n) == rules.hand_size(n) - rules.discard_count(n)
    played, won = out["mosquitoes_played"][0], out["mosquitoes_won"][0]
    in_play = sum(bin(int(h) & ~int(d) & int(rules.MOSQUITOES)).count("1") for h, d in zip(hands, discards))
    assert played.sum() == won.sum() == in_play == (out["trumps"][0] >= 0).sum()
    double, double_by, zero, zero_by = out["naming"][0]
    assert double_by == int(rules.single_seat(out["tricks"][0], n, False)) and (double < 0) == (double_by < 0)
    assert zero_by == int(rules.single_seat(won, n, True)) and (zero < 0) == (zero_by < 0)
    assert zero < 0 or zero != double


def test_same_seed_same_rows_whatever_the_split():
    check_same_rows_whatever_the_split(simulate_deals, 5)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("n", PLAYERS)
def test_simulated_records_replay_to_the_same_row(n, policy):
    count = 60
    out = simulate_deals(n, 7, policy, 0, count)
    for i in range(count):
        rec = record(n, 7, policy, i)
        res = replay(rec)
        tricks, mosquitoes, scores, after = ref.scores(rec)
        assert res["scores"] == out["scores"][i].tolist() == scores
        assert res["tricks_won"] == out["tricks"][i].tolist() == tricks
        assert res["mosquitoes"] == out["mosquitoes_won"][i].tolist() == mosquitoes
        assert [t["trump_after"] for t in res["tricks"]] == after
        assert rec["hands"] == [DECK.format(h) for h in out["hands"][i]]
        assert rec["discards"] == [DECK.format(d) for d in out["discards"][i]]
        assert res["tricks"][0]["leader"] == (rec["dealer"] + 1) % n
        named = [m.partition(":")[2] for m in rec["play"] if ":" in m]
        assert named == ["RYGB"[t] for t in out["trumps"][i] if t >= 0]
        assert (res["double"], res["zero"]) == (rec["double"], rec["zero"])


def test_the_heuristic_discards_mosquitoes_first_then_low_cards_of_its_shortest_colour():
    out = simulate_deals(4, 3, "heuristic", 0, 200)
    for hands, discards in zip(out["hands"], out["discards"]):
        for h, d in zip(hands, discards):
            held = ref.cards_of(h)
            want = []
            for _ in range(2):
                rest = [c for c in held if c not in want]
                mosquitoes = [c for c in rest if ref.is_mosquito(c)]
                if mosquitoes:
                    want.append(mosquitoes[0])
                    continue
                length = {col: sum(ref.colour(c) == col for c in rest) for col in range(4)}
                short = min((v, col) for col, v in length.items() if v)[1]
                want.append(min((c for c in rest if ref.colour(c) == short), key=ref.rank))
            assert ref.cards_of(d) == sorted(want)


def test_mixed_tables_play_the_same_deals_and_the_heuristic_beats_random():
    mixed = simulate_deals(4, 8, ["heuristic", "random", "random", "random"], 0, 200)
    plain = simulate_deals(4, 8, "random", 0, 200)
    assert np.array_equal(mixed["hands"], plain["hands"]) and np.array_equal(mixed["dealer"], plain["dealer"])
    for n in PLAYERS:
        mean, half = duplicate_advantage(simulate_deals, n, 8, 2000)
        assert mean - half > 0, (n, mean, half)


# ---------------------------------------------------------------- illegal records


@pytest.fixture(scope="module")
def good():
    return record(4, 5, "heuristic", 0)


_error = partial(replay_error, replay)  # the error replaying a copy of a record with fields changed


def test_illegal_records_name_the_first_illegal_step(good):
    assert _error(good, game="mu").startswith("game:")
    assert _error(good, players=7).startswith("players: expected 3..6")
    hands = copy.deepcopy(good["hands"])
    hands[0] = hands[0][1:]
    assert _error(good, hands=hands) == "hands[0]: 14 cards, expected 15"
    discards = copy.deepcopy(good["discards"])
    discards[2] = discards[2][:1]
    assert _error(good, discards=discards) == "discards[2]: 1 cards, expected 2"
    discards = copy.deepcopy(good["discards"])
    discards[1][0] = next(t for t in good["hands"][0] if t not in good["hands"][1])
    assert _error(good, discards=discards).startswith("discards[1]: ")
    assert _error(good, play=good["play"][:-1]) == "play: 51 cards, expected 52"


def test_moves_a_mosquito_without_a_trump_a_number_card_with_one_and_a_failure_to_follow(good):
    play = good["play"]
    res = replay(good)
    i = next(i for i, m in enumerate(play) if ":" in m)
    k = i // 4
    where = f"play card {i} (seat {(res['tricks'][k]['leader'] + i % 4) % 4}, trick {k})"
    bare = play[i].partition(":")[0]
    for wrong in (bare, bare + ":", bare + ":X", bare + ":RG"):
        msg = _error(good, play=[*play[:i], wrong, *play[i + 1 :]])
        assert msg.startswith(f"{where}: {wrong}: a mosquito")
    j = next(j for j, m in enumerate(play) if ":" not in m)
    msg = _error(good, play=[*play[:j], play[j] + ":R", *play[j + 1 :]])
    assert msg.endswith(f"{play[j]}:R: only a mosquito names a trump")
    check_failure_to_follow(replay, good)


def test_double_and_zero_named_by_nobody_or_missing():
    recs = [record(4, 11, "random", i) for i in range(40)]
    entitled = next(r for r in recs if r["double"] is not None)
    assert _error(entitled, double=None).startswith("double: seat ")
    assert _error(entitled, double="X").startswith("double: seat ")
    unentitled = next(r for r in recs if r["double"] is None)
    assert _error(unentitled, double="R").startswith("double: no single seat has the fewest tricks")
    no_zero = next(r for r in recs if r["zero"] is None)
    assert _error(no_zero, zero="G").startswith("zero: no single seat has the most mosquitoes")
    both = next(r for r in recs if r["zero"] is not None and r["double"] is not None)
    assert "already the double colour" in _error(both, zero=both["double"])
    neither = next(r for r in recs if r["zero"] is None and r["double"] is None)
    absent = {k: v for k, v in neither.items() if k not in ("double", "zero")}
    assert replay(absent)["scores"] == replay(neither)["scores"]


# ---------------------------------------------------------------- rows and matches


def test_deal_rows_hold_the_simulated_values_and_every_column_is_described():
    from musim.engine.parquet import DESCRIPTION_KEY
    from musim.games.mueckenstich import columns

    n = 5
    out = simulate_deals(n, 4, "heuristic", 100, 300)
    table = columns.deal_batch(out, 100, n)
    assert all(f.metadata[DESCRIPTION_KEY] for f in table.schema)
    assert table.column("deal").to_pylist() == list(range(100, 400))
    for i in range(n):
        assert table.column(f"score_{i}").to_pylist() == out["scores"][:, i].tolist()
        assert table.column(f"tricks_{i}").to_pylist() == out["tricks"][:, i].tolist()
    for name in ("hands", "discards", "mosquitoes_played", "mosquitoes_won"):
        assert table.column(name).to_pylist() == out[name].tolist(), name
    assert table.column("trumps_named").to_pylist() == [["RYGB"[t] for t in row if t >= 0] for row in out["trumps"]]
    naming = out["naming"]
    assert table.column("double").to_pylist() == [None if c < 0 else "RYGB"[c] for c in naming[:, 0]]
    assert table.column("double_by").to_pylist() == [None if s < 0 else s for s in naming[:, 1]]
    assert table.column("zero").to_pylist() == [None if c < 0 else "RYGB"[c] for c in naming[:, 2]]
    assert table.column("zero_by").to_pylist() == [None if s < 0 else s for s in naming[:, 3]]
    assert None in table.column("double").to_pylist() and "G" in table.column("zero").to_pylist()
    matches = columns.match_batch(simulate.simulate_matches(n, 4, "random", 0, 20), 0, n)
    assert all(f.metadata[DESCRIPTION_KEY] for f in matches.schema) and "capped" not in matches.schema.names


@pytest.mark.parametrize("n", [3, 4, 6])
def test_matches_are_n_deals_2n_at_3_players_and_replay_deal_by_deal(n):
    out = simulate.simulate_matches(n, 12, "heuristic", 3, 10)
    assert (out["deals"] == (2 * n if n == 3 else n)).all()
    for i, totals in enumerate(replayed_matches(simulate, n, 12, 3, out["deals"])):
        assert totals[-1].tolist() == out["totals"][i].tolist()


def test_the_summary_counts_the_scoring_events_of_the_rows():
    from musim.games.mueckenstich import columns, summary

    n = 4
    out = simulate_deals(n, 6, "heuristic", 0, 500)
    acc = summary.for_run({"mode": "deals", "players": n, "game": "mueckenstich", "play": "heuristic", "seed": 6})
    for start, stop in ((0, 200), (200, 500)):
        acc.add(columns.deal_batch({k: v[start:stop] for k, v in out.items()}, start, n))
    lines = "\n".join(acc.lines())
    assert "500 deals" in lines
    double, zero = (out["naming"][:, col] >= 0 for col in (0, 2))
    assert f"double colour named (a single seat with the fewest tricks): {double.mean():.2%}" in lines
    assert f"zero colour named (a single seat with the most mosquitoes): {zero.mean():.2%}" in lines
    assert f"mosquitoes played a deal: {out['mosquitoes_played'].sum(axis=1).mean():.2f}" in lines
