"""A Wimmüln deal for a person (`musim show`): hands, the revealed cards and trump, the estimates,
every trick, and each seat's tricks, card points, estimate bonus and score."""

from musim.core.deck import MU
from musim.io import show as text


def show(record, result):
    n, dealer = record["players"], record["dealer"]
    lines = [f"Wimmüln, {n} players, dealer {text.seat(dealer)}", *text.hands(MU, record["hands"])]
    trump = result["trump"] or "none"
    lines.append(f"revealed by the dealer: {' '.join(record['revealed'])}, trump {trump}")
    lines.append("estimates (face up, hidden):")
    lines += [f"  {text.seat(s)}: {up} {down}" for s, (up, down) in enumerate(record["estimates"])]
    lines += text.tricks(result["tricks"], n)
    lines.append(text.per_seat("tricks won", result["tricks_won"]))
    lines.append(text.per_seat("card points", result["card_points"]))
    lines.append(text.score_line(result["bonus"], "estimate bonus"))
    return [*lines, text.score_line(result["scores"])]
