"""`musim run --game mu`: simulate deals or matches chunk by chunk into Arrow batches.

The kernels (simulate.py) fill plain arrays; this module turns each chunk into
an Arrow record batch with the columns of FORMATS.md "Run output", and keeps
the running totals for the end-of-run summary.
"""

import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from musim.cards import CARD_TEXT, mask_cards, type_text
from musim.games.mu import simulate as sim
from musim.games.mu.ddplay import worker_ddplay
from musim.games.mu.policies import DD, HEURISTIC, RANDOM
from musim.solver.tt import DEFAULT_MB

# --play name -> (auction/trump/partner policy, card-play policy)
PLAY_POLICIES = {"random": (RANDOM, RANDOM), "heuristic": (HEURISTIC, HEURISTIC), "dd": (HEURISTIC, DD)}
CHUNK_DEALS = 1 << 15
CHUNK_DD_DEALS = 1  # a deal takes 0.1 s to minutes: progress shows deal by deal
CHUNK_MATCHES = 64

_TYPE_TEXTS = pa.array([type_text(t) for t in range(-1, 15)])  # code + 1 -> text ("none" at 0)
_OUTCOMES = pa.array(["played", "eklat"])

DEAL_SCHEMA = pa.schema(
    [
        ("deal", pa.int64()),
        ("players", pa.int8()),
        ("dealer", pa.int8()),
        ("outcome", pa.string()),
        ("chief", pa.int8()),
        ("vice", pa.int8()),
        ("partner", pa.int8()),
        ("bid", pa.int8()),
        ("chief_trump", pa.string()),
        ("vice_trump", pa.string()),
        ("target", pa.int16()),
        ("team_points", pa.int16()),
        ("success", pa.bool_()),
        ("shortfall", pa.int8()),
        ("bonus", pa.int16()),
        ("provoker", pa.int8()),
        ("auction_turns", pa.int16()),
        ("dd_value", pa.int16()),
        ("solve_ms", pa.float32()),
        ("scores", pa.list_(pa.int16())),
        ("card_points", pa.list_(pa.int16())),
        ("hands", pa.list_(pa.uint64())),
        ("laid", pa.list_(pa.uint64())),
    ]
)

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

MATCH_SCHEMA = pa.schema(
    [
        ("match", pa.int64()),
        ("players", pa.int8()),
        ("deals", pa.int32()),
        ("eklats", pa.int32()),
        ("totals", pa.list_(pa.int32())),
        ("winner", pa.int8()),
        ("winners", pa.list_(pa.int8())),
        ("chief_counts", pa.list_(pa.int32())),
        ("capped", pa.bool_()),
    ]
)


class DealChunk:
    """The arrays of one chunk of deals, as the kernel fills them."""

    def __init__(self, players, start, count):
        self.players, self.start, self.count = players, start, count
        self.dealers = np.zeros(count, np.int64)
        self.res = np.zeros((count, sim.N_RESULTS), np.int64)
        self.scores = np.zeros((count, sim.MAX_PLAYERS), np.int64)
        self.card_points = np.zeros((count, sim.MAX_PLAYERS), np.int64)
        self.hands = np.zeros((count, sim.MAX_PLAYERS), np.uint64)
        self.laid = np.zeros((count, sim.MAX_PLAYERS), np.uint64)
        self.solve_ms = np.full(count, np.nan, np.float32)


def simulate_deals(players, seed, play, start, count, tt_mb=DEFAULT_MB, dd_tricks=0, node_limit=0):
    """Play deals start..start+count-1 of a run and return their DealChunk.

    Double-dummy deals run one kernel call each, so that each row gets its own
    wall-clock solve time (`solve_ms`).  node_limit (`musim balance` only): a start solve
    past it leaves its deal unresolved (ddplay.py), and the row is not double-dummy play."""
    bid_policy, play_policy = PLAY_POLICIES[play]
    ch = DealChunk(players, start, count)
    if play_policy != DD:
        sim.simulate_chunk(
            players,
            seed,
            start,
            bid_policy,
            play_policy,
            ch.dealers,
            ch.res,
            ch.scores,
            ch.card_points,
            ch.hands,
            ch.laid,
            sim.make_workspace(players),
        )
        return ch
    ws = sim.make_workspace(players, worker_ddplay(tt_mb, dd_tricks, node_limit))
    # an empty call compiles (or loads) the kernel first, so solve_ms times solving alone
    sim.simulate_chunk(
        players,
        seed,
        start,
        bid_policy,
        play_policy,
        ch.dealers[:0],
        ch.res[:0],
        ch.scores[:0],
        ch.card_points[:0],
        ch.hands[:0],
        ch.laid[:0],
        ws,
    )
    for i in range(count):
        t = time.perf_counter()
        sim.simulate_chunk(
            players,
            seed,
            start + i,
            bid_policy,
            play_policy,
            ch.dealers[i : i + 1],
            ch.res[i : i + 1],
            ch.scores[i : i + 1],
            ch.card_points[i : i + 1],
            ch.hands[i : i + 1],
            ch.laid[i : i + 1],
            ws,
        )
        if ch.res[i, sim.OUTCOME] == sim.PLAYED:
            ch.solve_ms[i] = (time.perf_counter() - t) * 1000
    return ch


def _list_column(values, n, typ):
    """Arrow list column from the first n columns of a 2-D array."""
    flat = np.ascontiguousarray(values[:, :n]).ravel()
    offsets = np.arange(0, flat.size + 1, n, dtype=np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(flat, type=typ))


def _nullable(values, typ, null_mask):
    return pa.array(values, type=typ, mask=null_mask)


def deal_batch(ch):
    """Arrow record batch of a chunk of deals (FORMATS.md "Run output")."""
    r, n = ch.res, ch.players
    eklat = r[:, sim.OUTCOME] == sim.EKLAT
    col = {
        "deal": pa.array(np.arange(ch.start, ch.start + ch.count, dtype=np.int64)),
        "players": pa.array(np.full(ch.count, n, np.int8)),
        "dealer": pa.array(ch.dealers.astype(np.int8)),
        "outcome": pc.take(_OUTCOMES, pa.array(r[:, sim.OUTCOME])),
        "chief_trump": pc.take(_TYPE_TEXTS, _nullable(r[:, sim.CHIEF_TRUMP] + 1, pa.int64(), eklat)),
        "vice_trump": pc.take(_TYPE_TEXTS, _nullable(r[:, sim.VICE_TRUMP] + 1, pa.int64(), r[:, sim.VICE_TRUMP] < 0)),
        "success": _nullable(r[:, sim.SUCCESS] == 1, pa.bool_(), eklat),
        "scores": _list_column(ch.scores, n, pa.int16()),
        "card_points": _list_column(ch.card_points, n, pa.int16()),
        "hands": _list_column(ch.hands, n, pa.uint64()),
        "laid": _list_column(ch.laid, n, pa.uint64()),
        "solve_ms": pa.array(ch.solve_ms, mask=np.isnan(ch.solve_ms)),
    }
    for name, idx in (
        ("chief", sim.CHIEF),
        ("vice", sim.VICE),
        ("partner", sim.PARTNER),
        ("bid", sim.BID),
        ("target", sim.TARGET),
        ("team_points", sim.TEAM_POINTS),
        ("shortfall", sim.SHORTFALL),
        ("bonus", sim.BONUS),
        ("provoker", sim.PROVOKER),
        ("auction_turns", sim.AUCTION_TURNS),
        ("dd_value", sim.DD_VALUE),
    ):
        typ = DEAL_SCHEMA.field(name).type
        col[name] = _nullable(r[:, idx], typ, r[:, idx] < 0)
    return pa.RecordBatch.from_arrays([col[f.name] for f in DEAL_SCHEMA], schema=DEAL_SCHEMA)


class MatchChunk:
    """The arrays of one chunk of matches."""

    def __init__(self, players, start, count):
        self.players, self.start, self.count = players, start, count
        self.deals = np.zeros(count, np.int64)
        self.eklats = np.zeros(count, np.int64)
        self.totals = np.zeros((count, sim.MAX_PLAYERS), np.int64)
        self.chief_counts = np.zeros((count, sim.MAX_PLAYERS), np.int64)


def simulate_match_chunk(players, seed, play, goal, start, count, tt_mb=DEFAULT_MB, dd_tricks=0):
    """Play matches start..start+count-1 of a run and return their MatchChunk."""
    bid_policy, play_policy = PLAY_POLICIES[play]
    ch = MatchChunk(players, start, count)
    dd = worker_ddplay(tt_mb, dd_tricks) if play_policy == DD else None
    m = sim.MAX_PLAYERS
    sim.simulate_matches(
        players,
        seed,
        start,
        goal,
        bid_policy,
        play_policy,
        ch.deals,
        ch.totals,
        ch.chief_counts,
        ch.eklats,
        np.zeros(m, np.uint64),
        np.zeros(m, np.uint64),
        np.zeros(sim.N_RESULTS, np.int64),
        np.zeros(m, np.int64),
        np.zeros(m, np.int64),
        sim.make_workspace(players, dd),
    )
    return ch


def match_batch(ch):
    """Arrow record batch of a chunk of matches: one row per match."""
    n = ch.players
    totals = ch.totals[:, :n]
    best = totals.max(axis=1, keepdims=True)
    is_top = totals == best
    n_top = is_top.sum(axis=1)
    winner = np.where(n_top == 1, totals.argmax(axis=1), -1)
    tops = [np.flatnonzero(row) for row in is_top]
    col = {
        "match": pa.array(np.arange(ch.start, ch.start + ch.count, dtype=np.int64)),
        "players": pa.array(np.full(ch.count, n, np.int8)),
        "deals": pa.array(ch.deals.astype(np.int32)),
        "eklats": pa.array(ch.eklats.astype(np.int32)),
        "totals": _list_column(ch.totals, n, pa.int32()),
        "winner": _nullable(winner, pa.int8(), winner < 0),
        "winners": pa.array([t.tolist() for t in tops], type=pa.list_(pa.int8())),
        "chief_counts": _list_column(ch.chief_counts, n, pa.int32()),
        "capped": pa.array(ch.deals >= sim.MATCH_DEAL_CAP),
    }
    return pa.RecordBatch.from_arrays([col[f.name] for f in MATCH_SCHEMA], schema=MATCH_SCHEMA)


class DealSummary:
    """Running totals for the end-of-run summary: eklats, success by bid, mean score by role."""

    ROLES = ("chief", "partner", "vice", "other")

    def __init__(self, players):
        self.players = players
        self.deals = 0
        self.eklats = 0
        self.bid_played = np.zeros(16, np.int64)
        self.bid_made = np.zeros(16, np.int64)
        self.role_sum = np.zeros(4, np.int64)
        self.role_count = np.zeros(4, np.int64)

    def add(self, ch):
        n, r = self.players, ch.res
        played = r[:, sim.OUTCOME] == sim.PLAYED
        self.deals += ch.count
        self.eklats += int((~played).sum())
        bids = r[played, sim.BID]
        self.bid_played += np.bincount(bids, minlength=16)[:16]
        self.bid_made += np.bincount(bids, weights=r[played, sim.SUCCESS], minlength=16)[:16].astype(np.int64)
        seats = np.arange(n)
        rp = r[played]
        sc = ch.scores[played, :n]
        role = np.full(sc.shape, 3)
        role[rp[:, sim.VICE, None] == seats] = 2
        role[rp[:, sim.PARTNER, None] == seats] = 1
        role[rp[:, sim.CHIEF, None] == seats] = 0
        self.role_sum += np.bincount(role.ravel(), weights=sc.ravel(), minlength=4).astype(np.int64)
        self.role_count += np.bincount(role.ravel(), minlength=4)

    def lines(self):
        """Human-readable summary lines."""
        out = [f"deals: {self.deals:,}   eklat rate: {self.eklats / max(self.deals, 1):.2%}"]
        bids = [b for b in range(16) if self.bid_played[b]]
        if bids:
            out.append(
                "chief success by bid: "
                + "  ".join(
                    f"{b}: {self.bid_made[b] / self.bid_played[b]:.1%} (n={self.bid_played[b]:,})" for b in bids
                )
            )
        means = [
            f"{name} {self.role_sum[i] / self.role_count[i]:+.2f}"
            for i, name in enumerate(self.ROLES)
            if self.role_count[i]
        ]
        if means:
            out.append("mean score by role (played deals): " + "  ".join(means))
        return out


class MatchSummary:
    """Running totals for a matches run."""

    def __init__(self, players):
        self.players = players
        self.matches = 0
        self.deals = 0
        self.wins = np.zeros(players, np.int64)

    def add(self, ch):
        self.matches += ch.count
        self.deals += int(ch.deals.sum())
        totals = ch.totals[:, : self.players]
        top = totals == totals.max(axis=1, keepdims=True)
        self.wins += top[top.sum(axis=1) == 1].sum(axis=0)

    def lines(self):
        return [
            f"matches: {self.matches:,}   mean deals per match: {self.deals / max(self.matches, 1):.1f}",
            "outright wins by seat: " + "  ".join(f"{s}: {w:,}" for s, w in enumerate(self.wins)),
        ]


def deal_record(players, seed, deal, play, tt_mb=64, dd_tricks=0):
    """The complete game record (FORMATS.md) of deal `deal` of a run, re-played from its seed.

    Any Parquet row can so be expanded into the full auction and play, and
    `musim replay` must reproduce the row from it.
    """
    bid_policy, play_policy = PLAY_POLICIES[play]
    ch = DealChunk(players, deal, 1)
    ws = sim.make_workspace(players, worker_ddplay(tt_mb, dd_tricks) if play_policy == DD else None)
    sim.simulate_chunk(
        players,
        seed,
        deal,
        bid_policy,
        play_policy,
        ch.dealers,
        ch.res,
        ch.scores,
        ch.card_points,
        ch.hands,
        ch.laid,
        ws,
    )
    r = ch.res[0]
    record = {
        "game": "mu",
        "players": players,
        "dealer": int(ch.dealers[0]),
        "hands": [mask_cards(h) for h in ch.hands[0, :players]],
        "auction": [mask_cards(m) for m in ws.auction_log[: r[sim.AUCTION_TURNS]]],
    }
    if r[sim.OUTCOME] == sim.PLAYED:
        record["vice_trump"] = type_text(r[sim.VICE_TRUMP]) if r[sim.VICE_TRUMP] >= 0 else None
        record["chief_trump"] = type_text(r[sim.CHIEF_TRUMP])
        record["partner"] = int(r[sim.PARTNER]) if r[sim.PARTNER] >= 0 else None
        record["play"] = [CARD_TEXT[c] for c in ws.play_log[: ch.hands[0, 0].item().bit_count() * players]]
    return record
