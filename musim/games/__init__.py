"""Registry of the games musim can run: name -> module exposing the game's entry points."""

import importlib

GAMES = {"mu": "musim.games.mu"}


def get_game(name):
    """The module of game `name`; KeyError with the known names if unknown."""
    if name not in GAMES:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})")
    return importlib.import_module(GAMES[name])
