"""The test session's processes share one kernel cache (xdist workers, the commands tests start):
each kernel is compiled under its inter-process lock, once between them (musim/compile/once.py).
Set before any test module imports musim, and inherited by the processes tests start.

Hypothesis runs without its per-example deadline: a property's first example compiles the
kernels it calls (seconds, longer on a loaded machine), so a deadline would fail tests for
their compile time, not their behaviour."""

import os

from hypothesis import settings

os.environ.setdefault("MUSIM_COMPILE_LOCK", "1")

settings.register_profile("musim", deadline=None)
settings.load_profile("musim")
