"""`musim show` for Safarü and Reverse Safarü: each round's deal, every turn with the methods
used, the cards caught and the table after it, then the cards caught, the bonuses and the scores.

What a turn caught and left, the rounds' deals and the bonuses come from the replay
(record.replay, with a trace): nothing here decides a rule.
"""

from musim.core.deck import MU as DECK
from musim.games.safarue import record as records
from musim.games.safarue.rules import METHODS
from musim.io import show as text

BONUSES = {False: ("most blue", "most yellow"), True: ("most cards", "most yellow")}  # rules.score's first, second


def show(record, result):
    """The lines a person reads of one Safarü or Reverse Safarü game (record checked by replay)."""
    reverse = record["game"] == records.NAMES[True]
    trace = {}
    records.replay(record, trace)
    n = record["players"]
    title = "Reverse Safarü" if reverse else "Safarü"
    sides = ", partners opposite (seats 0 and 2, 1 and 3)" if n == 4 else ""
    lines = [f"{title}, {n} players{sides}; {text.seat(record['dealer'])} deals first"]
    headers = {}
    for r, deal in enumerate(trace["rounds"]):
        headers[deal["turn"]] = [
            f"round {r}: {text.seat(deal['dealer'])} deals, {deal['stock']} cards left face down in the stock",
            *text.hands(DECK, deal["hands"], "  hands")[1:],
            f"  table: {text.cards(DECK, deal['table'])}",
        ]
    rows = [(t["seat"], _turn(entry, t)) for entry, t in zip(record["turns"], result["turns"])]
    lines += text.turns_between(rows, headers)
    lines += [f"left on the table, nobody's: {text.cards(DECK, result['left'])}", "caught:"]
    lines += [
        f"  {text.seat(s)}: {text.cards(DECK, c)} ({text.count(len(c), 'card')})"
        for s, c in enumerate(result["caught"])
    ]
    for name, bonus in zip(BONUSES[reverse], trace["bonuses"]):
        lines.append(
            f"{name}: " + (", ".join(f"{text.seat(s)} {text.signed(v)}" for s, v in enumerate(bonus) if v) or "none")
        )
    lines.append(text.score_line(result["scores"]) + (" (each side's)" if n == 4 else ""))
    return text.fit(lines)


def _turn(entry, turn):
    """'plays G7, pairing R7: catches G7 R7; table R6 K9' (a record turn and its replayed result)."""
    used = [f"{m} {' '.join(entry[m]) if isinstance(entry[m], list) else entry[m]}" for m in METHODS if m in entry]
    what = f"catches {text.cards(DECK, turn['caught'])}" if turn["caught"] else "releases it"
    return f"plays {', '.join([turn['card'], *used])}: {what}; table {text.cards(DECK, turn['table'])}"
