"""flat_kernel: a constant argument from another kernel compiles no copy of its own."""

from numba import types

from musim.jit import flat_kernel


@flat_kernel
def _add(a, k):
    return a + k


@flat_kernel
def _add_zero(a):
    return _add(a, 0)


def test_a_callers_constant_is_typed_plainly():
    _, _, args, _ = _add.get_call_template((types.int64, types.literal(0)), {})
    assert args == (types.int64, types.int64)
    assert _add_zero(5) == 5
    assert all(not isinstance(t, types.Literal) for sig in _add.signatures for t in sig)
