"""Runs of the games scored per seat (`score_<i>` columns): their engine Job and summary.

Every game but Mü registers these (any game whose kernels return a dict of per-deal arrays, as
musim.play.drivers builds them): a chunk is the kernel's arrays with their first index, turned
into an Arrow batch by the game's own columns module.
"""

import dataclasses
from collections import Counter
from functools import partial

import numpy as np
import pyarrow as pa

from musim.analysis.compare import figure
from musim.engine.parquet import schema_of
from musim.engine.progress import slices
from musim.engine.run import Job
from musim.engine.seats import plays_exactly
from musim.games.summary_lines import (
    INTERVAL_NOTE,
    MatchSummary,
    by_position,
    column,
    list_column,
    mean_text,
    numpy_column,
    rate_text,
    seat_names,
)
from musim.play import node_limit
from musim.play.search_budget import EXACT_TRICKS, WORLDS, searches
from musim.play.seat_columns import DD_LIMITED
from musim.play.world_weights import OPTION as WEIGHTS

CHUNK_DEALS = 4096
CHUNK_MATCHES = 64
CHUNK_SEARCH = 64  # with a search seat (--play search, whose budget is the game's option search_worlds)


@dataclasses.dataclass
class Chunk:
    """A kernel's arrays for items start..start+count-1."""

    start: int
    count: int
    out: dict


def _simulate(kernel, players, seed, play, start, count):
    """The chunk's rows, computed in slices that move the progress bar (musim.engine.progress.slices)."""
    parts = [kernel(players, seed, play, start + first, stop - first) for first, stop in slices(count)]
    out = parts[0] if len(parts) == 1 else {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}
    return Chunk(start, count, out)


def job(spec, simulate, columns):
    """The Job of a deals or matches spec; `simulate`: the game's simulate module (simulate_deals,
    simulate_matches), `columns`: its columns module (DEAL_COLUMNS/deal_batch, MATCH_COLUMNS/match_batch)."""
    n = spec.players
    if spec.mode == "matches":
        kernel, size, cols, to_batch = (
            simulate.simulate_matches,
            CHUNK_MATCHES,
            columns.MATCH_COLUMNS,
            columns.match_batch,
        )
    else:
        kernel, size, cols, to_batch = simulate.simulate_deals, CHUNK_DEALS, columns.DEAL_COLUMNS, columns.deal_batch
    if plays_exactly(spec.play):  # seconds to minutes a deal: one a chunk, each worker's table of --tt-mb
        kernel, size = partial(kernel, tt_mb=spec.tt_mb), 1
    if searches(spec.play):  # milliseconds a deal: small chunks, so that every worker has some
        kernel = partial(kernel, worlds=spec.options[WORLDS.name], **search_options(spec))
        size = min(size, CHUNK_SEARCH)
    if node_limit.limited(spec) and spec.mode == "deals":  # the rows count the dd cards whose search gave up
        kernel, to_batch = partial(kernel, node_limit=node_limit.limited(spec)), partial(_limited_batch, to_batch)
        cols += (DD_LIMITED,)
    return Job(
        size,
        partial(_simulate, kernel, n, spec.seed, spec.play),
        lambda chunk: to_batch(chunk.out, chunk.start, n),
        schema_of(cols, n),
    )


def record(spec, index, records):
    """The game record of deal `index` of the run `spec` (`records`: the game's record module, for a
    game with search and dd play), re-played under the run's search options, table size and node
    limit, so that every card is chosen as the run chose it."""
    worlds, limit = spec.options[WORLDS.name], node_limit.limited(spec)
    return records.record(spec.players, spec.seed, spec.play, index, worlds, spec.tt_mb, limit, **search_options(spec))


def search_options(spec):
    """The exact endgames and world weights of a game that has them (its options search_exact_tricks,
    search_weights), as the keywords exact_tricks and weights."""
    keywords = {EXACT_TRICKS.name: "exact_tricks", WEIGHTS.name: "weights"}
    return {keyword: spec.options[name] for name, keyword in keywords.items() if name in spec.options}


def _limited_batch(to_batch, out, start, n):
    """The game's batch of deal rows (to_batch) with the column dd_cards_limited after the others."""
    rows = to_batch(out, start, n)
    column = pa.array(out["dd_limited"], type=DD_LIMITED.type)
    schema = pa.schema([*rows.schema, *schema_of((DD_LIMITED,))])
    return pa.RecordBatch.from_arrays([*rows.columns, column], schema=schema)


def header(params, items, unit="deal"):
    """First line: game, players, play mode, seed and size of the run (`unit`: what a row of a
    deals run is; matches are matches)."""
    what = "matches" if params["mode"] == "matches" else f"{unit}s"
    return (
        f"{params['game']}, {params['players']} players, {params['play']} play, seed {params['seed']}: {items:,} {what}"
    )


class DealSummary:
    """Each seat position's mean score and advantage, and the spread of a row's scores."""

    UNIT = "deal"  # what a row is: a game whose row is a whole game (Safarü) names it "game"
    EVENTS = ()  # (list column of per-seat counts, text): the mean count a row, all seats together
    ENDS = ()  # the values of the row's `end` column (what ended it), each counted and its rate shown
    ENDS_TEXT = "what ended the game"
    LOWER_WINS = False  # the lowest score wins (Reverse Safarü): the summary says so
    QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)

    def __init__(self, params):
        self.params = params
        n = self.players = params["players"]
        self.COLUMNS = ("dealer", *(f"score_{i}" for i in range(n)), *(name for name, _ in self.EVENTS))
        self.COLUMNS += ("end",) if self.ENDS else ()
        self.ends = dict.fromkeys(self.ENDS, 0)
        self.event_sums = {name: [0, 0] for name, _ in self.EVENTS}
        self.deals = 0
        self.total = np.zeros(n, np.int64)
        self.total_sq = np.zeros(n, np.int64)
        self.edge = np.zeros(n, np.int64)  # n * score - the deal's total, by position from the dealer
        self.edge_sq = np.zeros(n, np.int64)
        self.low, self.high = None, None
        self.histograms = [Counter() for _ in range(n)]  # by position from the dealer: score -> rows

    def _scores(self, batch):
        """(rows x seats) scores, by position from the dealer and n times each position's advantage."""
        n = self.players
        return by_position(batch, np.stack([numpy_column(batch, f"score_{i}").astype(np.int64) for i in range(n)], 1))

    def add(self, batch):
        n = self.players
        ordered, edge = self._scores(batch)
        self.deals += batch.num_rows
        self.total += ordered.sum(axis=0)
        self.total_sq += (ordered * ordered).sum(axis=0)
        self.edge += edge.sum(axis=0)
        self.edge_sq += (edge * edge).sum(axis=0)
        for histogram, values in zip(self.histograms, ordered.T):
            histogram.update(dict(zip(*(v.tolist() for v in np.unique(values, return_counts=True)))))
        if batch.num_rows:
            low, high = int(ordered.min()), int(ordered.max())  # a row's seats, reordered
            self.low = low if self.low is None else min(self.low, low)
            self.high = high if self.high is None else max(self.high, high)
        for name, _ in self.EVENTS:
            per_row = list_column(batch, name, n).sum(axis=1)
            self.event_sums[name][0] += int(per_row.sum())
            self.event_sums[name][1] += int((per_row * per_row).sum())
        if self.ENDS:
            ends, counts = np.unique(np.array(column(batch, "end").to_pylist(), dtype=object), return_counts=True)
            for end, k in zip(ends, counts):
                self.ends[end] += int(k)

    def figures(self, batch):
        """The summary's figures deal by deal (musim compare): each seat position's score and
        advantage, each event's count, each end's rate (the scores' range and quantiles are not
        means, and are left out)."""
        n = self.players
        ordered, edge = self._scores(batch)
        out = {}
        for name, score, e in zip(seat_names(n), ordered.T, edge.T):
            out[f"{name}: mean score"] = figure(score)
            out[f"{name}: advantage"] = figure(e / n)
        for name, text in self.EVENTS:
            out[f"{text} a {self.UNIT}"] = figure(list_column(batch, name, n).sum(axis=1))
        if self.ENDS:
            ends = np.array(column(batch, "end").to_pylist(), dtype=object)
            out |= {f"{self.ENDS_TEXT}: {end}": figure(ends == end, rate=True) for end in self.ENDS}
        return out

    def lines(self):
        out = [header(self.params, self.deals, self.UNIT)]
        if not self.deals:
            return out
        n, d = self.players, self.deals
        lowest = ", the lowest wins" if self.LOWER_WINS else ""
        out.append(f"a seat's {self.UNIT} score: from {self.low} to {self.high}{lowest}")
        out.append(
            f"by seat position: mean score per {self.UNIT}, and its advantage over the mean of the seats"
            f" {INTERVAL_NOTE}:"
        )
        for name, t, tq, e, eq in zip(seat_names(n), self.total, self.total_sq, self.edge, self.edge_sq):
            advantage = mean_text(d, int(e) / n, int(eq) / (n * n), signed=True)
            out.append(f"  {name:<9} {mean_text(d, int(t), int(tq))}  advantage {advantage}")
        percents = ", ".join(f"{q:.0%}" for q in self.QUANTILES)
        out.append(f"by seat position: the score's distribution, its {percents} points:")
        for name, histogram in zip(seat_names(n), self.histograms):
            out.append(f"  {name:<9} " + "  ".join(f"{v:>5}" for v in quantiles(histogram, self.QUANTILES)))
        if self.EVENTS:
            out.append(f"a {self.UNIT}, all seats together {INTERVAL_NOTE}:")
            for name, text in self.EVENTS:
                out.append(f"  {text:<22} {mean_text(d, *self.event_sums[name])}")
        if self.ENDS:
            out.append(f"{self.ENDS_TEXT} {INTERVAL_NOTE}:")
            out += [f"  {end:<22} {rate_text(k, d)}" for end, k in self.ends.items()]
        return out


def quantiles(histogram, qs):
    """The q-quantiles of the values a Counter holds (value -> count): the least value with at
    least a share q of the counts at or below it, so that batching cannot change them."""
    values = sorted(histogram)
    cumulative = np.cumsum([histogram[v] for v in values])
    return [values[int(np.searchsorted(cumulative, q * cumulative[-1]))] for q in qs]


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    if params["mode"] == "matches":
        return MatchSummary(params, header)
    return DealSummary(params)
