"""The search player's names, version and options (docs/players.md "Search"), kept free of
numba so that a game's GAME imports them cheaply.

`search` is the second search player (issue 61): exact endgames (Mü, Wimmüln, The Last
Panther, Mückenstich), and in Mü the vice's and the chief's trump and the chief's partner searched too.
`search-uniform` is the first, kept as it was: its rows and its result keys are those `--play
search` wrote before (tests/test_search_uniform.py).  A run with a
`search` seat carries SEARCH_PLAYER_VERSION in its key, so rows of another search player are
never resumed as its own."""

from musim.engine.errors import SpecError
from musim.engine.option import Option
from musim.engine.seats import SEARCH, SEARCH_PLAYER_VERSION, UNIFORM

__all__ = ["SEARCH", "SEARCH_PLAYER_VERSION", "UNIFORM"]  # defined in engine/seats.py, which the engine reads
DEFAULT_WORLDS = 128  # Mü, 4 players: one search seat about 120 deals/s a core, every seat 30 (docs/performance.md)
WORLDS = Option(
    "search_worlds",
    int,
    DEFAULT_WORLDS,
    "With --play search or search-uniform: worlds (deals of the hidden cards) sampled at each card decision of a "
    "search seat; each legal card is played out once in each (the budget, counted in work: docs/players.md).",
    range=(1, 4096),
    omit_default=True,
)
DEFAULT_EXACT_TRICKS = 0  # chosen by measurement: benchmarks/bench_exact_endgame.py, docs/players.md
EXACT_TRICKS = Option(
    "search_exact_tricks",
    int,
    DEFAULT_EXACT_TRICKS,
    "With --play search: once this many tricks or fewer are left, each card is valued in each world by the "
    "double-dummy solver instead of the heuristic playout (0: never; docs/players.md).",
    range=(0, 15),
    omit_default=True,
)


def seats(play):
    """The policy names of a --play text (one policy, or one a seat joined by commas)."""
    return play.split(",")


def searches(play):
    """Does some seat of a --play text search (either search player)?"""
    return bool({SEARCH, UNIFORM} & set(seats(play)))


def check(spec):
    """--search-worlds means nothing without a search seat, --search-exact-tricks nothing without
    a `search` seat."""
    check_worlds(spec.play, spec.options.get(WORLDS.name, DEFAULT_WORLDS))
    check_exact(spec.play, spec.options.get(EXACT_TRICKS.name, DEFAULT_EXACT_TRICKS))


def check_worlds(play, worlds):
    """A budget other than the default means nothing without a search seat in the --play text."""
    if worlds != DEFAULT_WORLDS and not searches(play):
        raise SpecError(f"{WORLDS.flag} applies only with --play search or search-uniform (at some seat)")


def check_exact(play, tricks):
    """Exact endgames other than the default mean nothing without a `search` seat."""
    if tricks != DEFAULT_EXACT_TRICKS and SEARCH not in seats(play):
        raise SpecError(f"{EXACT_TRICKS.flag} applies only with --play search (at some seat)")
