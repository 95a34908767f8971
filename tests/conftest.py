"""The test session's processes share one kernel cache (xdist workers, the commands tests start):
each kernel is compiled under its inter-process lock, once between them (musim/compile/once.py).
Set before any test module imports musim, and inherited by the processes tests start."""

import os

os.environ.setdefault("MUSIM_COMPILE_LOCK", "1")
