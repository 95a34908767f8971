"""The learned auction's model files: versioned .npz under musim/games/mu/models/, read without
pickle and checked before use.

A file holds `weights` (float32 [4, features.N_WEIGHTS], player counts 3..6), `layout` (int32,
features.LAYOUT) and `meta` (a JSON text: format, features version, version, seed, training
command and sizes, and the SHA-256 of the weights and of the hand model's coefficients).  The
loader refuses, in one line, a file it cannot read, of another format, features version or
layout, whose weights do not match their digest, or fitted to another hand model (a regenerated
hand_table.py: retrain).  A model's id, named in a run's key and metadata, is `v<version>@<first 8
hex of the weights' SHA-256>`.  Written byte for byte the same for the same arrays (fixed zip
dates), so a training run with the same seed regenerates the same file.
"""

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from musim.engine.errors import SpecError
from musim.games.mu.hand_table import COEF
from musim.games.mu.learned import LearnedModel
from musim.games.mu.learned.features import FEATURES, LAYOUT, N_WEIGHTS
from musim.games.mu.rules import MAX_PLAYERS, MIN_PLAYERS
from musim.io import arrays_file

FORMAT = 1
MODELS = Path(__file__).resolve().parent.parent / "models"
CURRENT = "v2"  # the model `--auction learned` bids by unless --learned-model names another
SHIPPED = {CURRENT: "auction_learned_v2.npz"}  # version -> file; a retrained model is a new version
N_COUNTS = MAX_PLAYERS - MIN_PLAYERS + 1
MAX_BYTES = 5 << 20


class ModelError(SpecError):
    """A learned model file that cannot be used."""


def digest(a):
    """SHA-256 (hex) of an array's bytes."""
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def hand_digest():
    """SHA-256 of the hand model's coefficients, which the features are computed with."""
    return digest(COEF)


def save(path, weights, meta):
    """Write a model file: `weights` float32 [4, N_WEIGHTS], `meta` a dict completed here with
    format, features version and digests."""
    weights = np.asarray(weights, np.float32)
    meta = {**meta, "format": FORMAT, "features": FEATURES}
    meta |= {"weights_sha256": digest(weights), "hand_model_sha256": hand_digest()}
    arrays_file.write(path, {"weights": weights, "layout": LAYOUT}, meta)


def read(path):
    """(weights, meta) of a model file, every check passed; ModelError naming the fault."""
    (weights, layout), meta = arrays_file.read(path, ("weights", "layout"), MAX_BYTES, "learned model", ModelError)
    check(path, weights, layout, meta)
    return weights, meta


def check(path, weights, layout, meta):
    """ModelError unless the arrays are a model of this musim's format, features and hand model."""
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("features") != FEATURES:
        raise ModelError(f"learned model {path}: another format or features version than this musim's")
    if layout.shape != LAYOUT.shape or not np.array_equal(layout, LAYOUT):
        raise ModelError(f"learned model {path}: its feature layout is not this musim's")
    if weights.dtype != np.float32 or weights.shape != (N_COUNTS, N_WEIGHTS):
        raise ModelError(f"learned model {path}: weights of shape {weights.shape}, not ({N_COUNTS}, {N_WEIGHTS})")
    if digest(weights) != meta.get("weights_sha256"):
        raise ModelError(f"learned model {path}: its weights do not match their digest (corrupted)")
    if meta.get("hand_model_sha256") != hand_digest():
        raise ModelError(f"learned model {path}: fitted to another hand model; retrain: scripts/train_auction.py")


def model_id(weights, meta):
    """`v<version>@<sha8>`: the model's name in keys and metadata."""
    return f"v{meta.get('version', 0)}@{digest(weights)[:8]}"


def as_model(weights):
    """The LearnedModel of one model's weights [4, N_WEIGHTS]: every seat bids by it."""
    return LearnedModel(np.ascontiguousarray(weights[None], np.float32), np.zeros(MAX_PLAYERS, np.int64))


@lru_cache(maxsize=8)
def resolve(name):
    """(id, LearnedModel) of a --learned-model value: "" or a shipped version (`v2`), or a model
    file's path; either may carry the `@sha8` of its weights, as a run's key names it (`v2@sha8`,
    `<path>@sha8`), and is then refused if the weights are others."""
    ident, weights = arrays_file.resolve(name, MODELS, SHIPPED, read, digest, "--learned-model", ModelError)
    return ident, as_model(weights)
