"""The parameters of the search player's weighted worlds (world_weights.py): a tiny versioned .npz
under musim/games/mu/models/, read without pickle and checked before use.

A file holds `params` (float64 [4, 4]: player counts 3..6 by tau, eps_auction, eps_setup,
eps_play) and `meta` (a JSON text: format, version, the fit's seed, command, criterion and
scores: scripts/fit_world_weights.py).  The loader refuses, in one line, a file it cannot read,
of another format or shape, or with a parameter out of range (tau > 0, each eps in (0, 1)).
Its id, in the key and metadata of a run with a `search` seat, is `v<version>@<first 8 hex of
the params' SHA-256>`.  Written byte for byte the same for the same arrays (fixed zip dates).
"""

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from musim.engine.errors import SpecError
from musim.games.mu.rules import MAX_PLAYERS, MIN_PLAYERS
from musim.io import arrays_file

FORMAT = 1
NAMES = ("tau", "eps_auction", "eps_setup", "eps_play")
MODELS = Path(__file__).resolve().parent / "models"
SHIPPED = {"v1": "world_weights_v1.npz"}  # version -> file; a refit is a new version
SHAPE = (MAX_PLAYERS - MIN_PLAYERS + 1, len(NAMES))


class WeightsError(SpecError):
    """A world-weights file that cannot be used."""


def digest(params):
    """SHA-256 (hex) of the parameters' bytes."""
    return hashlib.sha256(np.ascontiguousarray(params, np.float64).tobytes()).hexdigest()


def save(path, params, meta):
    """Write a parameters file: `params` [4, 4] (SHAPE), `meta` a dict completed with the format."""
    params = np.asarray(params, np.float64)
    check(path, params, {**meta, "format": FORMAT})
    arrays_file.write(path, {"params": params}, {**meta, "format": FORMAT})


def read(path):
    """(params, meta) of a parameters file, every check passed; WeightsError naming the fault."""
    (params,), meta = arrays_file.read(path, ("params",), 1 << 16, "world weights", WeightsError)
    check(path, params, meta)
    return params, meta


def check(path, params, meta):
    """WeightsError unless these are parameters of this musim's format, each within its range."""
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise WeightsError(f"world weights {path}: another format than this musim's")
    if params.dtype != np.float64 or params.shape != SHAPE or not np.isfinite(params).all():
        raise WeightsError(f"world weights {path}: params must be finite float64 of shape {SHAPE}")
    if (params[:, 0] <= 0).any() or (params[:, 1:] <= 0).any() or (params[:, 1:] >= 1).any():
        raise WeightsError(f"world weights {path}: tau must be > 0 and each eps in (0, 1)")


@lru_cache(maxsize=8)
def resolve(name):
    """(id, params [4, 4]) of a --world-weights value: "" or a shipped version (`v1`), or a file's
    path; either may carry the `@sha8` a run's key names, and is then refused if the params differ."""
    ident, params = arrays_file.resolve(name, MODELS, SHIPPED, read, digest, "--world-weights", WeightsError)
    params.setflags(write=False)
    return ident, params
