"""Lines of the end-of-run summaries every game shares: rates and means with their 95%
intervals, seat names by position, and the summary of match rows (deals, winner).

Rates carry a 95% Wilson interval, means a 95% normal-approximation interval from the
sample variance; all totals are integers, so the lines do not depend on the batching.
"""

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from musim.analysis.stats import mean_interval_from_sums, wilson
from musim.play.drivers import MATCH_DEAL_CAP
from musim.play.sides import side

INTERVAL_NOTE = "[95% interval]"


def column(batch, name):
    """A column as an Arrow array, dictionary columns decoded."""
    col = batch.column(name)
    return col.dictionary_decode() if pa.types.is_dictionary(col.type) else col


def numpy_column(batch, name):
    """A numeric or boolean column without nulls as a numpy array."""
    return column(batch, name).to_numpy(zero_copy_only=False)


def float_column(batch, name):
    """A numeric or boolean column as a float64 numpy array, nulls as NaN."""
    return pc.cast(column(batch, name), pa.float64()).to_numpy(zero_copy_only=False)


def list_column(batch, name, width):
    """A list column whose lists all have `width` items, as a (rows, width) int64 array."""
    return pc.list_flatten(batch.column(name)).to_numpy().astype(np.int64).reshape(-1, width)


def rate_text(k, n):
    lo, hi = wilson(k, n)
    return f"{k / n:.2%} [{lo:.2%}, {hi:.2%}]"


def mean_text(n, total, total_sq, signed=False):
    m, lo, hi = mean_interval_from_sums(n, total, total_sq)
    f = "+.2f" if signed else ".2f"
    return f"{m:{f}} [{lo:{f}}, {hi:{f}}]" if n > 1 else f"{m:{f}} [n/a]"


def by_position(batch, scores):
    """Each deal's scores (rows x seats) reordered by position from the dealer, and n times each
    position's advantage (n * score - the deal's total), both int64."""
    n = scores.shape[1]
    seats = (numpy_column(batch, "dealer").astype(np.int64)[:, None] + np.arange(n)) % n
    ordered = np.take_along_axis(scores.astype(np.int64), seats, axis=1)
    return ordered, n * ordered - ordered.sum(axis=1, keepdims=True)


def seat_names(players):
    """Seats by position after the dealer, in play order (the auction goes left, to seat + 1)."""
    return ["dealer"] + [f"dealer+{k}" for k in range(1, players)]


class MatchSummary:
    """Deals per match, the share stopped at the deal cap (`capped`: rows with a `capped` column,
    of games whose matches need not end by the rules), and the outright win rate by seat, or by
    side where partners opposite play as one (`teams`: their totals are the side's, so both are
    among the `winners`)."""

    def __init__(self, params, header, teams=False, capped=True):
        self.params, self.header = params, header  # header(params, matches): the first line
        n = self.players = params["players"]
        self.teams = teams
        self.side_of = [side(n, teams, s) for s in range(n)]
        self.matches = self.deals = self.deals_sq = self.shared = 0
        self.capped = 0 if capped else None
        self.COLUMNS = ("deals", "winners", "capped") if capped else ("deals", "winners")
        self.wins = np.zeros(max(self.side_of) + 1, np.int64)

    def add(self, batch):
        deals = numpy_column(batch, "deals").astype(np.int64)
        self.matches += batch.num_rows
        self.deals += int(deals.sum())
        self.deals_sq += int((deals * deals).sum())
        if self.capped is not None:
            self.capped += int(numpy_column(batch, "capped").sum())
        for seats in batch.column("winners").to_pylist():
            sides = {self.side_of[s] for s in seats}
            if len(sides) == 1:
                self.wins[sides.pop()] += 1
            else:
                self.shared += 1

    def lines(self):
        out = [self.header(self.params, self.matches)]
        if not self.matches:
            return out
        m, n = self.matches, self.players
        out.append(f"deals per match: {mean_text(m, self.deals, self.deals_sq)} {INTERVAL_NOTE}")
        if self.capped is not None:
            out.append(f"stopped at the {MATCH_DEAL_CAP:,}-deal cap (no end by the rules): {rate_text(self.capped, m)}")
        out.append(f"top score shared (no outright winner): {rate_text(self.shared, m)}")
        if self.teams:
            out.append(f"outright win rate by side (partners opposite; the first dealer is drawn) {INTERVAL_NOTE}:")
            names = [" and ".join(str(s) for s in range(n) if self.side_of[s] == k) for k in range(len(self.wins))]
            names = [f"seats {name}" for name in names]
        else:
            out.append(
                f"outright win rate by seat (seat numbers of the rows; the first dealer is drawn) {INTERVAL_NOTE}:"
            )
            names = [f"seat {s}" for s in range(n)]
        out += [f"  {name}  {rate_text(int(w), m)}" for name, w in zip(names, self.wins)]
        return out
