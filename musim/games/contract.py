"""The one contract between a game and the rest of musim (docs/adding-a-game.md).

A game is a package musim/games/NAME/ whose __init__ defines GAME = Game(...); the registry
(musim/games/__init__.py) maps NAME to that package.  The CLI, the engine, `musim games`,
`solve`, `replay` and `record` know a game only through these fields, so nothing outside the
game's folder names it.  GAME must be cheap to import: the callables import the game's kernels
when called.  Limits are checked when GAME is made, so a game that does not fit fails on
import with a clear message rather than overflowing somewhere later.  A game's own options
(engine/option.py Option) and the exact-play policy name (engine/seats.py EXACT_PLAY) sit below
the engine, which reads them without importing this module.
"""

import dataclasses
from collections.abc import Callable

from musim.core.deck import Deck
from musim.engine.errors import SpecError
from musim.engine.option import OPTION_TYPES
from musim.engine.seats import EXACT_PLAY

MIN_SEATS, MAX_SEATS = 2, 8  # the seats every part of musim (rows, solver, records) supports
# names the CLI and RunSpec use for every game: a game's option may not take one
GENERIC_NAMES = frozenset(
    ("game", "mode", "count", "deals", "matches", "deal", "index", "players", "play", "seed", "workers", "tt_mb")
    + ("out", "overwrite", "progress", "options")
)


class GameError(ValueError):
    """A game's declaration breaks the contract (raised when its GAME is made)."""


@dataclasses.dataclass(frozen=True)
class Game:
    """What a game registers.  Callables receive a RunSpec (musim/engine/spec.py) whose
    `options` hold every Option of the game, checked; a game without policies is not run
    (a solver-only game such as bridge)."""

    name: str
    title: str
    players: tuple  # (fewest, most) seats
    default_players: int
    deck: object  # its musim.core.deck.Deck (notation and bit layout: docs/formats.md); None: a solver-only game
    result_version: int  # bumped whenever a change alters rows (engine/key.py, tests/golden)
    policies: tuple = ()  # `--play` choices, the default first; EXACT_PLAY only with a solver
    play_help: str = ""  # what each policy does, for `--play`'s help
    options: tuple = ()  # the game's own Options
    job: Callable | None = None  # job(spec) -> engine Job of the spec's deals (or matches)
    make_summary: Callable | None = None  # make_summary(params) -> accumulator (COLUMNS, add, lines, figures)
    check: Callable | None = None  # check(spec): SpecError for options that do not go together
    models: Callable | None = None  # models(spec) -> {decision: model name}, the metadata's "models"
    warning: Callable | None = None  # warning(spec) -> text or None, said before a run that will be slow
    estimate: Callable | None = None  # estimate(spec) -> seconds the run should take by measured costs, or None
    record: Callable | None = None  # record(spec, index) -> the game record (dict) of deal `index`
    replay: Callable | None = None  # replay(record dict) -> result dict; batch.InputError if invalid
    show: Callable | None = None  # show(record, replay(record)) -> text lines for a person (`musim show`)
    solver: Callable | None = None  # solver(tt, counting) -> adapter: .solve(position, all_moves, node_limit), .st
    matches: bool = False  # job() also serves spec.mode == "matches"
    commands: Callable | None = None  # commands() -> click commands the game adds to `musim`

    def __post_init__(self):
        problems = list(self._problems())
        if problems:
            raise GameError(f"game {self.name!r}: " + "; ".join(problems))

    def _problems(self):
        if not all(word.isidentifier() for word in self.name.split("-")) or not self.name.islower():
            yield "the name must be lowercase identifier words joined by single hyphens (reverse-safarue)"
        low, high = self.players
        if not MIN_SEATS <= low <= self.default_players <= high <= MAX_SEATS:
            yield f"seats must satisfy {MIN_SEATS} <= fewest <= default <= most <= {MAX_SEATS}, got {self.players}"
        if EXACT_PLAY in self.policies and self.solver is None:
            yield f"policy {EXACT_PLAY!r} (exact play) needs a solver"
        if len(set(self.policies)) != len(self.policies):
            yield "policies repeat"
        if self.policies and (self.job is None or self.make_summary is None):
            yield "a game with policies needs job and make_summary"
        if (self.deck is not None or self.policies) and not isinstance(self.deck, Deck):
            yield "deck must be a musim.core.deck.Deck (None only for a solver-only game)"
        if self.matches and not self.policies:
            yield "matches need policies"
        names = [o.name for o in self.options]
        if len(set(names)) != len(names) or GENERIC_NAMES & set(names):
            yield f"option names must be distinct and none of {', '.join(sorted(GENERIC_NAMES))}"
        for o in self.options:
            yield from _option_problems(o)

    @property
    def exact_play(self):
        return EXACT_PLAY in self.policies

    def option(self, name):
        return next(o for o in self.options if o.name == name)


def _option_problems(o):
    problems = []
    if not o.name.isidentifier():
        problems.append(f"option {o.name!r}: not an identifier")
    if o.type not in OPTION_TYPES:
        problems.append(f"option {o.name}: type must be one of int, float, str, bool")
    if o.range is not None and o.type not in (int, float):
        problems.append(f"option {o.name}: a range needs a number type")
    if o.choices is not None and o.type is not str:
        problems.append(f"option {o.name}: choices need type str")
    if not problems:
        try:
            o.check(o.default)
        except SpecError as exc:
            problems.append(f"option {o.name}: default {exc}")
    return problems


def lazy(module, name):
    """A callable that imports `module` when first called and calls its `name`: a GAME names
    its kernels' entry points without loading them."""

    def call(*args, **kwargs):
        import importlib

        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__qualname__ = call.__name__ = f"{module}.{name}"
    return call
