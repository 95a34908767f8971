"""A run's specification and its check against the game it names (engine/errors.py's SpecError)."""

import dataclasses

from musim.engine.errors import SpecError
from musim.engine.seats import play_text
from musim.solver.table_size import DEFAULT_MB


@dataclasses.dataclass
class RunSpec:
    """Everything that determines a run's rows (and how it is executed): the fields every game
    shares, and the game's own options by name (engine/option.py Option)."""

    game: str
    mode: str  # "deals" or "matches"
    count: int
    players: int
    play: str
    seed: int | None = None
    workers: int | None = None
    tt_mb: int = DEFAULT_MB  # transposition-table MB per worker, for exact play
    options: dict = dataclasses.field(default_factory=dict)
    out: str | None = None
    overwrite: bool = False
    engine: str = "local"  # engines.ENGINES: where the chunks run (never changes a row)
    scheduler: str | None = None  # a Dask scheduler's address; None: a LocalCluster of `workers`


def checked(spec):
    """The Game of `spec`, once spec fits it: seats, policies (spec.play made the one name or the
    seats' names, engine/seats.py play_text) and mode checked, the game's options
    checked and completed with their defaults (in place), then the game's own check.
    SpecError naming the option at fault otherwise."""
    from musim.games import UnknownGame, get_game

    try:
        game = get_game(spec.game)
    except UnknownGame as exc:
        raise SpecError(f"--game: {exc}") from None
    if not game.policies:
        raise SpecError(f"--game: {game.name} has no play policies (see `musim games`): it cannot be run")
    if spec.mode not in ("deals", "matches") or (spec.mode == "matches" and not game.matches):
        raise SpecError(f"--{spec.mode}: {game.name} plays no {spec.mode}")
    low, high = game.players
    if not low <= spec.players <= high:
        raise SpecError(f"--players: {spec.players} is not in {game.name}'s range {low}..{high}")
    try:  # one policy or one a seat; a list of one policy is that policy (the run's key and name)
        spec.play = play_text(spec.players, spec.play, game.policies)
    except ValueError as exc:
        raise SpecError(f"--play: {exc}") from None
    unknown = set(spec.options) - {o.name for o in game.options}
    if unknown:
        raise SpecError(f"{game.name} has no option {', '.join(sorted(unknown))}")
    spec.options = {o.name: o.check(spec.options.get(o.name, o.default)) for o in game.options}
    if game.check is not None:
        game.check(spec)
    return game


def keyed_options(spec, game):
    """The options that name `spec`'s rows in its key and metadata: every option but those at
    their default that the game declares `omit_default` (options added after runs were saved,
    such as a rule variant: the rulebook's runs keep their keys)."""
    return {
        o.name: spec.options[o.name] for o in game.options if not (o.omit_default and spec.options[o.name] == o.default)
    }
