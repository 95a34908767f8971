"""`musim show` for Danger: the face-down stock, every turn (the card taken, the row it went to
and the row's total, or its discard, a row blocked or secured), each round's rows as they were
scored with the round's points, and the totals.

Where each card went and what each round scored come from the replay (record.replay, with a
trace read off the kernels' state): nothing here decides a rule.
"""

from musim.games.danger import record as records
from musim.games.danger.rules import BLOCKED, COLOUR_NAMES, SECURED
from musim.io import show as text

STATES = {SECURED: " secured", BLOCKED: " blocked"}
ENDS = {"fourth": "a fourth row closed", "exhausted": "no card left to take", "capped": "500 turns"}


def show(record, result):
    """The lines a person reads of one Danger game (record checked by replay)."""
    trace = []
    records.replay(record, trace)
    n, options = record["players"], {k: record.get(k, v[0]) for k, v in records.OPTIONS.items()}
    lines = [
        f"Danger, {n} players, " + ", ".join(f"{k} {v}" for k, v in options.items()),
        f"{text.seat(record['dealer'])} dealt; the stock, {len(record['stock'])} cards face down, top first:",
        "  " + " ".join(record["stock"]),
    ]
    rows, headers, first = [], {}, 0
    for k, step in enumerate(trace):
        if k == first:
            headers[k] = headers.get(k, []) + [f"round {step['round']}: {text.seat(step['seat'])} starts"]
        rows.append((step["seat"], _turn(step)))
        if "end" in step:
            end, first = step["end"], k + 1
            headers[first] = [f"round {step['round']} ends ({ENDS[end['why']]}), its rows as scored:"]
            headers[first] += [f"  {text.seat(s)}: {_rows(r)}" for s, r in enumerate(end["rows"])]
            headers[first].append(text.score_line(end["points"], "  round points"))
    lines += text.turns_between(rows, headers) + headers.get(len(trace), [])
    lines.append(f"reshuffles: {result['reshuffles']}")
    lines.append(text.score_line(result["scores"]))
    return text.fit(lines)


def _turn(step):
    """'takes R7 from the stock: row R 12, secures B' (a trace step of record.replay)."""
    source = "the discard" if step["take"] == "discard" else "from the stock"
    what = f"takes {step['card']} {source}" if source != "the discard" else f"takes the discard {step['card']}"
    if step["reshuffle"]:
        what = "the discards are reshuffled into a new stock; " + what
    if step["row"] is None:
        what += ": no open row, discarded"
    else:
        total, state = step["rows"][COLOUR_NAMES.index(step["row"])]
        what += f": row {step['row']} {total}" + (", blocked" if state == BLOCKED else "")
    return what + (f", secures {step['secured']}" if step["secured"] else "")


def _rows(rows):
    """'R 12 secured, Y 19 blocked, G 10, B 0'."""
    return ", ".join(f"{COLOUR_NAMES[c]} {total}{STATES.get(state, '')}" for c, (total, state) in enumerate(rows))
