"""`musim run --game mu`: simulate deals or matches chunk by chunk into Arrow batches.

The kernels (simulate.py) fill plain arrays, under the run's options as one MuParams
(params.py); columns.py turns each chunk into an Arrow record batch with the columns of
docs/formats.md; summary.py sums them for the end-of-run summary.
"""

import time
from functools import partial

import numpy as np

from musim.core.cards import CARD_TEXT, type_text
from musim.core.deck import MU
from musim.engine.progress import report, slices
from musim.engine.run import Job
from musim.engine.seats import EXACT_PLAY, plays_exactly
from musim.games.mu import columns, target_tables
from musim.games.mu import simulate as sim
from musim.games.mu.params import MuParams
from musim.games.mu.policies import DD
from musim.play import drivers
from musim.play.search_budget import searches

CHUNK_DEALS = 1 << 15
CHUNK_DD_DEALS = 1  # a deal takes 0.1 s to minutes: progress shows deal by deal
CHUNK_SEARCH_DEALS = 1024  # seconds a chunk with search seats: every worker gets chunks of a short run
CHUNK_MATCHES = 64


def node_limit_columns(play, node_limit):
    """(bounds, limited): does a node limit give deal rows dd_low and dd_high (every seat plays dd:
    one start solve of the whole deal), or dd_cards_limited (dd at some seats only: each card's
    searches, ddplay.dd_seat_card)?"""
    seats = {p.strip() for p in play.split(",")}
    limited = node_limit > 0 and EXACT_PLAY in seats
    return limited and seats == {EXACT_PLAY}, limited and seats != {EXACT_PLAY}


class DealChunk:
    """The arrays of one chunk of deals, as the kernels fill them (musim.play.drivers.run_rows);
    dd, bounds, limited: the columns its rows carry (columns.deal_schema)."""

    def __init__(self, players, start, count, dd=False, bounds=False, limited=False):
        self.players, self.start, self.count, self.dd, self.bounds = players, start, count, dd, bounds
        self.limited = limited
        self.rows = drivers.run_rows(sim.DEAL, count, sim.MAX_PLAYERS)
        self.dealers = self.rows.dealer
        self.res, self.scores, self.card_points, self.hands, self.laid, limited = self.rows.deal
        self.dd_limited = limited[:, 0]
        self.solve_ms = np.full(count, np.nan, np.float32)

    def play(self, seed, policy, ws, first=0, stop=None):
        """Fill rows first..stop-1 (all by default) with deals start+first.. of the run; `policy`:
        the seats' codes (sim.run_policy)."""
        rows = slice(first, self.count if stop is None else stop)
        part = drivers.Run(self.dealers[rows], sim.Deal(*(a[rows] for a in self.rows.deal)))
        drivers.simulate_chunk(self.players, seed, self.start + first, policy, part, ws)


def simulate_deal_chunk(params, seed, start, count):
    """Play deals start..start+count-1 of a run under `params` (a MuParams) and return their DealChunk.

    Double-dummy deals run one kernel call each, so that each row gets its own
    wall-clock solve time (`solve_ms`).  A node limit, and the reach question (`musim balance`):
    a start solve past the limit, or one that asks only whether the team reaches its target,
    leaves the value unknown (ddplay.py), and the row is not double-dummy play but for its
    bounds (the chunk's `bounds`: its rows carry them); with dd at some seats only the limit
    bounds each search of their cards' choices, and the rows count the cards chosen by bounds
    (the chunk's `limited`)."""
    bid_policy, play_policy = sim.policy_codes(params)
    policy = sim.run_policy(bid_policy, play_policy)
    dd = DD in play_policy
    ch = DealChunk(params.players, start, count, dd, *node_limit_columns(params.play, params.node_limit))
    ws = sim.workspace_of(params, params.question)
    if not dd:
        for first, stop in slices(count):  # the progress bar moves within the chunk
            ch.play(seed, policy, ws, first, stop)
        return ch
    ch.play(seed, policy, ws, stop=0)  # compiles (or loads) first: solve_ms times solving alone
    for i in range(count):
        t = time.perf_counter()
        ch.play(seed, policy, ws, i, i + 1)
        if ch.res[i, sim.OUTCOME] == sim.PLAYED:
            ch.solve_ms[i] = (time.perf_counter() - t) * 1000
        report(1)
    return ch


class MatchChunk:
    """The arrays of one chunk of matches (musim.play.drivers.simulate_matches)."""

    def __init__(self, players, start, count, out):
        self.players, self.start, self.count = players, start, count
        self.deals, self.eklats, self.totals, self.chief_counts = (
            out[k] for k in ("deals", "eklats", "totals", "chief_counts")
        )


def simulate_match_chunk(params, seed, start, count):
    """Play matches start..start+count-1 of a run to `params.goal` and return their MatchChunk."""
    policy = sim.run_policy(*sim.policy_codes(params))
    ws = sim.workspace_of(params)
    parts = [  # the progress bar moves within the chunk
        drivers.simulate_matches(params.players, policy, seed, start + first, stop - first, ws, sim.MATCH)
        for first, stop in slices(count)
    ]
    out = parts[0] if len(parts) == 1 else {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return MatchChunk(params.players, start, count, out)


def deal_record(params, seed, deal):
    """The complete game record (docs/examples/README.md) of deal `deal` of a run, re-played from its
    seed under `params`: a variant's record carries its table; a deal past the node limit was
    played by the heuristic, and so is its record.

    Any Parquet row can so be expanded into the full auction and play, and
    `musim replay` must reproduce the row from it.
    """
    n = params.players
    ch = DealChunk(n, deal, 1)
    ws = sim.workspace_of(params)
    ch.play(seed, sim.run_policy(*sim.policy_codes(params)), ws)
    r = ch.res[0]
    record = {
        "game": "mu",
        "players": n,
        **target_tables.record_field(params.targets, n),
        "dealer": int(ch.dealers[0]),
        "hands": [MU.format(h) for h in ch.hands[0, :n]],
        "auction": [MU.format(m) for m in ws.auction_log[: r[sim.AUCTION_TURNS]]],
    }
    if r[sim.OUTCOME] == sim.PLAYED:
        record["vice_trump"] = type_text(r[sim.VICE_TRUMP]) if r[sim.VICE_TRUMP] >= 0 else None
        record["chief_trump"] = type_text(r[sim.CHIEF_TRUMP])
        record["partner"] = int(r[sim.PARTNER]) if r[sim.PARTNER] >= 0 else None
        record["play"] = [CARD_TEXT[c] for c in ws.play_log[: ch.hands[0, 0].item().bit_count() * n]]
    return record


def deals_per_chunk(play):
    """Deals a chunk of a run with this --play text (one policy, or one a seat) holds."""
    if plays_exactly(play):
        return CHUNK_DD_DEALS
    return CHUNK_SEARCH_DEALS if searches(play) else CHUNK_DEALS


def job(spec):
    """The engine's Job for a `musim run --game mu` spec (deals or matches); a spec without
    players (docs/formats.md's template schema, io/formats_doc.py) gets a Job that only describes."""
    params = None if spec.players is None else MuParams.of_spec(spec)
    if spec.mode == "matches":
        simulate = partial(simulate_match_chunk, params, spec.seed)
        return Job(CHUNK_MATCHES, simulate, columns.match_batch, columns.MATCH_SCHEMA)
    limits = node_limit_columns(spec.play, spec.options["node_limit"])
    schema = columns.deal_schema(spec.players, plays_exactly(spec.play), *limits)
    simulate = partial(simulate_deal_chunk, params, spec.seed)
    return Job(deals_per_chunk(spec.play), simulate, columns.deal_batch, schema, columns.DICTIONARY_COLUMNS)


def record(spec, index):
    """The game record of deal `index` of the run `spec` (`musim record`)."""
    return deal_record(MuParams.of_spec(spec), spec.seed, index)
