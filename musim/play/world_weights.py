"""The fitted parameters of a search seat's weighted worlds, in every game that has them
(docs/players.md "Search"): the option that names them, and their files, tiny versioned .npz
under musim/games/<game>/models/, read without pickle and checked before use.

A file holds `params` (float64: one a name, or a row of them a player count), `names` (those
names, in order) and `meta` (a JSON text: format, game, version, the params' SHA-256, the fit's
seed, command and scores: scripts/fit_world_weights.py).  Its id, `v<version>@<first 8 hex of
the params' SHA-256>` for a shipped version (`<path>@<sha8>` for another file), is named in the
key and metadata of every run with a `search` seat (the option search_weights, filled in by the
game's check), so rows weighted by other parameters are never resumed as these.  Written byte
for byte the same for the same arrays (fixed zip dates).  Each game declares its parameters (a
Weights: WEIGHTS in its __init__, Mü's in params.py) and the fit and calibration of them (a
Hook: HOOK in its beliefs module, which the scripts find through the registry: musim.games.beliefs_hook).
"""

import dataclasses
import hashlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import numpy as np

from musim.engine.errors import SpecError
from musim.engine.option import Option
from musim.io import arrays_file
from musim.play import node_limit
from musim.play.search_budget import SEARCH, seats

FORMAT = 1
SHIPPED = {"v1": "world_weights_v1.npz"}  # version -> file in the game's models/; a refit is a new version
GAMES = Path(__file__).resolve().parent.parent / "games"
MAX_BYTES = 1 << 16
OPTION = Option(
    "search_weights",
    str,
    "",
    "With --play search: the fitted parameters of its weighted worlds, v1 (shipped; the run's key names it "
    "v1@<digest>) or a parameters file (.npz: scripts/fit_world_weights.py; docs/players.md).",
    omit_default=True,
)


class WeightsError(SpecError):
    """A world-weights file that cannot be used."""


@dataclasses.dataclass(frozen=True)
class Weights:
    """A game's parameters: their `names`, each within the open interval `bounds` gives it
    (low, high; none given: every one within (0, 1)); one row for every player count, or a row
    a count from players[0] to players[1]."""

    game: str
    names: tuple
    bounds: tuple = ()
    players: tuple | None = None

    @property
    def shape(self):
        if self.players is None:
            return (len(self.names),)
        return (self.players[1] - self.players[0] + 1, len(self.names))

    def row(self, params, players):
        """The parameters a game of `players` seats plays by."""
        return params if self.players is None else params[players - self.players[0]]


@dataclasses.dataclass(frozen=True)
class Hook:
    """What scripts/fit_world_weights.py and scripts/calibrate_worlds.py ask of a game (its
    beliefs module's HOOK): `fit(players, deals, seed, worlds)` -> (params, meta entries, the
    table of what it tried or None); `calibration(players, deals, seed, worlds, params, **options)`
    -> predictions as musim.analysis.calibration reads them; `scores`: the columns of its
    calibration_<game>_brier.csv after game, players, worlds; `options`: its own
    calibration options {name: (default, help)}."""

    weights: Weights
    fit: Callable
    calibration: Callable
    scores: tuple
    options: dict = dataclasses.field(default_factory=dict)


def path_of(weights, version="v1"):
    """The shipped file of a game's parameters."""
    return GAMES / weights.game / "models" / SHIPPED[version]


def digest(params):
    return hashlib.sha256(np.ascontiguousarray(params, np.float64).tobytes()).hexdigest()


def save(path, weights, params, meta):
    """Write a parameters file: `params` of weights.shape, `meta` a dict completed here with
    format, game and digest; WeightsError (nothing written) where read would refuse it."""
    params = np.asarray(params, np.float64)
    meta = {**meta, "format": FORMAT, "game": weights.game, "params_sha256": digest(params)}
    check(path, weights, params, list(weights.names), meta)
    arrays_file.write(path, {"params": params, "names": np.array(list(weights.names))}, meta)


def read(path, weights):
    """(params, meta) of a parameters file of `weights`, every check passed; WeightsError naming the fault."""
    (params, stored), meta = arrays_file.read(path, ("params", "names"), MAX_BYTES, "world weights", WeightsError)
    check(path, weights, params, [str(x) for x in stored], meta)
    return params, meta


def check(path, weights, params, names, meta):
    """WeightsError unless these are `weights`' parameters in this musim's format, each within its range."""
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("game") != weights.game:
        raise WeightsError(f"world weights {path}: another format or game than {weights.game}'s")
    if names != list(weights.names) or params.dtype != np.float64 or params.shape != weights.shape:
        found, wanted = f"{names} {params.shape}", f"{list(weights.names)} {weights.shape}"
        raise WeightsError(f"world weights {path}: parameters {found}, not {wanted}")
    if digest(params) != meta.get("params_sha256"):
        raise WeightsError(f"world weights {path}: its parameters do not match their digest (corrupted)")
    bounds = weights.bounds or ((0.0, 1.0),) * len(names)
    for name, (low, high), values in zip(names, bounds, params.reshape(-1, len(names)).T):
        if not np.all((values > low) & (values < high)):
            raise WeightsError(f"world weights {path}: {name} outside ({low:g}, {high:g})")


@lru_cache(maxsize=16)
def resolve(weights, name):
    """(id, params) of a search_weights value: "" or a shipped version (`v1`), or a file's path;
    either may carry the `@sha8` a run's key names, and is then refused if the params differ."""
    folder, reader = GAMES / weights.game / "models", lambda path: read(path, weights)
    ident, params = arrays_file.resolve(name, folder, SHIPPED, reader, digest, OPTION.flag, WeightsError)
    params.setflags(write=False)
    return ident, params


def ident_of(play, name, weights):
    """The id a run with this --play text keys its `search` seats' parameters by ("" without
    one); SpecError where `name` names parameters without a `search` seat or cannot be read."""
    if SEARCH not in seats(play):
        if name:
            raise SpecError(f"{OPTION.flag} applies only with --play search (at some seat)")
        return ""
    return resolve(weights, name)[0]


def check_spec(spec, weights):
    """GAME.check's part: the option search_weights made the id of the parameters a `search`
    seat plays by, so that the run's key names them."""
    ident = ident_of(spec.play, spec.options.get(OPTION.name, ""), weights)
    if ident:
        spec.options[OPTION.name] = ident


def check_seat_game(weights, spec):
    """GAME.check of a seat game with dd and search play (node_limit.check_seat_game) whose
    `search` seats weight their worlds by `weights` (partial(check_seat_game, WEIGHTS))."""
    node_limit.check_seat_game(spec)
    check_spec(spec, weights)


def context_params(weights, name, weighs):
    """A trick game's search context params: weighted (1) or not, set at each decision, then the
    parameters `name` resolves to where a seat weighs its worlds (zeros where none does)."""
    params = np.zeros(1 + len(weights.names))
    if weighs:
        params[1:] = resolve(weights, name)[1]
    return params
