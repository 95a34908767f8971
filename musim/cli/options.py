"""Click pieces shared by musim's commands and those games contribute, among them the command
whose options come from its --game (GameCommand)."""

import click

from musim.core.rng import MAX_SEED
from musim.solver.table_size import DEFAULT_MB

SEEDS = click.IntRange(0, MAX_SEED)
GAME_KEY = "musim.game"  # ctx.meta key of the Game a GameCommand was given


TT_MB_HELP = "With --play dd: transposition-table MB per worker."


def _tt_mb(help):
    return {"type": click.IntRange(1, 65536), "default": DEFAULT_MB, "show_default": True, "help": help}


def tt_mb_option(help=TT_MB_HELP):
    """`--tt-mb`, the solver's table size, of every command that plays or solves exactly."""
    return click.option("--tt-mb", **_tt_mb(help))


def engine_options(fn):
    """`--engine` and `--scheduler`: where a command's chunks run (engine/engines.py)."""
    from musim.engine.engines import ENGINES

    fn = click.option(
        "--scheduler",
        metavar="ADDRESS",
        help="With --engine dask: the scheduler's address (tcp://HOST:8786); "
        "default: a LocalCluster of --workers processes.",
    )(fn)
    return click.option(
        "--engine",
        type=click.Choice(ENGINES),
        default="local",
        show_default=True,
        help="Where the work runs: local threads, or a Dask cluster (the results are the same).",
    )(fn)


def check_engine(engine, scheduler):
    if scheduler and engine != "dask":
        raise click.UsageError("--scheduler needs --engine dask")


def parse_count(text, name, minimum=1):
    """A whole number >= minimum given plainly or in scientific notation ('1e6', '2.5e5')."""
    from musim.engine.option import whole_count

    try:
        return whole_count(text, minimum)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=name) from None


class Parsed(click.ParamType):
    """A click type converting the command line's text by `parse` (text -> value; ValueError:
    why not), such as a game Option's own (engine/option.py Option.parse)."""

    name = "N"

    def __init__(self, parse):
        self.parse = parse

    def convert(self, value, param, ctx):
        if not isinstance(value, str):  # a default
            return value
        try:
            return self.parse(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def advice(exact, count_option, faster=()):
    """What follows the long-run estimate (musim.engine.progress): how far off it may be, and the faster
    options (`faster`: those that avoid or shorten exact play, said only under exact play)."""
    caveat = ""
    if exact:
        caveat = " Exact double-dummy deals take from milliseconds to hours each, so it may take far longer."
    return f"{caveat} Faster: {', '.join([*(faster if exact else ()), f'fewer {count_option}'])}."


def warn(text):
    """Say a warning (a game's, before a slow run) on stderr, if there is one."""
    if text:
        click.echo(f"musim: warning: {text}", err=True)


def _option_args(option, help=None):
    """(declarations, keyword arguments) of the click option of a game's Option (games/contract.py)."""
    kwargs = {"default": option.default, "show_default": True, "help": help or option.help}
    if option.type is bool:
        return [option.flag, option.name], {**kwargs, "is_flag": True}
    typ = option.type
    if option.parse is not None:
        typ = Parsed(option.parse)
    elif option.range is not None:
        typ = (click.IntRange if option.type is int else click.FloatRange)(*option.range)
    elif option.choices is not None:
        typ = click.Choice(option.choices)
    return [option.flag, option.name], {**kwargs, "type": typ}


def option_param(option):
    """The click.Option of a game's Option."""
    decls, kwargs = _option_args(option)
    return click.Option(decls, **kwargs)


def option_decorator(option, help):
    """A game's Option as a decorator of one of its own commands, with that command's help."""
    decls, kwargs = _option_args(option, help)
    return click.option(*decls, **kwargs)


def game_params(game, per_deal_only=False):
    """The options a command gets from its --game: players in the game's range, its policies (one,
    or one a seat: checked with the players by engine/spec.py checked),
    the table size if it plays exactly, and its own options (`musim record`: those of one deal)."""
    low, high = game.players
    params = [
        click.Option(["--players"], type=click.IntRange(low, high), default=game.default_players, show_default=True),
        click.Option(
            ["--play"],
            metavar=f"[{'|'.join(game.policies)}][,...]",
            default=game.policies[0],
            show_default=True,
            help=f"One policy for every seat, or one a seat in the order of the rows' seats "
            f"(random,heuristic,...: docs/players.md). {game.play_help}",
        ),
    ]
    if game.exact_play:
        params.append(click.Option(["--tt-mb"], **_tt_mb(TT_MB_HELP)))
    return params + [option_param(o) for o in game.options if o.per_deal or not per_deal_only]


class GameCommand(click.Command):
    """A command whose options depend on its --game: before parsing, it peeks at --game and adds
    that game's options (game_params), so that `--help` shows them and click checks them.
    `requires(game)` says whether the game can serve the command; `refusal` says why not."""

    def __init__(self, *args, requires, refusal, per_deal_only=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.requires, self.refusal, self.per_deal_only = requires, refusal, per_deal_only

    def parse_args(self, ctx, args):
        from musim.games import UnknownGame, get_game

        try:
            game = get_game(peek_game(args))
        except UnknownGame as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param_hint="'--game'") from None
        if not self.requires(game):
            raise click.BadParameter(f"{game.name} {self.refusal}", ctx=ctx, param_hint="'--game'")
        ctx.meta[GAME_KEY] = game
        return super().parse_args(ctx, args)

    def get_params(self, ctx):
        params = super().get_params(ctx)
        game = ctx.meta.get(GAME_KEY)
        if game is None:
            return params
        after = next(i for i, p in enumerate(params) if p.name == "game") + 1  # the game's options follow --game
        return params[:after] + game_params(game, self.per_deal_only) + params[after:]


def peek_game(args):
    """The value of --game among a command's arguments (the last one given), or the default."""
    from musim.games import DEFAULT_GAME

    name, it = DEFAULT_GAME, iter(args)
    for arg in it:
        if arg == "--":
            break
        if arg == "--game":
            name = next(it, name)
        elif arg.startswith("--game="):
            name = arg[len("--game=") :]
    return name
