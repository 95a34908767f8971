"""The end-of-run summary of Danger: each seat position's total and advantage (as for every game
scored per seat, games/seat_run.py) and how often each scoring event happens."""

from musim.games import seat_run
from musim.games.danger.rules import COLOUR_NAMES


class DealSummary(seat_run.DealSummary):
    """Adds the mean count a game of each scoring event (all seats together)."""

    UNIT = "game"
    EVENTS = (
        *((f"secured_{c.lower()}", f"{c} rows secured") for c in COLOUR_NAMES),
        *((f"blocked_{c.lower()}", f"{c} rows blocked") for c in COLOUR_NAMES),
        ("lowest", "lowest in a colour"),
        ("taken", "discards taken"),
        ("discards", "cards discarded"),
        ("turns", "turns"),
    )


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    return DealSummary(params)
