"""Bit helpers for uint64 card masks, compiled to single machine instructions.

Hands are uint64 masks (docs/rules.md §1); counting and iterating their bits is the
innermost operation of every kernel, so popcount and count-trailing-zeros go
straight to LLVM's intrinsics instead of a Python-level loop.  `compress` (x86's
PEXT) packs the bits of one mask at the positions of another, `deposit` (PDEP) unpacks
them; each is one instruction where the CPU has BMI2 and numba compiles for it, else a
loop over the mask's bits.
"""

import platform

import numba
import numpy as np
from llvmlite import binding, ir
from numba import njit, types
from numba.extending import intrinsic

from musim.compile.jit import kernel


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


def _bmi2(name):
    """The codegen of BMI2's 64-bit instruction `name` (pext, pdep)."""

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic(f"llvm.x86.bmi.{name}.64", fnty=ir.FunctionType(i64, [i64, i64]))
        return builder.call(fn, args)

    return codegen


@intrinsic
def _pext(typingctx, x, m):
    return types.uint64(types.uint64, types.uint64), _bmi2("pext")


@intrinsic
def _pdep(typingctx, x, m):
    return types.uint64(types.uint64, types.uint64), _bmi2("pdep")


HAS_PEXT = (
    platform.machine().lower() in ("x86_64", "amd64")
    and numba.config.CPU_NAME in (None, "host")
    and bool(binding.get_host_cpu_features().get("bmi2"))
)


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


@kernel
def nth_bit(x, n):
    """Index of the n-th (0-based) set bit of x, counting from the lowest."""
    for _ in range(n):
        x = x & (x - np.uint64(1))
    return _cttz(x)


@njit(cache=True, inline="always")
def compress(x, m):
    """The bits of x at the set positions of m, packed into the low bits (in m's order)."""
    if HAS_PEXT:
        return _pext(np.uint64(x), np.uint64(m))
    out = np.uint64(0)
    i = np.uint64(0)
    while m:
        low = m & (~m + np.uint64(1))
        if x & low:
            out |= np.uint64(1) << i
        i += np.uint64(1)
        m ^= low
    return out


@njit(cache=True, inline="always")
def deposit(x, m):
    """The low bits of x placed, in order, at the set positions of m (x86's PDEP; compress's inverse)."""
    if HAS_PEXT:
        return _pdep(np.uint64(x), np.uint64(m))
    out = np.uint64(0)
    while m:
        low = m & (~m + np.uint64(1))
        if x & np.uint64(1):
            out |= low
        x = np.uint64(x) >> np.uint64(1)
        m ^= low
    return out


@njit(cache=True, inline="always")
def any_set(masks, n):
    """Is any of masks[:n] non-empty (does any seat still hold a card)?"""
    for s in range(n):
        if masks[s]:
            return True
    return False


@kernel
def mask_sum(mask, table):
    """The sum of table[i] over the set bits i of mask (the points of a set of cards)."""
    total = 0
    while mask:
        total += table[lowest(mask)]
        mask = drop_lowest(mask)
    return total
