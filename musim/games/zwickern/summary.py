"""The end-of-run summary of Zwickern: each seat position's score and advantage (as for every
game scored per seat, games/seat_run.py) and how often each scoring event happens; match runs
get the summary of match rows."""

from musim.games import seat_run
from musim.games.summary_lines import MatchSummary


class DealSummary(seat_run.DealSummary):
    """Adds the mean count a deal of each event (all seats together)."""

    EVENTS = (
        ("zwicks", "Zwicks"),
        ("buys", "buys"),
        ("builds", "builds"),
        ("lays", "cards laid"),
        ("piles_left", "piles left at the end"),
        ("cards", "cards won"),
        ("card_points", "card points won"),
    )


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    if params["mode"] == "matches":
        return MatchSummary(params, seat_run.header, teams=params["players"] == 4, capped=False)
    return DealSummary(params)
