"""A Last Panther deal for a person (`musim show`): hands, the passes, every trick, who took the
last one, and the scores."""

from musim.core.deck import MU
from musim.games.panther.rules import LAST_TRICK
from musim.io import show as text


def show(record, result):
    n, dealer = record["players"], record["dealer"]
    lines = [f"The Last Panther, {n} players, dealer {text.seat(dealer)}", *text.hands(MU, record["hands"])]
    lines.append("passed to the left:")
    lines += [
        f"  {text.seat(s)} -> {text.seat((s + 1) % n)}: {text.cards(MU, p)}" for s, p in enumerate(record["passed"])
    ]
    lines += text.tricks(result["tricks"], n)
    lines.append(f"last trick: {text.seat(result['last_trick'])}, +{LAST_TRICK}")
    lines.append(text.per_seat("tricks won", result["tricks_won"]))
    return [*lines, text.score_line(result["scores"])]
