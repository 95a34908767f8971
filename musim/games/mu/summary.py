"""The end-of-run summary of a Mü run, summed from the Arrow batches that go to its Parquet file.

A run feeds its batches as it writes them and `musim summary` feeds the batches of the
finished file, so both print the same lines.  All totals are integers, so the lines do not
depend on how the rows were batched.  Rates carry a 95% Wilson interval, means a 95%
normal-approximation interval from the sample variance.
"""

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from musim.analysis.compare import figure
from musim.games.mu.params import BY_PLAY, auction_model
from musim.games.mu.target_tables import RULEBOOK
from musim.games.summary_lines import (
    INTERVAL_NOTE,
    MatchSummary,
    by_position,
    column,
    float_column,
    list_column,
    mean_text,
    numpy_column,
    rate_text,
    seat_names,
)

BID_LEVELS = 16  # bids 0..15 (15 cards in a 4-player hand)


def play_text(play, dd_tricks=0, auction=BY_PLAY):
    """What a --play mode (with --dd-tricks and --auction) means, for the summary's first line."""
    model = auction_model(play, auction)
    bids = f"{model} auction" if "," not in model else f"auction {model} by seat"
    if play == "dd":
        cards = (
            f"heuristic card play, the last {dd_tricks} tricks exact double-dummy"
            if dd_tricks
            else "exact double-dummy card play"
        )
        return f"dd play ({bids}, heuristic trumps and partner, {cards})"
    if play == "random":
        return "random play (every decision by the random policy, the auction too)"
    if "," in play:
        return f"play {play} by seat 0, 1, ... (a random seat decides all at random; the others: {bids})"
    return f"{play} play ({bids}, every other decision by the {play} policy)"


def header(params, items):
    """First line: game, players, play mode, the target table when it is a variant, seed and size
    of the run."""
    options = params.get("options", params)  # files of result version 2 kept the options beside the others
    what = f"matches to {options['goal']} points" if params["mode"] == "matches" else "deals"
    targets = options.get("targets", RULEBOOK)
    rules = "" if targets == RULEBOOK else f"variant targets {targets}, "
    return (
        f"{params['game']}, {params['players']} players, "
        f"{play_text(params['play'], options.get('dd_tricks', 0), options.get('auction', BY_PLAY))}, "
        f"{rules}seed {params['seed']}: {items:,} {what}"
    )


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
        played = pc.equal(column(batch, "outcome"), "played").to_numpy(zero_copy_only=False)
        self.deals += batch.num_rows
        self.eklats += int((~played).sum())
        rows = batch.filter(pa.array(played))
        bids = numpy_column(rows, "bid").astype(np.int64)
        points = numpy_column(rows, "team_points").astype(np.int64)
        self.bid_deals += np.bincount(bids, minlength=BID_LEVELS)
        self.bid_made += np.bincount(bids[numpy_column(rows, "success").astype(bool)], minlength=BID_LEVELS)
        self.bid_points += np.bincount(bids, weights=points, minlength=BID_LEVELS).astype(np.int64)
        self.bid_points_sq += np.bincount(bids, weights=points * points, minlength=BID_LEVELS).astype(np.int64)
        _, edge = by_position(batch, list_column(batch, "scores", n))
        self.edge += edge.sum(axis=0)
        self.edge_sq += (edge * edge).sum(axis=0)

    def lines(self):
        out = [header(self.params, self.deals)]
        if not self.deals:
            return out
        out.append(f"eklat rate: {rate_text(self.eklats, self.deals)} {INTERVAL_NOTE}, {self.eklats:,} eklats")
        out.append(f"by bid level (played deals) {INTERVAL_NOTE}:")
        out.append(f"  {'bid':>3} {'deals':>11}  {'chief team reaches target':>25}  mean team points")
        for b in np.flatnonzero(self.bid_deals):
            k = int(self.bid_deals[b])
            out.append(
                f"  {b:>3} {k:>11,}  {rate_text(int(self.bid_made[b]), k):>25}  "
                + mean_text(k, int(self.bid_points[b]), int(self.bid_points_sq[b]))
            )
        n = self.players
        out.append(f"seat advantage: mean score per deal minus the mean over seats (all deals) {INTERVAL_NOTE}:")
        for name, s, sq in zip(seat_names(n), self.edge, self.edge_sq):
            out.append(f"  {name:<9} " + mean_text(self.deals, int(s) / n, int(sq) / (n * n), signed=True))
        return out

    def figures(self, batch):
        """The summary's figures deal by deal (musim compare): the eklat rate; over the played
        deals, and at each bid level, the success rate and mean team points; each bid level's
        share of all deals; each seat position's advantage."""
        played = pc.equal(column(batch, "outcome"), "played").to_numpy(zero_copy_only=False)
        bids, success, points = (float_column(batch, name) for name in ("bid", "success", "team_points"))
        out = {
            "eklat rate": figure(~played, rate=True),
            "played: success rate": figure(success, played, rate=True),
            "played: mean team points": figure(points, played),
        }
        for b in range(BID_LEVELS):
            at = played & (bids == b)
            out[f"bid {b}: share of deals"] = figure(at, rate=True, sparse=True)
            out[f"bid {b}: success rate"] = figure(success, at, rate=True)
            out[f"bid {b}: mean team points"] = figure(points, at)
        _, edge = by_position(batch, list_column(batch, "scores", self.players))
        for name, e in zip(seat_names(self.players), edge.T):
            out[f"{name}: advantage"] = figure(e / self.players)
        return out


def for_run(params):
    """The summary accumulator of a run with these parameters (its RunSpec fields)."""
    return MatchSummary(params, header) if params["mode"] == "matches" else DealSummary(params)
