"""The end-of-run summary of Wimmüln: each seat position's score and advantage (as for every
game scored per seat, games/seat_run.py), how often a deal has a trump, and how often each
seat position's estimate is met and what it earns."""

import numpy as np

from musim.analysis.compare import figure
from musim.games import seat_run
from musim.games.summary_lines import INTERVAL_NOTE, by_position, column, list_column, mean_text, rate_text, seat_names


class DealSummary(seat_run.DealSummary):
    """Adds: deals with a trump; by seat position, estimates met (a bonus) and the mean bonus."""

    def __init__(self, params):
        super().__init__(params)
        self.COLUMNS = (*self.COLUMNS, "trump", "bonus")
        self.trumps = 0
        n = self.players
        self.hits, self.bonus, self.bonus_sq = (np.zeros(n, np.int64) for _ in range(3))

    def add(self, batch):
        super().add(batch)
        self.trumps += batch.num_rows - column(batch, "trump").null_count
        bonus = list_column(batch, "bonus", self.players)
        bonus, _ = by_position(batch, bonus)
        self.hits += (bonus > 0).sum(axis=0)
        self.bonus += bonus.sum(axis=0)
        self.bonus_sq += (bonus * bonus).sum(axis=0)

    def figures(self, batch):
        """Adds, deal by deal: a trump; by seat position, the estimate met and the bonus."""
        out = super().figures(batch)
        out["deals with a trump"] = figure(column(batch, "trump").is_valid(), rate=True)
        bonus, _ = by_position(batch, list_column(batch, "bonus", self.players))
        for name, b in zip(seat_names(self.players), bonus.T):
            out[f"{name}: estimate met"] = figure(b > 0, rate=True)
            out[f"{name}: bonus"] = figure(b)
        return out

    def lines(self):
        out = super().lines()
        if self.deals:
            d = self.deals
            out.append(f"deals with a trump: {rate_text(self.trumps, d)}")
            out.append(f"by seat position: estimate met (a bonus), and the bonus a deal {INTERVAL_NOTE}:")
            for name, k, b, bq in zip(seat_names(self.players), self.hits, self.bonus, self.bonus_sq):
                out.append(f"  {name:<9} {rate_text(int(k), d)}  bonus {mean_text(d, int(b), int(bq))}")
        return out


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    if params["mode"] == "matches":
        return seat_run.for_run(params)
    return DealSummary(params)
