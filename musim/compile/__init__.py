"""Compiling the kernels: the numba decorators (jit), the source-digest cache folder (cache),
and the one patch of numba's internals, so that kernels called from kernels compile once per
argument type (numba_patch)."""
