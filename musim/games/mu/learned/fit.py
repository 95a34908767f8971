"""The least squares fit of the learned auction's table model (features.py), numpy alone.

selfplay.py adds each position's candidates, centred within the position, to the normal
equations (gram, rhs): the fit explains how much more one count scores than another from the same
position, the luck of the hidden hands cancelling.  Ridge terms keep the system solvable: a small
one on every weight, and a smoothness penalty tying each cell to its neighbours along the
ordered dimensions of its term (features.ORDINAL), so that cells seen rarely borrow from theirs.
"""

from functools import lru_cache

import numpy as np

from musim.games.mu.learned.features import LAYOUT, N_TERMS, N_WEIGHTS, OFFSETS, ORDINAL, SIZES

RIDGE = 1.0  # on every weight (a cell seen in one position weighs 1 in gram)
SMOOTH = 10.0  # on each difference of neighbouring cells


@lru_cache(maxsize=1)
def laplacian():
    """The graph Laplacian [N_WEIGHTS, N_WEIGHTS] of neighbouring cells along ordered dimensions."""
    lap = np.zeros((N_WEIGHTS, N_WEIGHTS))
    for j in range(N_TERMS):
        idx = np.arange(SIZES[j]).reshape(LAYOUT[j]) + OFFSETS[j]
        for d in np.flatnonzero(ORDINAL[j] & (LAYOUT[j] > 1)):
            a = np.take(idx, range(LAYOUT[j, d] - 1), axis=d).ravel()
            b = np.take(idx, range(1, LAYOUT[j, d]), axis=d).ravel()
            np.add.at(lap, (a, a), 1.0)
            np.add.at(lap, (b, b), 1.0)
            np.add.at(lap, (a, b), -1.0)
            np.add.at(lap, (b, a), -1.0)
    return lap


def solve(gram, rhs, ridge=RIDGE, smooth=SMOOTH):
    """The weights (float32) of the penalised normal equations."""
    system = gram + ridge * np.eye(N_WEIGHTS) + smooth * laplacian()
    return np.linalg.solve(system, rhs).astype(np.float32)
