"""The decorator for kernels that never allocate.

numba's runtime (NRT) reference-counts arrays: every call that passes an array
to a compiled function increments and decrements its count atomically.  The
solver's helpers take named tuples of a dozen arrays each, and that
bookkeeping took about two thirds of the search time.  A `flat_kernel` is
compiled without NRT (numba's private `_nrt=False` option): it may not allocate
(or slice-copy) arrays, which the search never needs to, and it passes arrays on
for free.  The arrays it gets belong to the caller, which keeps them alive.

A flat kernel is also compiled once per argument type, never per constant
(musim.compile.numba_patch).  Since it cannot allocate, a scratch list that runs out of room is grown
by its Python caller: the kernel raises ScratchFull and `growing` calls it again with more.
"""

from numba import njit

from musim.compile.numba_patch import compile_per_type
from musim.compile.once import compile_once


def flat_kernel(fn=None, **options):
    """njit(cache=True) without reference counting, compiled once per machine at a time
    (musim.compile.once); usable bare or with options (inline=...)."""
    if fn is None:
        return lambda f: flat_kernel(f, **options)
    return compile_once(compile_per_type(njit(cache=True, _nrt=False, **options)(fn)))


def kernel(fn=None, **options):
    """njit(cache=True) for a kernel that allocates (numba's reference counting on), compiled once
    per machine at a time (musim.compile.once); usable bare or with options (nogil=...)."""
    if fn is None:
        return lambda f: kernel(f, **options)
    return compile_once(njit(cache=True, **options)(fn))


class ScratchFull(Exception):
    """A kernel's scratch list ran out of room.  The lists that grow with the position (the buys
    of a Zwickern table, the catches of a Safarü one) have no bound the rules set: their callers
    grow the list (doubled) and call again, so that no legal position fails."""


def growing(call, scratch, grow):
    """(call(scratch), the scratch it ran with): called again with grow(scratch) while it raises
    ScratchFull.  A kernel that raised is replayed from the start, so what it returns is what it
    would have with room enough from the first."""
    while True:
        try:
            return call(scratch), scratch
        except ScratchFull:
            scratch = grow(scratch)
