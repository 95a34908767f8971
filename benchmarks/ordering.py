"""The move-ordering study's shared tools: one null-window search of a benchmark position, its
trace (musim/solver/trace.py), its replay, the binary search of a position, and a trace record
loaded back into a search state.

A search here is `can_reach(need)` of a Mü position of the benchmark sets (common.positions) on
a fresh table generation, so that its nodes depend on the position, the need and the ordering
alone.  The replay runs the same search again, on a fresh generation, with each node's cutting
move from the traced search tried first (trace.make_oracle): what a perfect ordering would
cost, the yardstick of a learned one.
"""

import time

from common import full_tricks, positions

from musim.games.mu.solve import MuSolver
from musim.solver.search import NO_DEADLINE, available, can_reach, make_state, set_owners
from musim.solver.stats import S_GAVE_UP, S_NODES
from musim.solver.trace import R_K, R_LEADER, R_NEED, R_TRICK, R_TRUMP, R_WON, clear_trace, make_oracle, records


def parse_sets(text):
    """[(label GAME:TRICKS, count)] of "GAME:TRICKS:COUNT,...": Mü sets of benchmarks/common.positions
    (GAME 3..6 players, TRICKS 1 to a full deal); ValueError naming the bad one."""
    out = []
    for spec in text.split(","):
        parts = spec.split(":")
        try:
            game, tricks, count = int(parts[0]), int(parts[1]), int(parts[2])
            ok = len(parts) == 3 and 3 <= game <= 6 and 1 <= tricks <= full_tricks(game) and count >= 1
        except (ValueError, IndexError):
            ok = False
        if not ok:
            raise ValueError(f"{spec!r} is not GAME:TRICKS:COUNT (GAME 3..6, TRICKS 1 to a full deal, COUNT 1 or more)")
        out.append((f"{game}:{tricks}", count))
    return out


def parse_budget(text):
    """[CARDS, FIRST, OTHER] of "CARDS,FIRST,OTHER" (the move budgets, moves.py; each 1 or more,
    2**18 or 262144 alike); ValueError naming the bad text."""
    try:
        budget = [int(float(x)) for x in text.split(",")]
    except ValueError:
        budget = []
    if len(budget) != 3 or min(budget) < 1:
        raise ValueError(f"--budget {text!r}: expected CARDS,FIRST,OTHER, each 1 or more")
    return budget


def position(label, seed, index):
    """Position `index` of the Mü set GAME:TRICKS (label) of `seed`."""
    game, tricks = label.split(":")
    return positions(game, tricks, index + 1, seed)[index]


def solver_with(tt, st):
    """A MuSolver on table tt whose search state is st (a tracing or oracle state)."""
    solver = MuSolver(tt)
    solver.st = st
    return solver


def search(solver, obj, need, limit=0, order=None):
    """One search can_reach(need) of position obj from its start, on a fresh table generation:
    (reached, bound, nodes, seconds), reached None if it gave up past `limit` nodes (0: none);
    order: the ordering's weight table (musim/solver/ordering.py), if not the game's own."""
    solver.st.hands[:] = 0  # the seats a position lacks (load sets its own): the trace keys all MAX_SEATS
    setup, _, leader, trick = solver.load(obj)
    g, st, k = setup.game, solver.st, len(trick)
    if order is not None:
        g = g._replace(order=order)
    st.stats[:] = 0
    st.won[0] = 0
    if st.trace is not None:
        clear_trace(st.trace)
    avail = available(g, st.hands, st.line, k)
    set_owners(g, st)
    st.limit[0] = limit if limit > 0 else NO_DEADLINE
    t = time.perf_counter()
    reached, bound = can_reach(g, solver.tt, st, leader, k, need, avail, k)
    secs = time.perf_counter() - t
    st.limit[0] = NO_DEADLINE
    return (None if st.stats[S_GAVE_UP] else bool(reached)), int(bound), int(st.stats[S_NODES]), secs


def needs(solver, obj, limit=0):
    """The searches of obj's binary search over the need (trace_search.py's loop, from 0..avail),
    each on a fresh generation: yields (need, reached, bound, nodes, seconds) per search; stops
    after a search that gave up past `limit` nodes (reached None)."""
    setup, _, _, trick = solver.load(obj)
    lo, hi = 0, available(setup.game, solver.st.hands, solver.st.line, len(trick))
    while lo < hi:
        need = (lo + hi + 1) // 2
        reached, bound, nodes, secs = search(solver, obj, need, limit)
        yield need, reached, bound, nodes, secs
        if reached is None:
            return
        lo, hi = (bound, hi) if reached else (lo, bound)


def replay(tt, traced, obj, need, limit=0):
    """(traced search's (reached, bound, nodes, seconds), the replay's, the fewest nodes of a node
    whose cut the replay knew): the search (obj, need) on `traced` (a solver whose state traces),
    then on a fresh generation with its cutting moves first.  A trace that runs out of room drops
    the latest records, those nearest the root, the costliest: then the search is traced again
    keeping only nodes of twice as many nodes, until none is dropped.  The replay must reach the
    same answer (AssertionError if not)."""
    trace = traced.st.trace
    floor = trace.count[2]
    first = search(traced, obj, need, limit)
    while trace.count[1]:
        trace.count[2] *= 2
        first = search(traced, obj, need, limit)
    kept_from, trace.count[2] = int(trace.count[2]), floor
    oracle = make_oracle(*records(trace))
    again = search(solver_with(tt, make_state(oracle=oracle)), obj, need, 0 if first[0] is None else limit)
    if first[0] is not None:
        assert again[0] == first[0], f"replay of need {need} answered {again[0]}, the search {first[0]}"
    return first, again, kept_from


def load_record(solver, obj, rec, hands):
    """Load one trace record (a row of rec and of hands, recorded in a search of position obj) into
    solver.st: the hands, the trick in st.line[:k], st.won, st.trump and st.owner (set_owners).
    Returns (game, leader, k, need): can_reach(game, tt, st, leader, k, need, avail, k) then
    searches the recorded node (avail = search.available(game, st.hands, st.line, k))."""
    setup, *_ = solver.load(obj)
    st, k = solver.st, int(rec[R_K])
    st.hands[:] = hands
    st.line[:k] = rec[R_TRICK : R_TRICK + k]
    st.won[0] = rec[R_WON]
    st.trump[0] = rec[R_TRUMP]
    set_owners(setup.game, st)
    return setup.game, int(rec[R_LEADER]), k, int(rec[R_NEED])


def load_cut(solver, data, j):
    """load_record for record j of a collect_cuts.py .npz, `data` its arrays in memory
    (dict(numpy.load(path))): the position it came from is rebuilt from its set, seed and index."""
    obj = position(str(data["sets"][data["set"][j]]), int(data["seed"][j]), int(data["index"][j]))
    return load_record(solver, obj, data["rec"][j], data["hands"][j])
