"""Counter-based random streams: every deal's randomness is a pure function of (root seed, index).

A run's rows therefore do not depend on chunking, worker count or engine: deal
k always draws from the stream keyed by (seed, k).  The generator is SplitMix64
(Steele, Lea & Flood 2014), whose finaliser also serves as the key mixer.
numba's own np.random is not used: inside threads it is not reproducible.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import nth_bit, popcount

GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
MAX_SEED = 2**63 - 1


@flat_kernel(inline="always")
def mix64(z):
    """SplitMix64 finaliser: a bijective avalanche of a uint64."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@flat_kernel
def stream_state(root, index):
    """Initial state of the stream keyed by (root seed, index)."""
    return mix64(np.uint64(root) ^ mix64(np.uint64(index) * GAMMA + GAMMA))


@flat_kernel(inline="always")
def next_u64(state):
    """Advance a stream (a uint64[1] array) and return its next 64 random bits."""
    state[0] += GAMMA
    return mix64(state[0])


@flat_kernel(inline="always")
def randint(state, n):
    """Uniform integer in [0, n) for 0 < n < 2**32 (multiply-shift; bias below 2**-32 * n)."""
    return np.int64(((next_u64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@flat_kernel
def random_bit(state, mask):
    """Index of a uniformly chosen set bit of a non-zero mask."""
    return nth_bit(mask, randint(state, popcount(mask)))
