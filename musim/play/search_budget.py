"""The search player's name and budget option (docs/players.md "Search"), kept free of numba so
that a game's GAME imports it cheaply."""

from musim.engine.errors import SpecError
from musim.engine.option import Option

SEARCH = "search"  # the policy name of the search player (musim/play/search.py)
DEFAULT_WORLDS = 128  # Mü, 4 players: one search seat about 120 deals/s a core, every seat 30 (docs/performance.md)
WORLDS = Option(
    "search_worlds",
    int,
    DEFAULT_WORLDS,
    "With --play search: worlds (deals of the hidden cards) sampled at each card decision of a search seat; "
    "each legal card is played out once in each (the budget, counted in work: docs/players.md).",
    range=(1, 4096),
    omit_default=True,
)


def searches(play):
    """Does some seat of a --play text (one policy, or one a seat joined by commas) search?"""
    return SEARCH in play.split(",")


def check(spec):
    """--search-worlds means nothing without a search seat (check_worlds)."""
    check_worlds(spec.play, spec.options.get(WORLDS.name, DEFAULT_WORLDS))


def check_worlds(play, worlds):
    """A budget other than the default means nothing without a search seat in the --play text."""
    if worlds != DEFAULT_WORLDS and not searches(play):
        raise SpecError(f"{WORLDS.flag} applies only with --play search (at some seat)")
