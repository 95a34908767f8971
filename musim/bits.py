"""Bit helpers for uint64 card masks, compiled to single machine instructions.

Hands are uint64 masks (RULES.md §1); counting and iterating their bits is the
innermost operation of every kernel, so popcount and count-trailing-zeros go
straight to LLVM's intrinsics instead of a Python-level loop.
"""
from numba import njit, types
from numba.extending import intrinsic
from llvmlite import ir
import numpy as np


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        (val,) = args
        fn = builder.module.declare_intrinsic("llvm.ctpop", [val.type])
        res = builder.call(fn, [val])
        return builder.zext(res, ir.IntType(64)) if val.type.width < 64 else res

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        (val,) = args
        fn = builder.module.declare_intrinsic("llvm.cttz", [val.type, ir.IntType(1)])
        res = builder.call(fn, [val, ir.Constant(ir.IntType(1), 0)])
        return builder.zext(res, ir.IntType(64)) if val.type.width < 64 else res

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        (val,) = args
        fn = builder.module.declare_intrinsic("llvm.ctlz", [val.type, ir.IntType(1)])
        res = builder.call(fn, [val, ir.Constant(ir.IntType(1), 0)])
        return builder.zext(res, ir.IntType(64)) if val.type.width < 64 else res

    return sig, codegen


ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a uint64."""
    return _ctpop(np.uint64(x))


@njit(cache=True, inline="always")
def lowest(x):
    """Index of the lowest set bit (x must be non-zero)."""
    return _cttz(np.uint64(x))


@njit(cache=True, inline="always")
def highest(x):
    """Index of the highest set bit (x must be non-zero)."""
    return 63 - _ctlz(np.uint64(x))


@njit(cache=True, inline="always")
def bit(i):
    """The uint64 with only bit i set."""
    return np.uint64(1) << np.uint64(i)


@njit(cache=True, inline="always")
def drop_lowest(x):
    """x without its lowest set bit."""
    return x & (x - np.uint64(1))


@njit(cache=True)
def nth_bit(x, n):
    """Index of the n-th (0-based) set bit of x, counting from the lowest."""
    for _ in range(n):
        x = x & (x - np.uint64(1))
    return _cttz(x)
