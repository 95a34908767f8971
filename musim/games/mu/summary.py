"""The end-of-run summary of a Mü run, summed from the Arrow batches that go to its Parquet file.

A run feeds its batches as it writes them and `musim summary` feeds the batches of the
finished file, so both print the same lines.  All totals are integers, so the lines do not
depend on how the rows were batched.  Rates carry a 95% Wilson interval, means a 95%
normal-approximation interval from the sample variance.
"""

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from musim.analysis.stats import mean_interval_from_sums, wilson

BID_LEVELS = 16  # bids 0..15 (15 cards in a 4-player hand)
INTERVAL_NOTE = "[95% interval]"


def play_text(play, dd_tricks=0):
    """What a --play mode (with --dd-tricks) means, for the summary's first line."""
    if play == "dd":
        cards = (
            f"heuristic card play, the last {dd_tricks} tricks exact double-dummy"
            if dd_tricks
            else "exact double-dummy card play"
        )
        return f"dd play (heuristic auction, {cards})"
    return f"{play} play (every decision by the {play} policy)"


def header(params, items):
    """First line: game, players, play mode, seed and size of the run."""
    options = params.get("options", params)  # files of result version 2 kept the options beside the others
    what = f"matches to {options['goal']} points" if params["mode"] == "matches" else "deals"
    return (
        f"{params['game']}, {params['players']} players, {play_text(params['play'], options.get('dd_tricks', 0))}, "
        f"seed {params['seed']}: {items:,} {what}"
    )


def _column(batch, name):
    """A column as an Arrow array, dictionary columns decoded."""
    col = batch.column(name)
    return col.dictionary_decode() if pa.types.is_dictionary(col.type) else col


def _numpy(batch, name):
    """A numeric or boolean column without nulls as a numpy array."""
    return _column(batch, name).to_numpy(zero_copy_only=False)


def _lists(batch, name, width):
    """A list column whose lists all have `width` items, as a (rows, width) int64 array."""
    return pc.list_flatten(batch.column(name)).to_numpy().astype(np.int64).reshape(-1, width)


def _rate(k, n):
    lo, hi = wilson(k, n)
    return f"{k / n:.2%} [{lo:.2%}, {hi:.2%}]"


def _mean(n, total, total_sq, signed=False):
    m, lo, hi = mean_interval_from_sums(n, total, total_sq)
    f = "+.2f" if signed else ".2f"
    return f"{m:{f}} [{lo:{f}}, {hi:{f}}]" if n > 1 else f"{m:{f}} [n/a]"


def seat_names(players):
    """Seats by position after the dealer, in play order (the auction goes left, to seat + 1)."""
    return ["dealer"] + [f"dealer+{k}" for k in range(1, players)]


class DealSummary:
    """Eklat rate, success and team points by bid level, and each seat's advantage."""

    COLUMNS = ("outcome", "bid", "success", "team_points", "dealer", "scores")

    def __init__(self, params):
        self.params = params
        n = self.players = params["players"]
        self.deals = self.eklats = 0
        self.bid_deals = np.zeros(BID_LEVELS, np.int64)
        self.bid_made = np.zeros(BID_LEVELS, np.int64)
        self.bid_points = np.zeros(BID_LEVELS, np.int64)
        self.bid_points_sq = np.zeros(BID_LEVELS, np.int64)
        # per seat position: n * score - the deal's total score (n times the seat's advantage)
        self.edge = np.zeros(n, np.int64)
        self.edge_sq = np.zeros(n, np.int64)

    def add(self, batch):
        n = self.players
        played = pc.equal(_column(batch, "outcome"), "played").to_numpy(zero_copy_only=False)
        self.deals += batch.num_rows
        self.eklats += int((~played).sum())
        rows = batch.filter(pa.array(played))
        bids = _numpy(rows, "bid").astype(np.int64)
        points = _numpy(rows, "team_points").astype(np.int64)
        self.bid_deals += np.bincount(bids, minlength=BID_LEVELS)
        self.bid_made += np.bincount(bids[_numpy(rows, "success").astype(bool)], minlength=BID_LEVELS)
        self.bid_points += np.bincount(bids, weights=points, minlength=BID_LEVELS).astype(np.int64)
        self.bid_points_sq += np.bincount(bids, weights=points * points, minlength=BID_LEVELS).astype(np.int64)
        seats = (_numpy(batch, "dealer").astype(np.int64)[:, None] + np.arange(n)) % n
        by_position = np.take_along_axis(_lists(batch, "scores", n), seats, axis=1)
        edge = n * by_position - by_position.sum(axis=1, keepdims=True)
        self.edge += edge.sum(axis=0)
        self.edge_sq += (edge * edge).sum(axis=0)

    def lines(self):
        out = [header(self.params, self.deals)]
        if not self.deals:
            return out
        out.append(f"eklat rate: {_rate(self.eklats, self.deals)} {INTERVAL_NOTE}, {self.eklats:,} eklats")
        out.append(f"by bid level (played deals) {INTERVAL_NOTE}:")
        out.append(f"  {'bid':>3} {'deals':>11}  {'chief team reaches target':>25}  mean team points")
        for b in np.flatnonzero(self.bid_deals):
            k = int(self.bid_deals[b])
            out.append(
                f"  {b:>3} {k:>11,}  {_rate(int(self.bid_made[b]), k):>25}  "
                + _mean(k, int(self.bid_points[b]), int(self.bid_points_sq[b]))
            )
        n = self.players
        out.append(f"seat advantage: mean score per deal minus the mean over seats (all deals) {INTERVAL_NOTE}:")
        for name, s, sq in zip(seat_names(n), self.edge, self.edge_sq):
            out.append(f"  {name:<9} " + _mean(self.deals, int(s) / n, int(sq) / (n * n), signed=True))
        return out


class MatchSummary:
    """Deals per match and the outright win rate by seat."""

    COLUMNS = ("deals", "winner")

    def __init__(self, params):
        self.params = params
        self.players = params["players"]
        self.matches = self.deals = self.deals_sq = self.shared = 0
        self.wins = np.zeros(self.players, np.int64)

    def add(self, batch):
        deals = _numpy(batch, "deals").astype(np.int64)
        winner = _column(batch, "winner")
        self.matches += batch.num_rows
        self.deals += int(deals.sum())
        self.deals_sq += int((deals * deals).sum())
        self.shared += winner.null_count
        won = pc.drop_null(winner).to_numpy().astype(np.int64)
        self.wins += np.bincount(won, minlength=self.players)

    def lines(self):
        out = [header(self.params, self.matches)]
        if not self.matches:
            return out
        m = self.matches
        out.append(f"deals per match: {_mean(m, self.deals, self.deals_sq)} {INTERVAL_NOTE}")
        out.append(f"top score shared (no outright winner): {_rate(self.shared, m)}")
        out.append(f"outright win rate by seat (seat numbers of the rows; the first dealer is drawn) {INTERVAL_NOTE}:")
        for seat, w in enumerate(self.wins):
            out.append(f"  seat {seat}  {_rate(int(w), m)}")
        return out


def for_run(params):
    """The summary accumulator of a run with these parameters (its RunSpec fields)."""
    return MatchSummary(params) if params["mode"] == "matches" else DealSummary(params)
