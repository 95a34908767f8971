"""Bid strength, balance tables and the hand model: statistics checked against independent
computations, forced outcomes and invariants; CLI argument errors."""

import random
import re

import numpy as np
import pandas as pd
import pytest
import reference as ref
from click.testing import CliRunner

from musim.cli import cli
from musim.core.cards import CARD_TEXT, TYPE_MASK, type_text
from musim.games.mu import simulate as sim
from musim.games.mu.analysis import samplers
from musim.games.mu.analysis.balance import analyse
from musim.games.mu.analysis.bid import bid_strength, format_table, parse_hand
from musim.games.mu.hand_model import N_FEATURES, hand_features
from musim.games.mu.params import MuParams
from musim.games.mu.policies import HEURISTIC
from musim.games.mu.rules import hand_size
from musim.games.mu.run import simulate_deal_chunk
from musim.solver.version import SEARCH_VERSION

FIVE = "R9 R8 R7 R7 R6 G9 G7 B1 K0 K3 Y2 Y5"
ALL_RED = " ".join(CARD_TEXT[c] for c in range(12))


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_hand_of_every_red_card_makes_every_level_with_red_trump():
    rows = bid_strength(MuParams(3), ALL_RED, 60, 3)
    red = [r for r in rows if r["chief_trump"] == "R"]
    assert len(red) == 12
    # the chief holds every trump, leads them all and takes all 36 points
    assert all(r["p_made"] == 1.0 and r["mean_team_points"] == 36 for r in red)


def test_rates_are_rates_and_fall_with_the_bid():
    rows = bid_strength(MuParams(5), FIVE, 150, 4, vice="strongest")
    for r in rows:
        assert 0 <= r["p_made_low"] <= r["p_made"] <= r["p_made_high"] <= 1
    by_trump = {}
    for r in rows:
        by_trump.setdefault(r["chief_trump"], []).append(r)
    for trump_rows in by_trump.values():
        # bids 2+ are scored from the same plays against a rising target
        p = [r["p_made"] for r in sorted(trump_rows, key=lambda r: r["bid"]) if r["bid"] >= 2]
        assert all(a >= b for a, b in zip(p, p[1:]))


def test_bid_statistics_match_an_independent_scoring():
    n, samples, seed = 4, 80, 11
    rows = bid_strength(MuParams(n), "R9 R8 R7 R7 R6 G9 G7 B1 K0 K3 Y2 Y5 Y9 Y8 B9", samples, seed, vice="strongest")
    mask, _ = parse_hand("R9 R8 R7 R7 R6 G9 G7 B1 K0 K3 Y2 Y5 Y9 Y8 B9", n)
    rest = np.array([c for c in range(60) if not int(mask) >> c & 1], np.int64)
    types = np.zeros(17, np.int64)
    trumps = types[: samplers.hand_types(mask, types)].copy()
    team = np.zeros((samples, len(trumps), 2), np.int64)
    chief = np.zeros_like(team)
    samplers.bid_samples(
        n,
        mask,
        0,
        0,
        rest,
        seed,
        0,
        samples,
        trumps,
        HEURISTIC,
        samplers.VICE_STRONGEST,
        HEURISTIC,
        False,
        False,
        np.array([[1, 1], [2, hand_size(n)]]),
        team,
        chief,
        sim.make_workspace(n),
    )
    for r in rows:
        j = [type_text(t) for t in trumps].index(r["chief_trump"])
        v = 0 if r["bid"] == 1 else 1
        made, scores = [], []
        for i in range(samples):
            pts = [chief[i, j, v], team[i, j, v] - chief[i, j, v], 0, 0]
            out = ref.score_deal(n, r["bid"], 0, 1, int(trumps[j]), pts)
            made.append(out.made)
            scores.append(out.scores[0])
        assert r["p_made"] == pytest.approx(np.mean(made))
        assert r["chief_score"] == pytest.approx(np.mean(scores))


def test_auction_model_matches_the_simple_models_where_they_coincide():
    # at bid 1 nobody else can have laid a card: every model plays the same no-vice contract
    hand = FIVE + " Y9 Y8 B9"
    simple = {r["chief_trump"]: r for r in bid_strength(MuParams(4), hand, 60, 12, vice="none") if r["bid"] == 1}
    auction = [r for r in bid_strength(MuParams(4), hand, 60, 12, vice="auction", seat=0, dealer=3)]
    for r in auction:
        assert r["samples"] <= 60
        if r["bid"] == 1:
            assert r["p_made"] == simple[r["chief_trump"]]["p_made"]
            assert r["samples"] == 60
    # with a vice, some samples lose a trump the vice named
    assert any(r["samples"] < 60 for r in auction if r["bid"] >= 2 and r["chief_trump"] != "none")


def test_bid_is_reproducible_and_independent_of_workers():
    a = bid_strength(MuParams(4), FIVE + " Y9 Y8 B9", 100, 5, workers=1)
    b = bid_strength(MuParams(4), FIVE + " Y9 Y8 B9", 100, 5, workers=2)
    c = bid_strength(MuParams(4), FIVE + " Y9 Y8 B9", 100, 6, workers=1)
    assert a == b
    assert a != c


@pytest.mark.slow  # exact play over many deals: the slow tier
def test_bid_under_dd_ticks_sample_by_sample_and_is_independent_of_workers():
    ticks = []
    one = bid_strength(MuParams(3, "dd", tt_mb=8), ALL_RED, 6, 2, workers=1, tick=ticks.append)
    two = bid_strength(MuParams(3, "dd", tt_mb=8), ALL_RED, 6, 2, workers=2)
    assert ticks == [1] * 6
    pd.testing.assert_frame_equal(pd.DataFrame(one), pd.DataFrame(two))


def test_hindsight_partner_is_an_upper_bound_on_team_points():
    public = bid_strength(MuParams(5), FIVE, 100, 8)
    best = bid_strength(MuParams(5), FIVE, 100, 8, hindsight=True)
    for p, h in zip(public, best):
        assert h["mean_team_points"] >= p["mean_team_points"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", 5, "--hand", "R9 R8"], "2 cards, a 5-player hand holds 12"),
        (["--players", 5, "--hand", FIVE.replace("R9", "X9")], "unknown card"),
        (["--players", 5, "--hand", FIVE.replace("R9", "R8")], "more often than available"),
        (["--players", 5, "--hand", FIVE.replace("R9 R8", "R7 R7")], "more often than available"),
        (["--players", 7, "--hand", FIVE], "--players"),
        (["--players", 5, "--hand", FIVE, "--samples", "0"], "--samples"),
        (["--players", 5, "--hand", FIVE, "--json", "--csv"], "at most one"),
        (["--players", 3, "--hand", "R0 Y0 G0 B0 R1 R2 R3 R4 R5 R6 R7 R8"], "4 colours"),
        (["--players", 5, "--hand", FIVE, "--seat", 5], "--seat: seat 5 does not exist"),
        (["--players", 5, "--hand", FIVE, "--dealer", -1], "--dealer: seat -1 does not exist"),
    ],
)
def test_bid_argument_errors_are_one_line(args, message):
    res = invoke("bid", *args)
    assert res.exit_code == 2
    assert message in res.output and "warning" not in res.output


def test_bid_json_and_csv_outputs():
    res = invoke("bid", "--play", "heuristic", "--players", 3, "--hand", ALL_RED, "--samples", 30, "--json")
    assert res.exit_code == 0, res.output
    import json

    rows = json.loads(res.output)
    assert {"bid", "chief_trump", "p_made", "p_made_low", "p_made_high", "expected_score"} <= set(rows[0])
    res = invoke("bid", "--play", "heuristic", "--players", 3, "--hand", ALL_RED, "--samples", 30, "--csv")
    assert res.output.splitlines()[0].startswith("bid,chief_trump,")
    assert len(res.output.splitlines()) == len(rows) + 1


def test_bid_json_is_strict_when_a_trump_is_never_available():
    import json

    def no_nan(name):
        raise AssertionError(f"non-standard JSON constant {name}")

    res = invoke(
        "bid",
        "--play",
        "heuristic",
        "--players",
        4,
        "--hand",
        FIVE + " Y9 Y8 B9",
        "--samples",
        1,
        "--vice",
        "auction",
        "--json",
    )
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output, parse_constant=no_nan)
    assert any(r["samples"] == 0 and r["p_made"] is None for r in rows)


def test_balance_agrees_with_the_run_rows():
    n, deals, seed = 4, 400, 9
    result = analyse(MuParams(n), deals, seed)
    ch = simulate_deal_chunk(MuParams(n, "heuristic"), seed, 0, deals)
    df = pd.DataFrame(
        {
            "outcome": ch.res[:, sim.OUTCOME],
            "bid": ch.res[:, sim.BID],
            "success": ch.res[:, sim.SUCCESS],
            "team": ch.res[:, sim.TEAM_POINTS],
        }
    )
    df = df[df.outcome == sim.PLAYED]
    t = result.table.set_index("bid")
    assert t.deals.sum() == len(df)
    for b, g in df.groupby("bid"):
        assert t.loc[b, "deals"] == len(g)
        assert t.loc[b, "p_made"] == pytest.approx(g.success.mean())
        assert t.loc[b, "team_mean"] == pytest.approx(g.team.mean())
    assert result.strength.share.sum() == pytest.approx(1.0)
    assert (t.proposed_target.diff().dropna() >= 0).all()


def test_strength_deals_limits_the_pure_strength_view_to_the_first_deals():
    full = analyse(MuParams(3), 120, 4)
    part = analyse(MuParams(3), 120, 4, strength_deals=30)
    assert part.facts["strength_deals"] == 30 and part.strength.chiefs.sum() == 3 * 30
    assert full.facts["strength_deals"] == full.facts["played"]
    pd.testing.assert_frame_equal(full.table, part.table)
    none = analyse(MuParams(3), 120, 4, strength_deals=0)
    assert none.facts["strength_deals"] == 0 and none.strength.empty
    pd.testing.assert_frame_equal(full.table, none.table)


def test_never_bid_levels_are_listed_as_runs():
    from musim.games.mu.analysis.balance_report import _ranges

    assert _ranges([1, 5, 6, 7, 8, 9, 10]) == "1, 5..10" and _ranges([7, 8]) == "7..8" and _ranges([2]) == "2"


def test_balance_cli_can_skip_the_pure_strength_view(tmp_path):
    out = tmp_path / "bal"
    res = invoke(
        "balance",
        "--play",
        "heuristic",
        "--players",
        "3",
        "--deals",
        50,
        "--seed",
        1,
        "--strength-deals",
        0,
        "--out",
        out,
    )
    assert res.exit_code == 0, res.output
    assert "Pure strength: not computed" in (out / "summary.md").read_text()
    assert pd.read_csv(out / "strength.csv").empty and (out / "strength.png").stat().st_size > 0
    res = invoke(
        "balance",
        "--play",
        "heuristic",
        "--players",
        "3",
        "--deals",
        50,
        "--strength-deals",
        -1,
        "--out",
        tmp_path / "b2",
    )
    assert res.exit_code == 2 and "--strength-deals" in res.output and "at least 0" in res.output


def test_balance_cli_writes_every_file_and_refuses_to_mix(tmp_path):
    out = tmp_path / "bal"
    res = invoke("balance", "--play", "heuristic", "--players", "3", "--deals", 200, "--seed", 1, "--out", out)
    assert res.exit_code == 0, res.output
    table = pd.read_csv(out / "balance.csv")
    assert {"players", "bid", "deals", "p_made", "target", "proposed_target"} <= set(table.columns)
    for f in ("summary.md", "strength.csv", "success_by_bid.png", "targets.png", "team_points.png", "strength.png"):
        assert (out / f).stat().st_size > 0
    res = invoke("balance", "--play", "heuristic", "--players", "3", "--deals", 200, "--out", out)
    assert res.exit_code == 2 and "--overwrite" in res.output
    res = invoke("balance", "--play", "heuristic", "--players", "3,9", "--deals", 200, "--out", out)
    assert res.exit_code == 2 and "3..6" in res.output


def test_balance_of_too_few_deals_to_fit_reports_no_proposal(tmp_path):
    out = tmp_path / "bal"
    res = invoke("balance", "--play", "heuristic", "--players", "4", "--deals", 12, "--seed", 3, "--out", out)
    assert res.exit_code == 0, res.output
    table = pd.read_csv(out / "balance.csv")
    assert table.proposed_target.isna().all() and table.deals.sum() > 0
    assert "no proposed targets" in (out / "summary.md").read_text()


@pytest.mark.slow  # exact play over many deals: the slow tier
def test_hand_model_data_under_double_dummy_play_are_the_same_contracts():
    """--play dd fits the model to the same rows (deals, trumps, features) as heuristic play,
    each with its exact value: points of a 3-player deal, 0..36."""
    from musim.games.mu.analysis.handfit import samples

    x_h, k_h, y_h = samples(MuParams(3), 2, 5)
    x_d, k_d, y_d = samples(MuParams(3, "dd", tt_mb=8), 2, 5)
    np.testing.assert_array_equal(x_h, x_d)
    np.testing.assert_array_equal(k_h, k_d)
    assert len(y_d) >= 4 and ((y_d >= 0) & (y_d <= 36)).all() and (y_d != y_h).any()


def test_hand_features_match_a_direct_count():
    rng = random.Random(2)
    out = np.zeros(N_FEATURES)
    for _ in range(2000):
        cards = rng.sample(range(60), 12)
        mask = np.uint64(sum(1 << c for c in cards))
        t = rng.randrange(-1, 15)
        hand_features(mask, t, out)
        trumps = [c for c in cards if t >= 0 and int(TYPE_MASK[t]) >> c & 1]
        side = [c for c in cards if c not in trumps]
        high = [c for c in trumps if t < 5 and ref.number(c) >= 7]
        expect = [1, len(trumps), len(high)] + [sum(ref.number(c) == d for c in side) for d in (9, 8, 7)]
        assert list(out) == expect


@pytest.mark.slow  # compiles the analyses' exact-play samplers (minutes cold): the slow tier
def test_contract_rank_and_value_are_those_of_double_dummy_play():
    """The pure-strength view under --play dd finds a contract's level by null-window searches
    alone, and the hand-model fit takes a contract's points from one solve; they must be the
    level and points the team reaches when the cards are played out."""
    from musim.games.mu.ddplay import make_ddplay
    from musim.games.mu.policies import DD
    from musim.games.mu.rules import achieved_rank, rulebook_targets

    rng = random.Random(11)
    levels = set()
    every_dd = np.full(sim.MAX_PLAYERS, DD)  # the play code of each seat
    for i in range(24):
        n, size = (3, 9) if i % 3 else (6, 6)
        deck = list(range(36 if n == 3 else 60))
        cards = rng.sample(deck, size * n)
        hands = np.array([sum(1 << c for c in cards[size * s : size * s + size]) for s in range(n)], np.uint64)
        chief = rng.randrange(n)
        partner = -1 if n == 3 else rng.choice([s for s in range(n) if s != chief])
        trump = rng.randrange(-1, 15)
        best = rng.randrange(0, 4)
        ws = sim.make_workspace(n, make_ddplay(8))
        for s in range(n):
            ws.held[s] = hands[s]
        rank = sim.contract_rank_above(n, chief, partner, trump, -1, best, hand_size(n), ws)
        for s in range(n):
            ws.held[s] = hands[s]
        value = sim.contract_value(n, chief, partner, trump, -1, ws)
        for s in range(n):
            ws.held[s] = hands[s]
        played = sim.play_contract(
            n, chief, partner, trump, -1, every_dd, np.zeros(1, np.uint64), np.zeros(sim.MAX_PLAYERS, np.int64), ws
        )
        assert rank == max(best, achieved_rank(n, played, rulebook_targets())), (n, hands, chief, partner, trump, best)
        assert value == played, (n, hands, chief, partner, trump)
        levels.add(rank)
    assert len(levels) >= 4  # the searches climbed several levels, not only stopped at `best`


@pytest.mark.slow  # compiles the analyses' exact-play samplers (minutes cold): the slow tier
def test_pure_strength_is_the_best_contract_whatever_order_it_tries_them_in():
    """samplers.strength tries first the contracts the hand model rates highest; its level
    must still be the best over every trump and partner, each contract searched on its own."""
    from musim.games.mu.ddplay import make_ddplay
    from musim.games.mu.policies import DD

    rng = random.Random(13)
    for n, size in ((3, 6), (4, 5), (6, 4)):
        deck = list(range(36 if n == 3 else 60))
        hands = np.zeros((3, sim.MAX_PLAYERS), np.uint64)
        for i in range(3):
            cards = rng.sample(deck, size * n)
            for s in range(n):
                hands[i, s] = sum(1 << c for c in cards[size * s : size * s + size])
        ws = sim.make_workspace(n, make_ddplay(8))
        best = np.zeros((3, n), np.int64)
        samplers.strength(n, hands, DD, best, ws)
        for i in range(3):
            for chief in range(n):
                trumps = [t for t in range(15) if int(hands[i, chief]) & int(TYPE_MASK[t])] + [-1]
                partners = [p for p in range(n) if p != chief] if n >= 4 else [-1]
                levels = []
                for t in trumps:
                    for p in partners:
                        ws.held[:n] = hands[i, :n]
                        levels.append(sim.contract_rank_above(n, chief, p, t, -1, 0, hand_size(n), ws))
                assert best[i, chief] == max(levels), (n, i, chief)


@pytest.mark.slow  # exact play over many deals: the slow tier
def test_balance_with_dd_tricks_plays_as_run_does_and_strength_plays_the_contracts_out():
    """`--dd-tricks T`: the table holds the rows of `musim run --dd-tricks T`, and the pure-strength
    view plays each contract out (heuristic, then the last T tricks double-dummy) rather than
    searching it from the first trick: its level is the best achieved rank of those plays."""
    from musim.games.mu.ddplay import make_ddplay
    from musim.games.mu.policies import DD
    from musim.games.mu.rules import achieved_rank, rulebook_targets

    n, deals, seed, tricks = 4, 40, 3, 4
    result = analyse(MuParams(n, "dd", dd_tricks=tricks, tt_mb=8), deals, seed, strength_deals=2)
    ch = simulate_deal_chunk(MuParams(n, "dd", dd_tricks=tricks, tt_mb=8), seed, 0, deals)
    played = ch.res[:, sim.OUTCOME] == sim.PLAYED
    assert (result.team == ch.res[played, sim.TEAM_POINTS]).all()
    assert (result.bids == ch.res[played, sim.BID]).all()
    ws = sim.make_workspace(n, make_ddplay(8, tricks))
    hands = ch.hands[played][:2]
    levels = np.zeros((2, n), np.int64)
    every_dd = np.full(sim.MAX_PLAYERS, DD)  # the play code of each seat
    for i in range(2):
        for chief in range(n):
            for t in [t for t in range(15) if int(hands[i, chief]) & int(TYPE_MASK[t])] + [-1]:
                for p in (p for p in range(n) if p != chief):
                    ws.held[:n] = hands[i, :n]
                    sim.set_team(n, chief, p, ws)
                    pts = sim.play_contract(
                        n, chief, p, t, -1, every_dd, np.zeros(1, np.uint64), np.zeros(sim.MAX_PLAYERS, np.int64), ws
                    )
                    levels[i, chief] = max(levels[i, chief], achieved_rank(n, pts, rulebook_targets()))
    expect = np.bincount(levels.ravel(), minlength=len(result.strength))
    assert (result.strength.chiefs.to_numpy() == expect).all()


def test_balance_dd_tricks_needs_dd_play(tmp_path):
    res = invoke(
        "balance", "--play", "heuristic", "--dd-tricks", 3, "--players", "3", "--deals", 10, "--out", tmp_path / "b"
    )
    assert res.exit_code == 2 and "--dd-tricks applies only with --play dd" in res.output
    assert not (tmp_path / "b").exists()


@pytest.mark.slow  # compiles the analyses' exact-play samplers (minutes cold): the slow tier
def test_balance_checkpoint_supplies_finished_deals_and_nothing_else(tmp_path, monkeypatch):
    """A run that kept its deals in a checkpoint is rebuilt from it alone, to the same tables;
    other parameters find nothing there (so they simulate), and a partly kept run simulates
    only the chunks it lacks."""
    from musim.games.mu.analysis import balance

    ck = str(tmp_path / "ck")
    first = analyse(MuParams(3), 300, 4, strength_deals=40, checkpoint=ck)
    pd.testing.assert_frame_equal(first.table, analyse(MuParams(3), 300, 4, strength_deals=40).table)

    def fail(*args):
        raise AssertionError("simulated a chunk the checkpoint holds")

    monkeypatch.setattr(balance, "simulate_deal_chunk", fail)
    monkeypatch.setattr(samplers, "strength", fail)
    again = analyse(MuParams(3), 300, 4, strength_deals=40, checkpoint=ck)
    pd.testing.assert_frame_equal(first.table, again.table)
    pd.testing.assert_frame_equal(first.strength, again.strength)
    assert first.facts["held_seconds"] == 0 < first.facts["worker_seconds"]
    assert again.facts["held_seconds"] == again.facts["worker_seconds"] == first.facts["worker_seconds"]
    with pytest.raises(AssertionError, match="simulated"):
        analyse(MuParams(3), 300, 5, strength_deals=40, checkpoint=ck)  # another seed: nothing kept
    monkeypatch.undo()
    calls = []
    monkeypatch.setattr(balance, "simulate_deal_chunk", lambda *a: calls.append(a[2]) or simulate_deal_chunk(*a))
    dd = MuParams(3, "dd", tt_mb=8)
    fewer = analyse(dd, 6, 4, strength_deals=0, checkpoint=ck)  # under dd a chunk is one deal
    calls.clear()
    more = analyse(dd, 8, 4, strength_deals=0, checkpoint=ck)
    assert sorted(calls) == [6, 7]
    assert more.facts["held_seconds"] == fewer.facts["worker_seconds"] < more.facts["worker_seconds"]
    pd.testing.assert_frame_equal(more.table, analyse(MuParams(3, "dd", tt_mb=8), 8, 4, strength_deals=0).table)


def test_balance_checkpoint_is_keyed_by_what_decides_its_rows_alone(tmp_path):
    """Workers, progress, the deal counts and (without a node limit) the table size share the
    directories of a run; each row-deciding parameter has its own, and key.json says which."""
    import json

    from musim.engine.key import key_hash
    from musim.games.mu.analysis.balance import checkpoint_key

    ck = tmp_path / "ck"
    analyse(MuParams(3), 40, 4, strength_deals=10, checkpoint=str(ck))
    dirs = {p.name: json.loads((p / "key.json").read_text())["params"] for p in ck.iterdir()}
    assert sorted(k["job"] for k in dirs.values()) == ["balance-deals", "balance-strength"]
    assert all(k["seed"] == 4 and k["players"] == 3 and k["play"] == "heuristic" for k in dirs.values())
    analyse(MuParams(3, tt_mb=8), 60, 4, workers=2, tick=lambda k: None, strength_deals=20, checkpoint=str(ck))
    assert {p.name for p in ck.iterdir()} == set(dirs)
    dd4 = {"players": 4, "play": "dd"}
    key = lambda job="balance-deals", seed=1, **kw: checkpoint_key(job, MuParams(**dd4 | kw), seed)
    name = lambda **kw: key_hash(key(**kw))
    changed = [dict(job="balance-strength"), dict(players=5), dict(seed=2), dict(play="heuristic")]
    changed += [dict(dd_tricks=3), dict(node_limit=10**9), dict(question="reach")]
    assert len({name(**kw) for kw in changed} | {name()}) == len(changed) + 1
    assert name(tt_mb=8) == name()
    assert name(node_limit=10**9, tt_mb=8) != name(node_limit=10**9)
    # under a node limit the search's version too (solver/version.py): which deals give up
    assert key(node_limit=10**9)["params"]["search"] == SEARCH_VERSION
    assert "search" not in key()["params"]
    # the question decides the deals' rows, not the pure-strength view's; the value keeps its old key
    assert name(job="balance-strength", question="reach") == name(job="balance-strength")
    assert "question" not in key()["params"]
    assert key(question="reach")["params"]["question"] == "reach"


def test_balance_summary_counts_the_worker_time_of_the_deals_a_checkpoint_held(tmp_path):
    args = (
        "balance",
        "--play",
        "heuristic",
        "--players",
        "3",
        "--deals",
        300,
        "--seed",
        1,
        "--strength-deals",
        0,
        "--checkpoint",
        tmp_path / "ck",
        "--overwrite",
        "--out",
        tmp_path / "bal",
    )
    times = []
    for _ in range(2):
        assert invoke(*args).exit_code == 0
        text = (tmp_path / "bal" / "summary.md").read_text()
        times.append(
            re.search(
                r"its deals took ([\d.]+) s of worker time( in all, ([\d.]+) s of it in the earlier"
                r" runs)?",
                text,
            )
        )
    assert times[0] and not times[0].group(2)
    assert times[1].group(1) == times[1].group(3) == times[0].group(1)


def test_balance_checkpoint_must_be_a_writable_directory(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    res = invoke(
        "balance", "--play", "heuristic", "--players", "3", "--deals", 10, "--checkpoint", f, "--out", tmp_path / "b"
    )
    assert res.exit_code == 2 and "--checkpoint" in res.output and "Traceback" not in res.output


@pytest.mark.slow  # exact play over many deals: the slow tier
def test_balance_under_a_node_limit_counts_unresolved_deals_and_spans_their_outcomes(tmp_path):
    """`--node-limit`: a level's deals still count every played deal; its success interval
    spans both outcomes of the undecided ones, so it holds the rate without a limit; team
    points cover the resolved deals alone; pure-strength seats left unresolved are left out,
    and the others keep their level."""
    from musim.games.mu.ddplay import UNRESOLVED

    n, deals, seed, limit = 3, 60, 5, 100_000
    free = analyse(MuParams(n, "dd", tt_mb=8), deals, seed, strength_deals=4)
    capped = analyse(MuParams(n, "dd", node_limit=limit, tt_mb=8), deals, seed, strength_deals=4)
    ch = simulate_deal_chunk(MuParams(n, "dd", node_limit=limit, tt_mb=8), seed, 0, deals)
    r = ch.res[ch.res[:, sim.OUTCOME] == sim.PLAYED]
    resolved = r[r[:, sim.DD_VALUE] != UNRESOLVED]
    f, c = free.table.set_index("bid"), capped.table.set_index("bid")
    assert (f.deals == c.deals).all() and c.unresolved.sum() == len(r) - len(resolved) > 5
    assert capped.facts["unresolved"] == c.unresolved.sum() and (c.undecided <= c.unresolved).all()
    for b in c.index[c.deals > 0]:
        assert c.p_made_low[b] <= f.p_made[b] <= c.p_made_high[b]
        level = resolved[resolved[:, sim.BID] == b, sim.TEAM_POINTS]
        if level.size:
            assert c.team_mean[b] == pytest.approx(level.mean())
    assert (free.table.unresolved == 0).all() and free.facts["unresolved"] == 0
    assert capped.facts["strength_unresolved"] + capped.strength.chiefs.sum() == n * 4
    assert (capped.strength.chiefs <= free.strength.chiefs).all()
    res = invoke(
        "balance",
        "--play",
        "dd",
        "--players",
        n,
        "--deals",
        20,
        "--seed",
        seed,
        "--tt-mb",
        8,
        "--strength-deals",
        0,
        "--node-limit",
        "1e5",
        "--out",
        tmp_path / "b",
    )
    assert res.exit_code == 0, res.output
    text = (tmp_path / "b" / "summary.md").read_text()
    assert "**Node limit 100,000:**" in text and "unresolved (undecided) |" in text


@pytest.mark.parametrize("args", [("--play", "heuristic"), ("--play", "dd", "--dd-tricks", 4)])
def test_balance_node_limit_needs_whole_deal_dd_play(tmp_path, args):
    res = invoke("balance", *args, "--node-limit", 1000, "--players", "3", "--deals", 10, "--out", tmp_path / "b")
    assert res.exit_code == 2 and "--node-limit applies only with --play dd and no --dd-tricks" in res.output
    assert not (tmp_path / "b").exists()
    res = invoke(
        "balance", "--play", "dd", "--node-limit", "lots", "--players", "3", "--deals", 10, "--out", tmp_path / "c"
    )
    assert res.exit_code == 2 and "--node-limit" in res.output and "not a number" in res.output


@pytest.mark.slow  # exact play over many deals: the slow tier
@pytest.mark.parametrize("n, deals, tricks", [(3, 30, 0), (4, 30, 5), (6, 30, 4)])
def test_the_reach_question_decides_every_target_as_the_value_does(n, deals, tricks):
    """`--question reach`: one null-window search per deal; its bounds decide the target exactly
    where the value (played out) reached it, also where only the last tricks are double-dummy
    (the search asks for the target less what the team took before them).  The balance table
    has the same success rates, no team points, and says which question it asked."""
    from musim.games.mu.ddplay import UNRESOLVED

    seed = 7
    value = simulate_deal_chunk(MuParams(n, "dd", dd_tricks=tricks, tt_mb=8), seed, 0, deals)
    reach = simulate_deal_chunk(MuParams(n, "dd", dd_tricks=tricks, question="reach", tt_mb=8), seed, 0, deals)
    played = value.res[:, sim.OUTCOME] == sim.PLAYED
    assert (played == (reach.res[:, sim.OUTCOME] == sim.PLAYED)).all() and played.sum() > deals // 2
    v, r = value.res[played], reach.res[played]
    for col in (sim.BID, sim.CHIEF, sim.PARTNER, sim.CHIEF_TRUMP, sim.TARGET):
        assert (v[:, col] == r[:, col]).all()
    assert (v[:, sim.DD_VALUE] >= 0).all() and (r[:, sim.DD_VALUE] == UNRESOLVED).all()
    made = v[:, sim.SUCCESS] == 1
    assert made.any() and not made.all()
    assert ((r[:, sim.DD_LOW] >= r[:, sim.TARGET]) == made).all()
    assert ((r[:, sim.DD_HIGH] < r[:, sim.TARGET]) == ~made).all()
    assert ((r[:, sim.DD_LOW] <= v[:, sim.TEAM_POINTS]) & (v[:, sim.TEAM_POINTS] <= r[:, sim.DD_HIGH])).all()
    a = analyse(MuParams(n, "dd", dd_tricks=tricks, tt_mb=8), deals, seed, strength_deals=0)
    b = analyse(MuParams(n, "dd", dd_tricks=tricks, question="reach", tt_mb=8), deals, seed, strength_deals=0)
    cols = ["bid", "deals", "p_made", "p_made_low", "p_made_high", "target", "unresolved", "undecided"]
    pd.testing.assert_frame_equal(a.table[cols], b.table[cols])
    assert (a.table.question == "value").all() and (b.table.question == "reach").all()
    assert b.table.team_mean.isna().all() and b.table.chief_score.isna().all() and b.table.proposed_target.isna().all()
    assert a.table.team_mean.notna().any() and b.facts["question"] == "reach" and b.facts["p_star"] == a.facts["p_star"]


@pytest.mark.slow  # exact play over many deals: the slow tier
@pytest.mark.parametrize("vice", ["strongest", "none", "auction"])
def test_bid_under_the_reach_question_has_the_success_rates_of_the_value(vice):
    hand = "R9 R8 R7 R7 R6 R5 Y9 Y8 G9 G8 G1 G0"
    value = bid_strength(MuParams(3, "dd", tt_mb=8), hand, 5, 3, vice=vice)
    reach = bid_strength(MuParams(3, "dd", tt_mb=8, question="reach"), hand, 5, 3, vice=vice)
    assert [(r["bid"], r["chief_trump"]) for r in value] == [(r["bid"], r["chief_trump"]) for r in reach]
    for a, b in zip(value, reach):
        for k in ("p_made", "p_made_low", "p_made_high", "samples"):
            assert a[k] == b[k] or (np.isnan(a[k]) and np.isnan(b[k])), (a, b)
        assert a["question"] == "value" and b["question"] == "reach"
        assert np.isnan(b["expected_score"]) and np.isnan(b["mean_team_points"])
    assert len({r["p_made"] for r in value}) > 3
    assert "question reach" in format_table(reach, 3, 5)


@pytest.mark.slow  # compiles the analyses' exact-play samplers (minutes cold): the slow tier
def test_a_best_partner_in_hindsight_reaches_what_the_best_value_reaches():
    """The hindsight partner under the reach question: the highest bid in low..top that some
    partner's team reaches, climbing from the best so far; it must agree with the best team
    points over the partners, played out."""
    from musim.games.mu.ddplay import make_ddplay
    from musim.games.mu.policies import DD
    from musim.games.mu.rules import achieved_rank, rulebook_targets

    rng = random.Random(5)
    seen = set()
    for i in range(12):
        n, size = (4, 8) if i % 2 else (6, 6)
        cards = rng.sample(range(60), size * n)
        hands = np.array([sum(1 << c for c in cards[size * s : size * s + size]) for s in range(n)], np.uint64)
        hands = np.concatenate([hands, np.zeros(sim.MAX_PLAYERS - n, np.uint64)])
        chief, vice = 0, rng.randrange(1, n)
        trump = rng.randrange(-1, 15)
        vt = rng.choice([t for t in range(-1, 15) if t != trump or t < 0])
        low = rng.randrange(1, 4)
        top = rng.randrange(low, hand_size(n) + 1)
        ws = sim.make_workspace(n, make_ddplay(8))
        args = (np.zeros(sim.MAX_PLAYERS, np.uint64), True)
        state, points = np.zeros(1, np.uint64), np.zeros(sim.MAX_PLAYERS, np.int64)
        dd = np.full(sim.MAX_PLAYERS, DD)  # the play code of each seat
        team, _ = samplers._play_chief(n, hands, chief, vice, vt, trump, *args, False, 0, 0, dd, state, points, ws)
        rank, _ = samplers._play_chief(n, hands, chief, vice, vt, trump, *args, True, low, top, dd, state, points, ws)
        want = max(low - 1, min(top, achieved_rank(n, team, rulebook_targets())))
        assert rank == want, (n, hands, vice, trump, vt, low, top)
        seen.add(rank - low)
    assert min(seen) < 0 < max(seen)


@pytest.mark.parametrize("command", ["balance", "bid"])
def test_the_question_is_checked_with_a_one_line_error(tmp_path, command):
    import subprocess
    import sys

    args = ["--players", "3", "--out", str(tmp_path / "b")] if command == "balance" else ["--hand", ALL_RED]
    bad = subprocess.run(
        [sys.executable, "-m", "musim", command, "--play", "dd", "--question", "maybe", *args],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and f"musim {command}: error: " in bad.stderr and "--question" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    res = invoke(command, "--play", "heuristic", "--question", "reach", *args)
    assert res.exit_code == 2 and "--question reach applies only with --play dd" in res.output
    assert not (tmp_path / "b").exists()


@pytest.mark.slow  # it alone compiles balance's exact play (about 90 s of one core): the slow tier
def test_balance_cli_under_the_reach_question_says_so_in_every_file(tmp_path):
    out = tmp_path / "b"
    res = invoke(
        "balance",
        "--play",
        "dd",
        "--question",
        "reach",
        "--players",
        "3",
        "--deals",
        20,
        "--seed",
        2,
        "--tt-mb",
        8,
        "--strength-deals",
        2,
        "--node-limit",
        "1e6",
        "--out",
        out,
    )
    assert res.exit_code == 0, res.output
    table = pd.read_csv(out / "balance.csv")
    assert (table.question == "reach").all() and table.team_mean.isna().all() and table.p_made.notna().any()
    text = (out / "summary.md").read_text()
    assert "question `reach`" in text and "**Question `reach`:**" in text and "| undecided |" in text
    assert "team mean" not in text and "no proposed targets (they need the team points" in text
    assert "Pure strength (2 played deals" in text
