"""Mü's own commands, `musim bid` and `musim balance` (GAME.commands), and the warning before
a slow Mü run."""

import sys

import click

from musim.cli.options import (
    SEEDS,
    advice,
    check_engine,
    engine_options,
    option_decorator,
    parse_count,
    tt_mb_option,
    warn,
)
from musim.engine.errors import SpecError
from musim.games import mu
from musim.games.contract import plays_exactly
from musim.games.mu.policies import AUCTIONS
from musim.games.mu.rules import MAX_PLAYERS, MIN_PLAYERS
from musim.play.search_budget import DEFAULT_WORLDS, WORLDS, searches

FASTER = ["--play heuristic", "--dd-tricks N"]  # what shortens exact play, for the long-run estimate


def commands():
    """GAME.commands: what Mü adds to `musim`."""
    return bid, balance


PLAY = click.option(
    "--play",
    type=click.Choice(["heuristic", "dd", "search"]),
    default="heuristic",
    show_default=True,
    help="Card play (dd: exact double-dummy, seconds to hours a deal with 4+ players; search: search over "
    "the deals of the hidden cards, --search-worlds).",
)
SEARCH_WORLDS = option_decorator(
    mu.GAME.option(WORLDS.name), "With --play search: worlds sampled at each card decision (docs/players.md)."
)


def check_search_worlds(play, worlds):
    """--search-worlds means nothing without --play search."""
    if worlds != DEFAULT_WORLDS and not searches(play):
        raise click.UsageError(f"{WORLDS.flag} applies only with --play search")


def dd_tricks_option(help):
    """`--dd-tricks N`, the run's option (GAME.options), with this command's help."""
    return option_decorator(mu.GAME.option("dd_tricks"), help)


def check_dd_tricks(play, dd_tricks):
    """The run's rule (mu.check_dd_tricks) as a usage error."""
    try:
        mu.check_dd_tricks(play, dd_tricks)
    except SpecError as exc:
        raise click.UsageError(str(exc)) from None


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


def check_question(play, question):
    if question == "reach" and play != "dd":
        raise click.UsageError("--question reach applies only with --play dd")


def slow_text(play, players, dd_tricks=0, tricks_option=False, items=1, workers=1, noun="deals"):
    """Double-dummy play of whole 4-6 player deals, asked for with --play dd, is exact but slow;
    with --dd-tricks N, so is a deal of N tricks or fewer.  The warning's text, quoting the
    measured time of such a deal and what it implies for `items` of them at each player count
    on `workers` workers (estimates.dd_text), or None."""
    from musim.games.mu.estimates import dd_text
    from musim.games.mu.rules import hand_size

    slow = [n for n in players if n >= 4 and (not dd_tricks or dd_tricks >= hand_size(n))]
    if play != "dd" or not slow:
        return None
    hint = "; --dd-tricks N plays only the last N tricks double-dummy" if tricks_option else ""
    return (
        f"exact double-dummy play (--play dd) is slow: {dd_text(slow, items, workers, noun)} "
        f"(the default --play heuristic is fast{hint})"
    )


def warn_if_slow(play, players, dd_tricks=0, tricks_option=False, items=1, workers=1, noun="deals"):
    warn(slow_text(play, players, dd_tricks, tricks_option, items, workers, noun))


def run_warning(spec):
    """GAME.warning: said before `musim run` or `musim record` of a slow spec."""
    play = "dd" if plays_exactly(spec.play) else spec.play  # a dd seat among others solves at each of its cards
    return slow_text(play, [spec.players], spec.options["dd_tricks"], True, spec.count, spec.workers or 1)


TARGETS = click.option(
    "--targets",
    metavar="FILE",
    help="A rule variant: the team targets of a CSV file with the columns players,bid,target, every bid of "
    "each player count (docs/rules.md §2.11; `musim balance` writes one as proposed_targets.csv); "
    "default: the rulebook's.",
)


def read_targets(path, players):
    """{players: targets of bids 1..} of --targets FILE for the player counts `players` ({} without
    one: the rulebook's); a one-line usage error naming the row at fault."""
    from musim.games.mu import target_tables

    if path is None:
        return {}
    try:
        return target_tables.for_players(target_tables.read_csv(path), players, path)
    except target_tables.TargetsError as exc:
        raise click.UsageError(f"--targets {exc}") from None


def player_list(text):
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not a comma-separated list of player counts", param_hint="--players"
        ) from None
    bad = [v for v in values if not MIN_PLAYERS <= v <= MAX_PLAYERS]
    if not values or bad:
        raise click.BadParameter(
            f"{text!r}: player counts must be {MIN_PLAYERS}..{MAX_PLAYERS}", param_hint="--players"
        )
    return sorted(set(values))


@click.command()
@click.option("--players", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=4, show_default=True)
@click.option(
    "--hand",
    required=True,
    help='The hand: 15 cards with 4 players, 12 with 3 or 5, 10 with 6; e.g. "R9 R8 R7 R7 R6 G9 G7 G0 B1 B8 K0 K3 '
    'Y2 Y5 Y7".',
)
@click.option(
    "--samples",
    metavar="N",
    help="Deals of the unseen cards (default 1068: a +-3 point 95% interval on a success rate).",
)
@PLAY
@click.option(
    "--auction",
    type=click.Choice(list(AUCTIONS)),
    default="cautious",
    show_default=True,
    help="The auction model the other players bid by: the expected score and best bid (the holder "
    "commits to each bid, the others bid as the model bids), and --vice auction (docs/players.md).",
)
@click.option(
    "--vice",
    type=click.Choice(["strongest", "none", "auction"]),
    default="strongest",
    show_default=True,
    help="The success rates' contracts above bid 1: the strongest other hand is vice naming its best "
    "type; no vice; or the vice and laid cards of an auction of the --auction model in which the "
    "others never reach the bid.",
)
@click.option("--seat", type=int, default=0, show_default=True, help="The holder's seat (auctions).")
@click.option("--dealer", type=int, default=0, show_default=True, help="The dealer's seat (auctions).")
@click.option(
    "--partner",
    type=click.Choice(["public", "hindsight"]),
    default="public",
    show_default=True,
    help="public: the heuristic's choice from laid cards; hindsight: the best partner (an upper bound).",
)
@question_option("scores, team points and the best bid")
@SEARCH_WORLDS
@TARGETS
@click.option("--seed", type=SEEDS, default=0, show_default=True)
@click.option("--workers", type=click.IntRange(1, 1024), help="Worker threads (default: all cores).")
@tt_mb_option()
@engine_options
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per (bid, trump): all of them.")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV, one row per (bid, trump): all of them.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a terminal).")
def bid(
    players,
    hand,
    samples,
    play,
    auction,
    vice,
    seat,
    dealer,
    partner,
    question,
    search_worlds,
    targets,
    seed,
    workers,
    tt_mb,
    engine,
    scheduler,
    as_json,
    as_csv,
    progress,
):
    """How strong is this hand?  Chance to make each bid with each chief trump, the expected score
    of each bid against an auction model, and the best bid (against the rulebook's targets, or
    those of --targets FILE)."""
    import json
    import os

    if as_json and as_csv:
        raise click.UsageError("give at most one of --json and --csv")
    check_engine(engine, scheduler)
    check_question(play, question)
    check_search_worlds(play, search_worlds)
    from musim.games.mu import target_tables
    from musim.games.mu.analysis.bid import DEFAULT_SAMPLES, MAX_SAMPLES, bid_strength, format_table
    from musim.games.mu.estimates import bid_seconds

    table = target_tables.table(read_targets(targets, [players]))
    from musim.io.batch import InputError

    count = parse_count(samples, "--samples") if samples is not None else DEFAULT_SAMPLES
    if count > MAX_SAMPLES:
        raise click.BadParameter(
            f"{samples!r}: at most {MAX_SAMPLES:,} (its interval is then +-0.2 points)", param_hint="--samples"
        )
    from musim.engine.progress import progress_bar

    show = sys.stderr.isatty() if progress is None else progress
    workers = workers or os.cpu_count() or 1

    def started(plays):  # the request is valid: a sample plays `plays` deals
        warn_if_slow(play, [players], items=count * plays, workers=workers, noun="plays")
        measured = vice == "strongest" and partner == "public" and question == "value"  # what estimates.py measured
        bar.estimate.expect(bid_seconds(players, count, plays, play, workers) if measured else None)

    try:
        with progress_bar(
            count, "sample", show, advice=advice(play == "dd", "--samples", FASTER[:1]), exact=play == "dd", leave=False
        ) as bar:
            rows = bid_strength(
                players,
                hand,
                count,
                seed,
                play,
                vice,
                partner == "hindsight",
                workers,
                tt_mb,
                seat,
                dealer,
                bar.update,
                started,
                question,
                engine,
                scheduler,
                auction,
                table,
                search_worlds,
            )
    except InputError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:  # an undefined rate (no sample allowed that trump) is null, not NaN
        click.echo(json.dumps([{k: None if v != v else v for k, v in r.items()} for r in rows]))
    elif as_csv:
        import pandas as pd

        click.echo(pd.DataFrame(rows).to_csv(index=False, float_format="%.4f"), nl=False)
    else:
        click.echo(format_table(rows, players, count, "rulebook" if targets is None else os.path.basename(targets)))


def auction_list(text):
    """The auction models of `balance --auction a,b`, in the order given; a name given twice or left
    empty is refused (more likely a slip than a wish)."""
    names = [x.strip() for x in text.split(",")]
    bad = [x for x in names if x not in AUCTIONS]
    if bad or len(set(names)) != len(names):
        raise click.BadParameter(
            f"{text!r}: comma-separated auction models, each once, each one of {', '.join(AUCTIONS)}",
            param_hint="--auction",
        )
    return names


@click.command()
@click.option("--players", default="3,4,5,6", show_default=True, help="Comma-separated player counts.")
@click.option("--deals", default="2e4", show_default=True, metavar="N", help="Deals per player count.")
@PLAY
@click.option(
    "--auction",
    "auctions",
    default="cautious",
    show_default=True,
    metavar="A[,B]",
    help=f"Auction model(s) the deals are bid by ({', '.join(AUCTIONS)}; docs/players.md): with several, "
    "targets are proposed under each, in a folder of --out each, and --out says where they agree.",
)
@dd_tricks_option(
    "With --play dd: play only the last N tricks double-dummy, the first by the heuristic "
    "(0 = all), as `musim run --dd-tricks` does."
)
@question_option("team points, scores and proposed targets")
@SEARCH_WORLDS
@TARGETS
@click.option("--seed", type=SEEDS, default=0, show_default=True)
@click.option("--workers", type=click.IntRange(1, 1024), help="Worker threads (default: all cores).")
@tt_mb_option()
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
    "and take those it already holds: a stopped run continues where it was "
    "(with --engine dask, a directory every worker can reach).",
)
@engine_options
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a terminal).")
def balance(
    players,
    deals,
    play,
    auctions,
    dd_tricks,
    question,
    search_worlds,
    targets,
    seed,
    workers,
    tt_mb,
    strength_deals,
    node_limit,
    out,
    overwrite,
    checkpoint,
    engine,
    scheduler,
    progress,
):
    """Is the team-target table fair?  Success by bid level, proposed targets (proposed_targets.csv,
    which --targets reads back), tables and plots; under --targets FILE, of that variant."""
    import contextlib
    import itertools
    import os
    import platform
    import time

    counts = player_list(players)
    models = auction_list(auctions)
    check_engine(engine, scheduler)
    check_dd_tricks(play, dd_tricks)
    check_question(play, question)
    check_search_worlds(play, search_worlds)
    from musim.games.mu import target_tables

    rows = read_targets(targets, counts)
    text = {
        n: target_tables.to_text({n: rows[n]} if rows else {}) for n in counts
    }  # each count's table, as analyse takes it

    from musim import __version__
    from musim.engine.errors import EngineError
    from musim.engine.lock import DirectoryLock
    from musim.engine.parquet import ensure_writable_dir
    from musim.engine.progress import progress_bar
    from musim.games.mu.analysis import balance_report
    from musim.games.mu.analysis.balance import MAX_BALANCE_DEALS, agreement, analyse, checkpoint_folders
    from musim.games.mu.estimates import balance_seconds

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
        lock = contextlib.ExitStack()
        if checkpoint is not None:
            with contextlib.ExitStack() as taking:  # those taken are released if one is refused
                for n, model in itertools.product(counts, models):  # one writer per key folder (engine/lock.py)
                    key = (n, seed, play, dd_tricks, limit, tt_mb, question, model, text[n], search_worlds)
                    for folder in checkpoint_folders(checkpoint, *key):
                        ensure_writable_dir(folder, checkpoint, "--checkpoint")
                        taking.enter_context(DirectoryLock(folder, "--checkpoint"))
                lock = taking.pop_all()
    except EngineError as exc:
        raise click.UsageError(str(exc)) from None
    workers = workers or os.cpu_count() or 1
    warn_if_slow(play, counts, dd_tricks, items=n_deals * len(models), workers=workers)
    show = sys.stderr.isatty() if progress is None else progress
    started = time.perf_counter()
    hint = advice(play == "dd", "--deals or --strength-deals 0", FASTER)
    runs = len(counts) * len(models)
    expected = balance_seconds(counts * len(models), n_deals, n_strength, play, dd_tricks, workers)
    expected = expected if question == "value" else None
    what = f"{n_deals * runs:,} deals" + (f", {n_strength * runs:,} replays" if n_strength else "")
    total = (n_deals + n_strength) * runs  # a deal, then its pure-strength replay
    by_model = {model: [] for model in models}
    with lock, progress_bar(total, "deal", show, advice=hint, expected=expected, what=what, exact=play == "dd") as bar:
        for model, n in itertools.product(models, counts):
            by_model[model].append(
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
                    engine,
                    scheduler,
                    model,
                    text[n],
                    search_worlds,
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
        "targets": target_tables.to_text(rows),
        "targets_file": targets,
        "strength_deals": n_strength,
        "checkpoint": checkpoint,
        "node_limit": limit,
        **({"search_worlds": search_worlds} if searches(play) else {}),
        "version": __version__,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {workers} workers"
        + ("" if engine == "local" else f" on Dask ({scheduler or 'a LocalCluster'})"),
    }
    files = balance_report.write(out, by_model, params, seconds)
    for model, results in by_model.items():
        click.echo(f"auction model {model}:")
        for r in results:
            f = r.facts
            click.echo(f"{f['players']} players: p* {f['p_star']:.1%}, {balance_report.proposal_text(f)}")
    if len(models) > 1:
        table = agreement(by_model)
        click.echo(f"the models' proposed targets agree on {int(table.agree.sum())} of {len(table)} levels")
    click.echo(f"wrote {files} files to {out} in {seconds:.0f} s")
