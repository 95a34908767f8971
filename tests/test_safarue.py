"""Safarü and Reverse Safarü (docs/rules.md §6): the rules one by one on hand-built states, the
catch-set kernel against a plain-Python reference on random tables, invariants of simulated
games, records and their replay, illegal records, and the heuristic against random."""

import json
import re
from functools import partial
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
import reference_safarue as ref
from cli_runs import cli_record, cli_replay, cli_run
from click.testing import CliRunner
from illegal_records import replay_error

from musim.cli import cli
from musim.compile.jit import ScratchFull
from musim.core.deck import MU as DECK
from musim.games.safarue import policies, rules
from musim.games.safarue.record import _Game, record, replay
from musim.games.safarue.simulate import CARDS, deal_round, make_workspace, score_game, simulate_deals
from musim.io.batch import InputError
from musim.play.duplicate import duplicate_advantage

PLAYERS = (2, 3, 4)
POLICIES = ("random", "heuristic")
VARIANTS = (False, True)


def mask(*texts):
    return DECK.parse(list(texts))


def sets_of(table_texts, target):
    """The sets catch_sets lists, as sorted tuples of card texts."""
    ws = make_workspace()
    count = rules.catch_sets(np.uint64(mask(*table_texts)), target, ws.order, ws.adds)
    return sorted(tuple(DECK.format(int(m))) for m in ws.adds[:count])


def state(table, hand, cleared=False, reverse=False):
    """A replay state (records._Game) with seat 0 holding `hand` and `table` face up."""
    game = _Game(2, reverse, np.zeros(64, np.int64))
    game.table, game.cleared = mask(*table), cleared
    game.held[0] = mask(*hand)
    return game


# ---------------------------------------------------------------- the rules one by one


def test_adding_takes_one_or_more_table_cards_summing_to_the_played_number():
    # "take table cards summing to the card's number (Decision: one or more cards)"
    assert sets_of(["G2", "B3", "R5", "K9"], 5) == [("G2", "B3"), ("R5",)]
    assert sets_of(["G2", "B3"], 6) == []


def test_totalling_takes_table_cards_that_with_the_played_card_sum_to_17():
    # a played 9 totals with table cards summing to 8
    assert sets_of(["R9", "G8", "Y3", "B5"], 17 - 9) == [("G8",), ("Y3", "B5")]


def test_a_zero_on_the_table_must_be_among_the_cards_taken_by_adding_or_totalling():
    # "If a 0 is on the table, adding or totalling must take at least one 0"
    assert sets_of(["R0", "G2", "B3", "K5"], 5) == [("R0", "G2", "B3"), ("R0", "K5")]
    assert sets_of(["R0", "Y0", "K5"], 5) == [("R0", "K5"), ("R0", "Y0", "K5"), ("Y0", "K5")]
    # a played 0 adds up to 0: it takes zeros alone, and nothing without a 0 on the table
    assert sets_of(["R0", "K5"], 0) == [("R0",)]
    assert sets_of(["K5"], 0) == []


def test_pairing_takes_one_table_card_of_the_same_number_and_the_played_card():
    table = np.uint64(mask("R5", "G5", "B4"))
    played = DECK.index("K5", DECK.full)
    assert DECK.format(int(rules.pairing_cards(table, played))) == ["R5", "G5"]
    pair = np.uint64(mask("R5"))
    assert DECK.format(int(rules.caught_cards(played, np.uint64(0), np.uint64(0), pair))) == ["R5", "K5"]
    assert DECK.format(int(rules.table_after(table, played, np.uint64(0), np.uint64(0), pair))) == ["G5", "B4"]


def test_after_adding_or_totalling_the_played_card_stays_on_the_table():
    table = np.uint64(mask("G2", "B3", "R5"))
    played = DECK.index("K5", DECK.full)
    adding = np.uint64(mask("G2", "B3"))
    assert DECK.format(int(rules.caught_cards(played, adding, np.uint64(0), np.uint64(0)))) == ["G2", "B3"]
    assert DECK.format(int(rules.table_after(table, played, adding, np.uint64(0), np.uint64(0)))) == ["R5", "K5"]


def test_each_method_at_most_once_a_turn_on_disjoint_cards():
    # K5 adds G2 B3 and pairs with R5 in one turn
    game = state(["R5", "G2", "B3", "Y9"], ["K5"])
    result = game.turn({"card": "K5", "adding": ["G2", "B3"], "pairing": "R5"}, 0, "turn 0")
    assert result["caught"] == DECK.format(mask("G2", "B3", "R5", "K5"))
    assert result["table"] == ["Y9"]
    game = state(["R5", "G2", "B3"], ["K5"])
    with pytest.raises(InputError, match="pairing: R5 not all on the table once the methods before it took theirs"):
        game.turn({"card": "K5", "adding": ["R5"], "pairing": "R5"}, 0, "turn 0")
    # the two copies of a 1 are each taken once: one by adding, the other by pairing
    game = state(["R1", "R1"], ["K1"])
    assert game.turn({"card": "K1", "adding": ["R1"], "pairing": "R1"}, 0, "turn 0")["caught"] == ["R1", "R1", "K1"]


def test_a_card_that_could_catch_must_catch():
    game = state(["R5", "G2"], ["K5", "B8"])
    with pytest.raises(InputError, match="K5 can catch, so it must"):
        game.turn({"card": "K5"}, 0, "turn 3 (seat 0)")
    assert game.turn({"card": "B8"}, 0, "turn 3")["caught"] == []  # B8 catches nothing: released
    ws = make_workspace()
    state_ = np.zeros(1, np.uint64)
    for policy in (policies.RANDOM, policies.HEURISTIC):
        _, a, t, p = policies.choose_safarue(
            policy, np.uint64(mask("K5")), np.uint64(mask("R5", "G2")), False, state_, ws
        )
        assert a | t | p


def test_the_player_after_one_who_cleared_the_table_must_release():
    # "if the previous player cleared the table, the player must release" (Decision: also
    # when the table was refilled for a new round in between)
    game = state(["R5", "G2"], ["K5"], cleared=True)
    with pytest.raises(InputError, match="must be released: the previous player cleared the table"):
        game.turn({"card": "K5", "pairing": "R5"}, 0, "turn 0")
    assert game.turn({"card": "K5"}, 0, "turn 0")["table"] == DECK.format(mask("R5", "G2", "K5"))
    ws = make_workspace()
    for policy in (policies.RANDOM, policies.HEURISTIC):
        r = np.zeros(1, np.uint64)
        _, a, t, p = policies.choose_safarue(policy, np.uint64(mask("K5")), np.uint64(mask("R5")), True, r, ws)
        assert a | t | p == 0
        _, a, t, p = policies.choose_reverse(policy, policy, np.uint64(mask("K5")), np.uint64(mask("R5")), True, r, ws)
        assert a | t | p == 0
    # and a catch that empties the table sets the flag for the next player
    game = state(["R5"], ["K5"])
    game.turn({"card": "K5", "pairing": "R5"}, 0, "turn 0")
    assert game.cleared and game.table == 0


def test_reverse_safarue_catches_by_the_one_method_the_left_player_names():
    game = state(["R5", "G2", "B3"], ["K5"], reverse=True)
    with pytest.raises(InputError, match="one method a turn"):
        game.turn({"card": "K5", "adding": ["G2", "B3"], "pairing": "R5"}, 0, "turn 0")
    assert game.turn({"card": "K5", "pairing": "R5"}, 0, "turn 0")["caught"] == DECK.format(mask("R5", "K5"))
    # K5 on R5 Y2 Y3 adds (Y2 Y3, or R5 alone: the mover takes R5, cost 2: a card and a
    # triangle) or pairs (R5 and K5, cost 4): the heuristic chooser names pairing
    ws = make_workspace()
    table, hand = np.uint64(mask("R5", "Y2", "Y3")), np.uint64(mask("K5"))
    r = np.zeros(1, np.uint64)
    _, a, t, p = policies.choose_reverse(policies.HEURISTIC, policies.HEURISTIC, hand, table, False, r, ws)
    assert (a, t, DECK.format(int(p))) == (0, 0, ["R5"])
    _, a, t, p = policies.choose_reverse(policies.HEURISTIC, policies.RANDOM, hand, table, False, r, ws)
    assert DECK.format(int(a | p)) == ["R5"] and t == 0  # adding R5 alone, or pairing with R5


def test_a_round_deals_four_each_from_the_left_of_the_dealer_then_refills_the_table_as_far_as_the_stock_allows():
    deck = np.arange(64, dtype=np.int64)
    held = np.zeros(4, np.uint64)
    pos, table = deal_round(2, 1, deck, 0, held, np.uint64(0))
    assert (pos, int(table)) == (12, sum(1 << c for c in range(8, 12)))
    assert DECK.format(int(held[1])) == DECK.format(sum(1 << c for c in (0, 2, 4, 6)))
    # the stock runs short: 5 cards for the hands (3 to the first seat), none for the table
    held[:] = 0
    pos, table = deal_round(2, 0, deck, 55, held, np.uint64(1))
    assert (pos, int(table)) == (60, 1)
    assert [bin(int(h)).count("1") for h in held[:2]] == [3, 2]
    # the hands take 8, the table gets the 2 left (it held 1: refilled to 3, not 4)
    held[:] = 0
    pos, table = deal_round(2, 0, deck, 50, held, np.uint64(1))
    assert (pos, bin(int(table)).count("1")) == (60, 3)


def _score(n, won_texts, reverse):
    won = np.array([mask(*w) for w in won_texts] + [0] * (4 - n), np.uint64)
    scores, first, second = (np.zeros(n, np.int64) for _ in range(3))
    score_game(n, reverse, won, scores, first, second, make_workspace())
    return scores.tolist(), first.tolist(), second.tolist()


def test_safarue_scoring_most_blue_most_yellow_zeros_and_triangles_with_ties_split():
    # seat 0: B2 B3 (2 blue, 2 triangles); seat 1: B4 B5 Y3 (2 blue, 1 yellow, 3 triangles);
    # seat 2: Y4 R0 (1 yellow, one zero, 2 triangles): blue tied 0-1 (12 each), yellow tied 1-2 (-6 each)
    scores, first, second = _score(3, [["B2", "B3"], ["B4", "B5", "Y3"], ["Y4", "R0"]], False)
    assert first == [12, 12, 0] and second == [0, -6, -6]
    assert scores == [12 + 2, 12 - 6 + 3, -6 - 5 + 2]
    # three sides tied: a third each; no side with any: nobody scores it
    scores, first, second = _score(3, [["B1"], ["B9"], ["B8", "Y1"]], False)
    assert first == [8, 8, 8] and second == [0, 0, -12]
    assert _score(2, [["R2"], ["G3"]], False) == ([1, 1], [0, 0], [0, 0])


def test_reverse_scoring_most_cards_most_yellow_and_triangles():
    scores, first, second = _score(2, [["R1", "G1", "Y6"], ["Y7", "B8"]], True)
    assert first == [24, 0] and second == [6, 6]
    assert scores == [24 + 6 + 2, 6 + 3]


def test_four_players_score_as_partners_opposite():
    scores, first, _ = _score(4, [["B2"], ["B3"], ["B4"], []], False)
    assert first == [24, 0, 24, 0] and scores == [26, 1, 26, 1]


def test_catch_sets_grow_past_the_room_they_start_with():
    ws = make_workspace()
    # the whole deck: 12,625 sets of non-zero cards sum to 8, each with any of the 31 sets of zeros
    with pytest.raises(ScratchFull):
        rules.catch_sets(np.uint64(DECK.full), 8, ws.order, ws.adds)
    count, sets = rules.all_catch_sets(DECK.full, 8, ws.order, ws.adds)
    assert count == 12_625 * 31 == len({int(s) for s in sets[:count]})


# ---------------------------------------------------------------- the kernel against the reference


def test_catch_sets_against_the_plain_python_reference_on_random_tables():
    rng = np.random.default_rng(41)
    ws = make_workspace()
    for _ in range(4000):
        size = rng.integers(0, 11)
        table = [int(c) for c in rng.choice(CARDS, size=size, replace=False)]
        m = sum(1 << c for c in table)
        for target in (int(rng.integers(0, 10)), int(rng.integers(8, 18))):
            count = rules.catch_sets(np.uint64(m), target, ws.order, ws.adds)
            got = [frozenset(i for i in range(CARDS) if int(s) >> i & 1) for s in ws.adds[:count]]
            assert len(got) == len(set(got)) and set(got) == ref.catch_sets(table, target)


# ---------------------------------------------------------------- invariants, records, replay


@pytest.mark.parametrize("reverse", VARIANTS)
@pytest.mark.parametrize("players", PLAYERS)
def test_every_card_is_caught_or_left_once_and_every_turn_replays_legal(players, reverse):
    out = simulate_deals(players, 5, "random", 0, 300, reverse=reverse)
    assert (out["parts"][:, :, 0].sum(axis=1) + out["left"] == CARDS).all()
    assert (np.sort(out["deck"], axis=1) == np.sort(np.arange(CARDS) % 64)).all()
    for policy in POLICIES:
        for index in range(100):
            rec = record(players, 5, policy, index, reverse)
            result = replay(json.loads(json.dumps(rec)))
            row = simulate_deals(players, 5, policy, index, 1, reverse=reverse)
            assert result["scores"] == row["scores"][0].tolist()
            assert len(result["turns"]) == row["turns"][0] == len(rec["turns"])
            caught = [len(c) for c in result["caught"]]
            assert caught == row["parts"][0, :, 0].tolist()


_bad = partial(replay_error, replay)  # the error replaying a changed copy of a record: _bad(rec, change)


def test_illegal_records_name_the_first_illegal_step():
    rec = record(3, 2, "random", 4)
    catch = next(i for i, t in enumerate(rec["turns"]) if set(t) - {"card"})
    release = next(i for i, t in enumerate(rec["turns"]) if set(t) == {"card"})

    def drop_catch(r):
        r["turns"][catch] = {"card": r["turns"][catch]["card"]}

    assert _bad(rec, drop_catch).startswith(f"turn {catch} (seat ")
    assert "can catch, so it must" in _bad(rec, drop_catch)

    elsewhere = next(c for c in rec["table"] if c[1] not in "17")  # a single-copy card on the table, in no hand

    def wrong_card(r):
        r["turns"][release]["card"] = elsewhere

    message = _bad(rec, wrong_card)
    assert message.startswith(f"turn {release} (seat ") and f"{elsewhere} is not in the hand" in message
    assert "but the game goes on" in _bad(rec, lambda r: r["turns"].pop())
    assert "the game ends after" in _bad(rec, lambda r: r["turns"].append({"card": "R1"}))
    assert "not the 60 cards of the deck (missing" in _bad(rec, lambda r: r["stock"].pop())
    assert _bad(rec, lambda r: r.update(game="mu")).startswith("game:")
    assert _bad(rec, lambda r: r.update(players=5)).startswith("players:")


def test_a_wrong_sum_and_a_missing_zero_are_named():
    game = state(["R0", "G2", "B3"], ["K5"])
    with pytest.raises(InputError, match=r"adding: G2 B3 is not a set of table cards summing to 5 and holding a 0"):
        game.turn({"card": "K5", "adding": ["G2", "B3"]}, 0, "turn 0")
    with pytest.raises(InputError, match="pairing: G2 is not a 5"):
        game.turn({"card": "K5", "pairing": "G2"}, 0, "turn 0")
    with pytest.raises(InputError, match="not all on the table"):
        game.turn({"card": "K5", "totalling": ["Y9"]}, 0, "turn 0")


def test_a_card_of_the_wrong_type_is_named_as_json():
    game = state(["R0", "G2", "B3"], ["K5"])
    with pytest.raises(InputError, match=r"^turn 0: card: expected a card, got null$"):
        game.turn({"card": None}, 0, "turn 0")
    with pytest.raises(InputError, match=r'^turn 0: card: expected a card, got \["R0"\]$'):
        game.turn({"card": ["R0"]}, 0, "turn 0")
    with pytest.raises(InputError, match=r'adding: expected a non-empty list of cards, got \[{"a": 1}\]$'):
        game.turn({"card": "K5", "adding": [{"a": 1}]}, 0, "turn 0")


# ---------------------------------------------------------------- runs through the CLI


@pytest.mark.parametrize("game", ("safarue", "reverse-safarue"))
def test_a_run_record_and_replay_through_the_cli(tmp_path, game):
    output, table = cli_run(tmp_path, game, 4, 50)
    assert "a seat's game score" in output and not re.search(r"\bdeals?\b", output.split("worker(s)")[0])
    rows = table.to_pandas()
    assert ((rows["dealer"] + 1) % 4 == rows["starter"]).all()
    assert (rows["cards"].apply(sum) + rows["left"] == 60).all()
    scores = cli_replay(cli_record(game, 4, 7))["scores"]
    row = table.slice(7, 1).to_pylist()[0]
    assert scores == [row[f"score_{i}"] for i in range(4)] and scores[0] == scores[2]


# ---------------------------------------------------------------- the heuristic against random


@pytest.mark.parametrize("players", PLAYERS)
def test_the_heuristic_beats_random_on_duplicate_games(players):
    mean, half = duplicate_advantage(simulate_deals, players, 3, 1000)
    assert mean - half > 0
    mean, half = duplicate_advantage(partial(simulate_deals, reverse=True), players, 3, 1000)
    assert mean + half < 0  # Reverse Safarü: lower is better


def test_the_example_records_replay():
    path = Path(__file__).resolve().parent.parent / "docs" / "examples" / "safarue-records.jsonl"
    res = CliRunner().invoke(cli, ["replay", str(path)])
    results = [json.loads(line) for line in res.output.splitlines()]
    assert res.exit_code == 0 and len(results) == 2 and all("scores" in r for r in results)


def test_rows_do_not_depend_on_the_workers(tmp_path):
    tables = []
    for workers in (1, 2):
        out = tmp_path / f"{workers}.parquet"
        args = ["run", "--game", "reverse-safarue", "--players", "3", "--deals", "5000", "--seed", "3"]
        res = CliRunner().invoke(cli, [*args, "--workers", str(workers), "--out", str(out), "--no-progress"])
        assert res.exit_code == 0, res.output
        tables.append(pq.read_table(out))
    assert tables[0].num_rows == 5000 and tables[0].equals(tables[1])
