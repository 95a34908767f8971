"""`musim show` for Rummü: the hands dealt, the pile and the stock, every turn (the cards drawn,
the melds laid, the cards added and the jokers swapped, the discard, coming out and going out),
then each meld as it lies at the end with its points, each seat's parts and the scores.

The cards drawn, coming out, the melds' kinds and points and the parts come from the replay
(record.replay, with a trace): nothing here decides a rule.
"""

from musim.core.deck import MU as DECK
from musim.games.rummue import record as records
from musim.games.rummue.rules import OUT_BONUS
from musim.io import show as text


def show(record, result):
    """The lines a person reads of one Rummü deal (record checked by replay)."""
    trace = {}
    records.replay(record, trace)
    n, melds = record["players"], result["melds"]
    teams = ", partners opposite" if record.get("teams") else ""
    need = ", ".join(f"{text.seat(s)} {k}" for s, k in enumerate(trace["need"]))
    lines = [
        f"Rummü, {n} players{teams}; {text.seat(record['dealer'])} deals; cards needed to come out: {need}",
        *text.hands(DECK, trace["hands"]),
        f"pile: {trace['pile']} face up; stock: {trace['stock']} cards face down",
    ]
    rows, laid = [], 0
    for i, (entry, step) in enumerate(zip(record["turns"], trace["turns"])):
        seat = (record["dealer"] + 1 + i) % n
        parts = (
            [f"the pile but its top becomes the stock ({len(entry['restock'])} cards)"] if "restock" in entry else []
        )
        source = "the stock" if entry["draw"] == "stock" else f"the pile ({entry['draw']})"
        parts.append(f"draws {text.cards(DECK, step['drew'])} from {source}")
        for play in entry.get("play", []):
            if "meld" in play:
                parts.append(f"lays meld {laid} ({melds[laid]['kind']}) {' '.join(play['meld'])}")
                laid += 1
            elif "extend" in play:
                parts.append(f"adds {play['card']} to meld {play['extend']}")
            else:
                parts.append(f"puts {play['card']} in meld {play['swap']} for the joker {play['joker']}")
        if step["came_out"]:
            parts.append("comes out")
        parts.append(
            f"discards {entry['discard']}"
            + (" and goes out" if result["out"] == seat and i == len(trace["turns"]) - 1 else "")
        )
        rows.append((seat, ", ".join(parts)))
    lines += text.turns(rows)
    lines.append(
        "the deal ends: "
        + (
            f"{text.seat(result['out'])} went out"
            if result["out"] is not None
            else f"{result['turns']:,} turns, nobody out"
        )
    )
    lines.append("melds at the end:")
    for m, meld in enumerate(melds):
        lines.append(
            f"  meld {m}, {text.seat(meld['owner'])}'s {meld['kind']}: {' '.join(meld['cards'])} "
            f"(laid {' '.join(meld['laid'])}): {text.points(meld['points'])} for its owner"
        )
    lines.append("parts:")
    for s in range(n):
        came, laid = result["came_out"][s], sum(meld["owner"] == s for meld in melds)
        lines.append(
            f"  {text.seat(s)}: {text.count(laid, 'meld')} laid, {text.count(result['added'][s], 'card')} added to "
            f"others' melds, {text.count(result['swaps'][s], 'joker')} swapped: "
            f"{text.points(result['meld_points'][s])}; "
            f"{text.count(result['left'][s], 'card')} left: {text.signed(result['penalty'][s])}; "
            + (f"came out in turn {came}" if came >= 0 else "never came out")
            + (f"; went out {text.signed(OUT_BONUS)}" if result["out"] == s else "")
        )
    lines.append(text.score_line(result["scores"]) + (" (each side's)" if record.get("teams") else ""))
    return text.fit(lines)
