"""Runs of deals and matches for the games scored per seat: one driver each for every game.

Deal k of a run draws from the stream (seed, k) and match m from (~seed, m), a key space
apart; the dealer of a deal, or of a match's first deal, is drawn first, and in a match
the dealer moves one seat left each deal until the game's rule ends it: a total reaching
a bound, or a fixed number of deals.

Each driver is compiled once per game, told apart by the game's workspace type: the game
registers its kernels for that type, and numba resolves `play_row`, `match_deal` and
`match_over` from it while compiling (an overload).  Passing the kernels as function
arguments, or closing over them, would key numba's on-disk cache on the function objects,
so the drivers would compile anew in every process.

Every game declares its per-deal columns once (a Deal namedtuple of dtype and shape per column)
and registers one kernel playing a deal into a Deal of arrays: a run's row (views of its
columns, row_of) or, in a match, the workspace's own (ws.deal).  The driver builds the rows
from the layout, so no game fills a row array by hand.  A game whose row is a whole game
(Safarü, Calcory, Danger) plays it as a deal; a run's option the kernel reads (Calcory's
memory, Safarü's variant) lives in the workspace, as Mü's goal does.
"""

from collections import namedtuple

import numpy as np
from numba.extending import overload

from musim.compile.jit import flat_kernel
from musim.core.rng import randint, stream_state
from musim.engine.seats import seat_policies
from musim.solver.table_size import DEFAULT_MB

MATCH_DEAL_CAP = 10_000  # a match that has not ended by then stops (flagged `capped`)
SEATS = -1  # in a layout's column shape: one entry a seat
Run = namedtuple("Run", "dealer deal")  # a run: each row's dealer, and its columns (the game's Deal)
Matches = namedtuple("Matches", "deals totals own")  # a run of matches: deals, totals, and the game's own columns


def play_row(n, dealer, seat_policy, state, rows, i, ws):
    """Play deal row i of `rows` (a Run): ws's game's kernel, into the row's views (row_of)."""


def match_deal(n, dealer, seat_policy, state, matches, i, ws):
    """Play one deal of match i, adding its scores to the match's totals: ws's game's kernel."""


def match_over(n, played, total, ws):
    """Does the match end after `played` deals, a player's running total being `total`: ws's game's rule."""


def begin_match(n, ws):
    """Start a match, or a run's row: ws's game's kernel resetting its own match state (nothing
    unless it has one)."""


@flat_kernel(inline="always")
def add_scores(n, scores, totals, i):
    for s in range(n):
        totals[i, s] += scores[s]


@flat_kernel(inline="always")
def no_tally(n, out, own, i):
    """A game's match keeps no columns of its own."""


def row_of(columns, i):
    """Row i of a run's columns (the game's Deal namedtuple): a Deal of the columns' rows (views)."""


@overload(row_of, inline="always")
def _row_of(columns, i):
    cls = columns.instance_class  # numba builds a namedtuple only from fields written out: so, as source
    views = ", ".join(f"columns[{k}][i]" for k in range(len(cls._fields)))
    scope = {"cls": cls}
    exec(f"def row(columns, i):\n    return cls({views})", scope)
    return scope["row"]


def deal_arrays(layout, seats):
    """One deal's arrays of a game: `layout` is the game's Deal namedtuple of (dtype, shape)
    per column, SEATS in a shape standing for `seats`; a single value is an array of one."""
    return type(layout)(*(np.zeros(_shape(shape, seats), dtype) for dtype, shape in layout))


def _shape(shape, seats):
    return tuple(seats if k == SEATS else k for k in shape) or (1,)


def run_rows(layout, count, seats):
    """The arrays of `count` rows of a game's run (a Run): dealer, and each column of the
    layout (deal_arrays) with the row first."""
    deal = type(layout)(*(np.zeros((count, *_shape(shape, seats)), dtype) for dtype, shape in layout))
    return Run(np.zeros(count, np.int64), deal)


def as_dict(layout, columns):
    """The columns by name, a single value's (count, 1) array as a column of count."""
    return {name: a if shape else a[:, 0] for (name, (_, shape)), a in zip(layout._asdict().items(), columns)}


def register(workspace, play, over=None, length=None, begin=None, reached=None, tally=None):
    """Register a game's kernels for its workspace namedtuple class: play(n, dealer, seat_policy,
    state, out, ws) plays one deal into `out`, its Deal of arrays: a run's row or, in a match,
    ws.deal, whose scores count and which tally(n, out, matches.own, i), if given, adds to the
    game's own columns of match i.  A match ends when over(total) holds for a player's total, or,
    given length instead, after length(n) deals, or, given reached instead, when reached(n, total,
    ws) holds (a goal the workspace carries).  begin(n, ws), if given, runs before each match's
    first deal and before each row of a run, a deal played alone being the first of its match (a
    game whose deals read the match so far, Rummü).  A game without matches (Safarü, whose row is
    a whole game) gives play alone.  play may not be inline="always": inlined into a run's row,
    numba dropped some of its writes into the row's views (Calcory's scores came back 0)."""
    if play.targetoptions.get("inline") == "always":
        raise ValueError(f"{play.__name__}: a deal kernel may not be inline='always' (drivers.register)")

    def mine(ws):
        return getattr(ws, "instance_class", None) is workspace

    @overload(play_row, inline="always")
    def _row(n, dealer, seat_policy, state, rows, i, ws):
        if mine(ws):
            return lambda n, dealer, seat_policy, state, rows, i, ws: play(
                n, dealer, seat_policy, state, row_of(rows.deal, i), ws
            )

    @overload(match_deal, inline="always")
    def _deal(n, dealer, seat_policy, state, matches, i, ws):
        if not mine(ws):
            return None
        count = no_tally if tally is None else tally

        def played(n, dealer, seat_policy, state, matches, i, ws):
            play(n, dealer, seat_policy, state, ws.deal, ws)
            count(n, ws.deal, matches.own, i)
            add_scores(n, ws.deal.scores, matches.totals, i)

        return played

    @overload(begin_match, inline="always")
    def _begin(n, ws):
        if mine(ws):
            if begin is None:
                return lambda n, ws: None
            return lambda n, ws: begin(n, ws)

    @overload(match_over, inline="always")
    def _over(n, played, total, ws):
        if mine(ws):
            if reached is not None:
                return lambda n, played, total, ws: reached(n, total, ws)
            if length is None:
                return lambda n, played, total, ws: over(total)
            return lambda n, played, total, ws: played >= length(n)


@flat_kernel(nogil=True)
def simulate_chunk(n, seed, start, seat_policy, rows, ws):
    """Play deals start .. start+len(rows.dealer)-1 of a run into `rows`."""
    state = ws.rng
    for i in range(rows.dealer.shape[0]):
        state[0] = stream_state(seed, start + i)
        rows.dealer[i] = randint(state, n)
        begin_match(n, ws)
        play_row(n, rows.dealer[i], seat_policy, state, rows, i, ws)


def simulate_layout_deals(layout, players, seat_policy, seed, start, count, ws):
    """Deals start..start+count-1 of a game as a dict of arrays, one row per deal: dealer, then
    the columns of `layout` (deal_arrays).  `seat_policy`: the game's policy codes (one per seat)."""
    rows = run_rows(layout, count, players)
    simulate_chunk(players, seed, start, seat_policy, rows, ws)
    return {"dealer": rows.dealer, **as_dict(layout, rows.deal)}


@flat_kernel(nogil=True)
def simulate_match_chunk(n, seed, start, seat_policy, matches, ws):
    """Play matches start .. start+len(matches.deals)-1."""
    state, deals, totals = ws.rng, matches.deals, matches.totals
    for i in range(deals.shape[0]):
        state[0] = stream_state(~np.uint64(seed), start + i)
        dealer = randint(state, n)
        for s in range(n):
            totals[i, s] = 0
        played, over = 0, False
        begin_match(n, ws)
        while not over and played < MATCH_DEAL_CAP:
            match_deal(n, dealer, seat_policy, state, matches, i, ws)
            played += 1
            for s in range(n):
                over |= match_over(n, played, totals[i, s], ws)
            dealer = dealer + 1 if dealer + 1 < n else 0
        deals[i] = played


def simulate_matches(players, seat_policy, seed, start, count, ws, own=None):
    """Matches start..start+count-1 as a dict of arrays, one row per match: deals, totals (per
    seat), capped (no end within MATCH_DEAL_CAP deals), and the columns of `own` (a layout of the
    game's own per-match columns, filled by its tally kernel).  `seat_policy`: the game's policy
    codes (one per seat)."""
    own_columns = None if own is None else run_rows(own, count, players).deal
    matches = Matches(np.zeros(count, np.int64), np.zeros((count, players), np.int64), own_columns)
    simulate_match_chunk(players, seed, start, seat_policy, matches, ws)
    mine = {} if own is None else as_dict(own, own_columns)
    return {"deals": matches.deals, "totals": matches.totals, "capped": matches.deals >= MATCH_DEAL_CAP, **mine}


class SeatGame:
    """The Python entry points of a game whose seats play by name (one name, or one a seat:
    musim.engine.seats.seat_policies over `names`) and whose workspace make_workspace(players, codes,
    tt_mb) holds the solver's scratch (a table of tt_mb) when a seat plays dd.  `layout`: the
    game's Deal of (dtype, shape) per column (deal_arrays).  `worlds`, the search budget
    (musim.play.search_budget), goes to make_workspace as its `worlds` keyword when given: a
    game with a search player takes it; so does `node_limit` (musim.play.node_limit), a game
    with dd play taking it, when not 0, and `exact_tricks` (search_budget.EXACT_TRICKS), a game
    with exact endgames taking it, and `weights` (world_weights.OPTION), a game with weighted
    worlds taking it, when given."""

    def __init__(self, layout, names, make_workspace):
        self.layout, self.names, self.make_workspace = layout, names, make_workspace

    def _codes_and_workspace(self, players, policy, ws, tt_mb, search):
        """The seats' codes, and `ws` or else a workspace given the `search` keywords that are
        (None: not given; a node limit of 0 neither)."""
        codes = seat_policies(players, policy, self.names)
        if ws is None:
            given = {name: v for name, v in search.items() if v is not None and (name != "node_limit" or v)}
            ws = self.make_workspace(players, codes, tt_mb, **given)
        return codes, ws

    def simulate_deals(
        self,
        players,
        seed,
        policy,
        start,
        count,
        ws=None,
        tt_mb=DEFAULT_MB,
        worlds=None,
        node_limit=0,
        exact_tricks=None,
        weights=None,
    ):
        """Deals start..start+count-1 of a run as a dict of arrays, one row per deal: dealer, then
        the game's layout columns (simulate_layout_deals)."""
        search = {"worlds": worlds, "node_limit": node_limit, "exact_tricks": exact_tricks, "weights": weights}
        codes, ws = self._codes_and_workspace(players, policy, ws, tt_mb, search)
        return simulate_layout_deals(self.layout, players, codes, seed, start, count, ws)

    def simulate_matches(self, players, seed, policy, start, count, ws=None, tt_mb=DEFAULT_MB, **search):
        """Matches start..start+count-1 as a dict of arrays, one row per match (simulate_matches);
        `search`: worlds, exact_tricks, weights, as simulate_deals takes them."""
        codes, ws = self._codes_and_workspace(players, policy, ws, tt_mb, search)
        return simulate_matches(players, codes, seed, start, count, ws)
