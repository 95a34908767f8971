"""The end-of-run summary of Calcory: each seat position's cards won and advantage (as for every
game scored per seat, games/seat_run.py), how often each event happens and what ended the games."""

from musim.games import seat_run
from musim.games.calcory.rules import ENDS


class DealSummary(seat_run.DealSummary):
    """Adds the mean count a game of each event (all seats together) and the rate of each end."""

    UNIT = "game"
    EVENTS = (
        ("turns", "turns"),
        ("failed", "failed turns"),
        ("thirteens", "thirteens"),
        ("marks_taken", "surviving marks taken"),
    )
    ENDS = ENDS


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    return DealSummary(params)
