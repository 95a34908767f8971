"""Calcory (docs/rules.md §7): the rules one by one on hand-built grids, the turn kernels against a
plain-Python reference on random states, invariants of simulated games, records and their
replay, illegal records, memory, and the heuristic against random."""

import json
import random
from functools import partial
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
import reference_calcory as ref
from cli_runs import cli_record, cli_replay, cli_run
from click.testing import CliRunner
from illegal_records import replay_error

from musim.cli import cli
from musim.core.deck import MU as DECK
from musim.games.calcory import policies, rules
from musim.games.calcory.record import record, replay
from musim.games.calcory.rules import (
    BACK,
    DOWN,
    END,
    HAND,
    MARKS,
    OVER,
    OWNER,
    PHASE,
    PLAY,
    SEAT,
    TURNS,
    new_table,
)
from musim.games.calcory.simulate import CARDS, make_workspace, simulate_deals
from musim.io.batch import InputError
from musim.play.duplicate import duplicate_advantage

PLAYERS = (2, 3, 4)
POLICIES = ("random", "heuristic")


def cards(*texts):
    """Card indices of distinct card texts (a second R1 is the second copy)."""
    out, used = [], 0
    for text in texts:
        c = DECK.index(text, DECK.full & ~used)
        used |= 1 << c
        out.append(c)
    return out


def table(first, n=2, starter=0):
    """A Table with the cards `first` at positions 0.. and the rest of the deck after them, all
    face down, `starter` to play."""
    head = cards(*first)
    grid = head + [c for c in range(CARDS) if c not in head]
    t = new_table()
    rules.reset(t, n, starter, np.array(grid, np.int64))
    return t


def bits(*positions):
    return sum(1 << p for p in positions)


def won(t, seat):
    return DECK.format(int(t.won[seat]))


# ---------------------------------------------------------------- the rules one by one


def test_over_13_fails_and_the_cards_are_turned_back():
    t = table(["R9", "Y5"])
    rules.turn(t, 0)
    rules.turn(t, 1)
    assert t.g[SEAT] == 1 and t.g[PHASE] == PLAY and int(t.m[DOWN]) == int(rules.GRID)
    assert t.counts[0, rules.FAILED] == 1


def test_a_second_zero_fails_the_turn():
    t = table(["R0", "Y0"])
    rules.turn(t, 0)
    assert t.g[SEAT] == 0  # one 0 is fine
    rules.turn(t, 1)
    assert t.g[SEAT] == 1 and t.counts[0, rules.FAILED] == 1 and int(t.m[DOWN]) == int(rules.GRID)


def test_exactly_13_takes_the_cards_one_goes_back_face_down_on_any_empty_space():
    t = table(["R9", "Y3", "G1"])
    for p in range(3):
        rules.turn(t, p)
    assert t.g[PHASE] == BACK
    assert sorted(DECK.format(int(t.m[HAND]))) == ["G1", "R9", "Y3"]
    assert int(rules.empty(t)) == bits(0, 1, 2)
    rules.put_back(t, cards("R9")[0], 1)
    assert sorted(won(t, 0)) == ["G1", "Y3"] and t.at[1] == cards("R9")[0] and t.at[0] == t.at[2] == -1
    assert t.g[SEAT] == 1 and t.counts[0, rules.THIRTEENS] == 1


def test_stopping_marks_the_cards_and_the_next_player_must_beat_them_without_using_them():
    t = table(["R9", "Y2", "G8", "B3", "K7", "Y4", "R1"], n=3)
    rules.turn(t, 0)
    rules.turn(t, 1)
    rules.stop(t)  # seat 0 marks 9 + 2 = 11 with two cards
    assert t.g[OWNER] == 0 and int(t.m[MARKS]) == bits(0, 1) and not int(t.m[DOWN]) & bits(0, 1)
    rules.turn(t, 2)
    assert not rules.can_stop(t)  # 8 < 11: a lower sum may not stop
    rules.turn(t, 3)  # 8 + 3 = 11 with two cards: not more cards either; then 7 fails the turn
    assert not rules.can_stop(t)
    rules.turn(t, 4)
    assert t.g[SEAT] == 2 and t.g[OWNER] == 0 and int(t.m[MARKS]) == bits(0, 1)  # the marks stay out
    rules.turn(t, 2)
    rules.turn(t, 6)
    assert not rules.can_stop(t)  # seat 2 must beat them too: 9 < 11
    rules.turn(t, 5)  # 8 + 1 + 4 = 13: takes them, the old marks are turned back
    assert t.g[PHASE] == BACK and t.g[OWNER] == -1 and int(t.m[DOWN]) & bits(0, 1) == bits(0, 1)


def test_the_same_sum_with_more_cards_beats_the_marks_and_moves_them():
    t = table(["R9", "Y2", "G8", "B3", "K0"], n=2)
    rules.turn(t, 0)
    rules.turn(t, 1)
    rules.stop(t)
    rules.turn(t, 2)
    rules.turn(t, 3)
    assert not rules.can_stop(t)  # 11 with two cards: not more
    rules.turn(t, 4)
    assert rules.can_stop(t)  # 11 with three cards
    rules.stop(t)
    assert t.g[OWNER] == 1 and int(t.m[MARKS]) == bits(2, 3, 4) and int(t.m[DOWN]) & bits(0, 1) == bits(0, 1)


def test_a_higher_sum_below_13_beats_the_marks():
    t = table(["R9", "Y2", "G8", "B4"], n=2)
    rules.turn(t, 0)
    rules.stop(t)
    rules.turn(t, 2)
    rules.turn(t, 3)  # 12 > 9
    assert rules.can_stop(t)


def test_marks_that_survive_a_round_are_taken_one_goes_back_and_the_turn_ends():
    t = table(["R9", "Y2", "G8", "B9"], n=3)
    rules.turn(t, 0)
    rules.turn(t, 1)
    rules.stop(t)
    for seat in (1, 2):  # both fail
        rules.turn(t, 2)
        rules.turn(t, 3)
        assert t.g[SEAT] == (seat + 1) % 3
    assert t.g[SEAT] == 0 and t.g[PHASE] == BACK and sorted(DECK.format(int(t.m[HAND]))) == ["R9", "Y2"]
    assert t.counts[0, rules.TAKEN] == 1 and t.g[OWNER] == -1
    rules.put_back(t, cards("Y2")[0], 0)
    assert won(t, 0) == ["R9"] and t.g[SEAT] == 1 and t.g[PHASE] == PLAY


def test_a_single_marked_card_surviving_a_round_is_taken_and_ends_the_game():
    t = table(["R9", "G8", "B9"], n=2)
    rules.turn(t, 0)
    rules.stop(t)
    rules.turn(t, 1)
    rules.turn(t, 2)  # seat 1 fails
    assert t.g[PHASE] == OVER and rules.ENDS[t.g[END]] == "single" and won(t, 0) == ["R9"]


def test_the_game_ends_when_no_face_down_card_is_left_and_after_1000_turns():
    t = table([])
    t.m[DOWN] = 0
    rules.begin(t)
    assert t.g[PHASE] == OVER and rules.ENDS[t.g[END]] == "exhausted"
    t = table([])
    t.g[TURNS] = rules.MAX_TURNS
    rules.begin(t)
    assert t.g[PHASE] == OVER and rules.ENDS[t.g[END]] == "cap"


def test_a_turn_that_runs_out_of_cards_without_a_legal_stop_fails():
    t = table(["R9", "Y1", "G8"], n=2)
    rules.turn(t, 0)
    rules.turn(t, 1)
    rules.stop(t)  # 10 marked
    t.m[DOWN] = bits(2)  # only one face-down card left
    rules.turn(t, 2)  # 8 < 10 and nothing left to turn
    assert t.g[SEAT] == 0 and t.counts[1, rules.FAILED] == 1


# ---------------------------------------------------------------- the kernels against the reference


def _random_state(rng):
    """A Table and its reference twin: a shuffled grid, some empty places, maybe marks of another seat."""
    n = rng.choice(PLAYERS)
    grid = list(range(CARDS))
    rng.shuffle(grid)
    t = new_table()
    rules.reset(t, n, 0, np.array(grid, np.int64))
    places = list(range(CARDS))
    rng.shuffle(places)
    gone = places[: rng.randrange(0, 55)]
    marks = []
    if rng.random() < 0.6:
        for p in places[len(gone) : len(gone) + rng.randrange(1, 4)]:
            if sum(ref.number(grid[q]) for q in marks) + ref.number(grid[p]) < 13:
                marks.append(p)
    for p in gone:
        t.at[p] = -1
    down = set(range(CARDS)) - set(gone) - set(marks)
    t.m[DOWN], t.m[MARKS] = bits(*down), bits(*marks)
    owner = rng.randrange(1, n) if marks else -1
    mark_total = sum(ref.number(grid[p]) for p in marks)
    t.g[OWNER], t.g[rules.MARK_TOTAL], t.g[rules.MARK_COUNT] = owner, mark_total, len(marks)
    at = {p: grid[p] for p in range(CARDS) if p not in gone}
    return t, ref.State(n, 0, at, down, set(marks), owner, mark_total)


def _same(t, s):
    assert t.g[PHASE] == (OVER if s.over else BACK if s.hand else PLAY)
    if s.over:
        assert rules.ENDS[t.g[END]] == s.over
    assert t.g[SEAT] == s.seat and t.g[OWNER] == s.owner
    assert int(t.m[DOWN]) == bits(*s.down) and int(t.m[MARKS]) == bits(*s.marks)
    assert int(t.m[HAND]) == bits(*s.hand) and int(t.m[rules.TURNED]) == bits(*s.turned)
    assert {p: int(t.at[p]) for p in range(CARDS) if t.at[p] >= 0} == s.at
    for p, card in s.at.items():  # numbers[v]: the positions of the v cards (stale only on empty spaces)
        assert [int(t.numbers[v]) >> p & 1 for v in range(10)] == [int(v == ref.number(card)) for v in range(10)]
    for seat in range(s.n):
        assert int(t.won[seat]) == bits(*s.won.get(seat, ()))


def test_the_turn_kernels_against_the_plain_python_reference_on_random_states():
    rng = random.Random(41)
    for _ in range(3000):
        t, s = _random_state(rng)
        for _ in range(40):
            if s.over:
                break
            if s.hand:
                card = rng.choice(sorted(s.hand))
                free = sorted(set(range(CARDS)) - set(s.at))
                p = rng.choice(free)
                rules.put_back(t, card, p)
                s.put_back(card, p)
            elif s.may_stop() and (not s.down or rng.random() < 0.3):
                assert rules.can_stop(t)
                rules.stop(t)
                s.stop()
            else:
                assert bool(rules.can_stop(t)) == s.may_stop()
                p = rng.choice(sorted(s.down))
                rules.turn(t, p)
                s.turn(p)
            _same(t, s)


# ---------------------------------------------------------------- simulated games


@pytest.mark.parametrize("players", PLAYERS)
def test_cards_are_conserved_and_every_turn_replays_legal(players):
    for memory in (0.0, 0.5, 1.0):
        out = simulate_deals(players, 5, "random", 0, 200, memory=memory)
        assert (out["scores"].sum(axis=1) + out["left"] == CARDS).all()
        assert (np.sort(out["grid"], axis=1) == np.arange(CARDS)).all()
    for policy in POLICIES:
        for index in range(60):
            memory = (0.0, 0.5, 1.0)[index % 3]
            rec = record(players, 5, policy, index, memory)
            result = replay(json.loads(json.dumps(rec)))
            row = simulate_deals(players, 5, policy, index, 1, memory=memory)
            assert result["scores"] == row["scores"][0].tolist()
            assert result["left"] == row["left"][0] and result["end"] == ("single", "exhausted", "cap")[row["end"][0]]
            assert [len(w) for w in result["won"]] == result["scores"]
            assert len(result["turns"]) <= row["turns"][0]


def test_memory_changes_the_heuristic_play_but_not_the_grid():
    a = simulate_deals(2, 7, "heuristic", 0, 300, memory=1.0)
    b = simulate_deals(2, 7, "heuristic", 0, 300, memory=0.0)
    assert (a["grid"] == b["grid"]).all() and (a["dealer"] == b["dealer"]).all()
    assert (a["parts"] != b["parts"]).any()


_bad = partial(replay_error, replay)  # the error replaying a changed copy of a record: _bad(rec, change)


def test_illegal_records_name_the_first_illegal_step():
    rec = record(2, 2, "heuristic", 4)
    stop = next(i for i, t in enumerate(rec["turns"]) if t.get("stop"))
    back = next(i for i, t in enumerate(rec["turns"]) if "back" in t)
    assert _bad(rec, lambda r: r["turns"][stop].pop("stop")).startswith(f"turn {stop} (seat ")
    assert "neither fails nor makes 13 nor stops" in _bad(rec, lambda r: r["turns"][stop].pop("stop"))

    def turn_twice(r):
        r["turns"][stop]["turn"].append(r["turns"][stop]["turn"][0])

    assert "is not a face-down card" in _bad(rec, turn_twice)
    for value, shown in (("R0", '"R0"'), (99, "99"), ([], "[]")):
        message = _bad(rec, lambda r, value=value: r["turns"][stop].update(stop=value))
        assert message.startswith(f"turn {stop} (seat ") and message.endswith(f"): stop: expected true, got {shown}")
    message = _bad(rec, lambda r: r["turns"][stop].update(turn=["R0"]))
    assert message.endswith('): turn: expected a non-empty list of grid positions, got ["R0"]')

    def back_elsewhere(r):
        r["turns"][back]["back"][1] = 60

    message = _bad(rec, back_elsewhere)
    assert message.startswith(f"turn {back} (seat ") and "not an empty space" in message

    def back_other(r):
        r["turns"][back]["back"][0] = r["grid"][59]

    assert "is not one of the cards taken" in _bad(rec, back_other)
    assert "but the game goes on" in _bad(rec, lambda r: r["turns"].pop())
    assert "the game ends after" in _bad(rec, lambda r: r["turns"].append({"turn": [0]}))
    assert "grid: card" in _bad(rec, lambda r: r["grid"].__setitem__(0, r["grid"][1]))
    assert _bad(rec, lambda r: r.update(game="mu")).startswith("game:")
    assert _bad(rec, lambda r: r.update(players=5)).startswith("players:")
    assert _bad(rec, lambda r: r.update(memory=2)).startswith("memory:")


def test_a_stop_that_does_not_beat_the_marks_is_named():
    grid = DECK.format(DECK.full)
    first = ["R9", "Y2", "G8"]
    grid = first + [c for c in grid if c not in first]
    rec = {"game": "calcory", "players": 2, "dealer": 1, "grid": grid, "turns": [{"turn": [0, 1], "stop": True}]}
    rec["turns"].append({"turn": [2], "stop": True})
    with pytest.raises(InputError, match=r"turn 1 \(seat 1\): stop: G8 \(sum 8, 1 cards\) do not beat the marks"):
        replay(rec)


# ---------------------------------------------------------------- runs through the CLI


def test_a_run_record_and_replay_through_the_cli(tmp_path):
    output, table = cli_run(tmp_path, "calcory", 3, 50, "--memory", "0.5")
    assert "what ended the game" in output
    rows = table.to_pandas()
    assert (rows["cards"].apply(sum) + rows["left"] == 60).all()
    assert json.loads(cli_record("calcory", 3, 7))["memory"] == 1.0
    result = cli_replay(cli_record("calcory", 3, 7, "--memory", "0.5"))
    row = table.slice(7, 1).to_pylist()[0]
    assert result["scores"] == [row[f"score_{i}"] for i in range(3)] and result["end"] == row["end"]


def test_a_memory_out_of_range_is_a_one_line_error():
    res = CliRunner().invoke(cli, ["run", "--game", "calcory", "--deals", "5", "--memory", "1.5"])
    assert res.exit_code != 0 and "Traceback" not in res.output and "memory" in res.output


# ---------------------------------------------------------------- the heuristic's choices


def _sure_turns(first, known):
    """The cards a heuristic seat 0 turns from table(first) remembering positions `known`, until its
    turn leaves PLAY: (cards turned in order, the phase after)."""
    t, state, turned = table(first), np.zeros(1, np.uint64), []
    while t.g[PHASE] == PLAY and t.g[SEAT] == 0:
        p = policies.choose_turn(policies.HEURISTIC, t, np.uint64(bits(*known)), state)
        assert p >= 0, "a sure 13 is never a stop"
        turned.append(DECK.text(int(t.at[p])))
        rules.turn(t, p)
    return turned, t.g[PHASE]


def test_the_heuristic_takes_a_remembered_sure_13_with_the_most_cards():
    # the highest remembered card first (9) would leave 4 to make from a 7 and a 6
    assert _sure_turns(["R9", "Y7", "G6"], (0, 1, 2)) == (["Y7", "G6"], BACK)
    # 9 + 4 and 7 + 3 + 3 both make 13: the three cards, as many cards as may be won
    assert _sure_turns(["R9", "Y4", "G7", "B3", "K3"], range(5)) == (["G7", "B3", "K3"], BACK)
    # a remembered 0 is one card more (and only one 0 a turn)
    assert _sure_turns(["R0", "Y0", "R9", "Y4"], range(4)) == (["R0", "R9", "Y4"], BACK)


def _most(numbers, need, zero_ok):
    """The most of `numbers` (a multiset of 0..9) summing to exactly `need`, with at most one 0 when
    zero_ok and none else; None if none do: by enumeration, number by number."""
    counts = [numbers.count(v) for v in range(10)]
    counts[0] = min(counts[0], 1 if zero_ok else 0)

    def best(v, left):
        if v == 10:
            return 0 if left == 0 else None
        found = [best(v + 1, left - k * v) for k in range(counts[v] + 1) if k * v <= left]
        return max((f + k for k, f in enumerate(found) if f is not None), default=None)

    return best(0, need)


def _positions(mask):
    return {p for p in range(CARDS) if int(mask) >> p & 1}


def test_the_heuristic_starts_a_sure_13_of_the_most_cards_on_random_states():
    rng, state, checked = random.Random(43), np.zeros(1, np.uint64), 0
    for _ in range(1500):
        t, _ = _random_state(rng)
        t.g[OWNER], t.m[DOWN], t.m[MARKS] = -1, t.m[DOWN] | t.m[MARKS], 0  # no marks: only the card is tested
        for p in rng.sample(sorted(_positions(t.m[DOWN])), rng.randrange(0, 3)):
            rules.turn(t, p)  # a turn under way (when it has not ended)
        if t.g[PHASE] != PLAY or t.g[SEAT] != 0:
            continue
        known = {p for p in _positions(t.m[DOWN]) if rng.random() < 0.4}
        need, zero_ok = 13 - int(t.g[rules.TOTAL]), t.g[rules.ZEROS] == 0
        goal = _most([ref.number(t.at[p]) for p in known], need, zero_ok)
        p = policies.choose_turn(policies.HEURISTIC, t, np.uint64(bits(*known)), state)
        if goal is None:
            continue
        checked += 1
        v = ref.number(t.at[p])
        assert p in known
        assert _most([ref.number(t.at[q]) for q in known - {p}], need - v, zero_ok and v > 0) == goal - 1
    assert checked > 250


@pytest.mark.parametrize("players", PLAYERS)
def test_the_heuristic_never_ends_the_game_behind(players):
    """A single mark survives a round only while nobody else's cards change, so the stop that put it
    out decides: a heuristic seat that ends the game ends it with no fewer cards than any other."""
    ws, ended = make_workspace(), 0
    mixed = ["heuristic", "random"] * 2  # heuristic on the even seats
    for memory in (1.0, 0.5, 0.0):
        for seats in ("heuristic", mixed[:players]):
            for index in range(150):
                row = simulate_deals(players, 17, seats, index, 1, ws, memory)
                ender = int(ws.table.g[SEAT])  # the table as the game ended
                if rules.ENDS[row["end"][0]] != "single" or (seats != "heuristic" and ender % 2):
                    continue
                ended += 1
                scores = row["scores"][0].tolist()
                assert scores[ender] == max(scores), (memory, seats, index, scores, ender)
    assert ended > 300


# ---------------------------------------------------------------- the heuristic against random


@pytest.mark.parametrize("memory", (1.0, 0.0))
@pytest.mark.parametrize("players", PLAYERS)
def test_the_heuristic_beats_random_on_duplicate_games(players, memory):
    mean, half = duplicate_advantage(partial(simulate_deals, memory=memory), players, 3, 1000)
    assert mean - half > 0


def test_the_example_records_replay():
    path = Path(__file__).resolve().parent.parent / "docs" / "examples" / "calcory-records.jsonl"
    res = CliRunner().invoke(cli, ["replay", str(path)])
    results = [json.loads(line) for line in res.output.splitlines()]
    assert res.exit_code == 0 and len(results) == 2 and all("scores" in r for r in results)


def test_the_summary_counts_the_ends_and_events_of_the_rows(tmp_path):
    out = tmp_path / "out.parquet"
    args = ["run", "--game", "calcory", "--players", "4", "--play", "random", "--deals", "400", "--seed", "4"]
    res = CliRunner().invoke(cli, [*args, "--out", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    rows = pq.read_table(out).to_pandas()
    single = (rows["end"] == "single").sum()
    assert single < 400 and f"  single                 {single / 400:.2%}" in res.output
    failed = rows["failed"].apply(sum).mean()
    assert f"  failed turns           {failed:.2f} [" in res.output


def test_rows_do_not_depend_on_the_workers(tmp_path):
    tables = []
    for workers in (1, 2):
        out = tmp_path / f"{workers}.parquet"
        args = ["run", "--game", "calcory", "--players", "3", "--deals", "5000", "--seed", "3", "--memory", "0.5"]
        res = CliRunner().invoke(cli, [*args, "--workers", str(workers), "--out", str(out), "--no-progress"])
        assert res.exit_code == 0, res.output
        tables.append(pq.read_table(out))
    assert tables[0].num_rows == 5000 and tables[0].equals(tables[1])
