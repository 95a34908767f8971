"""A Mückenstich deal for a person (`musim show`): hands, discards, every trick with the trump
then in force and the number cards' worth under the colours named at the end, the mosquitoes
won, the colours named, and the scores."""

import numpy as np

from musim.core.deck import MUECKENSTICH as DECK
from musim.games.mueckenstich import rules
from musim.io import show as text


def show(record, result):
    n, dealer = record["players"], record["dealer"]
    lines = [f"Mückenstich, {n} players, dealer {text.seat(dealer)}", *text.hands(DECK, record["hands"])]
    if any(record["discards"]):
        lines += text.hands(DECK, record["discards"], "discards")
    colour = {None: -1, **{c: i for i, c in enumerate(DECK.colours)}}
    double, zero = colour[result["double"]], colour[result["zero"]]
    tricks = []
    for t in result["tricks"]:
        mask = DECK.parse([c.partition(":")[0] for c in t["cards"]])
        # the number cards' worth: the mosquitoes' penalty is per colour over the whole deal, not per trick
        worth = int(rules.score(np.uint64(mask) & rules.NUMBERS, double, zero))
        tricks.append(t | {"points": worth, "mosquitoes": int(rules.mosquitoes_won(np.uint64(mask)))})
    lines += text.tricks(tricks, n, lambda k, t: "; ".join(_notes(t)))
    lines.append(text.per_seat("tricks won", result["tricks_won"]))
    lines.append(text.per_seat("mosquitoes won", result["mosquitoes"]))
    lines.append(f"double colour {result['double'] or '-'}, zero colour {result['zero'] or '-'}")
    return [*lines, text.score_line(result["scores"])]


def _notes(trick):
    if trick["mosquitoes"]:
        yield f"{trick['mosquitoes']} mosquito" + ("es" if trick["mosquitoes"] > 1 else "")
    yield f"trump {trick['trump_after'] or 'none'}"
