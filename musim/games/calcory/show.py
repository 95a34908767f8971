"""`musim show` for Calcory: the face-down grid, every turn (the positions turned and their
cards, then a failure, a stop and the marks' sum, or 13, the cards kept and the one put back),
what ended the game, the cards each seat won and the scores.

Outcomes come from the replay's result, the cards each turn won and the marks' sums from its
trace (record.replay): nothing here decides a rule.
"""

from musim.core.deck import MU as DECK
from musim.games.calcory import record as records
from musim.games.calcory.rules import CELLS
from musim.io import show as text

COLUMNS = 10  # the grid's rows hold positions 10 r .. 10 r + 9
ENDS = {
    "single": "a single marked card survived a round",
    "exhausted": "no face-down card was left",
    "cap": "the 1,000th turn was played",
}


def show(record, result):
    """The lines a person reads of one Calcory game (record checked by replay)."""
    trace = []
    records.replay(record, trace)
    n, grid = record["players"], record["grid"]
    lines = [
        f"Calcory, {n} players, memory {record.get('memory', 1.0)}; {text.seat(record['dealer'])} dealt, "
        f"{text.seat((record['dealer'] + 1) % n)} starts",
        "grid, every card face down (position 10 x row + column):",
        *(f"  row {r}: {' '.join(grid[r * COLUMNS : (r + 1) * COLUMNS])}" for r in range(CELLS // COLUMNS)),
    ]
    rows = [
        (turn["seat"], _turn(entry, turn, step["won"].get(turn["seat"], []), step["marks"]))
        for entry, turn, step in zip(record["turns"], result["turns"], trace)
    ]
    lines += text.turns(rows)
    if trace:  # a seat's single surviving mark, taken without a choice (so without a turn in the record)
        last = result["turns"][-1]["seat"]
        lines += [
            f"then {text.seat(s)} takes its single surviving mark {' '.join(c)}"
            for s, c in trace[-1]["won"].items()
            if s != last
        ]
    lines.append(f"the game ends: {ENDS[result['end']]}; {result['left']} cards left on the grid, nobody's")
    lines += ["won:", *(f"  {text.seat(s)}: {text.cards(DECK, w)}" for s, w in enumerate(result["won"]))]
    lines.append(text.score_line(result["scores"], "scores (cards won)"))
    return text.fit(lines)


def _turn(entry, turn, kept, marks):
    """'turns 36 Y7, 16 R1 and stops: marks worth 8' (a record turn, its result and trace)."""
    back = f"puts {turn['back'][0]} back on {turn['back'][1]}" if "back" in turn else ""
    if turn["outcome"] == "took its marks":
        return f"takes its marks, keeps {' '.join(kept) or '-'}, {back}"
    turned = ", ".join(f"{p} {c}" for p, c in zip(entry["turn"], turn["turned"]))
    if turn["outcome"] == "failed":
        return f"turns {turned}: fails"
    if turn["outcome"] == "stopped":
        return f"turns {turned} and stops: marks worth {marks}"
    return f"turns {turned}: 13, keeps {' '.join(kept)}, {back}"
