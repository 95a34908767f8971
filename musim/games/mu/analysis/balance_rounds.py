"""Files of `musim balance --rounds K`: the fixed-point loop's trace (fixed_point.csv, .md, .png),
each round's usual balance files (round_<k>/) and the final proposed_targets.csv, written whole
or not at all (balance_report.publish)."""

import os
import shutil
import tempfile

import pandas as pd

from musim.games.mu import target_tables
from musim.games.mu.analysis import balance_report, plots
from musim.games.mu.analysis.balance_report import CONDITIONAL_SHORT, CRITERION_TEXT, PROPOSED

VERDICTS = {
    "balanced": "balanced: every judged level's target lies within its fair target's 95% interval",
    "cycle": "stopped on a cycle: the next table is one an earlier round played",
    "not balanced": "not balanced after the last round",
    "collapsed": "collapsed: fair, or nothing to judge, only on levels holding under half the deals "
    "(most deals end unplayed: the table is beyond the bidders' reach)",
}


def trace_table(traces, rounds):
    """fixed_point.csv: each round's per-bid table (balance.csv's columns) with `round` and
    `next_target`, the table the loop played next (or proposes, after the last round).
    traces: {players: fixed_point.Trace}; rounds: [{players: Balance}] in round order."""
    parts = []
    for k, by_players in enumerate(rounds, 1):
        for n, r in by_players.items():
            t = r.table.copy()
            tables = [table for table, _, _ in traces[n].rounds] + [traces[n].final]
            t.insert(0, "round", k)
            t["next_target"] = tables[k]
            t["eklats"] = r.facts["eklats"]
            parts.append(t)
    return pd.concat(parts, ignore_index=True)


def markdown(traces, table, params, seconds):
    """fixed_point.md: the loop, its criterion, then per player count the verdict and the
    tables round by round with the share of levels judged fair."""
    lines = [
        "# Mü target tables as a fixed point",
        "",
        f"Command: `{params['command']}`  ",
        f"Seed {params['seed']}, {params['deals']:,} deals per player count and round (the same deals every "
        f"round: common random numbers), play `{params['play']}`, auction model `{params['auction']}`, "
        f"step gain alpha {params['alpha']}, at most {params['rounds']} rounds; musim {params['version']}, "
        f"took {seconds:.0f} s ({params['machine']}).",
        "",
        "Each round bids and plays the same deals under the table in force, the bidders planning by that "
        "table; judges each level by the fair step; and moves each level not fair towards its fair target "
        "(the level below as it is; extrapolated levels towards the proposal) by alpha of the way, at least "
        "one point, alpha halving at a level each time its step changes sign; the table is then made "
        "strictly rising.  It stops when balanced, on a table played before (a cycle), or after the last round.",
        "",
        CRITERION_TEXT,
        "",
    ]
    for n, tr in sorted(traces.items()):
        lines += _players(n, tr, table[table.players == n])
    lines += [
        "## Files",
        "",
        "- `fixed_point.csv`: every round's per-bid table (the columns of balance.csv, docs/formats.md) "
        "with `round`, `next_target` and `eklats`.",
        "- `fixed_point.png`: the targets round by round.",
        f"- `{PROPOSED}`: the final table of each player count, in the `--targets` format.",
        "- `round_<k>/`: each round's balance files (summary.md, balance.csv, plots).",
        "",
    ]
    return "\n".join(lines)


def _players(n, tr, t):
    """One player count's section: verdict, final table, and a row per round."""
    lines = [
        f"## {n} players: {VERDICTS[tr.verdict]} ({len(tr.rounds)} round{'s' if len(tr.rounds) > 1 else ''})",
        "",
        f"Final table: {', '.join(map(str, tr.final))}.",
        "",
        "| round | table | eklats | judged levels | fair | mean abs fair step Δ |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for k, r in t.groupby("round"):
        judged = r[r.fair.notna()]
        fair = int(judged.fair.astype(bool).sum())
        mean_delta = judged.delta.abs().mean() if len(judged) else float("nan")
        lines.append(
            f"| {k} | {', '.join(map(str, r.target))} | {int(r.eklats.iloc[0]):,} | {len(judged)} | {fair} | "
            f"{mean_delta:.2f} |"
        )
    return lines + [""]


def write(out, traces, rounds, params, seconds):
    """Every file of the loop into `out` (module doc); returns how many it wrote.  traces:
    {players: fixed_point.Trace}; rounds: [{players: Balance}] in round order."""
    os.makedirs(out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".balance-", dir=out)
    try:
        for k, by_players in enumerate(rounds, 1):
            rows = {n: traces[n].rounds[k - 1][0] for n in by_players}
            what = {"targets": target_tables.to_text(rows), "targets_file": f"round {k}'s table (fixed_point.csv)"}
            balance_report.write_model(
                os.path.join(tmp, f"round_{k}"), list(by_players.values()), params | what, seconds
            )
        table = trace_table(traces, rounds)
        table.to_csv(os.path.join(tmp, "fixed_point.csv"), index=False, float_format="%.4f")
        with open(os.path.join(tmp, "fixed_point.md"), "w", encoding="utf-8") as fh:
            fh.write(markdown(traces, table, params, seconds))
        note = f"auction model: {params['auction']}; {CONDITIONAL_SHORT}"
        plots.rounds(table, os.path.join(tmp, "fixed_point.png"), note)
        target_tables.write_csv(os.path.join(tmp, PROPOSED), {n: list(tr.final) for n, tr in traces.items()})
        return balance_report.publish(out, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
