"""The `musim` command line: a thin click layer over the library.

It names no game: `--game` picks one from the registry (musim/games/__init__.py), whose
declaration (games/contract.py) gives the command its options; games add their own commands.
"""

import contextlib
import json
import sys

import click
from click.core import ParameterSource

from musim import __version__
from musim.cli.options import SEEDS, GameCommand, Parsed, advice, check_engine, engine_options, parse_count, warn
from musim.engine.option import whole_count
from musim.engine.seats import plays_exactly
from musim.games import DEFAULT_GAME
from musim.play.search_budget import searches
from musim.solver.table_size import DEFAULT_MB

GAME_HELP = "Game (see `musim games`); `--game NAME --help` lists its options."
# what a command compiles on a cold cache -> (its name for a person, about how many seconds it
# takes one core, the `musim compile` that does it ahead): the CPU time of the README's first
# commands of Mü (the most to compile) on an empty cache less their work, rounded up
# (docs/performance.md "Compilation", python benchmarks/bench_compile.py)
KERNELS = ("the kernels", 20, "musim compile")
SEARCH_PLAYER = ("the search player", 40, "musim compile --search")
EXACT = ("exact play", 120, "musim compile --solver")
SOLVER = ("the solver", 70, "musim compile --solver")


def compile_notice(what):
    """Say on stderr, when this command first compiles a kernel (a cold cache), what it compiles
    and about how long that takes; nothing if it finds every kernel in the cache."""
    from musim.compile.notice import notice

    name, seconds, command = what
    notice(f"musim: compiling {name} for first use, about {seconds} s; `{command}` does it ahead", _say)


def play_notice(play):
    """compile_notice of a command that plays by `play` (the --play text): exact play, the search
    player, or the other kernels."""
    compile_notice(EXACT if plays_exactly(play) else SEARCH_PLAYER if searches(play) else KERNELS)


def _say(text):
    """A line above any progress bar on the process's own stderr: the notice concerns the process
    (its kernel cache), not the command's output, which a caller may capture (click's CliRunner,
    contextlib.redirect_stderr) and parse."""
    from tqdm import tqdm

    tqdm.write(text, file=sys.__stderr__ or sys.stderr)


class MusimGroup(click.Group):
    """The `musim` group: its own commands, and those the games contribute (Game.commands),
    loaded only when asked for."""

    def _game_commands(self):
        from musim.games import all_games
        from musim.games.contract import GameError

        found = {}
        for game in all_games():
            for command in game.commands() if game.commands else ():
                if command.name in self.commands or command.name in found:
                    raise GameError(f"game {game.name!r}: command {command.name!r} is taken")
                found[command.name] = command
        return found

    def list_commands(self, ctx):
        return sorted([*super().list_commands(ctx), *self._game_commands()])

    def get_command(self, ctx, name):
        return super().get_command(ctx, name) or self._game_commands().get(name)

    def invoke(self, ctx):
        """Run the command; a reader that closed stdout (`musim summary RUN | head -1`) has taken
        what it wanted, so the command ends quietly with exit 0 (click would exit 1).  A command
        that compiles kernels says so when it starts to (`run` and `solve` say what and how long)."""
        from musim.compile.notice import notice

        compile_notice(KERNELS)
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            _discard_stdout()
            raise click.exceptions.Exit(0) from None
        finally:
            notice(None)


@click.group(cls=MusimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="musim")
def cli():
    """Monte Carlo simulator and double-dummy solver for the Mü & More card games."""


def _read_input(path):
    """Text of a batch input file or stdin ('-'); usage error (exit 2) if unreadable."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.UsageError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def _game_with(name, what, command):
    """The registered Game `name` if it has `what` ("replay", "solver"); InputError naming the
    games that have it if not."""
    from musim.games import UnknownGame, all_games, get_game
    from musim.io.batch import InputError

    try:
        game = get_game(name) if isinstance(name, str) else None
    except UnknownGame:
        game = None
    if game is None or getattr(game, what) is None:
        known = ", ".join(g.name for g in all_games() if getattr(g, what) is not None)
        raise InputError(f"unknown game {json.dumps(name)} for `musim {command}` (known: {known})")
    return game


def _item_game(obj, default, what, command):
    """The Game of a batch item, by its "game" (else `default`); its InputError names the item."""
    from musim.io.batch import InputError

    try:
        return _game_with(obj.get("game", default), what, command)
    except InputError as exc:
        raise InputError(f"game: {exc}") from None


@cli.command()
@click.argument("path", metavar="FILE|-")
def replay(path):
    """Validate game records (JSON or JSON Lines), each of the game it names, and print each result."""
    from musim.io.batch import run_batch

    ok = run_batch(_read_input(path), lambda obj: _item_game(obj, None, "replay", "replay").replay(obj), sys.stdout)
    sys.exit(0 if ok else 1)


@cli.command()
@click.argument("path", metavar="[FILE|-]", default="-")
def show(path):
    """Print game records (JSON or JSON Lines, as `musim replay` reads them; default: stdin) for a
    person: each deal's hands, auction or setup, every trick or turn with who won it, and the scores.

    Each record is checked by its game's replay first; a bad one is refused, naming it (its
    index from 0 in the input), before anything is printed."""
    from musim.io.batch import InputError, read_items
    from musim.io.batch import error_reason as reason

    shown = []
    for index, item in enumerate(read_items(_read_input(path))):
        try:
            if isinstance(item, InputError):
                raise item
            game = _item_game(item, None, "show", "show")
            shown.append(game.show(item, game.replay(item)))
        except Exception as exc:  # the record's fault or not, one line naming it (batch.py)
            raise click.ClickException(f"item {index}: {reason(exc)}") from None
    if not shown:
        raise click.UsageError(f"no records in {'standard input' if path == '-' else path}")
    click.echo("\n\n".join("\n".join(lines) for lines in shown))


def _discard_stdout():
    """Point stdout at the null device, so that flushing what is left at exit cannot fail again."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _interrupt(signum, frame):
    """SIGTERM (a scheduler's or a session's stop) ends a run as Ctrl-C does."""
    raise KeyboardInterrupt


def main():
    """Console entry point: usage errors exit 2, failures 1, and never a traceback
    (set MUSIM_DEBUG=1 to see one for an unexpected error).

    The command runs on a thread of its own while this (main) thread waits: signals are
    handled on the main thread, so Ctrl-C and SIGTERM end the process at once, even while a
    kernel runs for minutes on the command's thread; while an engine runs chunks, the
    command's thread is first given up to SAVE_SECONDS to keep those finished
    (engine/stop.py; a second signal ends it at once)."""
    import signal
    import threading

    signal.signal(signal.SIGTERM, _interrupt)
    outcome = []
    ended = threading.Event()  # not Thread.join: a join a signal interrupted may leave is_alive() False
    thread = threading.Thread(target=_command, args=(outcome, ended), name="musim-command", daemon=True)
    thread.start()
    try:
        ended.wait()
    except KeyboardInterrupt:
        _stop(ended)
        if not ended.is_set():
            _interrupted()
    if outcome:  # the command's exception (a stopped run's too); none: it finished, a signal or not
        _exit_for(outcome[0])


SAVE_SECONDS = 60.0  # how long a stop waits for the finished chunks to be written


def _stop(ended):
    """Ask a running engine to stop and its command to keep what finished (engine/stop.py)."""
    stop = sys.modules.get("musim.engine.stop")  # loaded if an engine may be running
    if stop is None or not stop.LISTENING.is_set():
        return
    stop.STOP.set()
    with contextlib.suppress(KeyboardInterrupt):  # a second signal: no more waiting
        ended.wait(SAVE_SECONDS)


def _command(outcome, ended):
    try:
        cli(standalone_mode=False)
    except BaseException as exc:  # handed to the main thread
        outcome.append(exc)
    finally:
        ended.set()


def _interrupted():
    import os

    parquet = sys.modules.get("musim.engine.parquet")  # loaded if anything is being written
    if parquet is not None:
        parquet.remove_partials()
    click.echo("musim: interrupted", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(130)  # not sys.exit: that would wait for the command's thread and its workers


def _exit_for(exc):
    """Exit as the command's exception asks: one line for an error, never a traceback."""
    import os

    if isinstance(exc, (click.exceptions.Abort, KeyboardInterrupt)):
        _interrupted()
    if isinstance(exc, click.ClickException):  # one line, naming the command: no usage text
        ctx = getattr(exc, "ctx", None)
        click.echo(f"{ctx.command_path if ctx else 'musim'}: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    if isinstance(exc, click.exceptions.Exit):
        sys.exit(exc.exit_code)
    if isinstance(exc, SystemExit):
        raise exc
    if os.environ.get("MUSIM_DEBUG"):
        raise exc
    click.echo(f"musim: error: {type(exc).__name__}: {exc}", err=True)
    sys.exit(1)


@cli.command()
@click.argument("path", metavar="FILE|-")
@click.option("--all-moves", is_flag=True, help="Also give the value after each legal card.")
@click.option(
    "--game",
    default=None,
    help="Game of objects that do not name one: a game with a solver (see `musim games`); default: the default game.",
)
@click.option(
    "--tt-mb",
    type=click.IntRange(1, 65536),
    default=DEFAULT_MB,
    show_default=True,
    help="Transposition-table memory in MB (reused across the batch).",
)
@click.option(
    "--stats",
    is_flag=True,
    help="Also write to stderr, per position solved, the search's counters (nodes, table probes "
    "and hits, cut-offs by kind, null-window searches), the solve's wall time and apart from it "
    "numba's compiling of the kernels on first use: a line "
    '`stats {"item": I, ...}` each, I its input order from 0 (docs/solver.md; the times are those of '
    "a search that counts, some 20% slower). Stdout is unchanged.",
)
@click.option(
    "--node-limit",
    type=Parsed(whole_count),
    help="Each solve (a position's value, and with --all-moves each card's) may take N nodes (1e7 and "
    "2.5e5 are fine; about 3 million a second): a position past it answers the bounds it proved, "
    '{"value": null, "lo": LO, "hi": HI}, its value in LO..HI (a card\'s, {"lo": LO, "hi": HI}); '
    "default: no limit.",
)
def solve(path, all_moves, game, tt_mb, stats, node_limit):
    """Exact double-dummy values of positions (JSON or JSON Lines)."""
    from musim.io.batch import InputError, run_batch
    from musim.solver.stats import clear_stats, stats_record, timed
    from musim.solver.tt import make_table

    compile_notice(SOLVER)
    default = game or DEFAULT_GAME
    try:
        _game_with(default, "solver", "solve")
    except InputError as exc:
        raise click.BadParameter(str(exc), param_hint="'--game'") from None
    tt = make_table(tt_mb)
    solvers = {}
    solved = []  # the counters of the position just solved, for report

    def handle(obj):
        g = _item_game(obj, default, "solver", "solve")
        if g.name not in solvers:
            solvers[g.name] = g.solver(tt, counting=stats)
        solver = solvers[g.name]
        if not stats:
            return solver.solve(obj, all_moves=all_moves, node_limit=node_limit or 0)
        clear_stats(solver.st)
        result, times = timed(lambda: solver.solve(obj, all_moves=all_moves, node_limit=node_limit or 0))
        solved.append(stats_record(solver.st) | times)
        return result

    def report(index):
        if solved:
            click.echo("stats " + json.dumps({"item": index} | solved.pop()), err=True)

    ok = run_batch(_read_input(path), handle, sys.stdout, after=report)
    sys.exit(0 if ok else 1)


@cli.command(
    cls=GameCommand,
    requires=lambda game: game.policies,
    refusal="has no play policies: it cannot be run (see `musim games`)",
)
@click.option("--game", default=DEFAULT_GAME, show_default=True, help=GAME_HELP)
@click.option("--deals", metavar="N", help="Number of deals (1e6 and 2.5e5 are fine).")
@click.option("--matches", metavar="N", help="Play N whole matches instead, one row per match.")
@click.option("--seed", type=SEEDS, help="Root seed (default: drawn and recorded).")
@click.option("--workers", type=click.IntRange(1, 1024), help="Worker threads (default: all cores).")
@click.option(
    "--out",
    help="Output: a run directory of Parquet parts (default: see above), or one file if the name ends in .parquet.",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing output (a run directory or file musim wrote).")
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the unfinished run directory --out (OUT.partial/) after its last finished part; "
    "give the same parameters and --seed.",
)
@engine_options
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a terminal).")
def run(
    game,
    deals,
    matches,
    players,
    play,
    seed,
    workers,
    out,
    overwrite,
    resume,
    engine,
    scheduler,
    progress,
    tt_mb=DEFAULT_MB,
    **options,
):
    """Simulate deals (or matches) of a game and print a summary.

    Every row is kept: one Parquet row per deal (match) goes to --out, by default to the run
    directory runs/<game>-<players>p-<play>[-matches][-<option><value>...]-seed<seed>/ under the
    current directory (naming the game's options not at their defaults), named on stderr at the
    start.  A run directory fills as OUT.partial/ and takes its name when complete; a stopped run
    continues with --resume.  `musim summary OUT` prints the summary again.  The game's own
    options are listed by `musim run --game NAME --help`.
    """
    from musim.engine.errors import EngineError
    from musim.engine.run import execute
    from musim.engine.spec import RunSpec
    from musim.games import get_game

    if (deals is None) == (matches is None):
        raise click.UsageError("give exactly one of --deals N or --matches N")
    check_engine(engine, scheduler)
    if resume and overwrite:
        raise click.UsageError("--resume and --overwrite exclude each other")
    count = parse_count(deals if deals is not None else matches, "--deals" if deals else "--matches")
    spec = RunSpec(
        game=game,
        mode="deals" if deals is not None else "matches",
        count=count,
        players=players,
        play=play,
        seed=seed,
        workers=workers,
        tt_mb=tt_mb,
        options=options,
        out=out,
        overwrite=overwrite,
        engine=engine,
        scheduler=scheduler,
    )
    g = get_game(game)
    play_notice(play)
    lines = execute(
        spec,
        progress=sys.stderr.isatty() if progress is None else progress,
        started=lambda: warn(g.warning(spec) if g.warning else None),
        notify=lambda text: click.echo(text, err=True),
        advice=advice(plays_exactly(play), "--matches" if matches else "--deals", [f"--play {g.policies[0]}"]),
        resume=resume,
    )
    try:
        for line in lines:
            click.echo(line)
    except EngineError as exc:
        raise click.UsageError(str(exc)) from None


@cli.command()
@click.argument("path", metavar="OUT")
def summary(path):
    """Print the summary of a finished `musim run` again, from its run directory or Parquet file.

    An unfinished run (OUT.partial/, also named as OUT) is said to be one, by a first line
    naming its writer or the command that resumes it, then summarised over the rows so far;
    the exit status is then 1."""
    import pyarrow.parquet as pq

    path, files, unfinished = _run_output(path)
    if unfinished:
        click.echo(unfinished)
    accumulator = _summary_of(files[0] if files else path)
    for file in files:
        for batch in pq.ParquetFile(file).iter_batches(columns=accumulator.COLUMNS):
            accumulator.add(batch)
    for line in accumulator.lines():
        click.echo(line)
    if unfinished:
        sys.exit(1)


@cli.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--json", "as_json", is_flag=True, help='Print {"pairs": N, "runs": [...], "metrics": [...]} instead.')
def compare(a, b, as_json):
    """Compare two finished runs of the same deals (same game, players and seed; other policies or
    rules), paired on their common deal indices: each figure of the game's summary, and every
    seat's mean score, in A and in B, and the difference B - A with its 95% interval (docs/compare.md)."""
    from musim.analysis.compare import Refused, Run, compare_runs, text_lines

    runs = []
    for path in (a, b):
        path, files, unfinished = _run_output(path)
        if unfinished:
            raise click.UsageError(unfinished)
        runs.append(Run(path, files, *_run_metadata(files[0] if files else path)))
    try:
        result = compare_runs(*runs)
    except Refused as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(result))
    else:
        for line in text_lines(result, runs[0].meta):
            click.echo(line)


def _run_output(path):
    """(path, its Parquet files, unfinished_text) of a `musim run` output: a run directory (an
    unfinished one also named without its .partial), or a file; usage error if it is none."""
    import os

    from musim.engine.errors import OutputError
    from musim.engine.parts import PARTIAL, run_files
    from musim.engine.run import unfinished_text

    if not os.path.exists(path) and os.path.isdir(path + PARTIAL):
        path += PARTIAL
    try:
        return path, run_files(path), unfinished_text(path)
    except OutputError as exc:
        raise click.UsageError(str(exc)) from None


def _summary_of(path):
    """An empty summary accumulator for the `musim run` Parquet file at `path`; usage error (exit 2)
    if it is no such file."""
    meta, game = _run_metadata(path)
    return game.make_summary(meta["params"])


def _run_metadata(path):
    """The metadata `musim run` stored in its output at `path` (a run directory or a Parquet file);
    usage error (exit 2) naming `path` if it is no such output."""
    import pyarrow as pa

    from musim.engine.errors import OutputError
    from musim.engine.parquet import read_metadata
    from musim.games import UnknownGame, get_game

    try:
        meta = read_metadata(path)
    except OutputError as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:
        raise click.UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (pa.ArrowException, ValueError):
        raise click.UsageError(f"{path} is not a Parquet file") from None
    except (KeyError, TypeError):
        raise click.UsageError(f"{path} was not written by `musim run` (no musim metadata)") from None
    if not isinstance(meta, dict) or meta.get("command") != "run" or not isinstance(meta.get("params"), dict):
        raise click.UsageError(f"{path} was not written by `musim run`")
    try:
        game = get_game(meta["params"]["game"])
    except UnknownGame as exc:
        raise click.UsageError(f"{path}: {exc}") from None
    return meta, game


@cli.command(
    cls=GameCommand,
    requires=lambda game: game.record,
    refusal="has no game records (see `musim games`)",
    per_deal_only=True,
)
@click.argument("run", metavar="[RUN]", required=False)
@click.option("--game", default=DEFAULT_GAME, show_default=True, help=GAME_HELP)
@click.option("--seed", type=SEEDS, help="The run's root seed (without RUN).")
@click.option("--deal", "index", type=SEEDS, required=True, help="The row's `deal` index.")
def record(run, game, seed, index, players, play, tt_mb=DEFAULT_MB, **options):
    """Print the full game record of one deal of a run (pipe it into `musim replay -` or `musim show -`).

    RUN, the run's directory or Parquet file, gives the game, players, policies, options and
    seed, so only --deal is given (and --tt-mb, which changes no deal).  Without RUN give the
    run's --seed, --players, --play and the game's options of a deal (`--game NAME --help` lists
    them)."""
    import dataclasses

    from musim.engine.errors import SpecError
    from musim.engine.spec import RunSpec, checked

    if run is not None:
        spec, g = _run_spec(run, index)
        if click.get_current_context().get_parameter_source("tt_mb") is ParameterSource.COMMANDLINE:
            spec.tt_mb = tt_mb
    else:
        if seed is None:
            raise click.UsageError("give a run (RUN), or the run's --seed with its --players, --play and options")
        spec = RunSpec(game, "deals", index + 1, players, play, seed, tt_mb=tt_mb, options=options)
        try:
            g = checked(spec)
        except SpecError as exc:
            raise click.UsageError(str(exc)) from None
    warn(g.warning(dataclasses.replace(spec, count=1)) if g.warning else None)  # one deal is played
    click.echo(json.dumps(g.record(spec, index)))


def _run_spec(path, index):
    """(RunSpec, Game) of the deal run at `path` whose deal `index` is to be recorded: its stored
    parameters, the options added since at their defaults (engine/spec.py checked); usage error
    (exit 2) for any option given beside it, a match run, a deal outside the run, or a run whose
    deals this musim would not play alike."""
    import os

    from musim.engine.errors import SpecError
    from musim.engine.parts import PARTIAL
    from musim.engine.spec import RunSpec, checked

    ctx = click.get_current_context()
    for param in ctx.command.get_params(ctx):
        if (
            param.name not in ("run", "index", "tt_mb")
            and ctx.get_parameter_source(param.name) is ParameterSource.COMMANDLINE
        ):
            raise click.UsageError(
                f"{param.opts[0]}: not with RUN, which gives the game, players, policies, options and seed"
            )
    if not os.path.exists(path) and os.path.isdir(path + PARTIAL):  # an unfinished run: its deals are fixed
        path += PARTIAL
    meta, _ = _run_metadata(path)
    try:
        spec = RunSpec(**meta["params"])
    except TypeError:
        raise click.UsageError(f"{path}: parameters this musim does not know ({', '.join(meta['params'])})") from None
    if spec.mode != "deals":
        raise click.UsageError(f"{path} is a run of {spec.mode}: `musim record` records a deal of a run of deals")
    if not 0 <= index < spec.count:
        raise click.BadParameter(f"{index} is not a deal of {path} (0..{spec.count - 1})", param_hint="'--deal'")
    try:
        g = checked(spec)
    except SpecError as exc:
        raise click.UsageError(f"{path}: {exc}") from None
    if meta.get("result_version") != g.result_version:
        raise click.UsageError(
            f"{path} holds rows of {g.name} result version {meta.get('result_version')}, this musim plays "
            f"version {g.result_version}: its deal {index} would not be the run's row"
        )
    return spec, g


@cli.command()
def games():
    """List the games and what each offers.

    Per game: its name and title, seats, `musim run --play` policies (the default first), exact
    play (`--play dd`), exact values of positions (`musim solve`), game records (`musim record`
    and `replay`) and matches (`--matches`).  A game without policies is there for
    `musim solve` alone.
    """
    from musim.games import all_games

    yes = {True: "yes", False: "no"}
    rows = [("game", "title", "players", "policies", "exact play", "solve", "records", "matches")]
    for g in all_games():
        low, high = g.players
        seats = str(low) if low == high else f"{low}-{high}"
        rows.append(
            (
                g.name,
                g.title,
                seats,
                ",".join(g.policies) or "-",
                yes[g.exact_play],
                yes[g.solver is not None],
                yes[g.replay is not None],
                yes[g.matches],
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())


@cli.command("compile")
@click.option("--game", "names", metavar="NAME", multiple=True, help="A game to compile (repeatable; default: all).")
@click.option("--solver", is_flag=True, help="Also exact play (`--play dd`) and `musim solve`: minutes more.")
@click.option("--search", is_flag=True, help="Also the search player (`--play search`).")
def compile_(names, solver, search):
    """Compile the kernels ahead of use into the cache (docs/performance.md "Compilation").

    Plays one deal (and one match) of each policy of each game, and with --solver solves each
    game's example positions (docs/examples/), as `musim run` and `musim solve` would: their
    first use then starts in about a second.  Prints each step's time and the total."""
    import time

    from tqdm import tqdm

    from musim.cli import compile_ahead
    from musim.compile import once
    from musim.compile.cache import cache_dir
    from musim.compile.notice import notice
    from musim.games import UnknownGame, all_games, get_game

    notice(None)
    try:
        games = [get_game(name) for name in names] if names else all_games()
    except UnknownGame as exc:
        raise click.BadParameter(str(exc), param_hint="'--game'") from None
    todo = compile_ahead.steps(games, solver, search)
    started, compiled = time.perf_counter(), once.compiles()
    with tqdm(total=len(todo), unit="step", file=sys.stderr, disable=not sys.stderr.isatty(), leave=False) as bar:
        for step in todo:
            bar.set_description(step.label)
            t = time.perf_counter()
            step.run()
            tqdm.write(f"{step.label}: {time.perf_counter() - t:.1f} s", file=sys.stderr)
            bar.update()
    click.echo(
        f"compiled {once.compiles() - compiled} kernel signatures in {time.perf_counter() - started:.1f} s "
        f"({len(todo)} steps) into {cache_dir()}"
    )
