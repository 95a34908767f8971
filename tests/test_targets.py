"""Rule variants of Mü's target table (docs/rules.md §2.11), through the CLI: `--targets FILE` of
`musim run`, `record`, `bid` and `balance`, the record that carries its table, and the
round trip of `musim balance`'s proposed_targets.csv.  Expected values come from the rules as
written (bonus, penalty per rank short) applied to each row's own team and card points."""

import csv
import hashlib
import json
import os
import re
import shlex

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import musim
from musim.cli import cli
from musim.engine import parts
from musim.engine.parts import MANIFEST, PARTIAL
from musim.games.mu import run as mu_run

HAND = {3: 12, 4: 15, 5: 12, 6: 10}


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def rulebook(n, b):
    """docs/rules.md §2.8, written out again."""
    return {3: 10 + 2 * b, 4: 28 + 2 * b, 5: 21 + 3 * b, 6: 16 + 4 * b}[n]


def write_table(path, rows, extra=()):
    """A --targets file: rows {players: [targets of bids 1..]}, then the raw lines `extra`."""
    lines = ["players,bid,target"] + [f"{n},{b},{t}" for n, ts in rows.items() for b, t in enumerate(ts, 1)]
    path.write_text("\n".join([*lines, *extra]) + "\n")
    return path


def book(n):
    return [rulebook(n, b) for b in range(1, HAND[n] + 1)]


def data(out):
    df = musim.read_run(out)
    return df.drop(columns=[c for c in df.columns if c.endswith("_ms")])


def key(out):
    return json.loads((out / MANIFEST).read_text())["key"]


def run(tmp_path, name, *args, players=4, deals=300, seed=7, play="heuristic"):
    out = tmp_path / name
    res = invoke("run", "--players", players, "--deals", deals, "--seed", seed, "--play", play, "--out", out, *args)
    assert res.exit_code == 0, res.output
    return out


def error_line(res):
    """The one error line of a refused command (exit 2), never a traceback."""
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    (line,) = [x for x in res.output.splitlines() if x.startswith("Error:")]
    return line


def test_a_table_equal_to_the_rulebooks_is_the_rulebook(tmp_path, monkeypatch):
    """Same rows, same key and same default run name as no --targets (other player counts in
    the file are left aside)."""
    same = write_table(tmp_path / "same.csv", {3: book(3), 4: book(4)})
    base, variant = run(tmp_path, "base"), run(tmp_path, "same", "--targets", same)
    pd.testing.assert_frame_equal(data(base), data(variant))
    assert key(base) == key(variant)
    monkeypatch.chdir(tmp_path)
    assert invoke("run", "--deals", 5, "--seed", 3, "--targets", same).exit_code == 0
    assert invoke("run", "--deals", 5, "--seed", 3, "--targets", "rulebook", "--overwrite").exit_code == 0
    assert os.listdir("runs") == ["mu-4p-heuristic-seed3"]


def recomputed(row, targets):
    """(target, success, shortfall, bonus, scores) of a played row by the rules (§2.8) against `targets`."""
    b, team, cp = int(row.bid), int(row.team_points), [int(p) for p in row.card_points]
    trump = row.chief_trump
    extra = 0 if trump in "RYGBK" else 1 if trump in ("1", "7") else 3 if trump == "none" else 2
    made = team >= targets[b - 1]
    short = 0 if made else b - max([k for k, t in enumerate(targets, 1) if t <= team], default=0)
    bonus = 10 * min(b + extra, 10) if made else 0
    team_seats = {row.chief, row.partner}
    scores = [p + (bonus - 10 * short * (s == row.chief) if s in team_seats else 5 * short) for s, p in enumerate(cp)]
    return targets[b - 1], made, short, bonus, scores


def test_one_level_changed_changes_target_success_and_scores_as_the_rules_say(tmp_path):
    """Random play bids and plays without looking at the targets: the rows of a variant that
    raises bid 2's target by 2 points are the rulebook's but for target, success, shortfall, bonus and
    scores, and those are the rules applied to each row's points against the variant."""
    table = book(4)
    table[1] = 34  # bid 2: the rulebook's 32 raised to bid 3's 34 (a target may not fall as the bid rises)
    path = write_table(tmp_path / "v.csv", {4: table})
    base = data(run(tmp_path, "base", play="random", deals=2000))
    var = data(run(tmp_path, "var", "--targets", path, play="random", deals=2000))
    scored = ["target", "success", "shortfall", "bonus", "scores"] + [f"score_{i}" for i in range(4)]
    pd.testing.assert_frame_equal(base.drop(columns=scored), var.drop(columns=scored))
    played = var[var.outcome == "played"]
    for row in played.itertuples():
        target, made, short, bonus, scores = recomputed(row, table)
        assert (row.target, row.success, row.shortfall, row.bonus) == (target, made, short, bonus), row
        assert list(row.scores) == scores == [getattr(row, f"score_{i}") for i in range(4)], row
    changed = (base.target != var.target) & (base.outcome == "played")
    assert set(var.bid[changed]) == {2} and (base.success != var.success).any()
    assert (var.target[played.index] == [table[b - 1] for b in played.bid]).all()


def test_the_heuristic_auction_bids_to_the_variants_targets(tmp_path):
    """Targets out of reach above bid 1: the heuristic, which bids what its estimate reaches,
    never bids more than 1 (the rulebook's bids at 4 players are mostly 2-4)."""
    path = write_table(tmp_path / "hard.csv", {4: [20] + [60] * 14})
    base = data(run(tmp_path, "base"))
    var = data(run(tmp_path, "var", "--targets", path))
    assert (base.bid > 1).mean() > 0.5
    assert var.bid.max() == 1 and (var.outcome == "played").any()


def test_a_variant_deal_records_its_table_and_replays_to_its_row(tmp_path):
    table = [min(rulebook(5, b) + (4 if b >= 2 else 0), 60) for b in range(1, 13)]
    path = write_table(tmp_path / "v.csv", {5: table})
    rows = data(run(tmp_path, "var", "--targets", path, players=5, deals=40, seed=2))
    plain = invoke("record", "--players", 5, "--seed", 2, "--deal", 0)
    assert plain.exit_code == 0 and "targets" not in json.loads(plain.output)
    checked = 0
    for k in rows.index[rows.outcome == "played"][:6]:
        res = invoke("record", "--players", 5, "--seed", 2, "--deal", k, "--targets", path)
        assert res.exit_code == 0, res.output
        record = json.loads(res.output)
        assert record["targets"] == table
        replayed = json.loads(invoke("replay", "-", input=json.dumps(record)).output)
        row = rows.loc[k]
        for field in ("bid", "target", "team_points", "success", "shortfall", "bonus"):
            assert replayed[field] == row[field], (k, field)
        assert replayed["scores"] == list(row.scores)
        del record["targets"]  # the same deal replayed under the rulebook
        rule = json.loads(invoke("replay", "-", input=json.dumps(record)).output)
        assert rule["target"] == rulebook(5, row.bid) and rule["success"] == (row.team_points >= rulebook(5, row.bid))
        checked += 1
    assert checked == 6
    record["targets"] = [30, 31]
    answer = json.loads(invoke("replay", "-", input=json.dumps(record)).output)
    assert answer["error"].startswith("targets: expected a list of 12 whole numbers")


def test_record_of_a_run_takes_its_variant_and_auction_from_the_run(tmp_path):
    """`musim record RUN --deal K` of a run under a variant and the bold auction: the record of
    the row, the variant's table in it, the same as the record of the options typed again."""
    table = [min(rulebook(5, b) + (4 if b >= 2 else 0), 60) for b in range(1, 13)]
    path = write_table(tmp_path / "v.csv", {5: table})
    out = run(tmp_path, "var", "--targets", path, "--auction", "bold", players=5, deals=40, seed=2)
    rows = data(out)
    k = int(rows.index[rows.outcome == "played"][0])
    res = invoke("record", out, "--deal", k)
    assert res.exit_code == 0, res.output
    record = json.loads(res.output)
    assert record["targets"] == table
    typed = invoke("record", "--players", 5, "--seed", 2, "--deal", k, "--targets", path, "--auction", "bold")
    assert json.loads(typed.output) == record
    replayed = json.loads(invoke("replay", "-", input=json.dumps(record)).output)
    assert (replayed["bid"], replayed["target"], replayed["scores"]) == (
        rows.bid[k],
        table[rows.bid[k] - 1],
        list(rows.scores[k]),
    )


ROWS_4P = [f"4,{b},{rulebook(4, b)}" for b in range(1, 16)]


@pytest.mark.parametrize(
    "lines, said",
    [
        (None, "cannot read it"),
        ([], "empty, expected the columns players,bid,target"),
        (["players,bid,points", *ROWS_4P], "expected the columns players,bid,target, got players,bid,points"),
        (["players,bid,target", *ROWS_4P[:6], "4,7", *ROWS_4P[7:]], "line 8: expected 3 values"),
        (["players,bid,target", *ROWS_4P[:6], "4,7,36.5", *ROWS_4P[7:]], "line 8: target '36.5' is not a whole"),
        (["players,bid,target", *ROWS_4P, "7,1,30"], "line 17: players 7 is not in 3..6"),
        (["players,bid,target", *ROWS_4P, "4,16,60"], "line 17: bid 16 is not in 1..15 with 4 players"),
        (["players,bid,target", *ROWS_4P, "4,3,34"], "line 17: 4 players bid 3 again (line 4)"),
        (["players,bid,target", *ROWS_4P[:4], *ROWS_4P[5:]], "no row for 4 players bid 5"),
        (["players,bid,target", *ROWS_4P[:14], "4,15,61"], "line 16: target 61 is not within the 60 points"),
        (["players,bid,target", *ROWS_4P[:3], "4,4,33", *ROWS_4P[4:]], "line 5: target 33 is below bid 3's 34"),
        (["players,bid,target", *(f"5,{b},{rulebook(5, b)}" for b in range(1, 13))], "no targets for 4 players"),
    ],
)
def test_a_bad_targets_file_is_one_line_naming_its_row(tmp_path, lines, said):
    path = tmp_path / "t.csv"
    if lines is not None:
        path.write_text("\n".join(lines) + "\n")
    for command in (["run", "--deals", 10, "--seed", 1, "--out", tmp_path / "o"], ["record", "--seed", 1, "--deal", 0]):
        line = error_line(invoke(*command, "--targets", path))
        assert line.startswith(f"Error: --targets {path}") and said in line, line
    assert not (tmp_path / "o").exists() and not (tmp_path / f"o{PARTIAL}").exists()


def test_bid_and_balance_read_the_targets_alike(tmp_path):
    bad = write_table(tmp_path / "t.csv", {4: book(4)}, extra=["4,3,34"])
    hand = "R9 R8 R7 R7 R6 G9 G7 G0 B1 B8 K0 K3 Y2 Y5 Y7"
    line = error_line(invoke("bid", "--hand", hand, "--samples", 10, "--targets", bad))
    assert "line 17: 4 players bid 3 again" in line
    three = write_table(tmp_path / "three.csv", {3: book(3)})
    line = error_line(invoke("balance", "--players", "3,4", "--deals", 10, "--out", tmp_path / "b", "--targets", three))
    assert f"--targets {three}: no targets for 4 players" in line and not (tmp_path / "b").exists()


def test_bid_scores_against_the_variant(tmp_path):
    """With 3 players (no vice) every bid is scored from the same plays: a table shifted one
    level (bid b needs the rulebook's b+1) makes bid b exactly as often as the rulebook's b+1."""
    hand = "R9 R8 R7 R5 Y9 Y8 Y1 G9 G7 G3 G2 G0"
    shifted = [rulebook(3, b + 1) for b in range(1, 12)] + [36]
    path = write_table(tmp_path / "s.csv", {3: shifted})
    args = ["bid", "--players", 3, "--hand", hand, "--samples", 60, "--seed", 4, "--json"]
    base = {(r["bid"], r["chief_trump"]): r for r in json.loads(invoke(*args).output)}
    var = {(r["bid"], r["chief_trump"]): r for r in json.loads(invoke(*args, "--targets", path).output)}
    assert {k: r["target"] for k, r in var.items()} == {(b, t): shifted[b - 1] for b, t in var}
    for (b, t), r in var.items():
        if b < 12:
            assert r["p_made"] == base[b + 1, t]["p_made"], (b, t)


def test_bid_commits_against_the_variant_and_names_it(tmp_path):
    """Targets out of reach above bid 1 (as in the auction test above): the others, planning by
    the variant, never lay a second card, so a holder committed to any bid of 2 or more always
    ends chief -- under the rulebook it is outbid at some; the first line names the targets."""
    hand = "R9 R8 R7 R7 R6 G9 G7 G0 B1 B8 K0 K3 Y2 Y5 Y7"
    path = write_table(tmp_path / "hard.csv", {4: [20] + [60] * 14})
    args = ["bid", "--hand", hand, "--samples", 40, "--seed", 3]
    base, var = (json.loads(invoke(*args, *extra, "--json").output) for extra in ([], ["--targets", path]))
    assert min(r["p_chief"] for r in base if r["bid"] >= 2) < 1
    assert all(r["p_chief"] == 1 for r in var if r["bid"] >= 2)
    assert {r["target"] for r in var} == {20, 60}
    for extra, said in (([], "targets: rulebook"), (["--targets", path], "targets: hard.csv")):
        first, second = invoke(*args, *extra).output.splitlines()[:2]
        assert said in first and "auction model cautious" in second and len(first) <= 100


def _proposed(path):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["players", "bid", "target"]
    return {(int(n), int(b)): int(t) for n, b, t in rows[1:]}


def _verdict_is_right(out, summary):
    """Each player count's verdict line says yes exactly when every judged level's target lies
    within its fair target's interval in balance.csv."""
    table = pd.read_csv(out / "balance.csv")
    verdicts = re.findall(r"^Balanced \(fair step\): (yes|no|not judged)", summary, re.M)
    assert len(verdicts) == table.players.nunique()
    for (n, t), said in zip(table.groupby("players"), verdicts):
        judged = t[t.fair.notna()]
        inside = ((judged.fair_low <= judged.target) & (judged.target <= judged.fair_high)).all()
        assert said == ("not judged" if judged.empty else "yes" if inside else "no"), (n, judged)


def test_the_verdict_names_the_levels_it_judged():
    """Only levels with a fair target are judged; one such level is named singular."""
    from musim.games.mu.analysis.balance_report import verdict

    def table(target, low, high):
        fair = [np.nan if pd.isna(lo) else lo <= t <= hi for t, lo, hi in zip(target, low, high)]
        n = len(target)
        return pd.DataFrame(
            {"bid": range(1, n + 1), "target": target, "fair_low": low, "fair_high": high, "fair": fair}
        )

    one = table([30, 32, 34], [np.nan, 31, np.nan], [np.nan, 33, np.nan])
    assert verdict({}, one).endswith("its fair target at level 2.")
    two = table([30, 32, 34], [31, 30, np.nan], [33, 32, np.nan])
    assert verdict({}, two).endswith("below it (the step pays) at 1 (of levels 1..2).")


def test_balance_proposes_a_targets_file_that_balance_checks(tmp_path):
    common = ["balance", "--players", "3,4", "--deals", 600, "--seed", 1, "--strength-deals", 0]
    first = tmp_path / "first"
    res = invoke(*common, "--out", first)
    assert res.exit_code == 0, res.output
    proposed = _proposed(first / "proposed_targets.csv")
    table = pd.read_csv(first / "balance.csv")
    assert sorted(proposed) == [(n, b) for n in (3, 4) for b in range(1, HAND[n] + 1)]
    assert proposed == {(r.players, r.bid): r.proposed_target for r in table.itertuples()}
    summary = (first / "summary.md").read_text()
    assert "Targets: the rulebook's" in summary and "conditional on bids made under the current targets" in summary
    _verdict_is_right(first, summary)

    second = tmp_path / "second"
    res = invoke(*common, "--targets", first / "proposed_targets.csv", "--out", second)
    assert res.exit_code == 0, res.output
    table = pd.read_csv(second / "balance.csv")
    assert {(r.players, r.bid): r.target for r in table.itertuples()} == proposed
    summary = (second / "summary.md").read_text()
    assert f"the rule variant `{first / 'proposed_targets.csv'}`" in summary
    _verdict_is_right(second, summary)
    assert (second / "proposed_targets.csv").exists()
    # the deals are those of `musim run` under the same variant
    var = data(run(tmp_path, "run", "--targets", first / "proposed_targets.csv", players=4, deals=600, seed=1))
    played = var[var.outcome == "played"]
    t4 = table[(table.players == 4) & (table.deals > 0)].set_index("bid")
    assert played.bid.value_counts().sort_index().to_dict() == t4.deals.to_dict()
    assert played.groupby("bid").success.mean().to_dict() == pytest.approx(t4.p_made.to_dict(), abs=1e-4)

    line = error_line(invoke("run", "--deals", 5, "--targets", first / "balance.csv"))
    assert "balance.csv of `musim balance`" in line and "proposed_targets.csv" in line


def _stopped(tmp_path, monkeypatch, *args):
    """A finished run of 400 deals at tmp_path/run (parts of 100) turned into one stopped after its first part."""
    monkeypatch.setattr(mu_run, "CHUNK_DEALS", 100)
    monkeypatch.setattr(parts, "PART_ROWS", 1)
    out = run(tmp_path, "run", *args, deals=400)
    partial = tmp_path / f"run{PARTIAL}"
    os.rename(out, partial)
    manifest = json.loads((partial / MANIFEST).read_text())
    manifest |= {"complete": False, "parts": manifest["parts"][:1], "held": []}
    (partial / MANIFEST).write_text(json.dumps(manifest))
    return out


def test_a_variant_run_resumes_by_its_command_and_never_as_a_run_of_other_rules(tmp_path, monkeypatch):
    path = write_table(tmp_path / "v.csv", {4: [rulebook(4, b) + 2 for b in range(1, 16)]})
    whole = data(run(tmp_path, "whole", "--targets", path, deals=400))
    out = _stopped(tmp_path, monkeypatch, "--targets", path)
    same = ["run", "--players", 4, "--deals", 400, "--seed", 7]  # those of run(): the rulebook's targets
    res = invoke(*same, "--out", out, "--resume")
    assert res.exit_code == 2 and "other parameters" in res.output, res.output
    res = invoke("summary", out)
    command = shlex.split(res.output.split("continue it with: ")[1].split(")")[0])
    assert command[:2] == ["musim", "run"] and "--targets" in command
    res = invoke(*command[1:])
    assert res.exit_code == 0 and "100 deals were already written" in res.output, res.output
    pd.testing.assert_frame_equal(data(out), whole)

    (tmp_path / "plain").mkdir()
    plain = _stopped(tmp_path / "plain", monkeypatch)
    res = invoke(*same, "--out", plain, "--resume", "--targets", path)
    assert res.exit_code == 2 and "other parameters" in res.output, res.output


def test_a_variants_default_run_name_carries_a_digest_of_its_table(tmp_path, monkeypatch):
    table = [rulebook(4, b) + (b == 15) for b in range(1, 16)]
    path = write_table(tmp_path / "v.csv", {3: book(3), 4: table})
    monkeypatch.chdir(tmp_path)
    res = invoke("run", "--deals", 5, "--seed", 3, "--targets", path)
    assert res.exit_code == 0, res.output
    text = "4:" + ",".join(map(str, table))  # the run's table, as its key and metadata hold it
    (name,) = os.listdir("runs")
    assert name == f"mu-4p-heuristic-targets{hashlib.sha256(text.encode()).hexdigest()[:8]}-seed3"
    meta = json.loads((tmp_path / "runs" / name / MANIFEST).read_text())["metadata"]
    assert meta["params"]["options"]["targets"] == text
    # its summary names the table; the rulebook's names none
    assert f"variant targets {text}, seed 3" in res.stdout.splitlines()[0]
    assert f"variant targets {text}" in invoke("summary", tmp_path / "runs" / name).output.splitlines()[0]
    # musim compare of the rulebook's run and the variant's (the same deals) names each table,
    # the variant by the digest of its default run name
    base = tmp_path / "base"
    plain = invoke("run", "--deals", 5, "--seed", 3, "--out", base)
    assert plain.exit_code == 0 and "targets" not in plain.stdout.splitlines()[0]
    res = invoke("compare", base, tmp_path / "runs" / name)
    assert res.exit_code == 0, res.output
    head = " ".join(res.output.split("\ndiff:")[0].split())  # the header, unwrapped
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    assert "targets=rulebook" in head.split(" B: ")[0] and f"targets=<{digest}>" in head.split(" B: ")[1]


@pytest.mark.slow  # exact play: reach searches against the variant
def test_exact_plays_reach_question_asks_the_variants_targets(tmp_path):
    """Under --play dd the reach question (null-window searches at the targets) answers what the
    value answers, under a variant as under the rulebook."""
    hand = "R9 R8 R7 R5 Y9 Y8 Y1 G9 G7 G3 G2 G0"
    path = write_table(tmp_path / "s.csv", {3: [rulebook(3, b) + 3 for b in range(1, 12)] + [36]})
    args = ["bid", "--players", 3, "--hand", hand, "--samples", 12, "--play", "dd", "--json", "--targets", path]
    value, reach = (json.loads(invoke(*args, "--question", q).output) for q in ("value", "reach"))
    assert [r["p_made"] for r in value] == [r["p_made"] for r in reach]
    assert np.nanmax([r["p_made"] for r in reach]) > 0


def test_a_balance_checkpoint_keeps_the_deals_of_each_table_apart(tmp_path):
    """The deals a checkpoint kept under the rulebook are not those of a variant: under targets
    out of reach above bid 1 no level above 1 is bid, checkpoint or not."""
    hard = write_table(tmp_path / "hard.csv", {4: [20] + [60] * 14})
    common = ["balance", "--players", 4, "--deals", 300, "--seed", 3, "--strength-deals", 0]
    common += ["--checkpoint", tmp_path / "keep"]
    assert invoke(*common, "--out", tmp_path / "a").exit_code == 0
    res = invoke(*common, "--targets", hard, "--out", tmp_path / "b")
    assert res.exit_code == 0, res.output
    rule, variant = (pd.read_csv(tmp_path / out / "balance.csv") for out in ("a", "b"))
    assert rule.deals[rule.bid > 1].sum() > 0 and variant.deals[variant.bid > 1].sum() == 0


@pytest.mark.parametrize(
    "text, said",
    [
        ("4:30,32", "4 players: 2 targets, expected bids 1..15"),
        ("4:" + ",".join(["30"] * 14 + ["29"]), "4 players bid 15: target 29 is below bid 14's 30"),
        ("5:" + ",".join(["30"] * 12), "the table: no targets for 4 players"),
        ("4:" + ",".join(["30"] * 15) + ";4:" + ",".join(["30"] * 15), "4 players: given twice"),
    ],
)
def test_the_tables_text_a_resume_command_gives_is_checked_as_a_file_is(text, said):
    line = error_line(invoke("run", "--deals", 5, "--seed", 1, "--targets", text))
    assert line.startswith("Error: --targets ") and said in line, line
