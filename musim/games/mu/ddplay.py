"""Double-dummy card play inside the deal kernel: every card chosen by the exact solver.

(A run with dd at some seats only solves afresh at each of their cards: dd_seat_card; under
`musim run --node-limit` each search of such a card's choice takes at most that many nodes,
solver/choice.py limited_play.)

When the play phase reaches the last `tricks` tricks (all of them by default), the position
is mapped into the solver's layout and solved once: its value is the most card points the
chief's team can take in those tricks, the team maximising and the others minimising, every
hand seen by everyone.  Nothing else counts: not the score the points lead to, nor which seat
of a side takes them.  From then on each seat plays, of its legal cards that keep that exact
value, the one of lowest card index in the bit layout of docs/rules.md §1 (R0 R1 R1 R2 ...
K9; one null-window search per candidate, the transposition table warm).  That preference is
a function of the position alone, so rows are the same whatever the table size, what the
table holds or how the search orders its moves.  The team's points then equal the value
solved at the start; how the other seats share theirs follows from the preference.

A node limit (`musim balance --node-limit`, `musim run --node-limit`) bounds the start solve of a whole-deal play and
each null-window search of dd_reaches: a solve past it leaves the deal unresolved, with the
bounds it had proved (the target asked first, so that success is usually known), and the
cards are then played by the heuristic; its row must not be read as double-dummy play.

The reach question (`musim balance --question reach`) asks less of the start solve: one
null-window search, whether the team reaches the deal's target (dd_ask_first), instead of the
several a value needs and the searches of playing the cards out.  The value is then unknown
as under the node limit: the row holds the bounds that search proved and the cards are
played by the heuristic.
"""

import threading
from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit
from musim.games.mu.params import QUESTIONS  # what a start solve answers (meta[QUESTION] is its index)
from musim.games.mu.solver_layout import TT_BUCKET, fill_game, make_layout, solver_game, to_canon
from musim.solver.choice import GAVE_UP as CARDS_GAVE_UP
from musim.solver.choice import LIMIT, limited_play, make_limited
from musim.solver.search import NO_DEADLINE, available, can_reach, make_state, set_owners
from musim.solver.solve import first_keeping_move, solve_bounds, start_limit
from musim.solver.stats import S_GAVE_UP
from musim.solver.tt import make_table, new_generation

DDPlay = namedtuple("DDPlay", "tt st lay meta lim")
# meta[0] = value solved at the start of double-dummy play (-1 if none, UNRESOLVED past the
# node limit), meta[1] = tricks to play double-dummy (0 = all), meta[2] = the current exact
# value, meta[3] = nodes a solve or search may take (0: no limit), meta[4] = the need a limited
# start solve asks first, or alone under the reach question (0: none), meta[5..6] = the bounds
# of the team's points of the deal proved by the last start solve, meta[7] = 1 once a search of
# dd_reaches gave up (the caller clears it), meta[8] = the question of a start solve (QUESTIONS);
# lim: dd_seat_card's node limit and count of cards chosen by bounds (solver/choice.py; the deal
# reads it with choice.cards_limited)
START_VALUE, TRICKS, VALUE, NODE_LIMIT, FIRST_NEED, LOW, HIGH, GAVE_UP, QUESTION = range(9)
UNRESOLVED = -2  # START_VALUE: the value is not known (the node limit, or the reach question)
VALUE_QUESTION, REACH_QUESTION = range(2)


def make_ddplay(tt_megabytes, tricks=0):
    """Solver scratch for one worker: a transposition table of tt_megabytes, reused across deals."""
    return DDPlay(
        tt=make_table(tt_megabytes),
        st=make_state(),
        lay=make_layout(),
        meta=np.array([-1, tricks, 0, 0, 0, -1, -1, 0, VALUE_QUESTION], np.int64),
        lim=make_limited(),
    )


_per_thread = threading.local()


def worker_ddplay(tt_mb, tricks=0, node_limit=0, question="value"):
    """This worker thread's scratch, made once and reused by every chunk it runs: a fresh
    table's first touch costs about 1.5 s of page faults per 512 MB.  `question` (QUESTIONS):
    what its start solves answer.  node_limit bounds the start solve of whole-deal play, or with
    dd at some seats only each search of a dd card's choice (dd_seat_card)."""
    dd = getattr(_per_thread, "dd", None)
    if dd is None or _per_thread.tt_mb != tt_mb:
        dd = _per_thread.dd = make_ddplay(tt_mb)
        _per_thread.tt_mb = tt_mb
    dd.meta[TRICKS] = tricks
    dd.meta[NODE_LIMIT] = node_limit
    dd.meta[QUESTION] = QUESTIONS.index(question)
    dd.lim.meta[LIMIT], dd.lim.meta[CARDS_GAVE_UP] = node_limit, 0
    return dd


@flat_kernel
def dd_reset(dd):
    dd.meta[START_VALUE] = -1


@flat_kernel
def dd_ask_first(dd, need):
    """The next start solve asks first whether the team reaches `need` (the deal's target: 0
    clears it): under a node limit, so that a solve that gives up has usually decided it; under
    the reach question, it asks that alone."""
    if dd is not None:
        dd.meta[FIRST_NEED] = need


@flat_kernel
def dd_starts_at(dd, tricks_left):
    """Does double-dummy play begin with `tricks_left` tricks to go?"""
    return dd.meta[TRICKS] == 0 or tricks_left <= dd.meta[TRICKS]


@flat_kernel
def dd_searches_gave_up(dd, clear):
    """Did a search of dd_reaches give up at the node limit since the flag was last cleared?
    (False without a solver.)  `clear`: clear it."""
    if dd is None:
        return False
    r = dd.meta[GAVE_UP] == 1
    if clear:
        dd.meta[GAVE_UP] = 0
    return r


@flat_kernel
def dd_unsolved(dd):
    """Did the start solve of this play leave the value unknown (the node limit, or the reach
    question)?  Its cards are then played by the heuristic."""
    return dd.meta[START_VALUE] == UNRESOLVED


@flat_kernel
def dd_start_value(dd):
    """The value solved when double-dummy play began (-1: none, or no solver at all;
    UNRESOLVED: not known, dd_unsolved)."""
    if dd is None:
        return -1
    return dd.meta[START_VALUE]


@flat_kernel
def dd_start_bounds(dd):
    """(low, high) of the team's points of the deal, as proved when double-dummy play began
    ((-1, -1): none)."""
    if dd is None:
        return -1, -1
    if dd.meta[START_VALUE] == -1:
        return -1, -1
    return dd.meta[LOW], dd.meta[HIGH]


@flat_kernel
def dd_setup(n, chief_trump, vice_trump, held, on_team, dd, klass, power, class_mask):
    """Map the position (a trick boundary) into the solver layout, with a fresh table."""
    fill_game(n, chief_trump, vice_trump, on_team, dd.lay, klass, power, class_mask)
    for s in range(n):
        dd.st.hands[s] = to_canon(held[s], dd.lay.canon_of)
    new_generation(dd.tt, TT_BUCKET)


@flat_kernel(inline="always")
def _limit(dd):
    """Start the node limit's count (none if meta[NODE_LIMIT] is 0)."""
    start_limit(dd.st, dd.meta[NODE_LIMIT])


@flat_kernel(inline="always")
def _ask(n, dd, leader, need):
    """One null-window search of the position dd_setup mapped, `leader` to lead, under the node
    limit: (does the team take `need` points?, the bound it proved (can_reach), the points left,
    did it give up?).  The table keeps what it proved for the next search."""
    g = solver_game(n, dd.lay)
    set_owners(g, dd.st)
    avail = available(g, dd.st.hands, dd.st.line, 0)
    _limit(dd)
    r, bound = can_reach(g, dd.tt, dd.st, leader, 0, need, avail, 0)
    dd.st.limit[0] = NO_DEADLINE
    return r, bound, avail, dd.st.stats[S_GAVE_UP] != 0


@flat_kernel(inline="always")
def dd_reaches(n, dd, leader, need):
    """Can the team take `need` points from the position dd_setup mapped, `leader` to lead?
    One null-window search.  Past the node limit: False, and meta[GAVE_UP] set."""
    r, _, _, gave_up = _ask(n, dd, leader, need)
    if gave_up:
        dd.meta[GAVE_UP] = 1
    return r


@flat_kernel(inline="always")
def _reach_bounds(n, dd, leader, need):
    """(lo, hi) bounding the team's points from the position, from one search at `need`
    ((0, all points left) if it gave up)."""
    r, bound, avail, gave_up = _ask(n, dd, leader, need)
    if gave_up:
        return 0, avail
    return (bound, avail) if r else (0, bound)


@flat_kernel(inline="always")
def dd_start(n, chief_trump, vice_trump, held, on_team, leader, taken, dd, klass, power, class_mask):
    """Map the position (a trick boundary, the team having taken `taken` points so far) into
    the solver layout and answer the question: its value (START_VALUE; UNRESOLVED past the
    node limit), or under the reach question whether the team reaches meta[FIRST_NEED]
    (START_VALUE UNRESOLVED).  LOW..HIGH bound the team's points of the deal."""
    dd_setup(n, chief_trump, vice_trump, held, on_team, dd, klass, power, class_mask)
    need = dd.meta[FIRST_NEED] - taken
    if dd.meta[QUESTION] == REACH_QUESTION:
        lo, hi = _reach_bounds(n, dd, leader, need)
        dd.meta[START_VALUE] = UNRESOLVED
    else:
        _limit(dd)
        first = need if dd.meta[NODE_LIMIT] > 0 else 0
        lo, hi = solve_bounds(solver_game(n, dd.lay), dd.tt, dd.st, leader, 0, first)
        dd.st.limit[0] = NO_DEADLINE  # playing the cards out after a solve costs next to nothing
        dd.meta[START_VALUE] = lo if lo == hi else UNRESOLVED
    dd.meta[LOW], dd.meta[HIGH] = taken + lo, taken + hi
    dd.meta[VALUE] = lo


@flat_kernel(inline="always")
def dd_card(n, dd, seat, leader, k):
    """The card (original index) the seat to move plays: of those keeping the exact value, the
    lowest card index (canon_of lists the solver's cards in card-index order)."""
    c = first_keeping_move(solver_game(n, dd.lay), dd.tt, dd.st, leader, k, dd.meta[VALUE], dd.lay.canon_of)
    dd.st.hands[seat] ^= bit(c)
    dd.st.line[k] = c
    return dd.lay.orig_of[c]


@flat_kernel(inline="always")
def dd_seat_card(n, chief_trump, vice_trump, held, on_team, trick, k, leader, dd, klass, power, class_mask):
    """The card (original index) a seat plays double-dummy among seats that do not (a run with
    dd at some seats only): the position, the trick's first k cards on the table, solved afresh
    for the chief's team (the others' cards are not the solver's, so the value moves between
    cards), and of the legal cards that keep that value the lowest card index, as dd_card; each
    search within dd.lim's node limit, a card past it chosen by its moves' proved bounds
    (solver/choice.py limited_play, which counts it)."""
    dd_setup(n, chief_trump, vice_trump, held, on_team, dd, klass, power, class_mask)
    for j in range(k):
        dd.st.line[j] = dd.lay.canon_of[trick[j]]
    g = solver_game(n, dd.lay)
    return dd.lay.orig_of[limited_play(g, dd.tt, dd.st, leader, k, dd.lay.canon_of, dd.lim)[0]]


@flat_kernel
def dd_trick_done(dd, team_won, points):
    """After a trick: the value left for the team drops by what it just won."""
    if team_won:
        dd.meta[VALUE] -= points
