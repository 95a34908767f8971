"""The registry of games: name -> the package whose GAME (games/contract.py) describes it.

Registering a game is its folder plus one line here.  Packages are imported when a game is
first asked for, so that a command touches only the games it uses.
"""

import importlib

GAMES = {
    "mu": "musim.games.mu",
    "bridge": "musim.games.bridge",
    "panther": "musim.games.panther",
    "wimmueln": "musim.games.wimmueln",
    "mueckenstich": "musim.games.mueckenstich",
    "safarue": "musim.games.safarue",
    "reverse-safarue": "musim.games.safarue.reverse",
    "calcory": "musim.games.calcory",
    "zwickern": "musim.games.zwickern",
    "danger": "musim.games.danger",
    "rummue": "musim.games.rummue",
}
DEFAULT_GAME = "mu"  # what `--game` means when not given


class UnknownGame(LookupError):
    """No game of that name is registered; the message names the known ones."""


def get_game(name):
    """The Game registered as `name`; UnknownGame if none is."""
    if name not in GAMES:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})")
    game = importlib.import_module(GAMES[name]).GAME
    if game.name != name:
        raise UnknownGame(f"{GAMES[name]}.GAME is named {game.name!r}, registered as {name!r}")
    return game


def all_games():
    """Every registered Game, by name."""
    return [get_game(name) for name in sorted(GAMES)]


def weighted_games():
    """The names of the games whose `search` seats weight their worlds (their GAME declares the
    option musim/play/world_weights.py defines)."""
    from musim.play.world_weights import OPTION

    return [game.name for game in all_games() if OPTION in game.options]


def beliefs_hook(name):
    """The fit and calibration of game `name`'s weighted worlds (its beliefs module's HOOK)."""
    get_game(name)
    return importlib.import_module(GAMES[name] + ".beliefs").HOOK
