"""A Mü deal for a person (`musim show`): hands, the auction turn by turn, the contract, every
trick, and how the score came about; all of it read from the record and its replay result."""

from musim.core.deck import MU
from musim.io import show as text


def show(record, result):
    n, dealer = record["players"], record["dealer"]
    lines = [f"Mü, {n} players, dealer {text.seat(dealer)}", *text.hands(MU, record["hands"]), "auction:"]
    auction = [
        ((dealer + i) % n, f"lays {text.cards(MU, t)}" if t else "passes") for i, t in enumerate(record["auction"])
    ]
    lines += ["  " + line for line in text.turns(auction)]
    lines += text.hands(MU, result["laid"], "laid")
    if result["outcome"] == "eklat":
        tied = ", ".join(map(str, result["tied"]))
        if result["provoker"] is None:  # nobody laid a card: all tie at M = 0
            lines.append("eklat: every player passed (all tie at 0 cards laid)")
        else:
            lines.append(f"eklat: seats {tied} tie for the highest bid; provoker {text.seat(result['provoker'])}")
        return [*lines, text.score_line(result["scores"])]
    chief, partner = result["chief"], result["partner"]
    vice = (
        f", vice {text.seat(result['vice'])} names trump {result['vice_trump']}" if result["vice"] is not None else ""
    )
    lines.append(f"chief {text.seat(chief)}, bid {result['bid']} (target {result['target']}){vice}")
    lines.append(
        f"chief trump {result['chief_trump']}, "
        + ("no partner" if partner is None else f"partner {text.seat(partner)}")
    )
    lines += text.tricks(result["tricks"], n)
    lines.append(text.per_seat("card points", result["card_points"]))
    team = text.seat(chief) + ("" if partner is None else f" and {text.seat(partner)}")
    outcome = (
        f"made, bonus {result['bonus']}"
        if result["success"]
        else f"failed, {result['shortfall']} rank{'s' * (result['shortfall'] != 1)} short"
    )
    lines.append(f"{team}: {text.points(result['team_points'])} of {result['target']}: {outcome}")
    return [*lines, text.score_line(result["scores"])]
