"""`musim show` for Zwickern: each round's deal, every turn (a card laid, a buy and whether it
was a Zwick, a build and the pile's value) with the table after it, then each seat's cards won,
its parts and the scores.

Everything a turn did and the score's parts come from the replay (record.replay, with a trace
of the rounds' deals): nothing here decides a rule.
"""

from musim.core.deck import ZWICKERN as DECK
from musim.games.zwickern import record as records
from musim.games.zwickern.points import DEFAULT
from musim.io import show as text


def show(record, result):
    """The lines a person reads of one Zwickern deal (record checked by replay)."""
    rounds = []
    records.replay(record, rounds)
    n = record["players"]
    sides = ", partners opposite (seats 0 and 2, 1 and 3)" if n == 4 else ""
    lines = [
        f"Zwickern, {n} players{sides}; {text.seat(record['dealer'])} deals every round",
        f"victory points: {record.get('victory_points', DEFAULT)}",
    ]
    headers = {}
    for r, deal in enumerate(rounds):
        headers[deal["turn"]] = [
            f"round {r}: {deal['stock']} cards left face down in the stock",
            *text.hands(DECK, deal["hands"], "  hands")[1:],
        ]
    headers[0].append(f"  table: {text.cards(DECK, record['table'])}")
    lines += text.turns_between([(t["seat"], _turn(t)) for t in result["turns"]], headers)
    lines.append(f"left on the table, nobody's: {text.cards(DECK, result['left'])}")
    lines += [f"pile left: {_pile(p)}" for p in result["piles"]]
    parts = result["parts"]
    lines.append("won:")
    for s, won in enumerate(result["won"]):
        lines.append(
            f"  {text.seat(s)}: {text.cards(DECK, won)} ({text.count(len(won), 'card')}): "
            f"card points {parts['card_points'][s]}, "
            f"most cards {text.signed(parts['most_cards'][s])}, Zwicks {parts['zwicks'][s]} "
            f"({text.signed(parts['zwick_points'][s])}), piles left {text.signed(parts['pile_penalty'][s])}"
        )
    lines.append(text.score_line(result["scores"]) + (" (each side's)" if n == 4 else ""))
    return text.fit(lines)


def _turn(turn):
    """'plays CQ, buys S2 DA: a Zwick; table H3, piles H9 DK = 13 (seat 1)' from a replayed turn."""
    card, taken = turn["card"], text.cards(DECK, turn["cards"]) if turn["cards"] else ""
    if turn["action"] == "buy":
        what = f"plays {card}, buys {taken}" + (": a Zwick" if turn["zwick"] else "")
    elif turn["action"] == "build":
        what = f"builds {card} on {taken}: a pile of {turn['value']}"
    else:
        what = f"lays {card}"
    table = [*([text.cards(DECK, turn["table"])] if turn["table"] else []), *(_pile(p) for p in turn["piles"])]
    return f"{what}; table {' '.join(table) or '-'}"


def _pile(pile):
    return f"[{text.cards(DECK, pile['cards'])} = {pile['value']}, {text.seat(pile['builder'])}'s]"
