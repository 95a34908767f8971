"""The `musim` command line: a thin click layer over the library."""

import sys

import click

from musim import __version__
from musim.games.mu.rules import GOAL
from musim.rng import MAX_SEED
from musim.solver.table_size import DEFAULT_MB

SEEDS = click.IntRange(0, MAX_SEED)

dd_table_option = click.option(
    "--tt-mb",
    type=click.IntRange(1, 65536),
    default=DEFAULT_MB,
    show_default=True,
    help="With --play dd: transposition-table MB per worker.",
)


def dd_tricks_option(help="With --play dd: play only the last N tricks double-dummy (0 = all)."):
    """`--dd-tricks N` of every command that plays deals (check it with _check_dd_tricks)."""
    return click.option("--dd-tricks", type=click.IntRange(0, 15), default=0, show_default=True, help=help)


def play_option(choices=("random", "heuristic", "dd"), help="The run's --play."):
    """`--play` of every command that plays deals: the fast heuristic unless exact play is asked for."""
    return click.option("--play", type=click.Choice(choices), default="heuristic", show_default=True, help=help)


def _check_dd_tricks(play, dd_tricks):
    if dd_tricks and play != "dd":
        raise click.UsageError("--dd-tricks applies only with --play dd")


def question_option(what):
    """`--question` of the commands whose statistics may ask double-dummy play less than the value."""
    return click.option(
        "--question",
        type=click.Choice(["value", "reach"]),
        default="value",
        show_default=True,
        help=f"With --play dd: solve each play's team points (value), or only ask whether the team "
        f"reaches the target (reach: null-window searches at the targets alone, several times cheaper; {what} "
        "are then left out).",
    )


def _check_question(play, question):
    if question == "reach" and play != "dd":
        raise click.UsageError("--question reach applies only with --play dd")


def _advice(play, count_option, tricks_option=True):
    """What follows the long-run estimate (musim.progress): how far off it may be, and the faster options."""
    faster = [f"fewer {count_option}"]
    caveat = ""
    if play == "dd":
        caveat = " Exact double-dummy deals take from milliseconds to hours each, so it may take far longer."
        faster = ["--play heuristic"] + (["--dd-tricks N"] if tricks_option else []) + faster
    return f"{caveat} Faster: {', '.join(faster)}."


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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


@cli.command()
@click.argument("path", metavar="FILE|-")
def replay(path):
    """Validate Mü game records (JSON or JSON Lines) and print each result."""
    from musim.batch import run_batch
    from musim.games.mu.record import replay as replay_record

    ok = run_batch(_read_input(path), replay_record, sys.stdout)
    sys.exit(0 if ok else 1)


def _interrupt(signum, frame):
    """SIGTERM (a scheduler's or a session's stop) ends a run as Ctrl-C does."""
    raise KeyboardInterrupt


def main():
    """Console entry point: usage errors exit 2, failures 1, and never a traceback
    (set MUSIM_DEBUG=1 to see one for an unexpected error)."""
    import os
    import signal

    signal.signal(signal.SIGTERM, _interrupt)
    try:
        cli(standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("musim: interrupted", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)  # not sys.exit: that would wait for the worker threads' deals in flight
    except click.ClickException as exc:  # one line, naming the command: no usage text, no traceback
        ctx = getattr(exc, "ctx", None)
        click.echo(f"{ctx.command_path if ctx else 'musim'}: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:
        if os.environ.get("MUSIM_DEBUG"):
            raise
        click.echo(f"musim: error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(1)


@cli.command()
@click.argument("path", metavar="FILE|-")
@click.option("--all-moves", is_flag=True, help="Also give the value after each legal card.")
@click.option(
    "--game",
    type=click.Choice(["mu", "bridge"]),
    default="mu",
    show_default=True,
    help="Game of objects that do not name one.",
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
    "and hits, cut-offs by kind, null-window searches) and the solve's wall time: a line "
    '`stats {"item": I, ...}` each, I its input order from 0 (docs/solver.md; the times are those of '
    "a search that counts, some 20% slower). Stdout is unchanged.",
)
def solve(path, all_moves, game, tt_mb, stats):
    """Exact double-dummy values of positions (JSON or JSON Lines)."""
    import json
    import time

    from musim.batch import InputError, run_batch
    from musim.solver.stats import clear_stats, stats_record
    from musim.solver.tt import make_table

    tt = make_table(tt_mb)
    solvers = {}
    solved = []  # the counters of the position just solved, for report

    def handle(obj):
        name = obj.get("game", game)
        if name == "mu":
            from musim.games.mu.solve import MuSolver as Solver
        elif name == "bridge":
            from musim.games.bridge.solve import BridgeSolver as Solver
        else:
            raise InputError(f"game: unknown game {name!r} (mu or bridge)")
        if name not in solvers:
            solvers[name] = Solver(tt, counting=stats)
        solver = solvers[name]
        if not stats:
            return solver.solve(obj, all_moves=all_moves)
        clear_stats(solver.st)
        start = time.perf_counter()
        result = solver.solve(obj, all_moves=all_moves)
        solved.append(stats_record(solver.st) | {"seconds": round(time.perf_counter() - start, 6)})
        return result

    def report(index):
        if solved:
            click.echo("stats " + json.dumps({"item": index} | solved.pop()), err=True)

    ok = run_batch(_read_input(path), handle, sys.stdout, after=report)
    sys.exit(0 if ok else 1)


def parse_count(text, name, minimum=1):
    """A whole number >= minimum given plainly or in scientific notation ('1e6', '2.5e5')."""
    from decimal import Decimal, InvalidOperation

    try:
        value = Decimal(text.strip().replace("_", ""))
    except InvalidOperation:
        raise click.BadParameter(f"{text!r} is not a number", param_hint=name) from None
    if not value.is_finite() or value != value.to_integral_value():
        raise click.BadParameter(f"{text!r} is not a whole number", param_hint=name)
    if value < minimum:
        raise click.BadParameter(f"{text!r} must be at least {minimum}", param_hint=name)
    if value > 10**12:
        raise click.BadParameter(f"{text!r} is more than 10^12", param_hint=name)
    return int(value)


@cli.command()
@click.option("--game", default="mu", show_default=True, help="Game to simulate (see `musim games`).")
@click.option("--deals", metavar="N", help="Number of deals (1e6 and 2.5e5 are fine).")
@click.option("--matches", metavar="N", help="Play N whole matches instead, one row per match.")
@click.option("--players", type=click.IntRange(3, 6), default=4, show_default=True)
@play_option(
    help="random/heuristic: every decision by that policy; "
    "dd: heuristic auction, exact double-dummy card play (seconds to hours a deal with 4+ players)."
)
@dd_tricks_option()
@dd_table_option
@click.option("--seed", type=SEEDS, help="Root seed (default: drawn and recorded).")
@click.option("--workers", type=click.IntRange(1, 1024), help="Worker threads (default: all cores).")
@click.option(
    "--goal", type=click.IntRange(1, 100_000), default=GOAL, show_default=True, help="Match goal, with --matches."
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    help="Parquet file to write, a name ending in .parquet (default: see above).",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing output file.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a terminal).")
def run(game, deals, matches, players, play, dd_tricks, tt_mb, seed, workers, goal, out, overwrite, progress):
    """Simulate deals (or matches) of a game and print a summary.

    Every row is kept: one Parquet row per deal (match) goes to --out, by default to
    runs/<game>-<players>p-<play>[-matches]-seed<seed>.parquet under the current
    directory, named on stderr at the start.  `musim summary FILE` prints the summary again.
    """
    from musim.engine.parquet import OutputError
    from musim.engine.run import RunSpec, execute

    if (deals is None) == (matches is None):
        raise click.UsageError("give exactly one of --deals N or --matches N")
    _check_dd_tricks(play, dd_tricks)
    count = parse_count(deals if deals is not None else matches, "--deals" if deals else "--matches")
    from musim.games import get_game

    try:
        get_game(game)
    except KeyError as exc:
        raise click.BadParameter(exc.args[0], param_hint="--game") from None
    spec = RunSpec(
        game=game,
        mode="deals" if deals is not None else "matches",
        count=count,
        players=players,
        play=play,
        seed=seed,
        workers=workers,
        goal=goal,
        tt_mb=tt_mb,
        dd_tricks=dd_tricks,
        out=out,
        overwrite=overwrite,
    )
    lines = execute(
        spec,
        progress=sys.stderr.isatty() if progress is None else progress,
        started=lambda: _warn_if_slow(play, [players], dd_tricks, tricks_option=True),
        notify=lambda text: click.echo(text, err=True),
        advice=_advice(play, "--matches" if matches else "--deals"),
    )
    try:
        for line in lines:
            click.echo(line)
    except OutputError as exc:
        raise click.UsageError(str(exc)) from None


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
def summary(path):
    """Print the summary of a finished `musim run` again, from its Parquet file."""
    import pyarrow.parquet as pq

    accumulator = _summary_of(path)
    for batch in pq.ParquetFile(path).iter_batches(columns=accumulator.COLUMNS):
        accumulator.add(batch)
    for line in accumulator.lines():
        click.echo(line)


def _summary_of(path):
    """An empty summary accumulator for the `musim run` Parquet file at `path`; usage error (exit 2)
    if it is no such file."""
    import pyarrow as pa

    from musim.engine.parquet import read_metadata
    from musim.games import get_game

    try:
        meta = read_metadata(path)
    except OSError as exc:
        raise click.UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (pa.ArrowException, ValueError):
        raise click.UsageError(f"{path} is not a Parquet file") from None
    except (KeyError, TypeError):
        raise click.UsageError(f"{path} was not written by `musim run` (no musim metadata)") from None
    if not isinstance(meta, dict) or meta.get("command") != "run":
        raise click.UsageError(f"{path} was not written by `musim run`")
    try:
        return get_game(meta["params"]["game"]).make_summary(meta["params"])
    except KeyError as exc:
        raise click.UsageError(f"{path}: {exc.args[0]}") from None


@cli.command()
@click.option("--players", type=click.IntRange(3, 6), default=4, show_default=True)
@play_option()
@dd_tricks_option()
@click.option("--seed", type=SEEDS, required=True, help="The run's root seed.")
@click.option("--deal", "index", type=SEEDS, required=True, help="The row's `deal` index.")
def record(players, play, dd_tricks, seed, index):
    """Print the full Mü game record of one deal of a run (pipe it into `musim replay -`)."""
    import json

    _check_dd_tricks(play, dd_tricks)
    _warn_if_slow(play, [players], dd_tricks, tricks_option=True)

    from musim.games.mu.run import deal_record

    click.echo(json.dumps(deal_record(players, seed, index, play, dd_tricks=dd_tricks)))


def _warn_if_slow(play, players, dd_tricks=0, tricks_option=False):
    """Double-dummy play of whole 4-6 player deals, asked for with --play dd, is exact but slow;
    with --dd-tricks N, so is a deal of N tricks or fewer."""
    from musim.games.mu.rules import hand_size

    if play == "dd" and any(n >= 4 and (not dd_tricks or dd_tricks >= hand_size(n)) for n in players):
        hint = "; --dd-tricks N plays only the last N tricks double-dummy" if tricks_option else ""
        click.echo(
            "musim: warning: exact double-dummy play (--play dd) takes seconds to hours for "
            f"each 4-6 player deal; expect a long wait (the default --play heuristic is fast{hint})",
            err=True,
        )


def _player_list(text):
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not a comma-separated list of player counts", param_hint="--players"
        ) from None
    bad = [v for v in values if not 3 <= v <= 6]
    if not values or bad:
        raise click.BadParameter(f"{text!r}: player counts must be 3..6", param_hint="--players")
    return sorted(set(values))


@cli.command()
@click.option("--players", type=click.IntRange(3, 6), default=4, show_default=True)
@click.option("--hand", required=True, help='The hand, e.g. "R9 R8 R7 R7 R6 G9 G7 B1 K0 K3 Y2 Y5".')
@click.option(
    "--samples",
    metavar="N",
    help="Deals of the unseen cards (default 1068: a +-3 point 95% interval on a success rate).",
)
@play_option(("heuristic", "dd"), "Card play (dd: exact double-dummy, seconds to hours a deal with 4+ players).")
@click.option(
    "--vice",
    type=click.Choice(["strongest", "none", "auction"]),
    default="strongest",
    show_default=True,
    help="Bids above 1: the strongest other hand is vice naming its best type; "
    "no vice; or the vice and laid cards of a heuristic auction (uses --seat and --dealer).",
)
@click.option("--seat", type=int, default=0, show_default=True, help="The holder's seat.")
@click.option("--dealer", type=int, default=0, show_default=True, help="The dealer's seat (auction model).")
@click.option(
    "--partner",
    type=click.Choice(["public", "hindsight"]),
    default="public",
    show_default=True,
    help="public: the heuristic's choice from laid cards; hindsight: the best partner (an upper bound).",
)
@question_option("scores, team points and the best bid")
@click.option("--seed", type=SEEDS, default=0, show_default=True)
@click.option("--workers", type=click.IntRange(1, 1024), help="Worker threads (default: all cores).")
@dd_table_option
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per (bid, trump).")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV, one row per (bid, trump).")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a terminal).")
def bid(
    players, hand, samples, play, vice, seat, dealer, partner, question, seed, workers, tt_mb, as_json, as_csv, progress
):
    """How strong is this hand?  Chance to make each bid with each chief trump, and the score."""
    import json
    import os

    if as_json and as_csv:
        raise click.UsageError("give at most one of --json and --csv")
    _check_question(play, question)
    from musim.batch import InputError
    from musim.games.mu.analysis.bid import DEFAULT_SAMPLES, MAX_SAMPLES, bid_strength, format_table

    count = parse_count(samples, "--samples") if samples is not None else DEFAULT_SAMPLES
    if count > MAX_SAMPLES:
        raise click.BadParameter(
            f"{samples!r}: at most {MAX_SAMPLES:,} (its interval is then +-0.2 points)", param_hint="--samples"
        )
    from musim.progress import progress_bar

    show = sys.stderr.isatty() if progress is None else progress
    try:
        with progress_bar(count, "sample", show, advice=_advice(play, "--samples", False), leave=False) as bar:
            rows = bid_strength(
                players,
                hand,
                count,
                seed,
                play,
                vice,
                partner == "hindsight",
                workers or os.cpu_count() or 1,
                tt_mb,
                seat,
                dealer,
                bar.update,
                lambda: _warn_if_slow(play, [players]),
                question,
            )
    except InputError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:  # an undefined rate (no sample allowed that trump) is null, not NaN
        click.echo(json.dumps([{k: None if v != v else v for k, v in r.items()} for r in rows]))
    elif as_csv:
        import pandas as pd

        click.echo(pd.DataFrame(rows).to_csv(index=False, float_format="%.4f"), nl=False)
    else:
        click.echo(format_table(rows, players, count))


@cli.command()
@click.option("--players", default="3,4,5,6", show_default=True, help="Comma-separated player counts.")
@click.option("--deals", default="2e4", show_default=True, metavar="N", help="Deals per player count.")
@play_option(("heuristic", "dd"), "Card play (dd: exact double-dummy, seconds to hours a deal with 4+ players).")
@dd_tricks_option(
    "With --play dd: play only the last N tricks double-dummy, the first by the heuristic "
    "(0 = all), as `musim run --dd-tricks` does."
)
@question_option("team points, scores and proposed targets")
@click.option("--seed", type=SEEDS, default=0, show_default=True)
@click.option("--workers", type=click.IntRange(1, 1024), help="Worker threads (default: all cores).")
@dd_table_option
@click.option(
    "--strength-deals",
    metavar="N",
    help="Deals the pure-strength view replays (default: all; "
    "0 skips it; it solves every seat, trump and partner of a deal).",
)
@click.option(
    "--node-limit",
    metavar="N",
    help="With --play dd: a deal whose solve takes more than N nodes "
    "(about 3 million a second) is left unresolved, and the tables say how many (default: none).",
)
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Directory for the results.")
@click.option("--overwrite", is_flag=True, help="Replace earlier results in --out.")
@click.option(
    "--checkpoint",
    type=click.Path(file_okay=False),
    help="Keep every finished deal in this directory "
    "and take those it already holds: a stopped run continues where it was.",
)
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a terminal).")
def balance(
    players,
    deals,
    play,
    dd_tricks,
    question,
    seed,
    workers,
    tt_mb,
    strength_deals,
    node_limit,
    out,
    overwrite,
    checkpoint,
    progress,
):
    """Is the team-target table fair?  Success by bid level, proposed targets, tables and plots."""
    import os
    import platform
    import time

    counts = _player_list(players)
    _check_dd_tricks(play, dd_tricks)
    _check_question(play, question)

    from musim import __version__
    from musim.engine.parquet import OutputError, ensure_writable_dir
    from musim.games.mu.analysis import balance_report
    from musim.games.mu.analysis.balance import MAX_BALANCE_DEALS, analyse
    from musim.progress import progress_bar

    n_deals = parse_count(deals, "--deals")
    if n_deals > MAX_BALANCE_DEALS:
        raise click.BadParameter(
            f"{deals!r}: at most {MAX_BALANCE_DEALS:,} per player count (all rows are kept in memory)",
            param_hint="--deals",
        )
    n_strength = n_deals
    if strength_deals is not None:
        n_strength = min(parse_count(strength_deals, "--strength-deals", minimum=0), n_deals)
    limit = 0
    if node_limit is not None:
        if play != "dd" or dd_tricks:
            raise click.UsageError("--node-limit applies only with --play dd and no --dd-tricks")
        limit = parse_count(node_limit, "--node-limit")
    try:
        out = balance_report.check_out_dir(out, overwrite)
        if checkpoint is not None:
            ensure_writable_dir(checkpoint, checkpoint, "--checkpoint")
    except OutputError as exc:
        raise click.UsageError(str(exc)) from None
    _warn_if_slow(play, counts, dd_tricks)
    workers = workers or os.cpu_count() or 1
    show = sys.stderr.isatty() if progress is None else progress
    started = time.perf_counter()
    results = []
    advice = _advice(play, "--deals or --strength-deals 0")
    with progress_bar((n_deals + n_strength) * len(counts), "deal", show, advice=advice) as bar:
        for n in counts:
            results.append(
                analyse(
                    n,
                    n_deals,
                    seed,
                    play,
                    workers,
                    tt_mb,
                    bar.update,
                    n_strength,
                    dd_tricks,
                    checkpoint,
                    limit,
                    question,
                )
            )
    seconds = time.perf_counter() - started
    params = {
        "command": "musim " + " ".join(sys.argv[1:]),
        "seed": seed,
        "deals": n_deals,
        "play": play,
        "dd_tricks": dd_tricks,
        "question": question,
        "strength_deals": n_strength,
        "checkpoint": checkpoint,
        "node_limit": limit,
        "version": __version__,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {workers} workers",
    }
    balance_report.write(out, results, params, seconds)
    for r in results:
        f = r.facts
        click.echo(f"{f['players']} players: p* {f['p_star']:.1%}, {balance_report.proposal_text(f)}")
    click.echo(f"wrote {len(balance_report.FILES)} files to {out} in {seconds:.0f} s")


@cli.command()
def games():
    """List the games musim can run."""
    from musim.games import GAMES

    for name in sorted(GAMES):
        click.echo(name)
