"""The fitted parameters of a trick game's weighted worlds (docs/players.md "Search"): a tiny
versioned .npz under musim/games/<game>/models/, read without pickle and checked before use.

A file holds `params` (float64, one a name of the game's parameters), `names` (those names, in
order) and `meta` (a JSON text: format, game, version, the fit's seed, command and scores).  Its
id, `v<version>@<first 8 hex of the params' SHA-256>`, is named in the key and metadata of every
run with a `search` seat of the game (the option search_weights, filled in by the game's check),
so rows weighted by other parameters are never resumed as these.  Written byte for byte the
same for the same arrays (fixed zip dates).
"""

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from musim.engine.errors import SpecError
from musim.engine.option import Option
from musim.engine.seats import SEARCH
from musim.io import arrays_file

FORMAT = 1
SHIPPED = "v1"  # the one version each game ships; a refit is a new version
GAMES = Path(__file__).resolve().parent.parent / "games"
MAX_BYTES = 1 << 16
OPTION = Option(
    "search_weights",
    str,
    "",
    "With --play search: the fitted parameters of its weighted worlds, v1 (shipped; the run's key names "
    "it v1@<digest>; docs/players.md).",
    omit_default=True,
)


class WeightsError(SpecError):
    """A world-weights file that cannot be used."""


def path_of(game, version=SHIPPED):
    """The shipped file of `game`'s parameters."""
    return GAMES / game / "models" / f"world_weights_{version}.npz"


def digest(params):
    return hashlib.sha256(np.ascontiguousarray(params, np.float64).tobytes()).hexdigest()


def save(path, game, names, params, meta):
    """Write a parameters file: `params` one float a name of `names`, `meta` a dict completed
    here with format and game."""
    params = np.asarray(params, np.float64)
    meta = {**meta, "format": FORMAT, "game": game, "params_sha256": digest(params)}
    arrays_file.write(path, {"params": params, "names": np.array(list(names))}, meta)


def read(path, game, names):
    """(params, id) of a parameters file of `game` with these parameter names, every check
    passed; WeightsError naming the fault."""
    (params, stored), meta = arrays_file.read(path, ("params", "names"), MAX_BYTES, "world weights", WeightsError)
    stored = [str(x) for x in stored]
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("game") != game:
        raise WeightsError(f"world weights {path}: another format or game than {game}'s")
    if stored != list(names) or params.dtype != np.float64 or params.shape != (len(names),):
        raise WeightsError(f"world weights {path}: parameters {stored}, not {list(names)}")
    if digest(params) != meta.get("params_sha256"):
        raise WeightsError(f"world weights {path}: its parameters do not match their digest (corrupted)")
    if not np.all((params > 0) & (params < 1)):
        raise WeightsError(f"world weights {path}: a parameter outside (0, 1)")
    return params, f"v{meta.get('version', 0)}@{digest(params)[:8]}"


@lru_cache(maxsize=8)
def shipped(game, names):
    """(params, id) of the parameters `game` ships (read once)."""
    return read(path_of(game), game, names)


def check(spec, game, names):
    """Fill in the option search_weights with the shipped parameters' id where a seat plays
    `search` (its key names them), refusing a value that names other parameters or comes
    without a `search` seat."""
    value = spec.options.get(OPTION.name, "")
    if SEARCH not in spec.play.split(","):
        if value:
            raise SpecError(f"{OPTION.flag} applies only with --play search (at some seat)")
        return
    ident = shipped(game, names)[1]
    if value not in ("", SHIPPED, ident):
        raise WeightsError(f"{OPTION.flag} {value!r}: the parameters shipped are {ident} ({SHIPPED})")
    spec.options[OPTION.name] = ident
