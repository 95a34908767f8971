"""The end-of-run summary of Rummü: each seat position's score and advantage (as for every game
scored per seat, games/seat_run.py), how often each scoring event happens, and how deals end."""

from musim.games import seat_run
from musim.games.rummue.simulate import ENDS
from musim.games.summary_lines import MatchSummary


class DealSummary(seat_run.DealSummary):
    """Adds the mean count a deal of each scoring event (all seats together) and the rate of each end."""

    EVENTS = (
        ("melds", "melds laid"),
        ("added", "cards added to melds"),
        ("swaps", "joker swaps"),
        ("left", "cards left in hand"),
    )
    ENDS = ENDS
    ENDS_TEXT = "how the deal ended"


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    if params["mode"] == "matches":
        return MatchSummary(params, seat_run.header, teams=params["options"]["teams"])
    return DealSummary(params)
