"""The end-of-run summary of The Last Panther: each seat position's score and advantage (as for
every game scored per seat, games/seat_run.py) and who takes the last trick (+50)."""

import numpy as np

from musim.games import seat_run
from musim.games.summary_lines import numpy_column, rate_text, seat_names


class DealSummary(seat_run.DealSummary):
    """Adds: how often each seat position takes the last trick."""

    def __init__(self, params):
        super().__init__(params)
        self.COLUMNS = (*self.COLUMNS, "last_trick")
        self.last = np.zeros(self.players, np.int64)  # by position from the dealer

    def add(self, batch):
        super().add(batch)
        position = (numpy_column(batch, "last_trick").astype(np.int64) - numpy_column(batch, "dealer")) % self.players
        self.last += np.bincount(position, minlength=self.players)

    def lines(self):
        out = super().lines()
        if self.deals:
            out.append("the last trick (+50) taken, by seat position [95% interval]:")
            out += [
                f"  {name:<9} {rate_text(int(k), self.deals)}" for name, k in zip(seat_names(self.players), self.last)
            ]
        return out


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    if params["mode"] == "matches":
        return seat_run.for_run(params)
    return DealSummary(params)
