"""`musim run --game mu`: simulate deals or matches chunk by chunk into Arrow batches.

The kernels (simulate.py) fill plain arrays; this module turns each chunk into
an Arrow record batch with the columns of docs/formats.md; summary.py
sums them for the end-of-run summary.
"""

import time
from functools import partial

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from musim.core.cards import CARD_TEXT, type_text
from musim.core.deck import MU
from musim.engine.progress import report, slices
from musim.engine.run import Job
from musim.engine.seats import EXACT_PLAY, plays_exactly
from musim.games.mu import BY_PLAY, RULEBOOK, target_tables
from musim.games.mu import simulate as sim
from musim.games.mu.columns import MATCH_SCHEMA, deal_schema
from musim.games.mu.ddplay import worker_ddplay
from musim.games.mu.policies import AUCTIONS, DD, RANDOM
from musim.play import drivers
from musim.play.drivers import MATCH_DEAL_CAP
from musim.play.search_budget import DEFAULT_WORLDS, WORLDS, searches
from musim.play.seat_columns import DD_LIMITED
from musim.solver.tt import DEFAULT_MB

CHUNK_DEALS = 1 << 15
CHUNK_DD_DEALS = 1  # a deal takes 0.1 s to minutes: progress shows deal by deal
CHUNK_SEARCH_DEALS = 1024  # seconds a chunk with search seats: every worker gets chunks of a short run
CHUNK_MATCHES = 64

_TYPE_TEXTS = pa.array([type_text(t) for t in range(-1, 15)])  # code + 1 -> text ("none" at 0)
_OUTCOMES = pa.array(["played", "eklat"])

DICTIONARY_COLUMNS = (
    "players",
    "dealer",
    "outcome",
    "chief",
    "vice",
    "partner",
    "bid",
    "chief_trump",
    "vice_trump",
    "target",
    "success",
    "shortfall",
    "bonus",
    "provoker",
)


def policy_codes(players, play, auction=BY_PLAY):
    """(auction codes, card-play codes), one a seat, of a --play text (one policy or one a seat)
    under an --auction model: mu.BY_PLAY keeps the auction each seat's policy implies; another
    model bids for every seat but the random ones, which always bid at random (the game's check
    refuses a model when every seat plays random)."""
    bid, card = sim.seat_codes(players, play)
    if auction != BY_PLAY:
        bid = np.where(bid == RANDOM, RANDOM, AUCTIONS[auction])
    return bid, card


def node_limit_columns(play, node_limit):
    """(bounds, limited): does a node limit give deal rows dd_low and dd_high (every seat plays dd:
    one start solve of the whole deal), or dd_cards_limited (dd at some seats only: each card's
    searches, ddplay.dd_seat_card)?  `play`: the run's --play text."""
    seats = {p.strip() for p in play.split(",")}
    limited = node_limit > 0 and EXACT_PLAY in seats
    return limited and seats == {EXACT_PLAY}, limited and seats != {EXACT_PLAY}


class DealChunk:
    """The arrays of one chunk of deals, as the kernels fill them (musim.play.drivers.run_rows);
    dd, bounds, limited: the columns its rows carry (deal_schema)."""

    def __init__(self, players, start, count, dd=False, bounds=False, limited=False):
        self.players, self.start, self.count, self.dd, self.bounds = players, start, count, dd, bounds
        self.limited = limited
        self.rows = drivers.run_rows(sim.DEAL, count, sim.MAX_PLAYERS)
        self.dealers = self.rows.dealer
        self.res, self.scores, self.card_points, self.hands, self.laid, limited = self.rows.deal
        self.dd_limited = limited[:, 0]
        self.solve_ms = np.full(count, np.nan, np.float32)

    def play(self, seed, bid_policy, play_policy, ws, first=0, stop=None):
        """Fill rows first..stop-1 (all by default) with deals start+first.. of the run; the
        policies: one code for every seat or one a seat (sim.run_policy)."""
        rows = slice(first, self.count if stop is None else stop)
        part = drivers.Run(self.dealers[rows], sim.Deal(*(a[rows] for a in self.rows.deal)))
        drivers.simulate_chunk(
            self.players, seed, self.start + first, sim.run_policy(bid_policy, play_policy), part, ws
        )


def simulate_deals(
    players,
    seed,
    play,
    start,
    count,
    tt_mb=DEFAULT_MB,
    dd_tricks=0,
    node_limit=0,
    question="value",
    auction=BY_PLAY,
    targets=None,
    worlds=DEFAULT_WORLDS,
):
    """Play deals start..start+count-1 of a run and return their DealChunk; `targets`: the target
    table (target_tables.py; None: the rulebook's); `worlds`: a search seat's budget.

    Double-dummy deals run one kernel call each, so that each row gets its own
    wall-clock solve time (`solve_ms`).  node_limit and question (`musim balance`; `musim run`
    the node limit alone): a start solve past the limit, or one that asks only the reach
    question, leaves the value unknown (ddplay.py), and the row is not double-dummy play but for
    its bounds (the chunk's `bounds`: its rows carry them); with dd at some seats only the limit
    bounds each search of their cards' choices, and the rows count the cards chosen by bounds
    (the chunk's `limited`).  auction: the --auction model (policy_codes)."""
    bid_policy, play_policy = policy_codes(players, play, auction)
    dd = DD in play_policy
    ch = DealChunk(players, start, count, dd, *node_limit_columns(play, node_limit))
    if not dd:
        ws = sim.make_workspace(players, targets=targets, worlds=sim.search_worlds(play_policy, worlds))
        for first, stop in slices(count):  # the progress bar moves within the chunk
            ch.play(seed, bid_policy, play_policy, ws, first, stop)
        return ch
    dd = worker_ddplay(tt_mb, dd_tricks, node_limit, question)
    ws = sim.make_workspace(players, dd, targets=targets, worlds=sim.search_worlds(play_policy, worlds))
    ch.play(seed, bid_policy, play_policy, ws, stop=0)  # compiles (or loads) first: solve_ms times solving alone
    for i in range(count):
        t = time.perf_counter()
        ch.play(seed, bid_policy, play_policy, ws, i, i + 1)
        if ch.res[i, sim.OUTCOME] == sim.PLAYED:
            ch.solve_ms[i] = (time.perf_counter() - t) * 1000
        report(1)
    return ch


def _list_column(values, n, typ):
    """Arrow list column of type `typ` from the first n columns of a 2-D array."""
    flat = np.ascontiguousarray(values[:, :n]).ravel()
    offsets = np.arange(0, flat.size + 1, n, dtype=np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(flat, type=typ.value_type), type=typ)


def _nullable(values, typ, null_mask):
    return pa.array(values, type=typ, mask=null_mask)


# Integer columns taken straight from the kernel's result vector, null where negative.
_RESULT_COLUMNS = {
    "chief": sim.CHIEF,
    "vice": sim.VICE,
    "partner": sim.PARTNER,
    "bid": sim.BID,
    "target": sim.TARGET,
    "team_points": sim.TEAM_POINTS,
    "shortfall": sim.SHORTFALL,
    "bonus": sim.BONUS,
    "provoker": sim.PROVOKER,
    "auction_turns": sim.AUCTION_TURNS,
    "dd_value": sim.DD_VALUE,
    "dd_low": sim.DD_LOW,
    "dd_high": sim.DD_HIGH,
}


def deal_batch(ch):
    """Arrow record batch of a chunk of deals (docs/formats.md), with the double-dummy columns if so
    played, and under a node limit their bounds or the count of cards chosen by bounds."""
    schema = deal_schema(ch.players, ch.dd, ch.bounds, ch.limited)
    typ = {f.name: f.type for f in schema}
    r, n = ch.res, ch.players
    eklat = r[:, sim.OUTCOME] == sim.EKLAT
    col = {
        "deal": pa.array(np.arange(ch.start, ch.start + ch.count), type=typ["deal"]),
        "players": pa.array(np.full(ch.count, n), type=typ["players"]),
        "dealer": pa.array(ch.dealers, type=typ["dealer"]),
        "outcome": pc.take(_OUTCOMES, pa.array(r[:, sim.OUTCOME])),
        "chief_trump": pc.take(_TYPE_TEXTS, _nullable(r[:, sim.CHIEF_TRUMP] + 1, pa.int64(), eklat)),
        "vice_trump": pc.take(_TYPE_TEXTS, _nullable(r[:, sim.VICE_TRUMP] + 1, pa.int64(), r[:, sim.VICE_TRUMP] < 0)),
        "success": _nullable(r[:, sim.SUCCESS] == 1, typ["success"], eklat),
        "scores": _list_column(ch.scores, n, typ["scores"]),
        **{f"score_{i}": pa.array(ch.scores[:, i], type=typ[f"score_{i}"]) for i in range(n)},
        "card_points": _list_column(ch.card_points, n, typ["card_points"]),
        "hands": _list_column(ch.hands, n, typ["hands"]),
        "laid": _list_column(ch.laid, n, typ["laid"]),
    }
    if ch.dd:
        col["solve_ms"] = _nullable(ch.solve_ms, typ["solve_ms"], np.isnan(ch.solve_ms))
    if ch.limited:
        col[DD_LIMITED.name] = pa.array(ch.dd_limited, type=typ[DD_LIMITED.name])
    for name, idx in _RESULT_COLUMNS.items():
        if name in typ:
            col[name] = _nullable(r[:, idx], typ[name], r[:, idx] < 0)
    return pa.RecordBatch.from_arrays([col[f.name] for f in schema], schema=schema)


class MatchChunk:
    """The arrays of one chunk of matches (musim.play.drivers.simulate_matches)."""

    def __init__(self, players, start, count, out):
        self.players, self.start, self.count = players, start, count
        self.deals, self.eklats, self.totals, self.chief_counts = (
            out[k] for k in ("deals", "eklats", "totals", "chief_counts")
        )


def simulate_match_chunk(
    players,
    seed,
    play,
    goal,
    start,
    count,
    tt_mb=DEFAULT_MB,
    dd_tricks=0,
    auction=BY_PLAY,
    targets=None,
    worlds=DEFAULT_WORLDS,
):
    """Play matches start..start+count-1 of a run and return their MatchChunk (`auction`,
    `targets` and `worlds` as in simulate_deals)."""
    bid_policy, play_policy = policy_codes(players, play, auction)
    dd = worker_ddplay(tt_mb, dd_tricks) if DD in play_policy else None
    ws = sim.make_workspace(players, dd, goal, targets, sim.search_worlds(play_policy, worlds))
    policy = sim.run_policy(bid_policy, play_policy)
    parts = [  # the progress bar moves within the chunk
        drivers.simulate_matches(players, policy, seed, start + first, stop - first, ws, sim.MATCH)
        for first, stop in slices(count)
    ]
    out = parts[0] if len(parts) == 1 else {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return MatchChunk(players, start, count, out)


def match_batch(ch):
    """Arrow record batch of a chunk of matches: one row per match."""
    n = ch.players
    totals = ch.totals[:, :n]
    best = totals.max(axis=1, keepdims=True)
    is_top = totals == best
    n_top = is_top.sum(axis=1)
    winner = np.where(n_top == 1, totals.argmax(axis=1), -1)
    tops = [np.flatnonzero(row) for row in is_top]
    typ = {f.name: f.type for f in MATCH_SCHEMA}
    col = {
        "match": pa.array(np.arange(ch.start, ch.start + ch.count), type=typ["match"]),
        "players": pa.array(np.full(ch.count, n), type=typ["players"]),
        "deals": pa.array(ch.deals, type=typ["deals"]),
        "eklats": pa.array(ch.eklats, type=typ["eklats"]),
        "totals": _list_column(ch.totals, n, typ["totals"]),
        "winner": _nullable(winner, typ["winner"], winner < 0),
        "winners": pa.array([t.tolist() for t in tops], type=typ["winners"]),
        "chief_counts": _list_column(ch.chief_counts, n, typ["chief_counts"]),
        "capped": pa.array(ch.deals >= MATCH_DEAL_CAP, type=typ["capped"]),
    }
    return pa.RecordBatch.from_arrays([col[f.name] for f in MATCH_SCHEMA], schema=MATCH_SCHEMA)


def deal_record(
    players,
    seed,
    deal,
    play,
    tt_mb=64,
    dd_tricks=0,
    auction=BY_PLAY,
    targets=RULEBOOK,
    worlds=DEFAULT_WORLDS,
    node_limit=0,
):
    """The complete game record (docs/examples/README.md) of deal `deal` of a run, re-played from its seed;
    `auction`: the run's --auction model; `targets`: the run's option (target_tables.py), whose table a
    variant's record carries; `worlds`: the run's search budget; `node_limit`: the run's (a deal
    past it was played by the heuristic, and so is its record).

    Any Parquet row can so be expanded into the full auction and play, and
    `musim replay` must reproduce the row from it.
    """
    bid_policy, play_policy = policy_codes(players, play, auction)
    ch = DealChunk(players, deal, 1)
    dd = worker_ddplay(tt_mb, dd_tricks, node_limit) if DD in play_policy else None
    ws = sim.make_workspace(
        players, dd, targets=target_tables.table_of(targets), worlds=sim.search_worlds(play_policy, worlds)
    )
    ch.play(seed, bid_policy, play_policy, ws)
    r = ch.res[0]
    record = {
        "game": "mu",
        "players": players,
        **target_tables.record_field(targets, players),
        "dealer": int(ch.dealers[0]),
        "hands": [MU.format(h) for h in ch.hands[0, :players]],
        "auction": [MU.format(m) for m in ws.auction_log[: r[sim.AUCTION_TURNS]]],
    }
    if r[sim.OUTCOME] == sim.PLAYED:
        record["vice_trump"] = type_text(r[sim.VICE_TRUMP]) if r[sim.VICE_TRUMP] >= 0 else None
        record["chief_trump"] = type_text(r[sim.CHIEF_TRUMP])
        record["partner"] = int(r[sim.PARTNER]) if r[sim.PARTNER] >= 0 else None
        record["play"] = [CARD_TEXT[c] for c in ws.play_log[: ch.hands[0, 0].item().bit_count() * players]]
    return record


def deal_chunk(play):
    """Deals a chunk of a run with this --play text (one policy, or one a seat) holds."""
    if plays_exactly(play):
        return CHUNK_DD_DEALS
    return CHUNK_SEARCH_DEALS if searches(play) else CHUNK_DEALS


def job(spec):
    """The engine's Job for a `musim run --game mu` spec (deals or matches)."""
    dd_tricks, auction = spec.options["dd_tricks"], spec.options["auction"]
    targets, worlds = target_tables.table_of(spec.options["targets"]), spec.options[WORLDS.name]
    if spec.mode == "matches":
        simulate = partial(
            simulate_match_chunk,
            spec.players,
            spec.seed,
            spec.play,
            spec.options["goal"],
            tt_mb=spec.tt_mb,
            dd_tricks=dd_tricks,
            auction=auction,
            targets=targets,
            worlds=worlds,
        )
        return Job(CHUNK_MATCHES, simulate, match_batch, MATCH_SCHEMA)
    return Job(
        deal_chunk(spec.play),
        partial(
            simulate_deals,
            spec.players,
            spec.seed,
            spec.play,
            tt_mb=spec.tt_mb,
            dd_tricks=dd_tricks,
            node_limit=spec.options["node_limit"],
            auction=auction,
            targets=targets,
            worlds=worlds,
        ),
        deal_batch,
        deal_schema(spec.players, plays_exactly(spec.play), *node_limit_columns(spec.play, spec.options["node_limit"])),
        DICTIONARY_COLUMNS,
    )


def record(spec, index):
    """The game record of deal `index` of the run `spec` (`musim record`)."""
    options = spec.options
    return deal_record(
        spec.players,
        spec.seed,
        index,
        spec.play,
        spec.tt_mb,
        options["dd_tricks"],
        options["auction"],
        options["targets"],
        options[WORLDS.name],
        options["node_limit"],
    )
