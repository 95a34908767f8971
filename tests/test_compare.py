"""`musim compare A B` through the CLI: a run against itself gives 0 differences, other policies
give differences whose intervals exclude 0, the paired and two-sample intervals agree with a
computation by hand from the rows, and runs that are not of the same deals are refused."""

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import musim
from musim.analysis.stats import newcombe
from musim.cli import cli
from musim.engine.parquet import MANIFEST, METADATA_KEY
from musim.games import all_games

DEALS, SEED = 3000, 7
Z = 1.959963984540054
SEATS = ("mean score_0", "mean score_1", "mean score_2", "mean score_3")
# B's --play against A's heuristic play, and the figures whose B - A interval must exclude 0
CONTRASTS = [
    (("--play", "random"), SEATS),
    (("--play", "random,heuristic,heuristic,heuristic"), ("mean score_0",)),
    (("--play", "heuristic", "--auction", "bold"), ("eklat rate",)),
]


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """run(*args, deals=, seed=, out=) -> the path of a Mü run (4 players, seed SEED, DEALS deals by
    default) with these `musim run` arguments, made once."""
    made = {}
    folder = tmp_path_factory.mktemp("runs")

    def make(*args, deals=DEALS, seed=SEED, out=None):
        args = ("--deals", deals, "--seed", seed, *args)
        if args not in made:
            path = folder / (out or f"run{len(made)}.parquet")
            res = invoke("run", "--game", "mu", *args, "--out", path, "--no-progress")
            assert res.exit_code == 0, res.output
            made[args] = path
        return made[args]

    return make


def compare(a, b):
    res = invoke("compare", a, b, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def metrics(result):
    return {m["name"]: m for m in result["metrics"]}


def test_a_run_against_itself_gives_zero_differences_for_every_figure(run):
    a = run(out="heuristic")  # a run directory
    result = compare(a, a)
    assert result["pairs"] == DEALS
    names = metrics(result)
    rows = musim.read_run(a)
    bids = sorted(int(b) for b in rows.bid[rows.outcome == "played"].unique())
    expected = [*SEATS, "eklat rate", "played: success rate", "played: mean team points"]
    expected += [f"bid {b}: {what}" for b in bids for what in ("share of deals", "success rate", "mean team points")]
    expected += [f"{p}: advantage" for p in ("dealer", "dealer+1", "dealer+2", "dealer+3")]
    assert set(expected) <= set(names)
    for m in result["metrics"]:
        assert m["a"] == m["b"] and m["kind"] == "paired", m
        assert m["diff"] == 0, m
        assert (m["low"], m["high"]) in ((0, 0), (None, None)), m  # None: a figure over a single deal
    text = invoke("compare", a, a)
    assert text.exit_code == 0
    assert all(len(line) <= 100 for line in text.output.splitlines())


@pytest.mark.parametrize("b_args, different", CONTRASTS)
def test_other_policies_give_differences_whose_intervals_exclude_zero(run, b_args, different):
    result = metrics(compare(run(), run(*b_args)))
    for name in different:
        m = result[name]
        assert m["kind"] == "paired" and m["diff"] == pytest.approx(m["b"] - m["a"])
        assert m["low"] > 0 or m["high"] < 0, m


def test_the_text_states_each_runs_policies_within_100_columns(run):
    res = invoke("compare", run(), run("--play", "random"))
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert all(len(line) <= 100 for line in lines)
    said = {line[:3]: line for line in lines if line[:3] in ("A: ", "B: ")}  # a long one wraps onto the next
    assert "play heuristic" in said["A: "] and "play random" in said["B: "]
    assert "two-sample" in res.output and "paired" in res.output


def test_json_shape(run):
    result = compare(run(), run("--play", "random"))
    assert set(result) >= {"pairs", "metrics"} and result["pairs"] == DEALS
    for m in result["metrics"]:
        assert {"name", "a", "b", "diff", "low", "high", "kind"} <= set(m)
        assert m["kind"] in ("paired", "two-sample")
        assert all(m[k] is None or isinstance(m[k], float) for k in ("a", "b", "diff", "low", "high"))
    assert [r["play"] for r in result["runs"]] == ["heuristic", "random"]


def test_intervals_agree_with_a_computation_by_hand(run):
    """Paired: the mean of per-deal differences +- z s/sqrt(n); two-sample: Welch for a mean, and
    Newcombe's interval (from Wilson's, written out here) for a rate, over the two runs' subsets."""
    a, b = run(), run("--play", "random")
    result = metrics(compare(a, b))
    ra, rb = musim.read_run(a), musim.read_run(b)

    d = (rb.score_2 - ra.score_2).to_numpy(float)
    half = Z * d.std(ddof=1) / np.sqrt(len(d))
    assert _interval(result["mean score_2"]) == pytest.approx((d.mean(), d.mean() - half, d.mean() + half))

    played = [r[r.outcome == "played"] for r in (ra, rb)]
    counts = [p.bid.value_counts() for p in played]
    level = int((counts[0] * counts[1]).idxmax())  # a bid level both runs reach, on other deals
    at = [p[p.bid == level] for p in played]
    assert len(at[0]) > 1 and len(at[1]) > 1
    x, y = (s.team_points.to_numpy(float) for s in at)
    half = Z * np.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))
    m = result[f"bid {level}: mean team points"]
    assert m["kind"] == "two-sample"
    assert _interval(m) == pytest.approx((y.mean() - x.mean(), y.mean() - x.mean() - half, y.mean() - x.mean() + half))

    k, n = [int(s.success.sum()) for s in at], [len(s) for s in at]
    (pa_, la, ua), (pb, lb, ub) = (_wilson(k[i], n[i]) for i in (0, 1))
    diff = pb - pa_
    expected = (diff, diff - np.hypot(pb - lb, ua - pa_), diff + np.hypot(ub - pb, pa_ - la))
    assert _interval(result[f"bid {level}: success rate"]) == pytest.approx(expected)


def _interval(m):
    return m["diff"], m["low"], m["high"]


def _wilson(k, n):
    """(rate, low, high): Wilson's score interval."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * np.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return p, max(centre - half, 0.0), min(centre + half, 1.0)


@pytest.mark.parametrize(
    "k1, n1, k2, n2, low, high",
    [(48, 80, 56, 70, 0.0524, 0.3339), (2, 7, 6, 7, 0.0582, 0.8062), (0, 20, 0, 10, -0.1611, 0.2775)],
)
def test_newcombe_gives_the_intervals_of_newcombes_paper(k1, n1, k2, n2, low, high):
    """Newcombe (1998), Statistics in Medicine 17:873, Table II, method 10 (examples a, c, e)."""
    _, lo, hi = newcombe(k1, n1, k2, n2)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def _rewritten(source, dest, **params):
    """A copy of the Parquet file `source` whose metadata params are changed to `params`: another
    game's or a match run's file, whose refusal reads the metadata alone (no second game's kernels
    compiled here)."""
    table = pq.read_table(source)
    meta = json.loads(table.schema.metadata[METADATA_KEY])
    meta["params"] |= params
    pq.write_table(table.replace_schema_metadata({METADATA_KEY: json.dumps(meta)}), dest)
    return dest


def _unfinished(source, dest):
    """A copy of the run directory `source`, marked unfinished (DEST.partial/, as a stopped run)."""
    shutil.copytree(source, str(dest) + ".partial")
    path = os.path.join(str(dest) + ".partial", MANIFEST)
    with open(path) as fh:
        manifest = json.load(fh)
    with open(path, "w") as fh:
        json.dump(manifest | {"complete": False}, fh)
    return dest


def _halves(source, tmp):
    """Two files of the rows of `source`, its first half of deals and its second: no deal in common."""
    table = pq.read_table(source)
    first = table.column("deal").to_numpy() < table.num_rows // 2
    paths = tmp / "first.parquet", tmp / "second.parquet"
    for path, rows in zip(paths, (first, ~first)):
        pq.write_table(table.filter(rows), path)
    return paths


@pytest.mark.parametrize(
    "make_b, message",
    [
        (lambda run, tmp: run(deals=200, seed=8), "seed 7 and 8"),
        (lambda run, tmp: run("--players", 3, deals=200), "players 4 and 3"),
        (lambda run, tmp: _rewritten(run(), tmp / "panther.parquet", game="panther"), "game mu and panther"),
        (lambda run, tmp: _rewritten(run(), tmp / "m.parquet", mode="matches"), "a run of matches"),
        (lambda run, tmp: _unfinished(run(out="heuristic"), tmp / "stopped"), "is an unfinished run"),
    ],
)
def test_runs_not_of_the_same_deals_are_refused(run, tmp_path, make_b, message):
    res = invoke("compare", run(), make_b(run, tmp_path))
    assert res.exit_code == 2 and message in res.output, res.output


def test_runs_without_a_common_deal_are_refused_in_one_line(run, tmp_path):
    first, second = _halves(run(), tmp_path)
    res = subprocess.run([sys.executable, "-m", "musim", "compare", first, second], capture_output=True, text=True)
    assert res.returncode == 2 and res.stdout == ""
    (line,) = res.stderr.splitlines()
    assert line.endswith(f"musim compare: error: {first} and {second} have no deal index in common")


def test_every_game_with_policies_gives_its_summary_figures():
    """Each game that can be run has figures deal by deal for `musim compare` (a game scored per
    seat inherits seat_run's); the slow test below compares real runs of each."""
    for game in all_games():
        if game.policies:
            params = {"game": game.name, "mode": "deals", "players": game.default_players, "play": game.policies[0]}
            params |= {"seed": 1, "options": {o.name: o.default for o in game.options}}
            assert callable(getattr(game.make_summary(params), "figures", None)), game.name


@pytest.mark.slow
@pytest.mark.parametrize("game", [g.name for g in all_games() if g.policies and g.name != "mu"])
def test_every_game_compares_heuristic_with_random_play(tmp_path, game):
    paths = []
    for play in ("heuristic", "random"):
        paths.append(tmp_path / f"{play}.parquet")
        res = invoke(
            "run", "--game", game, "--players", 4, "--deals", 300, "--seed", 3, "--play", play, "--out", paths[-1]
        )
        assert res.exit_code == 0, res.output
    itself, other = compare(paths[0], paths[0]), metrics(compare(*paths))
    assert all(m["diff"] == 0 and m["low"] == m["high"] == 0 for m in itself["metrics"])
    names = [m["name"] for m in itself["metrics"]]
    assert {*SEATS, "dealer: mean score", "dealer+3: advantage"} <= set(names) and len(names) > len(SEATS) + 8
    for m in itself["metrics"]:  # A's figures are A's whatever B is; B - A is the difference of the two
        o = other[m["name"]]
        assert o["a"] == pytest.approx(m["a"]) and o["diff"] == pytest.approx(o["b"] - o["a"]), o
    text = invoke("compare", *paths)
    assert text.exit_code == 0 and all(len(line) <= 100 for line in text.output.splitlines())
