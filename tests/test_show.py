"""`musim show`: the example records of Mü, Wimmüln, The Last Panther and Mückenstich printed for a
person, checked against their replay results (every trick's winner and points, the scores), and
bad records refused in one line before anything is printed."""

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.core.deck import MU, MUECKENSTICH

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
TRICK = re.compile(r"^trick (\d+), seat (\d+) leads: (.*) -> seat (\d+)(?:, (-?\d+) points?)?(?: \((.*)\))?$")
PER_SEAT = re.compile(r"seat (\d+) ([+-]?\d+)")
MOSQUITO_PENALTY = 5  # docs/rules.md §8: each colour of mosquito a seat wins costs it 5 points


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def musim(*args, input=""):
    """The real entry point, whose errors are one line (CliRunner prints click's usage text)."""
    return subprocess.run([sys.executable, "-m", "musim", *map(str, args)], capture_output=True, text=True, input=input)


def example_records(game):
    """The example records of `game`: mu-records.jsonl for Mü, the JSON blocks of
    docs/examples/README.md for the others."""
    if game == "mu":
        return [json.loads(line) for line in (EXAMPLES / "mu-records.jsonl").read_text().splitlines()]
    blocks = re.findall(r"^```json\n(.*?)^```$", (EXAMPLES / "README.md").read_text(encoding="utf-8"), re.M | re.S)
    return [o for o in map(json.loads, blocks) if o.get("game") == game and "dealer" in o]


def shown_and_replayed(records):
    """Per record: (the lines `musim show` printed for it, the record, its replay result)."""
    text = "".join(json.dumps(r) + "\n" for r in records)
    shown = invoke("show", "-", input=text)
    assert shown.exit_code == 0, shown.output
    replayed = invoke("replay", "-", input=text)
    assert replayed.exit_code == 0, replayed.output
    deals = shown.stdout.rstrip("\n").split("\n\n")
    assert len(deals) == len(records)
    results = [json.loads(line) for line in replayed.stdout.splitlines()]
    return list(zip([d.splitlines() for d in deals], records, results, strict=True))


def line_of(lines, title):
    return next(line for line in lines if line.startswith(title + ":"))


def per_seat(lines, title):
    return [int(v) for _, v in PER_SEAT.findall(line_of(lines, title))]


def tricks_of(lines):
    return [TRICK.match(line).groups() for line in lines if line.startswith("trick ")]


def check_hands(lines, record, deck):
    """The hands as dealt, in the deck's notation (any order)."""
    start = lines.index("hands:") + 1
    for s, hand in enumerate(record["hands"]):
        assert lines[start + s].startswith(f"  seat {s}: ")
        assert Counter(lines[start + s].split(": ")[1].split()) == Counter(hand)
        assert deck.parse(hand) == deck.parse(lines[start + s].split(": ")[1].split())


def check_tricks(lines, result, n, with_points=True):
    """Every trick: its leader, cards, the starred winning card and the winner, its points."""
    shown = tricks_of(lines)
    assert len(shown) == len(result["tricks"]) > 0
    for k, (t, (index, leader, cards, winner, points, _)) in enumerate(zip(result["tricks"], shown)):
        assert (int(index), int(leader), int(winner)) == (k, t["leader"], t["winner"])
        assert cards.replace("*", "").split() == t["cards"]
        assert cards.split().index(t["cards"][(t["winner"] - t["leader"]) % n] + "*") == (t["winner"] - t["leader"]) % n
        if with_points:
            assert int(points) == t["points"]
    return shown


def points_by_winner(shown, n):
    won = [0] * n
    for _, _, _, winner, points, _ in shown:
        won[int(winner)] += int(points)
    return won


def test_mu_every_trick_and_the_score_of_played_deals_and_eklats():
    records = example_records("mu")
    deals = shown_and_replayed(records)
    assert {result["outcome"] for _, _, result in deals} == {"played", "eklat"}
    for lines, record, result in deals:
        n = record["players"]
        check_hands(lines, record, MU)
        assert per_seat(lines, "scores") == result["scores"]
        assert sum(line.startswith("  turn ") for line in lines) == len(record["auction"])
        if result["outcome"] == "eklat":
            assert any(line.startswith("eklat:") for line in lines) and not tricks_of(lines)
            continue
        shown = check_tricks(lines, result, n)
        assert points_by_winner(shown, n) == per_seat(lines, "card points") == result["card_points"]
        contract = f"chief seat {result['chief']}, bid {result['bid']} (target {result['target']})"
        assert any(line.startswith(contract) for line in lines)


def test_wimmueln_every_trick_and_the_score():
    records = example_records("wimmueln")
    for lines, record, result in shown_and_replayed(records):
        n = record["players"]
        check_hands(lines, record, MU)
        shown = check_tricks(lines, result, n)
        assert points_by_winner(shown, n) == per_seat(lines, "card points") == result["card_points"]
        assert per_seat(lines, "tricks won") == [sum(int(t[3]) == s for t in shown) for s in range(n)]
        assert per_seat(lines, "estimate bonus") == result["bonus"]
        assert per_seat(lines, "scores") == result["scores"]


def test_the_last_panther_every_trick_and_the_score():
    records = example_records("panther")
    for lines, record, result in shown_and_replayed(records):
        n = record["players"]
        check_hands(lines, record, MU)
        shown = check_tricks(lines, result, n)
        last = int(shown[-1][3])
        bonus = int(line_of(lines, "last trick").split("+")[1])
        assert line_of(lines, "last trick").startswith(f"last trick: seat {result['last_trick']}")
        expected = [p + (bonus if s == last else 0) for s, p in enumerate(points_by_winner(shown, n))]
        assert per_seat(lines, "scores") == result["scores"] == expected


def test_mueckenstich_every_trick_its_trump_and_the_score():
    """A trick's points are its number cards' worth; the scores add -5 for each colour of mosquito a
    seat won (docs/rules.md §8), here counted from the tricks as shown."""
    records = example_records("mueckenstich")
    for lines, record, result in shown_and_replayed(records):
        n = record["players"]
        check_hands(lines, record, MUECKENSTICH)
        shown = check_tricks(lines, result, n, with_points=False)
        colours = [set() for _ in range(n)]
        for t, (_, _, cards, winner, _, notes) in zip(result["tricks"], shown):
            assert f"trump {t['trump_after'] or 'none'}" in notes
            colours[int(winner)] |= {c[0] for c in cards.replace("*", "").split() if c.split(":")[0].endswith("M")}
        assert per_seat(lines, "mosquitoes won") == result["mosquitoes"]
        expected = [p - MOSQUITO_PENALTY * len(c) for p, c in zip(points_by_winner(shown, n), colours)]
        assert per_seat(lines, "scores") == result["scores"] == expected


def test_a_bad_record_is_refused_in_one_line_naming_it_before_anything_is_printed():
    good, bad = example_records("wimmueln")[0], dict(example_records("wimmueln")[0])
    bad["play"] = [bad["play"][1], bad["play"][0], *bad["play"][2:]]
    text = json.dumps(good) + "\n" + json.dumps(bad) + "\n"
    res = musim("show", "-", input=text)
    reason = json.loads(invoke("replay", "-", input=text).stdout.splitlines()[1])["error"]
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr.splitlines() == [f"musim: error: item 1: {reason}"]


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"game": "poker"}\n', 'item 0: game: unknown game "poker" for `musim show`'),
        ("not json\n", "item 0: line 1: malformed JSON"),
        ("", "no records in standard input"),
    ],
)
def test_what_is_not_a_record_is_refused(text, words):
    res = invoke("show", input=text)
    assert res.exit_code != 0 and res.stdout == ""
    assert words in res.stderr and "Traceback" not in res.stderr


def test_a_mu_deal_where_everyone_passed_says_so():
    record = json.loads(invoke("record", "--players", 3, "--seed", 1, "--deal", 0).output)
    passed = {k: record[k] for k in ("game", "players", "dealer", "hands")} | {"auction": [[], [], []]}
    res = invoke("show", "-", input=json.dumps(passed))
    assert res.exit_code == 0, res.output
    assert "eklat: every player passed (all tie at 0 cards laid)" in res.output.splitlines()
