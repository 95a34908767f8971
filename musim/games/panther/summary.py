"""The end-of-run summary of The Last Panther: each seat position's score and advantage (as for
every game scored per seat, games/seat_run.py) and who takes the last trick (+50) and the black 7s (-50)."""

import numpy as np

from musim.analysis.compare import figure
from musim.games import seat_run
from musim.games.summary_lines import (
    INTERVAL_NOTE,
    by_position,
    list_column,
    mean_text,
    numpy_column,
    rate_text,
    seat_names,
)


class DealSummary(seat_run.DealSummary):
    """Adds: how often each seat position takes the last trick, and the black 7s it takes."""

    def __init__(self, params):
        super().__init__(params)
        self.COLUMNS = (*self.COLUMNS, "last_trick", "black_sevens")
        n = self.players
        self.last, self.sevens, self.sevens_sq = (np.zeros(n, np.int64) for _ in range(3))  # by position

    def _last_and_sevens(self, batch):
        """Each row's seat position of the last trick, and the black 7s by seat position."""
        position = (numpy_column(batch, "last_trick").astype(np.int64) - numpy_column(batch, "dealer")) % self.players
        return position, by_position(batch, list_column(batch, "black_sevens", self.players))[0]

    def add(self, batch):
        super().add(batch)
        position, sevens = self._last_and_sevens(batch)
        self.last += np.bincount(position, minlength=self.players)
        self.sevens += sevens.sum(axis=0)
        self.sevens_sq += (sevens * sevens).sum(axis=0)

    def figures(self, batch):
        """Adds, deal by deal and by seat position: the last trick taken, the black 7s taken."""
        out = super().figures(batch)
        position, sevens = self._last_and_sevens(batch)
        for k, (name, s) in enumerate(zip(seat_names(self.players), sevens.T)):
            out[f"{name}: takes the last trick"] = figure(position == k, rate=True)
            out[f"{name}: black 7s taken"] = figure(s)
        return out

    def lines(self):
        out = super().lines()
        if self.deals:
            out.append("the last trick (+50) taken, by seat position [95% interval]:")
            out += [
                f"  {name:<9} {rate_text(int(k), self.deals)}" for name, k in zip(seat_names(self.players), self.last)
            ]
            out.append(f"black 7s (-50) taken a deal, by seat position {INTERVAL_NOTE}:")
            out += [
                f"  {name:<9} {mean_text(self.deals, int(k), int(q))}"
                for name, k, q in zip(seat_names(self.players), self.sevens, self.sevens_sq)
            ]
        return out


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    if params["mode"] == "matches":
        return seat_run.for_run(params)
    return DealSummary(params)
