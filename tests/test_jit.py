"""numba's private API that musim relies on (musim.compile.jit, musim.compile.numba_patch) is there and behaves.

A failure here means the installed numba is not one musim was tested with: see the pins in
pyproject.toml and the list of internals in musim/compile/numba_patch.py.
"""

import importlib.metadata
import inspect

import numpy as np
import pytest
from numba import njit, types
from numba.core.dispatcher import Dispatcher
from numba.core.errors import NumbaError
from packaging.requirements import Requirement

from musim.compile.jit import flat_kernel
from musim.compile.numba_patch import compile_per_type

INCOMPATIBLE = f"numba {importlib.metadata.version('numba')} is incompatible with musim.compile.numba_patch: "


def _adder_and_callers():
    """A fresh uncached kernel add(a, k) and two kernels calling it with different constants.

    Uncached, so that every run compiles `add` (a caller loaded from numba's cache would not).
    """

    @njit(_nrt=False)
    def add(a, k):
        return a + k

    @njit
    def add_zero(a):
        return add(a, 0)

    @njit
    def add_minus_one(a):
        return add(a, -1)

    return add, add_zero, add_minus_one


def test_numba_and_numpy_are_in_the_tested_ranges():
    pins = {r.name: r.specifier for r in map(Requirement, importlib.metadata.requires("musim"))}
    for name in ("numba", "numpy"):
        installed = importlib.metadata.version(name)
        assert pins[name].contains(installed, prereleases=True), (
            f"{name} {installed} is outside musim's tested range {name}{pins[name]} (pyproject.toml)"
        )


def test_the_patched_method_has_the_expected_signature():
    params = list(inspect.signature(Dispatcher.get_call_template).parameters)
    assert params == ["self", "args", "kws"], INCOMPATIBLE + f"Dispatcher.get_call_template{params}"


def test_unpatched_numba_compiles_a_copy_per_constant():
    """Why the patch exists: if numba stops doing this, musim.compile.numba_patch is dead code."""
    add, add_zero, add_minus_one = _adder_and_callers()
    assert (add_zero(5), add_minus_one(5)) == (5, 4)
    assert len(add.signatures) == 2, f"numba no longer compiles a callee per literal constant: {add.signatures}"


def test_patched_kernel_compiles_once_for_two_constants():
    add, add_zero, add_minus_one = _adder_and_callers()
    compile_per_type(add)
    assert (add_zero(5), add_minus_one(5)) == (5, 4)
    assert add.signatures == [(types.int64, types.int64)], INCOMPATIBLE + f"compiled {add.signatures}"


@flat_kernel
def _flat_add(a, k):
    return a + k


def test_flat_kernel_types_a_callers_constant_plainly():
    _, _, args, _ = _flat_add.get_call_template((types.int64, types.literal(0)), {})
    assert args == (types.int64, types.int64)


@flat_kernel
def _flat_alloc(n):
    return np.zeros(n).sum()


def test_flat_kernel_runs_without_nrt():
    """The private `_nrt=False` option still turns reference counting off: allocating fails to compile."""
    assert njit(_flat_alloc.py_func)(3) == 0.0
    with pytest.raises(NumbaError):
        _flat_alloc(3)
