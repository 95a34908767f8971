"""`musim replay` and `musim solve` on damaged input (docs/examples/README.md "Batches"), fuzzed by hypothesis:
garbage text, truncated lines, any JSON value put anywhere in a valid record or position, every
card text put in any play. Whatever comes in, each item gets one JSON object line (a result, or
{"error": ...} naming what is wrong), the exit code says whether all were valid, and nothing
escapes as a traceback."""

import copy
import functools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from musim.cli import cli
from musim.games import all_games

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
MAX_POSITION_CARDS = 16  # solve only small positions: the fuzz is about input, not search time
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 70) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
CARD_TEXTS = st.sampled_from(["R7", "K7", "Y2", "G9", "B0", "R1", "RM", "RM:G", "R12", "Y0", "K9", "X1", "r7", "R 7"])
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def records():
    """A few records of every game with records, from its own `record` (the Mü examples too); made on
    first use, not at import, where both test workers would wait on their compiles while collecting."""
    from musim.engine.spec import RunSpec, checked

    records = [json.loads(line) for line in (EXAMPLES / "mu-records.jsonl").read_text().splitlines()[:6]]
    for game in all_games():
        if game.record is None or game.name == "mu":
            continue
        for index in range(2):
            spec = RunSpec(game.name, "deals", index + 1, game.default_players, "random", seed=5)
            checked(spec)
            records.append(game.record(spec, index))
    return records


POSITIONS = [
    json.loads(line)
    for name in ("mu-positions.jsonl", "bridge-positions.jsonl")
    for line in (EXAMPLES / name).read_text().splitlines()
]


def batch(command, text, *options):
    """(exit code, output objects) of `musim COMMAND -` on `text`."""
    res = CliRunner().invoke(cli, [command, *options, "-"], input=text)
    assert res.exit_code in (0, 1), res.output
    lines = res.stdout.splitlines()
    objects = [json.loads(line) for line in lines]
    assert all(isinstance(o, dict) for o in objects)
    assert all("\n" not in o["error"] and o["error"] for o in objects if "error" in o)
    assert res.exit_code == (1 if any("error" in o for o in objects) else 0)
    return objects


def _replace_somewhere(obj, data, value):
    """obj with one node (a field, or an item of a list at any depth) replaced by value."""
    obj = copy.deepcopy(obj)
    container, key = obj, data.draw(st.sampled_from(sorted(obj)))
    while isinstance(container[key], list) and container[key] and data.draw(st.booleans()):
        container, key = container[key], data.draw(st.integers(0, len(container[key]) - 1))
    container[key] = value
    return obj


def _small(position):
    hands = position.get("hands")
    if not isinstance(hands, list):
        return True
    return sum(len(h) for h in hands if isinstance(h, list)) <= MAX_POSITION_CARDS


@FUZZ
@given(text=st.text(max_size=200))
def test_garbage_text_gets_one_error_line_per_item(text):
    for command in ("replay", "solve"):
        objects = batch(command, text, *(["--tt-mb", "1"] if command == "solve" else []))
        assert all("error" in o for o in objects)


@FUZZ
@given(data=st.data())
def test_a_truncated_line_is_an_error_and_the_lines_around_it_are_answered(data):
    record = json.dumps(data.draw(st.sampled_from(records())))
    cut = record[: data.draw(st.integers(1, len(record) - 1))]
    objects = batch("replay", "\n".join([record, cut, record]))
    assert len(objects) == 3 and "error" in objects[1] and objects[0] == objects[2]


@FUZZ
@given(data=st.data(), value=JSON_VALUES)
def test_any_value_anywhere_in_a_record_is_replayed_or_named(data, value):
    record = _replace_somewhere(data.draw(st.sampled_from(records())), data, value)
    assert len(batch("replay", json.dumps(record))) == 1


@FUZZ
@given(data=st.data(), card=CARD_TEXTS)
def test_any_card_in_any_play_is_replayed_or_named(data, card):
    record = copy.deepcopy(data.draw(st.sampled_from([r for r in records() if r.get("play")])))
    record["play"][data.draw(st.integers(0, len(record["play"]) - 1))] = card
    (result,) = batch("replay", json.dumps(record))
    assert "error" in result or "scores" in result


@FUZZ
@given(data=st.data(), value=JSON_VALUES | CARD_TEXTS)
def test_any_value_anywhere_in_a_position_is_solved_or_named(data, value):
    position = _replace_somewhere(data.draw(st.sampled_from(POSITIONS)), data, value)
    assume(_small(position))
    assert len(batch("solve", json.dumps(position), "--tt-mb", "1")) == 1


@pytest.mark.parametrize("line_break", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\r"])
def test_json_lines_split_on_newlines_only(line_break):
    """A string holding another line-breaking character stays one item."""
    record = copy.deepcopy(records()[0])
    record["comment"] = f"a{line_break}b"
    objects = batch("replay", json.dumps(record, ensure_ascii=False) + "\n" + json.dumps(records()[0]))
    assert len(objects) == 2
