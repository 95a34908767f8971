"""The decorator for kernels that never allocate.

numba's runtime (NRT) reference-counts arrays: every call that passes an array
to a compiled function increments and decrements its count atomically.  The
solver's helpers take named tuples of a dozen arrays each, and that
bookkeeping took about two thirds of the search time.  A `flat_kernel` is
compiled without NRT: it may not allocate (or slice-copy) arrays, which the
search never needs to, and it passes arrays on for free.  The arrays it gets
belong to the caller, which keeps them alive.

A flat kernel is also compiled once per argument *type*, never per constant: numba
otherwise types a caller's constant argument (a chief at seat 0, no vice = -1) as a
literal and compiles a copy of the callee's whole call tree for it.  The run
kernel's call tree holds the search, and each copy of it costs 20-40 s of compiling.
"""

from numba import njit, types


def flat_kernel(fn=None, **options):
    """njit(cache=True) without reference counting; usable bare or with options (inline=...)."""
    if fn is None:
        return lambda f: flat_kernel(f, **options)
    dispatcher = njit(cache=True, _nrt=False, **options)(fn)
    template_for = dispatcher.get_call_template

    def get_call_template(args, kws):
        """How numba types a call from another kernel: with the constants' plain types."""
        return template_for(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher
