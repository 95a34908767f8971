"""The key of a saved or resumable result: what its rows depend on, and nothing else.

A key is a small dict: the game, the game's result version (bumped by hand whenever a rule,
policy or kernel change alters rows), the parameters that determine the rows, and the
versions of the dependencies that compute them (numba and numpy, python's major.minor).
It leaves out what only decides how a result is computed or shown (workers, engine, output
path, progress) and the text of the source: a docstring edit keeps hours of saved work valid,
a change of rows must bump the result version (tests/test_golden_rows.py checks that).
The key's hash names the directory of saved chunks, with the key beside them in key.json.
"""

import hashlib
import json
import sys
from importlib.metadata import version

KEY_FILE = "key.json"


def dependency_versions():
    """The versions of what computes the rows besides musim."""
    return {
        "numba": version("numba"),
        "numpy": version("numpy"),
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
    }


def result_key(game, params):
    """The key (a dict) of game `game`'s result determined by `params` (a dict of JSON values)."""
    from musim.games import get_game

    return {
        "game": game,
        "result_version": get_game(game).result_version,
        "params": dict(sorted(params.items())),
        "versions": dependency_versions(),
    }


def key_hash(key):
    """A short, stable name for `key`: the same key gives the same name in any process."""
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
