"""Pausing a search from another thread, so that its transposition table can be saved.

A 4- or 5-player double-dummy deal can take hours, and nearly all of it is one null-window
search (docs/solver.md); a run stopped part way would lose all of it.  But the table is
what makes a search cheap the second time: a search paused where no store is under way
leaves a sound table, and the same deal run again on that table skips what it proved
(`musim balance --checkpoint` saves the tables of the deals in flight when interrupted).

The search polls its state's `control` array every POLL_NODES nodes with an atomic load
(a plain load on x86, but one the compiler cannot hoist out of the loop): control[0] set
by another thread makes it report control[1] = 1 and wait, at a node boundary, until
control[0] is cleared.
"""

import time

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from musim.jit import flat_kernel

POLL_NODES = 1 << 12
REQUEST, PAUSED = range(2)


def make_control():
    return np.zeros(2, np.int64)


def _element_pointer(context, builder, signature, args):
    aryty = signature.args[0]
    ary = context.make_array(aryty)(context, builder, args[0])
    return cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)


@intrinsic
def _load(typingctx, arr, i):
    """arr[i], read from memory every time (a monotonic atomic load)."""

    def codegen(context, builder, signature, args):
        return builder.load_atomic(_element_pointer(context, builder, signature, args), "monotonic", 8)

    return types.int64(arr, types.intp), codegen


@intrinsic
def _store(typingctx, arr, i, v):
    """arr[i] = v, visible to other threads before anything the caller does next."""

    def codegen(context, builder, signature, args):
        builder.store_atomic(args[2], _element_pointer(context, builder, signature, args), "seq_cst", 8)
        return context.get_dummy_value()

    return types.void(arr, types.intp, types.int64), codegen


@flat_kernel(inline="always")
def pause_point(control, nodes):
    """Called at a node boundary with the node count: wait here while a pause is requested."""
    if nodes & (POLL_NODES - 1) == 0 and _load(control, REQUEST):
        _store(control, PAUSED, 1)
        while _load(control, REQUEST):
            pass
        _store(control, PAUSED, 0)


def request_pause(control, busy, poll=0.05):
    """Ask the search using `control` to pause; True once it waits, False if `busy()` turns
    false first (the thread finished its search, or was never in one)."""
    control[REQUEST] = 1
    while busy():
        if control[PAUSED]:
            return True
        time.sleep(poll)
    return bool(control[PAUSED])
