"""`musim show` of the games played turn by turn (Rummü, Safarü, Reverse Safarü, Calcory, Danger,
Zwickern): for the example records and for `musim record` of a deal of random play, every turn is
named in order and the scores are the replay's; where the shown lines allow it, they are checked
against a small computation of their own (cards won, round points, the deal), not against the
formatter's code."""

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.core.deck import MU, ZWICKERN

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
FILES = {
    "rummue": "rummue",
    "safarue": "safarue",
    "reverse-safarue": "safarue",
    "calcory": "calcory",
    "danger": "danger",
    "zwickern": "zwickern",
}
RANDOM_DEALS = [  # (game, players, seed, deal) of random play, recorded by `musim record`
    ("rummue", 5, 31, 7),
    ("safarue", 3, 5, 2),
    ("reverse-safarue", 4, 8, 1),
    ("calcory", 3, 12, 4),
    ("danger", 4, 3, 9),
    ("zwickern", 4, 6, 3),
]
TURN = re.compile(r"^turn (\d+), seat (\d+): (.*)$")
PER_SEAT = re.compile(r"seat (\d+) ([+-]?\d+)")

pytestmark = pytest.mark.slow  # each game's replay compiled again with its per-turn trace


def invoke(*args, input=None):
    res = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert res.exit_code == 0, res.output
    return res.stdout


def example_records(game):
    lines = (EXAMPLES / f"{FILES[game]}-records.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r["game"] == game]


def random_record(game, players, seed, deal):
    return json.loads(
        invoke("record", "--game", game, "--players", players, "--play", "random", "--seed", seed, "--deal", deal)
    )


def shown(record):
    """(the lines `musim show` prints for the record, its `musim replay` result, the turn lines parsed)."""
    text = json.dumps(record) + "\n"
    lines = invoke("show", "-", input=text).rstrip("\n").split("\n")
    result = json.loads(invoke("replay", "-", input=text))
    turns = [TURN.match(line).groups() for line in joined(lines) if TURN.match(line)]
    return lines, result, [(int(k), int(s), what) for k, s, what in turns]


def records_of(game):
    return [*example_records(game), random_record(*next(d for d in RANDOM_DEALS if d[0] == game))]


def check_common(lines, result, turns, count):
    """Every turn named once, in order; the last line the replay's scores; 100 columns at most."""
    assert [k for k, _, _ in turns] == list(range(count))
    assert [int(v) for _, v in PER_SEAT.findall(lines[-1])] == result["scores"]
    assert lines[-1].startswith("scores")
    assert max(map(len, lines)) <= 100
    assert not any(line.strip() == "" for line in lines)


def cards_after(line, word):
    """The cards after `word` in a turn's text, up to the next ',', ';' or ':'."""
    return re.split(r"[,;:]", line.split(word, 1)[1])[0].split()


def joined(lines):
    """The lines with their continuations (wrapped, indented 4 deeper) joined back."""
    out = []
    for line in lines:
        if out and line.startswith(" " * (len(out[-1]) - len(out[-1].lstrip()) + 4)):
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


@pytest.mark.parametrize("game", ["safarue", "reverse-safarue"])
def test_safarue_every_turn_and_the_cards_caught_add_up_to_the_replay(game):
    for record in records_of(game):
        lines, result, turns = shown(record)
        check_common(lines, result, turns, len(record["turns"]))
        assert [s for _, s, _ in turns] == [t["seat"] for t in result["turns"]]
        caught = [Counter() for _ in result["scores"]]
        for (_, s, what), entry in zip(turns, record["turns"]):
            assert what.startswith(f"plays {entry['card']}")
            if "catches" in what:
                caught[s] += Counter(cards_after(what, "catches "))
        for s, cards in enumerate(result["caught"]):
            assert caught[s] == Counter(cards)
        # the deals: the first round's hands and table are the record's
        start = next(i for i, line in enumerate(lines) if line.startswith("round 0:"))
        for s, hand in enumerate(record["hands"]):
            assert Counter(lines[start + 1 + s].split(": ")[1].split()) == Counter(hand)
        assert Counter(lines[start + 1 + len(record["hands"])].split(": ")[1].split()) == Counter(record["table"])


def test_zwickern_every_turn_and_the_cards_won_add_up_to_the_replay():
    for record in records_of("zwickern"):
        lines, result, turns = shown(record)
        check_common(lines, result, turns, len(record["turns"]))
        n = record["players"]
        won = [0] * n
        for (_, s, what), entry in zip(turns, record["turns"]):
            assert entry["card"] in re.split(r"[ ,;:]+", what.split(";")[0])
            if "buy" in entry:  # the buyer wins the cards bought and the card played
                won[s] |= ZWICKERN.parse(cards_after(what, "buys ")) | ZWICKERN.parse([entry["card"]])
        assert [ZWICKERN.format(w) for w in won] == result["won"]
        zwicks = [sum(": a Zwick" in what and s == t for _, t, what in turns) for s in range(n)]
        assert zwicks == result["parts"]["zwicks"]


def test_calcory_every_turn_and_the_cards_kept_add_up_to_the_cards_won():
    for record in records_of("calcory"):
        lines, result, turns = shown(record)
        check_common(lines, result, turns, len(record["turns"]))
        assert [s for _, s, _ in turns] == [t["seat"] for t in result["turns"]]
        won = [Counter() for _ in result["scores"]]
        for _, s, what in turns:
            if "keeps " in what:
                won[s] += Counter(c for c in cards_after(what, "keeps ") if c != "-")
        for line in lines:
            if line.startswith("then seat"):
                won[int(line.split()[2])] += Counter(line.split("mark ")[1].split())
        for s, cards in enumerate(result["won"]):
            assert won[s] == Counter(cards) and result["scores"][s] == len(cards)
        grid = [line.split(": ")[1].split() for line in lines if line.startswith("  row ")]
        assert [card for row in grid for card in row] == record["grid"]


def test_danger_every_turn_and_the_round_points_add_up_to_the_scores():
    for record in records_of("danger"):
        lines, result, turns = shown(record)
        check_common(lines, result, turns, len(record["turns"]))
        rounds = [[int(v) for _, v in PER_SEAT.findall(x)] for x in lines if x.startswith("  round points:")]
        assert rounds == result["rounds"]
        assert [sum(r[s] for r in rounds) for s in range(record["players"])] == result["scores"]
        stock = iter(record["stock"])
        for (_, _, what), entry in zip(turns, record["turns"]):
            if "reshuffled" in what:
                break
            if entry["take"] == "stock":
                assert what.startswith(f"takes {next(stock)} from the stock")  # the stock, top first
            if entry.get("secure"):
                assert what.endswith(f"secures {entry['secure']}")


def test_rummue_every_turn_the_deal_and_the_cards_drawn_from_the_stock():
    for record in records_of("rummue"):
        lines, result, turns = shown(record)
        check_common(lines, result, turns, len(record["turns"]))
        n, deck = record["players"], record["deck"]
        size = {3: 9, 4: 8, 5: 7, 6: 6}[n]  # cards dealt to each seat, docs/rules.md §5.1
        start = lines.index("hands:") + 1
        for s in range(n):  # dealt one at a time from the seat left of the dealer
            dealt = [deck[j] for j in range(n * size) if (record["dealer"] + 1 + j) % n == s]
            assert MU.parse(lines[start + s].split(": ")[1].split()) == MU.parse(dealt)
        stock = deck[n * size + 1 :]  # drawn from the top down until the first restock
        for (k, s, what), entry in zip(turns, record["turns"]):
            assert s == (record["dealer"] + 1 + k) % n and what.endswith(
                f"discards {entry['discard']}"
                + (" and goes out" if k == len(turns) - 1 and result["out"] is not None else "")
            )
            if "restock" in entry:
                break
            if entry["draw"] == "stock":
                assert what.startswith(f"draws {stock.pop(0)} from the stock")
        melds = [x for x in lines if x.startswith("  meld ")]
        assert [int(re.search(r": (-?\d+) points?", m).group(1)) for m in melds] == [
            m["points"] for m in result["melds"]
        ]
