"""The columns of `musim run --game mu` output, each defined once: name, Arrow type, description;
and the record batches of a chunk's arrays (deal_batch, match_batch), as every game's columns.py.

The Arrow schemas (a description in each field's metadata) are built from these tables, and
docs/formats.md from the schemas (scripts/make_formats_doc.py).
"""

from functools import lru_cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from musim.core.cards import COLOURS, type_text
from musim.engine.parquet import SEAT, Column, schema_of
from musim.games.mu import simulate as sim
from musim.play.drivers import MATCH_DEAL_CAP
from musim.play.seat_columns import DD_LIMITED, PER_SEAT, SEAT_NUMBER, row_index

_TYPES = f"a colour letter ({', '.join(COLOURS)}) or a number digit (0..9)"

DEAL_COLUMNS = (
    row_index(),
    Column("players", pa.int8(), "Number of players (3..6)."),
    Column("dealer", pa.int8(), f"The dealer, {SEAT_NUMBER}; seats are numbered clockwise."),
    Column(
        "outcome",
        pa.string(),
        'How the deal ended: "played", or "eklat" (no unique highest bid: the deal ends unplayed).',
    ),
    Column("chief", pa.int8(), f"The chief (unique highest bidder), {SEAT_NUMBER}; null for an eklat."),
    Column(
        "vice", pa.int8(), f"The vice, {SEAT_NUMBER}; null for an eklat, with 3 players, or when no player qualifies."
    ),
    Column("partner", pa.int8(), f"The chief's partner, {SEAT_NUMBER}; null for an eklat and with 3 players."),
    Column(
        "bid",
        pa.int8(),
        "The chief's bid (cards laid); for an eklat the tied highest number of cards laid (0 if nobody laid).",
    ),
    Column("chief_trump", pa.string(), f'The chief trump: {_TYPES}, or "none"; null for an eklat.'),
    Column("vice_trump", pa.string(), f"The vice trump: {_TYPES}; null when there is no vice (always for an eklat)."),
    Column("target", pa.int16(), "Card points the chief's team needs to make the bid; null for an eklat."),
    Column("team_points", pa.int16(), "Card points the chief and partner won in tricks; null for an eklat."),
    Column("success", pa.bool_(), "True if team_points reached the target (the bid is made); null for an eklat."),
    Column(
        "shortfall",
        pa.int8(),
        "By how many cards the bid failed: the bid minus the largest bid whose target team_points reached (0 when "
        "made); null for an eklat.",
    ),
    Column(
        "bonus",
        pa.int16(),
        "Points the chief and the partner each add for making the bid (0 when failed); null for an eklat.",
    ),
    Column(
        "provoker",
        pa.int8(),
        f"For an eklat, the tied player who laid last, {SEAT_NUMBER}; null for a played deal or when nobody laid.",
    ),
    Column("auction_turns", pa.int16(), "Turns of the auction, passes included, the dealer's first."),
    Column(
        "scores",
        pa.list_(pa.int16()),
        f"The deal's score of each seat: card points plus bonus or penalty, or the eklat score; {PER_SEAT}.",
    ),
    Column(
        f"score_{SEAT}",
        pa.int16(),
        "The deal's score of seat i (one column per seat, i = 0..players-1), the same as scores[i]: "
        "every game's deal rows carry these columns.",
    ),
    Column("card_points", pa.list_(pa.int16()), f"Card points won in tricks, {PER_SEAT}; all 0 for an eklat."),
    Column(
        "hands",
        pa.list_(pa.uint64()),
        f"The cards dealt to each seat (laid cards included) as card masks (bit layout below), {PER_SEAT}.",
    ),
    Column("laid", pa.list_(pa.uint64()), f"The cards each seat laid in the auction as card masks, {PER_SEAT}."),
)

# Filled by double-dummy play only: present in a run's output with --play dd alone.
DD_COLUMNS = (
    Column(
        "dd_value",
        pa.int16(),
        "Card points the chief's team wins, with perfect play on both sides, from where double-dummy play began: "
        "the last K tricks with --dd-tricks K, else the whole deal (then equal to team_points); null for an eklat.",
    ),
    Column(
        "solve_ms",
        pa.float32(),
        "Wall-clock milliseconds the deal took (nearly all of it solving); differs between runs; null for an eklat.",
    ),
)

# Filled under a node limit only (`--node-limit`) with every seat playing dd: the bounds its
# start solve proved (with dd at some seats only, DD_LIMITED instead).
BOUNDS_COLUMNS = tuple(
    Column(
        f"dd_{side}",
        pa.int16(),
        f"The {least} card points the chief's team wins with perfect play on both sides, as the deal's solve "
        "proved within --node-limit. Where the solve finished, dd_low = dd_high = dd_value and the cards were "
        "played double-dummy; where dd_low < dd_high it passed the limit: dd_value is null and the cards were "
        "played by the heuristic (team_points is then not double-dummy play). Null for an eklat.",
    )
    for side, least in (("low", "least"), ("high", "most"))
)

MATCH_COLUMNS = (
    Column("match", pa.int64(), "Index of the match within the run; match m draws from its own random stream."),
    Column("players", pa.int8(), "Number of players (3..6)."),
    Column("deals", pa.int32(), "Deals the match took, eklats included: it ends when a total reaches --goal."),
    Column("eklats", pa.int32(), "Deals of the match that ended in an eklat."),
    Column("totals", pa.list_(pa.int32()), f"Each seat's total score (points) at the end of the match, {PER_SEAT}."),
    Column("winner", pa.int8(), f"The seat with the highest total, {SEAT_NUMBER}; null when several share it."),
    Column("winners", pa.list_(pa.int8()), "The seats sharing the highest total, in seat order (one unless tied)."),
    Column("chief_counts", pa.list_(pa.int32()), f"Deals each seat played as chief, {PER_SEAT}."),
    Column(
        "capped",
        pa.bool_(),
        f"True if the match stopped after {MATCH_DEAL_CAP:,} deals without anyone reaching the goal.",
    ),
)

MATCH_SCHEMA = schema_of(MATCH_COLUMNS)


@lru_cache
def deal_schema(players, dd, bounds=False, limited=False):
    """Schema of deal rows at `players` seats (None: score_<i> kept as one template column, as
    docs/formats.md lists it): with the double-dummy columns if the cards were played double-dummy,
    and under a node limit the bounds columns (every seat dd) or DD_LIMITED (dd at some seats)."""
    more = (DD_COLUMNS if dd else ()) + (BOUNDS_COLUMNS if bounds else ()) + ((DD_LIMITED,) if limited else ())
    return schema_of(DEAL_COLUMNS + more, players)


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
