"""Files of `musim balance`: CSV tables, a Markdown summary and PNG plots, written whole or not at all.

Under one auction model its files are in --out itself; under several (`--auction a,b`) each
model's files are in --out/<model>/ and --out holds the agreement of their proposed targets
(AGREEMENT_FILES)."""

import os
import shutil
import tempfile

import pandas as pd

from musim.engine.errors import OutputError
from musim.engine.parquet import ensure_writable_dir
from musim.games.mu import target_tables
from musim.games.mu.analysis import plots
from musim.games.mu.analysis.balance import MIN_DEALS_FOR_FIT, agreement
from musim.games.mu.analysis.bid import level_ranges as _ranges
from musim.games.mu.analysis.fixed_point import MEASURED
from musim.games.mu.params import DEFAULT_AUCTION
from musim.games.mu.policies import AUCTIONS
from musim.games.mu.target_tables import RULEBOOK

PROPOSED = "proposed_targets.csv"  # in the format of `--targets FILE`; written when every player count has a proposal
FILES = (
    "balance.csv",
    PROPOSED,
    "strength.csv",
    "summary.md",
    "success_by_bid.png",
    "targets.png",
    "team_points.png",
    "strength.png",
)
AGREEMENT_FILES = ("agreement.csv", "summary.md", "targets.png")  # --out's own under several models
MAX_ROUNDS = 50  # of --rounds
ROUNDS_FILES = ("fixed_point.csv", "fixed_point.md", "fixed_point.png") + tuple(
    f"round_{k}" for k in range(1, MAX_ROUNDS + 1)
)  # --out's own under --rounds, beside proposed_targets.csv


# balance.csv's columns (docs/formats.md is written from these; fixed_point.csv adds ROUND_COLUMNS)
BALANCE_COLUMNS = {
    "players, bid": "player count and bid level (1..hand size)",
    "deals, share": "deals played at the level, and their share of the played deals",
    "p_made, p_made_low, p_made_high": "the chief team's success rate and its 95% Wilson interval "
    "(under a node limit spanning both outcomes of undecided deals)",
    "target": "the target the deals were bid, played and scored under (rulebook or --targets)",
    "unresolved, undecided": "deals left out at the node limit, and those whose success is unknown",
    "team_mean, team_q25, team_median, team_q75": "the chief team's card points",
    "chief_score, partner_score, opponent_score": "mean deal score by role",
    "chief_score_one_less": "the chief's mean score had it bid one level less (the same play rescored)",
    "question": "what each deal's solve answered (value or reach)",
    "basis": "measured (>= 300 deals with team points), too few deals (30..299), extrapolated (< 30)",
    "delta, delta_low, delta_high": "the fair step at the target in force: mean contract result at "
    "this bid minus one bid less (chief_score - chief_score_one_less; level 1: against no contract), "
    "with its 95% bootstrap interval",
    "fair_target, fair_low, fair_high": "the highest target above the level below (as in force) whose "
    "fair step is not negative, with its 95% bootstrap interval (400 resamples of the level's deals)",
    "floor": "no target pays at the level (the fair step is negative one point above the level below)",
    "fair": "the target in force lies within [fair_low, fair_high] (empty: fewer than 30 deals)",
    "proposed_target": "the proposed target (fair step; strictly rising; proposed_targets.csv holds these)",
    "proposed_low, proposed_high": "its 95% bootstrap interval, given the proposed level below "
    "(empty where extrapolated)",
}
ROUND_COLUMNS = {
    "round": "the round of `--rounds` (1..)",
    "next_target": "the table the loop played next (after the last round: its final proposal)",
    "eklats": "deals of the player count that ended in an eklat that round",
}


def _entries():
    """Every name a balance result may hold in --out, under one model or several."""
    return list(dict.fromkeys(FILES + AGREEMENT_FILES + ROUNDS_FILES + tuple(AUCTIONS)))


def check_out_dir(out, overwrite):
    """Refuse to mix with an earlier result unless overwrite; returns the directory's absolute path."""
    out = os.path.abspath(out)
    if os.path.exists(out) and not os.path.isdir(out):
        raise OutputError(f"--out {out} is a file, expected a directory")
    present = [f for f in _entries() if os.path.exists(os.path.join(out, f))]
    if present and not overwrite:
        raise OutputError(f"--out {out} already holds {present[0]} (use --overwrite to replace)")
    ensure_writable_dir(out, out)
    return out


def _fmt(x, spec):
    return "" if pd.isna(x) else format(x, spec)


def proposal_text(facts):
    """The proposal's line, or why there is none."""
    if facts["question"] == "reach":
        return "no proposed targets (they need the team points: --question value)."
    if not facts["proposed"]:
        return f"no proposed targets (no bid level has the {MIN_DEALS_FOR_FIT} deals the criterion needs)."
    slope = f"{facts['slope']:.1f}"
    return f"proposed targets by the fair step (levels with under {MIN_DEALS_FOR_FIT} deals: {slope} a level)."


def proposal_rows(results):
    """{players: proposed targets of bids 1..hand size} for proposed_targets.csv, or None where a
    player count has no proposal."""
    rows = {}
    for r in results:
        proposed = r.table.proposed_target
        if r.facts["question"] == "reach" or proposed.isna().any():
            return None
        rows[r.facts["players"]] = [int(t) for t in proposed]
    return rows


def verdict(facts, table):
    """Is the table in force balanced by the fair step: at each level with the deals the
    criterion needs, its target within the 95% interval of the fair target?  One line."""
    judged = table[table.fair.notna()]
    if judged.empty:
        return (
            f"Balanced (fair step): not judged (no level has the {MIN_DEALS_FOR_FIT} deals with team points it needs)."
        )
    high = [int(b) for b in judged.bid[judged.target > judged.fair_high]]
    low = [int(b) for b in judged.bid[judged.target < judged.fair_low]]
    levels = f"level{'s' if len(judged) > 1 else ''} {_ranges([int(b) for b in judged.bid])}"
    if not high and not low:
        return f"Balanced (fair step): yes, every target lies within the 95% interval of its fair target at {levels}."
    parts = [f"above the fair target (the step loses) at {_ranges(high)}"] if high else []
    parts += [f"below it (the step pays) at {_ranges(low)}"] if low else []
    return f"Balanced (fair step): no, the target lies {' and '.join(parts)} (of {levels})."


def _targets_text(params):
    """Which targets the deals were bid, played and scored under."""
    if params["targets"] == RULEBOOK:
        return "the rulebook's (docs/rules.md §2.8)"
    return f"the rule variant `{params['targets_file']}` (docs/rules.md §2.11; the `target` column below)"


def _targets_name(params):
    """The targets' name in a table's header and the plots: rulebook or variant."""
    return "rulebook" if params["targets"] == RULEBOOK else "variant"


def _tricks_text(params):
    """How much of the play is double-dummy, where not all of it."""
    t = params.get("dd_tricks")
    return f" (the last {t} tricks; the tricks before them by the heuristic)" if t else ""


def _worker_time_text(results):
    """What the deals cost the workers, including those a checkpoint kept from earlier runs."""
    worker = sum(r.facts["worker_seconds"] for r in results)
    held = sum(r.facts["held_seconds"] for r in results)
    secs = lambda x: f"{x:.1f}" if x < 10 else f"{x:.0f}"
    text = f"its deals took {secs(worker)} s of worker time"
    if held:
        text += f" in all, {secs(held)} s of it in the earlier runs whose deals its `--checkpoint` held"
    return text


def _question_text(params):
    """What the reach question leaves out, if it was asked."""
    if params["question"] != "reach":
        return []
    return [
        "**Question `reach`:** each deal's double-dummy play asked only whether the chief's team "
        "reaches its target (one null-window search), not the team's points: the success rates are "
        "exact, the team points, scores and proposed targets are not computed (`--question value` "
        "solves the points, at several times the cost).",
        "",
    ]


def _limit_text(params):
    """What the node limit leaves out, if there is one."""
    limit = params.get("node_limit")
    if not limit:
        return []
    if params["question"] == "reach":
        return [
            f"**Node limit {limit:,}:** a deal whose search took more nodes is *undecided*; the interval "
            "of p_made spans both of its outcomes.  In the pure-strength view a seat whose search gave "
            "up is left out.",
            "",
        ]
    return [
        f"**Node limit {limit:,}:** a deal whose double-dummy solve took more nodes is *unresolved*. "
        "Its success counts where the search decided it (the target is asked first); the interval of "
        "p_made spans both outcomes of the deals it did not decide (`undecided`); team points, scores "
        "and the proposed targets cover the resolved deals alone, so where deals are unresolved they "
        "lean towards the contracts the solver finds easy.  In the pure-strength view a seat whose "
        "search gave up is left out.",
        "",
    ]


def _value_table(t, limited):
    """The Markdown table of a level's deals: success, scores, the criterion's figures, the proposal."""
    lines = [
        "| bid | deals | share | p_made (95%) | target | team mean [q25, q50, q75] | chief | partner | opponent "
        "| chief if bid-1 | fair step Δ (95%) | fair target (95%) | proposed (95%) | basis |"
        + (" unresolved (undecided) |" if limited else ""),
        "| --- " * 14 + "|" + (" --- |" if limited else ""),
    ]
    for x in t.itertuples():
        if x.deals == 0:
            continue
        lines.append(
            f"| {x.bid} | {x.deals:,} | {x.share:.1%} | {_fmt(x.p_made, '.1%')} ({x.p_made_low:.1%}.."
            f"{x.p_made_high:.1%}) | {x.target} | {_fmt(x.team_mean, '.1f')} "
            f"[{_fmt(x.team_q25, '.0f')}, {_fmt(x.team_median, '.0f')}, {_fmt(x.team_q75, '.0f')}] | "
            f"{_fmt(x.chief_score, '.1f')} | {_fmt(x.partner_score, '.1f')} | {_fmt(x.opponent_score, '.1f')} | "
            f"{_fmt(x.chief_score_one_less, '.1f')} | {_delta_cell(x)} | {_fair_cell(x)} | {_proposed_cell(x)} | "
            f"{_fmt(x.basis, 's')} |" + (f" {x.unresolved} ({x.undecided}) |" if limited else "")
        )
    return lines


def _delta_cell(x):
    if pd.isna(x.delta):
        return ""
    return f"{x.delta:+.2f} ({x.delta_low:+.2f}..{x.delta_high:+.2f})"


def _fair_cell(x):
    if pd.isna(x.fair_target):
        return ""
    floor = " floor" if x.floor else ""
    return f"{int(x.fair_target)} ({int(x.fair_low)}..{int(x.fair_high)}){floor}"


def _proposed_cell(x):
    """The proposed target, its change from the target in force, and its interval where measured."""
    if pd.isna(x.proposed_target):
        return "n/a"
    change = "" if x.proposed_target == x.target else f" ({int(x.proposed_target) - int(x.target):+d})"
    interval = "" if pd.isna(x.proposed_low) else f" [{int(x.proposed_low)}..{int(x.proposed_high)}]"
    return f"{int(x.proposed_target)}{change}{interval}"


def _reach_table(t, limited):
    """The Markdown table under the reach question: success and targets alone."""
    lines = [
        "| bid | deals | share | p_made (95%) | target |" + (" undecided |" if limited else ""),
        "| --- | --- | --- | --- | --- |" + (" --- |" if limited else ""),
    ]
    for x in t.itertuples():
        if x.deals:
            lines.append(
                f"| {x.bid} | {x.deals:,} | {x.share:.1%} | {_fmt(x.p_made, '.1%')} ({x.p_made_low:.1%}.."
                f"{x.p_made_high:.1%}) | {x.target} |" + (f" {x.undecided} |" if limited else "")
            )
    return lines


CONDITIONAL_SHORT = "proposed targets are conditional on bids made under the current targets"
CONDITIONAL = (
    f"the {CONDITIONAL_SHORT}: the model chose each bid against the targets in force, and under "
    "the proposed ones it would bid otherwise, so a proposal is checked by measuring its table again"
)


def model_text(auction):
    """What the tables rest on: the auction model, and what that means for the proposal."""
    return (
        f"**Auction model: `{auction}`** (docs/players.md). Every bid in these tables is one this "
        f"model made, so every figure rests on how it bids; {CONDITIONAL}."
    )


def summary_markdown(results, params, seconds):
    """summary.md of one auction model's results: how they were made, then each player count's
    tables and verdict, then the files."""
    lines = _summary_head(results, params, seconds) + _question_text(params) + _limit_text(params)
    for r in results:
        lines += _players_section(r, params)
    lines += [
        "## Files",
        "",
        "- `balance.csv`: the tables above, one row per player count and bid level.",
        f"- `{PROPOSED}`: the proposed targets as `--targets` reads them (players,bid,target)"
        + ("." if proposal_rows(results) else ": not written, some player count has no proposal."),
        "- `strength.csv`: the pure-strength distribution.",
        "- `success_by_bid.png`, `targets.png`, `team_points.png`, `strength.png`.",
        "",
    ]
    return "\n".join(lines)


def _summary_head(results, params, seconds):
    """The summary's title and what its figures rest on: command, seed, play, targets, the
    deals' origin, the auction model and the criterion of the proposal."""
    auction = params.get("auction", DEFAULT_AUCTION)
    return [
        "# Mü team-target balance",
        "",
        f"Command: `{params['command']}`  ",
        f"Seed {params['seed']}, {params['deals']:,} deals per player count, play `{params['play']}`"
        f"{_tricks_text(params)}, question `{params['question']}`, musim {params['version']}; "
        f"took {seconds:.0f} s on this machine "
        f"({params['machine']}); {_worker_time_text(results)}.",
        "",
        f"Targets: {_targets_text(params)}.",
        "",
        "Deals are exactly those of `musim run --deals N --seed S --players n --play P"
        + (" --dd-tricks T" if params.get("dd_tricks") else "")
        + ("" if auction == DEFAULT_AUCTION else f" --auction {auction}")
        + ("" if params["targets"] == RULEBOOK else " --targets FILE")
        + f"`: an auction of the `{auction}` model, the heuristic's trumps and partner, then card play "
        "by the chosen policy.",
        "",
        model_text(auction),
        "",
        CRITERION_TEXT,
        "",
    ]


CRITERION_TEXT = (
    "**Criterion for the proposed targets: the fair step** (docs/players.md). At each level b, the "
    "chiefs who bid b score on average the same contract result (bonus or penalty) as the same deals "
    "scored had they bid b-1 (level 1: no contract): the fair step Δ = `chief` - `chief if bid-1` = 0. "
    "Δ falls as the target rises; the *fair target* is the highest target (above the level below) "
    "whose Δ is not negative, its 95% interval from 400 bootstrap resamples of the level's deals; "
    "`floor`: no target pays (Δ < 0 one point above the level below, as where the bonus is capped). "
    "The proposal takes the fair targets from the lowest level with "
    f"{MIN_DEALS_FOR_FIT} deals upward, each above the proposed level below (basis `measured` with "
    f"{MEASURED} deals or more, `too few deals` below that: a wide interval), continues the levels "
    f"with fewer than {MIN_DEALS_FOR_FIT} deals along the slope of the others (`extrapolated`, no "
    "interval), and keeps every target at least one point above the one below, so that no level is "
    "dominated.  A table is balanced when each judged level's target lies within its fair target's "
    f"interval.  `musim balance --targets OUT/{PROPOSED}` checks a proposal under the bids it brings, "
    "and `--rounds K` repeats that to a fixed point."
)


def _players_section(r, params):
    """One player count's part of the summary: its deals, p* and proposal, its table and verdict,
    the levels never bid, and the pure-strength view."""
    limited = bool(params.get("node_limit"))
    reach = params["question"] == "reach"
    f, t = r.facts, r.table
    unresolved = ""
    if limited:
        unresolved = (
            f"; the success of {f['undecided']:,} undecided at the node limit"
            if reach
            else f"; {f['unresolved']:,} unresolved at the node limit, the success of {f['undecided']:,} "
            "of them undecided"
        )
    lines = [
        f"## {f['players']} players",
        "",
        f"Played {f['played']:,} of {f['deals']:,} deals ({f['eklats']:,} eklats{unresolved}); chief "
        f"success overall p* = {f['p_star']:.1%}; " + proposal_text(f),
        "",
    ]
    lines += _reach_table(t, limited) if reach else _value_table(t, limited)
    lines += ["", verdict(f, t)]
    never = [int(x.bid) for x in t.itertuples() if x.deals == 0]
    if never and f["proposed"]:
        lines.append(
            f"\nNever bid: levels {_ranges(never)} (extrapolated targets there: "
            + ", ".join(f"{b}: {int(t.proposed_target[t.bid == b].iloc[0])}" for b in never)
            + ")."
        )
    return lines + _strength_text(r.strength, f, limited)


def _strength_text(s, f, limited):
    """The pure-strength line of a player count: mean level and shares, or that it was skipped."""
    if not f["strength_deals"]:
        return ["", "Pure strength: not computed (`--strength-deals 0`).", ""]
    left_out = f", {f['strength_unresolved']:,} seats unresolved at the node limit left out" if limited else ""
    return [
        "",
        f"Pure strength ({f['strength_deals']:,} played deals, each seat as chief, best trump "
        f"and partner, no vice{left_out}): mean level "
        f"{f['strength_mean']:.2f}; share by level: "
        + ", ".join(f"{lv}: {sh:.1%}" for lv, sh in zip(s.level, s.share) if sh >= 0.001),
        "",
    ]


def write_model(folder, results, params, seconds):
    """Every file of FILES for one auction model's results into `folder`."""
    os.makedirs(folder, exist_ok=True)
    note = f"auction model: {params['auction']}"
    table = pd.concat([r.table for r in results], ignore_index=True)
    table.to_csv(os.path.join(folder, "balance.csv"), index=False, float_format="%.4f")
    pd.concat([r.strength for r in results], ignore_index=True).to_csv(
        os.path.join(folder, "strength.csv"), index=False, float_format="%.4f"
    )
    with open(os.path.join(folder, "summary.md"), "w", encoding="utf-8") as fh:
        fh.write(summary_markdown(results, params, seconds))
    name = _targets_name(params)
    plots.success_by_bid(table, os.path.join(folder, "success_by_bid.png"), MIN_DEALS_FOR_FIT, note, name)
    plots.targets(table, os.path.join(folder, "targets.png"), f"{note}; {CONDITIONAL_SHORT}", name)
    plots.team_points(
        {r.facts["players"]: (r.bids, r.team) for r in results},
        os.path.join(folder, "team_points.png"),
        MIN_DEALS_FOR_FIT,
        params["question"] == "reach",
        note,
    )
    plots.strength(pd.concat([r.strength for r in results]), os.path.join(folder, "strength.png"), note)
    proposed = proposal_rows(results)
    if proposed:
        target_tables.write_csv(os.path.join(folder, PROPOSED), proposed)


def agreement_markdown(by_model, table, params, seconds):
    """The summary of several models' proposed targets side by side (agreement.csv)."""
    names = list(by_model)
    models = ", ".join(f"`{m}`" for m in names)
    lines = [
        "# Mü team-target balance under several auction models",
        "",
        f"Command: `{params['command']}`  ",
        f"Seed {params['seed']}, {params['deals']:,} deals per player count and model, play `{params['play']}`"
        f"{_tricks_text(params)}, musim {params['version']}; took {seconds:.0f} s on this machine "
        f"({params['machine']}).",
        "",
        f"Auction models (docs/players.md): {models}. Each model's tables, plots and summary are in its "
        "own folder (`<model>/summary.md`); every figure there rests on the bids that model made, and "
        f"{CONDITIONAL}.",
        "",
        f"Targets: {_targets_text(params)}; every model's deals are bid, played and scored under them.",
        "",
        "Proposed targets by model (criterion in each model's summary): *agree* where every model "
        "proposes the same target.",
        "",
    ]
    facts = {m: {r.facts["players"]: r.facts for r in results} for m, results in by_model.items()}
    for n, t in table.groupby("players"):
        agree = int(t.agree.sum())
        lines += [
            f"## {n} players",
            "",
            "; ".join(
                f"`{m}`: {facts[m][n]['eklats']:,} eklats in {facts[m][n]['deals']:,} deals, p* "
                f"{_fmt(facts[m][n]['p_star'], '.1%')}"
                for m in names
            )
            + f". The models agree on {agree} of {len(t)} levels.",
            "",
            f"| bid | {_targets_name(params)} | " + " | ".join(f"`{m}`" for m in names) + " | agree |",
            "| --- | --- | " + " | ".join("---" for _ in names) + " | --- |",
        ]
        for x in t.itertuples(index=False):
            row = x._asdict()
            cells = [_fmt(row[f"proposed_{m}"], ".0f") or "n/a" for m in names]
            lines.append(f"| {x.bid} | {x.target} | " + " | ".join(cells) + f" | {'yes' if x.agree else 'no'} |")
        lines.append("")
    lines += [
        "## Files",
        "",
        "- `agreement.csv`: the tables above (`proposed_<model>`, `agree`).",
        f"- `targets.png`: the {_targets_name(params)} targets and each model's proposed targets.",
        "- " + ", ".join(f"`{m}/`" for m in names) + ": each model's tables, summary and plots.",
        "",
    ]
    return "\n".join(lines)


def publish(out, tmp):
    """Move every file of the scratch directory `tmp` into `out`, taking away what an earlier
    result left there that this one does not hold; returns how many files it moved."""
    written = os.listdir(tmp)  # proposed_targets.csv only where every player count has a proposal
    files = sum(len(names) for _, _, names in os.walk(tmp))
    for f in _entries():
        path = os.path.join(out, f)
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif f not in written and os.path.exists(path):
            os.remove(path)
    for f in written:
        os.replace(os.path.join(tmp, f), os.path.join(out, f))
    return files


def write(out, by_model, params, seconds):
    """Write every file into a scratch directory, then move them into `out` together, and take
    away what an earlier result left of the other layout (one model or several); returns how
    many files it wrote.  by_model: {auction model: [Balance per player count]}."""
    os.makedirs(out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".balance-", dir=out)
    try:
        if len(by_model) == 1:
            auction, results = next(iter(by_model.items()))
            write_model(tmp, results, params | {"auction": auction}, seconds)
        else:
            for auction, results in by_model.items():
                write_model(os.path.join(tmp, auction), results, params | {"auction": auction}, seconds)
            table = agreement(by_model)
            table.to_csv(os.path.join(tmp, "agreement.csv"), index=False)
            with open(os.path.join(tmp, "summary.md"), "w", encoding="utf-8") as fh:
                fh.write(agreement_markdown(by_model, table, params, seconds))
            name = _targets_name(params)
            plots.agreement(table, list(by_model), os.path.join(tmp, "targets.png"), CONDITIONAL_SHORT, name)
        return publish(out, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
