"""The one patch of numba's private API: kernels called from kernels compile once per argument type.

When one kernel calls another, numba types each constant argument (a chief at seat 0,
no vice = -1) as a literal and compiles a separate copy of the callee's whole call tree
for each constant.  The run kernel's call tree holds the search, and every such copy
costs 20-40 s of compiling.  `compile_per_type` makes a dispatcher type such calls with
the constants' plain types instead.

numba internals relied on (checked by tests/test_jit.py; numba is pinned in pyproject.toml):
- `numba.core.types.functions.Dispatcher.get_call_type` resolves a call from another kernel
  through `dispatcher.get_call_template(args, kws)`, looked up on the dispatcher instance;
- `Dispatcher.get_call_template(args, kws)` compiles the callee for the argument types it is
  given and returns `(template, pysig, args, kws)`;
- `numba.types.unliteral` maps a literal type to its plain type.
"""

from numba import types


def compile_per_type(dispatcher):
    """Make `dispatcher` type calls from other kernels without literals; returns it."""
    template_for = dispatcher.get_call_template

    def get_call_template(args, kws):
        """How numba types a call from another kernel: with the constants' plain types."""
        return template_for(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher
