"""`musim compare A B`: two runs of the same deals (same game, players and seed; other policies or
rules) compared figure by figure on their common deal indices, each difference B - A with its 95%
interval.

A figure is a value per deal, NaN on the deals it leaves out: every seat's score (`score_<i>`),
and the figures of the game's summary, which its accumulator gives deal by deal with
`figures(batch)` (games/contract.py).  Over the same deals in both runs (all deals, or a subset
both runs share) the difference is *paired*: the mean of the per-deal differences, with its normal
interval, so that a run against itself gives 0 [0, 0] and the deals' own spread cancels out.  Over
subsets that differ between the runs (the deals bid at level 5 under two auctions) it is
*two-sample*: each run's subset is taken as an independent sample (Newcombe's interval for rates,
Welch's for means), which ignores the deals the subsets share.
"""

import hashlib
import json
import math
from collections import namedtuple

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from musim.analysis.stats import mean_difference_interval, mean_interval, newcombe

# values: float per deal, NaN outside the figure's deals; rate: the values are 0 or 1 (shown in %);
# sparse: one of a family (a bid level's share of deals) left out where no deal of either run has it
Figure = namedtuple("Figure", "values rate sparse", defaults=(False, False))
Run = namedtuple("Run", "path files meta game")  # a finished run's output: its Parquet files, metadata, Game
PAIRED, TWO_SAMPLE = "paired", "two-sample"
WIDTH = 100  # the text output's columns


class Refused(ValueError):
    """The two runs cannot be compared (not the same deals, no deals in common); one line."""


def figure(values, within=None, rate=False, sparse=False):
    """A Figure of per-deal `values` (booleans for a rate), NaN outside the deals `within` (a
    boolean mask; None: all deals)."""
    v = np.array(values, dtype=float)
    if within is not None:
        v[~np.asarray(within, dtype=bool)] = np.nan
    return Figure(v, rate, sparse)


def compare_runs(a, b):
    """{"pairs", "runs", "metrics"} of Runs `a` and `b`: one metric per figure that some deal of
    either run has, in the order the figures come (every seat's score first)."""
    _check_paired(a, b)
    params = a.meta["params"]
    summaries = [run.game.make_summary(run.meta["params"]) for run in (a, b)]
    seats = [f"score_{i}" for i in range(params["players"])]
    columns = list(dict.fromkeys(("deal", *seats, *summaries[0].COLUMNS, *summaries[1].COLUMNS)))
    batches = [_batch(run, columns) for run in (a, b)]
    deals = [batch.column("deal").to_numpy(zero_copy_only=False) for batch in batches]
    common, ia, ib = np.intersect1d(deals[0], deals[1], assume_unique=True, return_indices=True)
    if not len(common):
        raise Refused(f"{a.path} and {b.path} have no deal index in common")
    figures = []
    for summary, batch, rows in zip(summaries, batches, (ia, ib)):
        batch = batch.take(pa.array(rows))
        seat_figures = {f"mean {name}": figure(batch.column(name).to_numpy(zero_copy_only=False)) for name in seats}
        figures.append(seat_figures | summary.figures(batch))
    metrics = [_metric(name, fa, figures[1][name]) for name, fa in figures[0].items()]
    return {
        "pairs": len(common),
        "runs": [_description(run) for run in (a, b)],
        "metrics": [m for m in metrics if m is not None],
    }


def _check_paired(a, b):
    for run in (a, b):
        if run.meta["params"]["mode"] != "deals":
            raise Refused(f"{run.path} is a run of matches (--matches): compare takes runs of deals")
    pa_, pb = a.meta["params"], b.meta["params"]
    differ = [f"{key} {pa_[key]} and {pb[key]}" for key in ("game", "players", "seed") if pa_[key] != pb[key]]
    if a.meta.get("rng") != b.meta.get("rng"):
        differ.append("other random streams")
    if differ:
        raise Refused(f"{a.path} and {b.path} are not runs of the same deals: {', '.join(differ)}")


def _batch(run, columns):
    """The run's rows as one RecordBatch of `columns`; Refused naming a column the run lacks."""
    names = pq.read_schema(run.files[0]).names if run.files else []
    missing = [c for c in columns if c not in names]
    if missing:
        version = run.meta.get("result_version")
        raise Refused(f"{run.path} has no column {missing[0]} (written under result version {version})")
    table = pa.concat_tables([pq.read_table(file, columns=columns) for file in run.files]).combine_chunks()
    return table.to_batches()[0] if table.num_rows else pa.RecordBatch.from_pylist([], schema=table.schema)


def _metric(name, fa, fb):
    """The comparison of one figure (None if no deal of either run has it)."""
    a, b = fa.values, fb.values
    in_a, in_b = ~np.isnan(a), ~np.isnan(b)
    if not (in_a.any() or in_b.any()) or (fa.sparse and not (a[in_a].any() or b[in_b].any())):
        return None
    x, y = a[in_a], b[in_b]
    if np.array_equal(in_a, in_b):
        kind, (diff, low, high) = PAIRED, mean_interval(y - x)
    elif not (len(x) and len(y)):
        kind, diff, low, high = TWO_SAMPLE, math.nan, math.nan, math.nan
    elif fa.rate:
        kind, (diff, low, high) = TWO_SAMPLE, newcombe(x.sum(), len(x), y.sum(), len(y))
    else:
        kind, (diff, low, high) = TWO_SAMPLE, mean_difference_interval(x, y)
    values = (x.mean() if len(x) else math.nan, y.mean() if len(y) else math.nan, diff, low, high)
    numbers = [None if math.isnan(v) else float(v) for v in values]
    return dict(zip(("name", "kind", "a", "b", "diff", "low", "high"), (name, kind, *numbers))) | {"rate": fa.rate}


def _description(run):
    """What a run is: its path, policies (`play`) and the game's options of a deal (at their
    defaults where the metadata leaves them out)."""
    params = run.meta["params"]
    options = {o.name: o.default for o in run.game.options if o.per_deal} | {
        name: value for name, value in params.get("options", {}).items() if _per_deal(run.game, name)
    }
    return {"path": str(run.path), "play": params["play"], "options": options}


def _per_deal(game, name):
    return next((o.per_deal for o in game.options if o.name == name), True)


def _option_text(name, value):
    """name=value; a value that is not a short scalar (a table) by a digest of its JSON."""
    text = json.dumps(value, sort_keys=True) if not isinstance(value, str) else value
    if isinstance(value, (list, dict)) or len(text) > 24:
        text = f"<{hashlib.sha256(text.encode()).hexdigest()[:8]}>"
    return f"{name}={text}"


def text_lines(result, meta):
    """The comparison as lines within WIDTH columns: the runs, what the columns mean, one row per
    figure."""
    import textwrap

    params = meta["params"]
    head = [f"{params['game']}, {params['players']} players, seed {params['seed']}: {result['pairs']:,} common deals"]
    for letter, run in zip("AB", result["runs"]):
        options = ", ".join(_option_text(k, v) for k, v in run["options"].items())
        play = run["play"] if isinstance(run["play"], str) else ",".join(map(str, run["play"]))
        head.append(f"{letter}: {run['path']}: play {play}" + (f"; {options}" if options else ""))
    head.append(
        "diff: B - A and its 95% interval; rates in % (their differences in percentage points). "
        "paired: over the same deals in both runs (the mean of the per-deal differences); "
        "two-sample: over deals that differ between the runs (a bid level's), taken as independent "
        "samples (Newcombe's interval for rates, Welch's for means)."
    )
    wrap = textwrap.TextWrapper(WIDTH, subsequent_indent="   ", break_long_words=False, break_on_hyphens=False)
    out = [line for text in head for line in wrap.wrap(text)]
    rows = [("figure", "kind", "A", "B", "B - A", "95% interval")]
    rows += [_row(m) for m in result["metrics"]]
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    widths[0] = min(widths[0], WIDTH - sum(widths[1:]) - 5)
    out.append("")
    for r in rows:
        name = r[0] if len(r[0]) <= widths[0] else r[0][: widths[0] - 1] + "~"
        cells = [name.ljust(widths[0]), r[1].ljust(widths[1]), *(c.rjust(w) for c, w in zip(r[2:5], widths[2:5])), r[5]]
        out.append(" ".join(cells).rstrip())
    return out


def _row(m):
    """The text cells of one metric: rates in %, means with 2 decimals (4 if both are below 0.1)."""
    values = [m[k] for k in ("a", "b", "diff", "low", "high")]
    if m["rate"]:
        scale, decimals, unit = 100, 2, "%"
    else:
        big = max((abs(v) for v in values[:2] if v is not None), default=0)
        scale, decimals, unit = 1, 2 if big >= 0.1 else 4, ""

    def text(v, signed=False):
        return "n/a" if v is None else f"{v * scale:{'+' if signed else ''}.{decimals}f}{unit}"

    a, b, diff, low, high = values
    interval = "n/a" if low is None else f"[{text(low, True)}, {text(high, True)}]"
    return (m["name"], m["kind"], text(a), text(b), text(diff, True), interval)
