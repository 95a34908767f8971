"""`musim replay`: golden records, one mutated illegal record per kind of error, the CLI contract.

The illegal records are derived from the golden ones (tests/golden), so each
mutation breaks exactly one rule of an otherwise legal game.
"""

import copy
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.core.cards import COLOURS, CardError, parse_type
from musim.core.deck import MU
from musim.games.mu import rules
from musim.games.mu.record import replay
from musim.io.batch import InputError

GOLDEN = Path(__file__).resolve().parent / "golden"  # an independent implementation's cases
RECORDS = GOLDEN / "mu-records.jsonl"
EXPECTED = GOLDEN / "mu-records.expected.jsonl"


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def golden():
    """(record, expected result) pairs, line by line."""
    return list(zip(_lines(RECORDS), _lines(EXPECTED)))


def _sorted_laid(result):
    return {**result, "laid": [sorted(cards) for cards in result["laid"]]}


def test_golden_records_replay_exactly(golden):
    for i, (record, expected) in enumerate(golden):
        assert _sorted_laid(replay(record)) == expected, f"line {i + 1}"


# ---------------------------------------------------------------- finding records to mutate


def _find(golden, want):
    """Deep copies (record, expected) of the first golden pair satisfying `want`."""
    for record, expected in golden:
        if want(record, expected):
            return copy.deepcopy(record), expected
    pytest.fail("no golden record fits this mutation")


def _played(n=None, vice=None):
    def want(record, expected):
        return (
            expected["outcome"] == "played"
            and (n is None or record["players"] == n)
            and (vice is None or (expected["vice"] is not None) == vice)
        )

    return want


def _eklat(record, expected):
    return expected["outcome"] == "eklat" and expected["provoker"] is not None


def _seat(record, turn):
    return (record["dealer"] + turn) % record["players"]


def _laid_types(cards):
    return {c[0] for c in cards} | {c[1] for c in cards}


def _foreign_card(record, seat):
    """A card of the deal that seat `seat` was not dealt."""
    return next(
        c for s, hand in enumerate(record["hands"]) if s != seat for c in hand if c not in record["hands"][seat]
    )


# ---------------------------------------------------------------- one mutation per kind of error


def m_game(golden):
    r, _ = _find(golden, _played())
    r["game"] = "bridge"
    return r, "game:"


def m_players_range(golden):
    r, _ = _find(golden, _played())
    r["players"] = 7
    return r, "players:"


def m_players_type(golden):
    r, _ = _find(golden, _played())
    r["players"] = True
    return r, "players:"


def m_dealer(golden):
    r, _ = _find(golden, _played())
    r["dealer"] = r["players"]
    return r, "dealer:"


def m_hands_not_list(golden):
    r, _ = _find(golden, _played())
    r["hands"] = "R1 R2"
    return r, "hands:"


def m_hands_count(golden):
    r, _ = _find(golden, _played())
    r["hands"].pop()
    return r, "hands:"


def m_hand_not_list(golden):
    r, _ = _find(golden, _played())
    r["hands"][1] = "R1"
    return r, "hands[1]:"


def m_hand_size(golden):
    r, _ = _find(golden, _played())
    r["hands"][2].pop()
    return r, "hands[2]: "


def m_hand_duplicate(golden):
    r, _ = _find(golden, _played(n=4))
    r["hands"][1][0] = r["hands"][0][0]  # a card dealt twice
    return r, "appears more often"


def m_three_player_colours(golden):
    r, _ = _find(golden, _played(n=3))
    used = {c[0] for hand in r["hands"] for c in hand}
    missing = next(c for c in COLOURS if c not in used)
    r["hands"][0][0] = missing + "0"
    return r, "three complete colours"


def m_unknown_card(golden):
    r, _ = _find(golden, _played())
    r["hands"][0][3] = "X9"
    return r, "hands[0]: unknown card 'X9'"


def m_card_not_text(golden):
    r, _ = _find(golden, _played())
    r["hands"][0][3] = 17
    return r, "hands[0]: unknown card 17"


def m_lay_not_held(golden):
    r, _ = _find(golden, _played())
    i = next(i for i, turn in enumerate(r["auction"]) if turn)
    seat = _seat(r, i)
    r["auction"][i][0] = _foreign_card(r, seat)
    return r, f"auction turn {i} (seat {seat}): lays {r['auction'][i][0]}, which is not in hand"


def m_lay_twice(golden):
    """A seat lays again a card it laid on an earlier turn (same count, so the limit is unchanged)."""

    def want(record, expected):
        seats = [_seat(record, i) for i, turn in enumerate(record["auction"]) if turn]
        return len(seats) != len(set(seats))

    r, _ = _find(golden, want)
    first = {}  # seat -> a single-copy card it laid
    for i, turn in enumerate(r["auction"]):
        seat = _seat(r, i)
        if turn and seat in first:
            turn[0] = first[seat]
            return r, f"auction turn {i} (seat {seat}): lays {turn[0]}, which is not in hand (already laid)"
        single = [c for c in turn if r["hands"][seat].count(c) == 1]
        if single:
            first[seat] = single[0]


def m_lay_over_limit(golden):
    """The dealer opens with one card more than the single card allowed."""
    r, _ = _find(golden, lambda record, _: len(record["auction"][0]) == 1)
    dealer = r["dealer"]
    laid_later = {c for i, turn in enumerate(r["auction"]) if _seat(r, i) == dealer for c in turn}
    r["auction"][0].append(next(c for c in r["hands"][dealer] if c not in laid_later))
    return r, f"auction turn 0 (seat {dealer}): lays 2 cards, limit is 1"


def m_pass_after_end(golden):
    r, _ = _find(golden, _played())
    r["auction"].append([])
    return r, f"auction turn {len(r['auction']) - 1} "


def _unlaid(record, expected, seat):
    return [c for c in record["hands"][seat] if c not in expected["laid"][seat]]


def m_lay_after_end(golden):
    r, e = _find(golden, lambda record, expected: _unlaid(record, expected, _seat(record, len(record["auction"]))))
    turn = len(r["auction"])
    seat = _seat(r, turn)
    r["auction"].append(_unlaid(r, e, seat)[:1])
    return r, f"auction turn {turn} (seat {seat}): the auction already ended"


def m_auction_not_ended(golden):
    r, _ = _find(golden, _played())
    r["auction"].pop()
    return r, "auction: not ended"


def m_auction_not_list(golden):
    r, _ = _find(golden, _played())
    r["auction"] = {"0": []}
    return r, "auction:"


def m_turn_not_list(golden):
    r, _ = _find(golden, _played())
    r["auction"][0] = "R1"
    return r, f"auction turn 0 (seat {r['dealer']}): expected a list"


def m_chief_trump_missing(golden):
    r, _ = _find(golden, _played())
    del r["chief_trump"]
    return r, "chief_trump: missing"


def m_chief_trump_unknown(golden):
    r, _ = _find(golden, _played())
    r["chief_trump"] = "X"
    return r, "chief_trump: unknown trump type"


def m_vice_trump_missing(golden):
    r, _ = _find(golden, _played(vice=True))
    r["vice_trump"] = None
    return r, "vice_trump: missing"


def m_vice_trump_without_vice(golden):
    r, _ = _find(golden, _played(vice=False))
    r["vice_trump"] = "R"
    return r, "vice_trump: there is no vice"


def m_vice_trump_not_laid(golden):
    r, e = _find(golden, _played(vice=True))
    r["vice_trump"] = next(t for t in COLOURS + "0123456789" if t not in _laid_types(e["laid"][e["vice"]]))
    return r, f"vice_trump: {r['vice_trump']} is not among vice seat {e['vice']}'s laid cards"


def m_chief_trump_not_laid(golden):
    r, e = _find(golden, _played())
    absent = _laid_types(e["laid"][e["chief"]]) | {e["vice_trump"]}
    r["chief_trump"] = next(t for t in COLOURS + "0123456789" if t not in absent)
    return r, f"chief_trump: {r['chief_trump']} is not among chief seat {e['chief']}'s laid cards"


def m_chief_names_vice_trump(golden):
    def want(record, expected):
        return (
            expected["outcome"] == "played"
            and expected["vice_trump"] is not None
            and expected["vice_trump"] in _laid_types(expected["laid"][expected["chief"]])
        )

    r, e = _find(golden, want)
    r["chief_trump"] = e["vice_trump"]
    return r, "chief_trump: " + e["vice_trump"] + " is already the vice trump"


def m_partner_missing(golden):
    r, _ = _find(golden, _played(n=5))
    del r["partner"]
    return r, "partner: missing"


def m_partner_is_chief(golden):
    r, e = _find(golden, _played(n=5))
    r["partner"] = e["chief"]
    return r, f"partner: {e['chief']} is not allowed"


def m_partner_is_vice(golden):
    r, e = _find(golden, _played(vice=True))
    r["partner"] = e["vice"]
    return r, f"partner: {e['vice']} is not allowed"


def m_partner_out_of_range(golden):
    r, _e = _find(golden, _played(n=4))
    r["partner"] = 4
    return r, "partner: 4 is not allowed"


def m_partner_not_int(golden):
    r, _e = _find(golden, _played(n=6))
    r["partner"] = True
    return r, "partner: true is not allowed"


def m_partner_with_three(golden):
    r, _ = _find(golden, _played(n=3))
    r["partner"] = 1
    return r, "partner: must be null with 3 players"


def m_play_not_held(golden):
    r, e = _find(golden, _played())
    r["play"][0] = _foreign_card(r, e["chief"])
    return r, f"play card 0 (seat {e['chief']}, trick 0): {r['play'][0]} is not held"


def m_play_unknown_card(golden):
    r, _e = _find(golden, _played())
    r["play"][1] = "R"
    return r, "play card 1 (seat "


def m_fails_to_follow(golden):
    """Swap a following card with a later card of another class by the same seat."""
    for record, expected in golden:
        if expected["outcome"] != "played":
            continue
        klass, _, _ = rules.contract(
            parse_type(expected["chief_trump"], allow_none=True),
            parse_type(expected["vice_trump"]) if expected["vice_trump"] else -1,
        )

        def cls(card, klass=klass):
            return klass[MU.copies(card)[0]]

        n = record["players"]
        plays = [
            (k * n + j, (t["leader"] + j) % n, t["cards"][j], cls(t["cards"][0]))
            for k, t in enumerate(expected["tricks"])
            for j in range(n)
        ]
        for pos, seat, card, led in plays:
            if pos % n == 0 or cls(card) != led:
                continue
            later = next((q for q, s, c, _ in plays if q > pos and s == seat and cls(c) != led), None)
            if later is not None:
                r = copy.deepcopy(record)
                r["play"][pos], r["play"][later] = r["play"][later], r["play"][pos]
                colour = "trump" if led == rules.TRUMP else COLOURS[led]
                return r, f"play card {pos} (seat {seat}, trick {pos // n}): {r['play'][pos]} fails to follow {colour}"
    pytest.fail("no golden record fits this mutation")


def m_play_too_few(golden):
    r, _ = _find(golden, _played())
    r["play"].pop()
    return r, f"play: {len(r['play'])} cards, expected {len(r['play']) + 1}"


def m_play_too_many(golden):
    r, _ = _find(golden, _played())
    r["play"].append(r["play"][0])
    return r, f"play: {len(r['play'])} cards"


def m_play_missing(golden):
    r, _ = _find(golden, _played())
    del r["play"]
    return r, "play: expected a list"


def m_play_not_list(golden):
    r, _ = _find(golden, _played())
    r["play"] = " ".join(r["play"])
    return r, "play: expected a list"


def m_play_on_eklat(golden):
    r, _ = _find(golden, _eklat)
    r["play"] = ["R1"]
    return r, "play: must be empty"


def m_trump_on_eklat(golden):
    r, _ = _find(golden, _eklat)
    r["chief_trump"] = "R"
    return r, "chief_trump: must be null"


MUTATIONS = [f for name, f in sorted(globals().items()) if name.startswith("m_")]


@pytest.mark.parametrize("mutate", MUTATIONS, ids=lambda f: f.__name__[2:])
def test_illegal_record_names_the_item(golden, mutate):
    record, needle = mutate(golden)
    with pytest.raises((InputError, CardError)) as info:
        replay(record)
    message = str(info.value)
    assert needle in message
    assert "\n" not in message


def test_illegal_records_via_cli(golden, tmp_path):
    """Every mutation through `musim replay`: one error line each, in order, exit status 1."""
    cases = [mutate(golden) for mutate in MUTATIONS]
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record, _ in cases))
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert len(lines) == len(cases)
    for (_, needle), line in zip(cases, lines):
        assert set(line) == {"error"} and needle in line["error"]


def test_cli_mixed_batch_keeps_order_and_continues(golden):
    bad, needle = m_lay_over_limit(golden)
    text = "\n".join([json.dumps(golden[0][0]), "{not json", json.dumps(bad), "[1, 2]", json.dumps(golden[3][0])])
    result = CliRunner().invoke(cli, ["replay", "-"], input=text + "\n")
    assert result.exit_code == 1
    out = [json.loads(line) for line in result.output.splitlines()]
    assert len(out) == 5
    assert _sorted_laid(out[0]) == golden[0][1]
    assert "line 2: malformed JSON" in out[1]["error"]
    assert needle in out[2]["error"]
    assert "line 4" in out[3]["error"]
    assert _sorted_laid(out[4]) == golden[3][1]
    assert "Traceback" not in result.output


def test_cli_all_golden_exit_zero():
    result = CliRunner().invoke(cli, ["replay", str(RECORDS)])
    assert result.exit_code == 0
    expected = _lines(EXPECTED)
    assert [_sorted_laid(json.loads(line)) for line in result.output.splitlines()] == expected


def test_cli_single_pretty_printed_object(golden):
    result = CliRunner().invoke(cli, ["replay", "-"], input=json.dumps(golden[5][0], indent=2))
    assert result.exit_code == 0
    assert _sorted_laid(json.loads(result.output)) == golden[5][1]


def test_cli_unreadable_file_is_usage_error(tmp_path):
    result = CliRunner().invoke(cli, ["replay", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2
    assert "cannot read" in result.output and "Traceback" not in result.output


def test_random_corruptions_never_crash(golden):
    """Arbitrary JSON in any field gives a result or a one-line error, never another exception."""
    rng = random.Random(7)
    junk = [None, True, -1, 1.5, 99, "", "R7", "none", "X", [], [[]], ["R7", "R7"], {}, [None]]
    for _ in range(600):
        record = copy.deepcopy(rng.choice(golden)[0])
        lists = [record["hands"], *record["hands"], record["auction"], *record["auction"], record.get("play", [])]
        slots = [(record, key) for key in [*record, "partner", "play"]]
        slots += [(seq, i) for seq in lists for i in range(len(seq))]
        container, key = rng.choice(slots)
        if rng.random() < 0.5:
            container[key] = rng.choice(junk)
        elif isinstance(container, list):  # a swap keeps the shapes but breaks the order
            other = rng.randrange(len(container))
            container[key], container[other] = container[other], container[key]
        try:
            result = replay(record)
        except (InputError, CardError) as exc:
            assert "\n" not in str(exc)
        else:
            json.dumps(result)


def test_non_ascii_digit_is_a_card_error(golden):
    record = copy.deepcopy(golden[0][0])
    record["hands"][0][0] = "R²"
    with pytest.raises((InputError, CardError)):
        replay(record)
