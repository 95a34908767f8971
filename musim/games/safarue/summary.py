"""The end-of-run summary of Safarü and Reverse Safarü: each seat position's score and advantage
(as for every game scored per seat, games/seat_run.py) and how often each scoring event happens."""

from musim.games import seat_run


class DealSummary(seat_run.DealSummary):
    """Adds the mean count a game of each scoring event (all seats together)."""

    UNIT = "game"
    EVENTS = (
        ("adding", "catches by adding"),
        ("totalling", "catches by totalling"),
        ("pairing", "catches by pairing"),
        ("released", "releases"),
        ("zeros", "0 cards caught"),
        ("yellow", "yellow cards caught"),
        ("blue", "blue cards caught"),
    )


class ReverseSummary(DealSummary):
    """Reverse Safarü: the same lines; the lowest score wins."""

    LOWER_WINS = True


def for_run(params):
    """The summary accumulator of a Safarü run with these parameters."""
    return DealSummary(params)


def for_reverse(params):
    """The summary accumulator of a Reverse Safarü run with these parameters."""
    return ReverseSummary(params)
