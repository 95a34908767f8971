"""The search's counters: what each index counts, their names, and `tally`.

SearchState.stats holds what the search itself needs or its callers always read: the nodes
(move budgets and node limits are node counts), the tricks, the moves cut short by their
budget, whether the last search gave up, and the searches run.  SearchState.counts holds how the nodes were
settled, for `musim solve --stats`, and is None unless the state was made to count
(make_state(counting=True)): `tally` on None compiles to nothing, so only a counting state
gets a search that counts them, compiled apart, and the search used elsewhere pays nothing
for them (counting in every search cost time per node: docs/solver.md).

Counters add up over searches until a caller clears them (clear_stats), except S_GAVE_UP,
which each search sets.  A node is a position the search entered with a need within 1..the
points left; the trivial cut-offs (need <= 0, need > points left) are not nodes.  Every node
is settled by exactly one of: the last trick played out, the quick-points bound, the
top-trump bound, the table, its first move, a later move, or all its moves failing; or it is
abandoned when a move budget or the node limit runs out.
"""

import time

from numba import types
from numba.core import event
from numba.extending import overload

S_NODES, S_TRICKS, S_BUDGET_CUTS, S_GAVE_UP, S_SEARCHES = range(5)
N_STATS = 5
STAT_NAMES = ("nodes", "tricks", "budget_cuts", "gave_up", "searches")
# nodes searched; tricks completed in the search (DDS's node count); moves cut short by their
# budget (moves.budget_next); 1 if the last search gave up at st.limit[0]; null-window
# searches run (search.can_reach: one count a search, not a node, so every search keeps it)

(
    C_TT_PROBES,  # table probes (at the trick boundaries no bound decided)
    C_TT_HITS,  # probes whose entry decided the node
    C_TRIVIAL,  # positions decided by need <= 0 or need > points left
    C_LAST_TRICK,  # nodes decided by playing the last trick out
    C_QUICK,  # nodes decided by the quick-points bound (bounds.quick_points)
    C_TOP_TRUMP,  # nodes decided by the top-trump bound (bounds.top_trump_points)
    C_FIRST_MOVE,  # nodes settled by the first move in order (a maximiser's that reached the
    C_LATER_MOVE,  # need, a minimiser's that denied it), or by a later move
    C_ALL_FAILED,  # nodes whose every move failed: the bound is the best over them
    C_SMALL_CARD,  # moves that moves.next_move's small-card rule failed unsearched
) = range(10)
N_COUNTS = 10
COUNT_NAMES = (
    "tt_probes",
    "tt_hits",
    "cut_trivial",
    "cut_last_trick",
    "cut_quick",
    "cut_top_trump",
    "cut_first_move",
    "cut_later_move",
    "all_failed",
    "small_card",
)


def tally(counts, kind):
    """counts[kind] += 1; nothing where counts is None."""
    if counts is not None:
        counts[kind] += 1


@overload(tally, inline="always")
def _tally(counts, kind):
    if isinstance(counts, types.NoneType):
        return lambda counts, kind: None

    def add(counts, kind):
        counts[kind] += 1

    return add


def clear_stats(st):
    """Zero st's counters."""
    st.stats[:] = 0
    if st.counts is not None:
        st.counts[:] = 0


def stats_record(st):
    """st's counters as a dict {name: count} (those of st.counts where it keeps them)."""
    record = {name: int(st.stats[i]) for i, name in enumerate(STAT_NAMES)}
    if st.counts is not None:
        record |= {name: int(st.counts[i]) for i, name in enumerate(COUNT_NAMES)}
    return record


def timed(call):
    """(call(), its times): `compile_seconds`, the time numba spent compiling kernels (or loading
    them from its cache) on their first use, and `seconds`, the rest of the wall time: the solve's
    (a first solve's wall time is mostly compiling)."""
    with event.install_listener("numba:compiler_lock", event.TimingListener()) as compiling:
        start = time.perf_counter()
        result = call()
        wall = time.perf_counter() - start
    compile_seconds = compiling.duration if compiling.done else 0.0
    return result, {"seconds": round(wall - compile_seconds, 6), "compile_seconds": round(compile_seconds, 6)}
