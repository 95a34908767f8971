"""The end-of-run summary of Rummü: each seat position's score and advantage (as for every game
scored per seat, games/seat_run.py), how often each scoring event happens, and how deals end."""

import numpy as np

from musim.games import seat_run
from musim.games.summary_lines import INTERVAL_NOTE, MatchSummary, column, rate_text


class DealSummary(seat_run.DealSummary):
    """Adds the mean count a deal of each scoring event (all seats together) and the rate of each end."""

    EVENTS = (
        ("melds", "melds laid"),
        ("added", "cards added to melds"),
        ("swaps", "joker swaps"),
        ("left", "cards left in hand"),
    )

    def __init__(self, params):
        super().__init__(params)
        self.COLUMNS = (*self.COLUMNS, "end")
        self.ends = {"out": 0, "cap": 0}

    def add(self, batch):
        super().add(batch)
        ends, counts = np.unique(np.array(column(batch, "end").to_pylist(), dtype=object), return_counts=True)
        for end, k in zip(ends, counts):
            self.ends[end] += int(k)

    def lines(self):
        out = super().lines()
        if self.deals:
            out.append(f"how the deal ended {INTERVAL_NOTE}:")
            out += [f"  {end:<22} {rate_text(k, self.deals)}" for end, k in self.ends.items()]
        return out


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    if params["mode"] == "matches":
        return MatchSummary(params, seat_run.header)
    return DealSummary(params)
