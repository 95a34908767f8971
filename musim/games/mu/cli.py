"""Mü's own commands, `musim bid` and `musim balance` (GAME.commands), and the warning before
a slow Mü run."""

import os
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
from musim.engine.seats import plays_exactly
from musim.games import mu
from musim.games.mu.params import DEFAULT_AUCTION, QUESTIONS, VICES, MuParams
from musim.games.mu.policies import AUCTIONS
from musim.games.mu.rules import MAX_PLAYERS, MIN_PLAYERS
from musim.play.search_budget import WORLDS, searches

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


def dd_tricks_option(help):
    """`--dd-tricks N`, the run's option (GAME.options), with this command's help."""
    return option_decorator(mu.GAME.option("dd_tricks"), help)


def question_option(what):
    """`--question` of the commands whose statistics may ask double-dummy play less than the value."""
    return click.option(
        "--question",
        type=click.Choice(QUESTIONS),
        default="value",
        show_default=True,
        help=f"With --play dd: solve each play's team points (value), or only ask whether the team "
        f"reaches the target (reach: null-window searches at the targets alone, several times cheaper; {what} "
        "are then left out).",
    )


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


def untrained_text(runs):
    """The warning when learned bidders bid to a table outside the one they were trained on
    (learned/table_box.py), of MuParams `runs`; or None."""
    from musim.games.mu.learned.table_box import warning

    texts = [warning(p.table, [p.players]) for p in runs if p.bids_learned]
    return "; ".join(dict.fromkeys(t for t in texts if t)) or None


def run_warning(spec):
    """GAME.warning: said before `musim run` or `musim record` of a slow spec, or of learned
    bidders under a table they were not trained on."""
    play = "dd" if plays_exactly(spec.play) else spec.play  # a dd seat among others solves at each of its cards
    slow = slow_text(play, [spec.players], spec.options["dd_tricks"], True, spec.count, spec.workers or 1)
    texts = [slow, untrained_text([MuParams.of_spec(spec)])]
    return ". ".join(t for t in texts if t) or None


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


def mu_params(**options):
    """The MuParams of a command's options (params.py), its rules' SpecError as a usage error."""
    from musim.cli.commands import play_notice

    try:
        params = MuParams(**options)
    except SpecError as exc:
        raise click.UsageError(str(exc)) from None
    play_notice(params.play)
    return params


def table_texts(rows, players):
    """{n: the compact text of n players' targets} (target_tables.to_text) of read_targets' rows."""
    from musim.games.mu import target_tables

    return {n: target_tables.to_text({n: rows[n]} if rows else {}) for n in players}


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
    default=DEFAULT_AUCTION,
    show_default=True,
    help="The auction model the other players bid by (one model, not one a seat as in `musim run`: the "
    "holder's seat bids each level in turn): the expected score and best bid (the holder "
    "commits to each bid, the others bid as the model bids), and the success rates under --vice auction "
    "(docs/players.md).",
)
@click.option(
    "--vice",
    type=click.Choice(VICES),
    default=VICES[0],
    show_default=True,
    help="The success rates' contracts above bid 1: the vice and laid cards of an auction of the --auction "
    "model in which the others never reach the bid (so that made, score and best bid rest on one model); "
    "the strongest other hand is vice naming its best type; or no vice.",
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

    from musim.games.mu.analysis.bid import format_table

    if as_json and as_csv:
        raise click.UsageError("give at most one of --json and --csv")
    check_engine(engine, scheduler)
    texts = table_texts(read_targets(targets, [players]), [players])
    params = mu_params(
        players=players,
        play=play,
        auction=auction,
        targets=texts[players],
        question=question,
        worlds=search_worlds,
        tt_mb=tt_mb,
    )
    count = sample_count(samples)
    warn(untrained_text([params]))
    show = sys.stderr.isatty() if progress is None else progress
    how = dict(
        vice=vice, hindsight=partner == "hindsight", seat=seat, dealer=dealer, engine=engine, scheduler=scheduler
    )
    rows = bid_rows(params, hand, count, seed, workers or os.cpu_count() or 1, show, **how)
    name = "rulebook" if targets is None else os.path.basename(targets)
    print_bid(rows, as_json, as_csv, lambda: format_table(rows, players, count, name))


def sample_count(samples):
    """The sample count of --samples (DEFAULT_SAMPLES without it), at most MAX_SAMPLES."""
    from musim.games.mu.analysis.bid import DEFAULT_SAMPLES, MAX_SAMPLES

    count = parse_count(samples, "--samples") if samples is not None else DEFAULT_SAMPLES
    if count > MAX_SAMPLES:
        raise click.BadParameter(
            f"{samples!r}: at most {MAX_SAMPLES:,} (its interval is then +-0.2 points)", param_hint="--samples"
        )
    return count


def bid_rows(params, hand, count, seed, workers, show, **how):
    """bid_strength's rows under a progress bar, its estimate said once the request is valid (the
    time estimates.py measured: the default vice and partner models and the value question);
    `how`: bid_strength's keywords of the vice, partner, seats and engine."""
    from musim.engine.progress import progress_bar
    from musim.games.mu.analysis.bid import bid_strength
    from musim.games.mu.estimates import bid_seconds
    from musim.io.batch import InputError

    dd = params.play == "dd"

    def started(plays):  # the request is valid: a sample plays `plays` deals
        warn_if_slow(params.play, [params.players], items=count * plays, workers=workers, noun="plays")
        measured = how["vice"] == VICES[0] and not how["hindsight"] and params.question == "value"
        bar.estimate.expect(bid_seconds(params.players, count, plays, params.play, workers) if measured else None)

    try:
        with progress_bar(
            count, "sample", show, advice=advice(dd, "--samples", FASTER[:1]), exact=dd, leave=False
        ) as bar:
            return bid_strength(params, hand, count, seed, workers=workers, tick=bar.update, started=started, **how)
    except InputError as exc:
        raise click.UsageError(str(exc)) from None


def print_bid(rows, as_json, as_csv, table):
    """`musim bid`'s output: a JSON list or CSV of every row, or the text table() gives."""
    import json

    if as_json:  # an undefined rate (no sample allowed that trump) is null, not NaN
        click.echo(json.dumps([{k: None if v != v else v for k, v in r.items()} for r in rows]))
    elif as_csv:
        import pandas as pd

        click.echo(pd.DataFrame(rows).to_csv(index=False, float_format="%.4f"), nl=False)
    else:
        click.echo(table())


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
    default=DEFAULT_AUCTION,
    show_default=True,
    metavar="A[,B]",
    help=f"Auction model(s) the deals are bid by ({', '.join(AUCTIONS)}; docs/players.md): every seat bids by "
    "the model (a list here is not one a seat, as in `musim run`): with several, each is analysed on its own, "
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
@click.option(
    "--rounds",
    type=click.IntRange(1, 50),
    help="Seek the table that is its own proposal: up to K rounds, each bidding and playing the same "
    "deals under the table in force and moving it by the fair step (docs/players.md); one auction model.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True),
    default=0.5,
    show_default=True,
    help="With --rounds: the share of the way to its fair target a level moves in a round (halved at a "
    "level each time its step changes sign).",
)
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
    rounds,
    alpha,
    progress,
):
    """Is the team-target table fair?  Success by bid level, proposed targets (proposed_targets.csv,
    which --targets reads back), tables and plots; under --targets FILE, of that variant; with
    --rounds K, the damped loop towards the table that is its own proposal."""
    import itertools
    import time

    from musim.engine.errors import EngineError
    from musim.games.mu import target_tables
    from musim.games.mu.analysis import balance_report, balance_rounds
    from musim.games.mu.analysis.balance import lock_checkpoints

    counts, models = player_list(players), auction_list(auctions)
    check_engine(engine, scheduler)
    if rounds and (len(models) > 1 or question == "reach"):
        raise click.UsageError("--rounds takes one auction model and --question value")
    rows = read_targets(targets, counts)
    texts = table_texts(rows, counts)
    limit = 0 if node_limit is None else parse_count(node_limit, "--node-limit")
    options = dict(
        play=play, dd_tricks=dd_tricks, node_limit=limit, question=question, worlds=search_worlds, tt_mb=tt_mb
    )
    base = mu_params(players=counts[0], auction=models[0], **options)
    runs = {(m, n): base.replace(players=n, auction=m, targets=texts[n]) for m, n in itertools.product(models, counts)}
    warn(untrained_text(runs.values()))
    n_deals, n_strength = balance_counts(deals, strength_deals)
    try:
        out = balance_report.check_out_dir(out, overwrite)
        lock = lock_checkpoints(checkpoint, runs.values(), seed)
    except EngineError as exc:
        raise click.UsageError(str(exc)) from None
    workers = workers or os.cpu_count() or 1
    started = time.perf_counter()
    show = sys.stderr.isatty() if progress is None else progress
    how = dict(checkpoint=checkpoint, engine=engine, scheduler=scheduler)
    if rounds:
        lock.close()
        start = {n: rows[n] if rows else target_tables.rulebook_rows(n) for n in counts}
        traces, played = seek_rounds(base, start, seed, (n_deals, workers, show), rounds, alpha, how)
        seconds = time.perf_counter() - started
        meta = balance_meta(base, seed, n_deals, 0, workers, engine, scheduler)
        meta |= {"auction": models[0], "alpha": alpha, "rounds": rounds, "checkpoint": checkpoint}
        files = balance_rounds.write(out, traces, played, meta, seconds)
        echo_rounds(traces, files, out, seconds)
        return
    with lock:
        sizes = (n_deals, n_strength, workers)
        by_model = balance_runs(runs, seed, sizes, show, strength_deals=n_strength, **how)
    seconds = time.perf_counter() - started
    meta = balance_meta(base, seed, n_deals, n_strength, workers, engine, scheduler)
    meta |= {"targets": target_tables.to_text(rows), "targets_file": targets, "checkpoint": checkpoint}
    echo_balance(by_model, balance_report.write(out, by_model, meta, seconds), out, seconds)


def seek_rounds(base, start, seed, sizes, rounds, alpha, how):
    """The fixed-point loop (fixed_point.seek) from the tables `start` ({players: targets}): each
    round the balance runs of the player counts still looking, under their tables, the same deals
    (seed, deal indices), no pure-strength view, a progress bar a round, their checkpoint folders
    locked.  Returns ({players: Trace}, [{players: Balance}] per round)."""
    from musim.games.mu import target_tables
    from musim.games.mu.analysis import fixed_point
    from musim.games.mu.analysis.balance import lock_checkpoints

    n_deals, workers, show = sizes
    played = []

    def measure(tables):
        runs = {
            (base.auction, n): base.replace(players=n, targets=target_tables.to_text({n: t})) for n, t in tables.items()
        }
        click.echo(
            f"round {len(played) + 1}: " + "; ".join(f"{n} players {','.join(map(str, t))}" for n, t in tables.items()),
            err=True,
        )
        with lock_checkpoints(how["checkpoint"], runs.values(), seed):
            got = balance_runs(runs, seed, (n_deals, 0, workers), show, strength_deals=0, **how)[base.auction]
        played.append({r.facts["players"]: r for r in got})
        return {n: r.hist for n, r in played[-1].items()}

    points = {n: target_tables.points_in_play(n) for n in start}
    return fixed_point.seek(measure, start, points, rounds, alpha, seed, n_deals), played


def echo_rounds(traces, files, out, seconds):
    """What `musim balance --rounds` says when done: each player count's verdict and final table."""
    for n, tr in sorted(traces.items()):
        click.echo(f"{n} players: {tr.verdict} after {len(tr.rounds)} rounds; final {','.join(map(str, tr.final))}")
    click.echo(f"wrote {files} files to {out} in {seconds:.0f} s")


def echo_balance(by_model, files, out, seconds):
    """What `musim balance` says when done: each model's p* and proposal per player count, where
    several models agree, and the files written."""
    from musim.games.mu.analysis.balance import agreement
    from musim.games.mu.analysis.balance_report import proposal_text

    for model, results in by_model.items():
        click.echo(f"auction model {model}:")
        for r in results:
            f = r.facts
            fair = {True: "balanced", False: "not balanced", None: "not judged"}[f["fair"]]
            click.echo(f"{f['players']} players: p* {f['p_star']:.1%}, table in force {fair}; {proposal_text(f)}")
    if len(by_model) > 1:
        table = agreement(by_model)
        click.echo(f"the models' proposed targets agree on {int(table.agree.sum())} of {len(table)} levels")
    click.echo(f"wrote {files} files to {out} in {seconds:.0f} s")


def balance_counts(deals, strength_deals):
    """(deals, pure-strength replays) per player count of --deals and --strength-deals (all
    deals without it, never more)."""
    from musim.games.mu.analysis.balance import MAX_BALANCE_DEALS

    n_deals = parse_count(deals, "--deals")
    if n_deals > MAX_BALANCE_DEALS:
        raise click.BadParameter(
            f"{deals!r}: at most {MAX_BALANCE_DEALS:,} per player count (all rows are kept in memory)",
            param_hint="--deals",
        )
    if strength_deals is None:
        return n_deals, n_deals
    return n_deals, min(parse_count(strength_deals, "--strength-deals", minimum=0), n_deals)


def balance_runs(runs, seed, sizes, show, **how):
    """{auction model: [Balance of each player count]} of the balance `runs` ({(model, players):
    MuParams}) under one progress bar; sizes: (deals, replays, workers) a run; `how`: analyse's
    keywords of the replays, checkpoint and engine."""
    from musim.engine.progress import progress_bar
    from musim.games.mu.analysis.balance import analyse
    from musim.games.mu.estimates import balance_seconds

    n_deals, n_strength, workers = sizes
    p = next(iter(runs.values()))
    warn_if_slow(
        p.play, sorted({n for _, n in runs}), p.dd_tricks, items=n_deals * len({m for m, _ in runs}), workers=workers
    )
    counts = [n for _, n in runs]
    expected = (
        balance_seconds(counts, n_deals, n_strength, p.play, p.dd_tricks, workers) if p.question == "value" else None
    )
    what = f"{n_deals * len(runs):,} deals" + (f", {n_strength * len(runs):,} replays" if n_strength else "")
    hint = advice(p.play == "dd", "--deals or --strength-deals 0", FASTER)
    total = (n_deals + n_strength) * len(runs)  # a deal, then its pure-strength replay
    by_model = {m: [] for m, _ in runs}
    with progress_bar(total, "deal", show, advice=hint, expected=expected, what=what, exact=p.play == "dd") as bar:
        for (model, _), params in runs.items():
            by_model[model].append(analyse(params, n_deals, seed, workers=workers, tick=bar.update, **how))
    return by_model


def balance_meta(params, seed, deals, strength_deals, workers, engine, scheduler):
    """What balance_report writes of the run beside its results: the command, seed, counts and
    options (the search budget under search play alone), musim's version and the machine."""
    import platform

    from musim import __version__

    return {
        "command": "musim " + " ".join(sys.argv[1:]),
        "seed": seed,
        "deals": deals,
        "play": params.play,
        "dd_tricks": params.dd_tricks,
        "question": params.question,
        "strength_deals": strength_deals,
        "node_limit": params.node_limit,
        **({"search_worlds": params.worlds} if searches(params.play) else {}),
        "version": __version__,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {workers} workers"
        + ("" if engine == "local" else f" on Dask ({scheduler or 'a LocalCluster'})"),
    }
