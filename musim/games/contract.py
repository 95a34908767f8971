"""The one contract between a game and the rest of musim (docs/adding-a-game.md).

A game is a package musim/games/NAME/ whose __init__ defines GAME = Game(...); the registry
(musim/games/__init__.py) maps NAME to that package.  The CLI, the engine, `musim games`,
`solve`, `replay` and `record` know a game only through these fields, so nothing outside the
game's folder names it.  GAME must be cheap to import: the callables import the game's kernels
when called.  Limits are checked when GAME is made, so a game that does not fit fails on
import with a clear message rather than overflowing somewhere later.
"""

import dataclasses
from collections.abc import Callable

from musim.core.deck import Deck
from musim.engine.errors import SpecError

MIN_SEATS, MAX_SEATS = 2, 8  # the seats every part of musim (rows, solver, records) supports
EXACT_PLAY = "dd"  # the policy name of exact double-dummy play; needs a solver


def plays_exactly(play):
    """Does some seat of a run's --play (one policy, or one a seat joined by commas) play exactly?"""
    return EXACT_PLAY in play.split(",")


OPTION_TYPES = (int, float, str, bool)
# names the CLI and RunSpec use for every game: a game's option may not take one
GENERIC_NAMES = frozenset(
    ("game", "mode", "count", "deals", "matches", "deal", "index", "players", "play", "seed", "workers", "tt_mb")
    + ("out", "overwrite", "progress", "options")
)


class GameError(ValueError):
    """A game's declaration breaks the contract (raised when its GAME is made)."""


@dataclasses.dataclass(frozen=True)
class Option:
    """An option of the game's own, neutral of any CLI: `musim run --game NAME` shows it as
    `--name-with-dashes`; runs keep it in RunSpec.options[name] and the file's metadata."""

    name: str  # a Python identifier
    type: type  # int, float, str, or bool (a flag)
    default: object
    help: str
    range: tuple | None = None  # (low, high), both included: int and float only
    choices: tuple | None = None  # str only
    per_deal: bool = True  # False: concerns whole matches alone, so `musim record` leaves it out
    omit_default: bool = False  # at its default, left out of keys and metadata (engine/spec.py keyed_options)
    named_by_digest: bool = False  # a default run name shows a short digest of the value (a table), not the value
    parse: Callable | None = None  # the command line's text -> the value (ValueError: why not); None: by `type`
    example: object = None  # a value whose rows show columns the option adds (docs/formats.md lists them)
    table_sized: bool = False  # not at its default, rows depend on --tt-mb (a node limit): the key carries it

    @property
    def flag(self):
        return "--" + self.name.replace("_", "-")

    def check(self, value):
        """`value` if it is a valid value of this option; SpecError naming the option if not."""
        if self.type is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not self.type:
            raise SpecError(f"{self.flag}: expected {self.type.__name__}, got {value!r}")
        if self.range is not None and not self.range[0] <= value <= self.range[1]:
            raise SpecError(f"{self.flag}: {value!r} is not in the range {self.range[0]}..{self.range[1]}")
        if self.choices is not None and value not in self.choices:
            raise SpecError(f"{self.flag}: {value!r} is not one of {', '.join(map(str, self.choices))}")
        return value


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


def whole_count(text, minimum=1):
    """A whole number >= minimum written plainly or in scientific notation ('1e6', '2.5e5'), at
    most 10^12 (an Option's `parse`); ValueError saying why not."""
    from decimal import Decimal, InvalidOperation

    try:
        value = Decimal(text.strip().replace("_", ""))
    except InvalidOperation:
        raise ValueError(f"{text!r} is not a number") from None
    if not value.is_finite() or value != value.to_integral_value():
        raise ValueError(f"{text!r} is not a whole number")
    if value < minimum:
        raise ValueError(f"{text!r} must be at least {minimum}")
    if value > 10**12:
        raise ValueError(f"{text!r} is more than 10^12")
    return int(value)


def lazy(module, name):
    """A callable that imports `module` when first called and calls its `name`: a GAME names
    its kernels' entry points without loading them."""

    def call(*args, **kwargs):
        import importlib

        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__qualname__ = call.__name__ = f"{module}.{name}"
    return call
