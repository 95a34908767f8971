"""The search's trace and replay (musim/solver/trace.py, benchmarks/ordering.py): a tracing or
replaying search proves what the normal one does, and each record is a position whose search
agrees with what the record says settled it."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))
from common import positions  # noqa: E402
from ordering import load_cut, load_record, needs, replay, search, solver_with  # noqa: E402

from musim.games.bridge.solve import BridgeSolver  # noqa: E402
from musim.solver.ordering import DEFAULT_ORDER  # noqa: E402
from musim.solver.search import available, can_reach, make_state  # noqa: E402
from musim.solver.stats import S_NODES  # noqa: E402
from musim.solver.trace import (  # noqa: E402
    R_AVAIL,
    R_CARD,
    R_CUT,
    R_INDEX,
    R_NODES,
    R_SEAT,
    R_WASTE,
    clear_trace,
    make_oracle,
    records,
)
from musim.solver.tt import make_table  # noqa: E402

MU_SETS = [("4", "4"), ("5", "3"), ("3", "5")]


@pytest.fixture(scope="module")
def tt():
    return make_table(8)


def run_script(name, *args):
    return subprocess.run([sys.executable, str(BENCH / name), *map(str, args)], capture_output=True, text=True)


def mu_positions():
    return [obj for game, tricks in MU_SETS for obj in positions(game, tricks, 3, 7)]


@pytest.mark.slow
def test_traced_search_searches_as_the_normal_one(tt):
    """Same values and the same nodes, search by search, for Mü endings and bridge deals."""
    normal, traced = solver_with(tt, make_state()), solver_with(tt, make_state(tracing=100_000))
    for obj in mu_positions():
        assert [s[:4] for s in needs(traced, obj)] == [s[:4] for s in needs(normal, obj)]
        assert traced.st.trace.count[0] > 0
    bridge, traced_bridge = BridgeSolver(tt), BridgeSolver(tt)
    traced_bridge.st = make_state(tracing=100_000)
    for obj in positions("bridge", "5", 5, 7):
        bridge.st.stats[:] = traced_bridge.st.stats[:] = 0
        assert traced_bridge.solve(obj, all_moves=True) == bridge.solve(obj, all_moves=True)
        assert traced_bridge.st.stats[S_NODES] == bridge.st.stats[S_NODES]


@pytest.mark.slow
def test_replay_gives_the_searched_answer(tt):
    """The replay (cutting moves first) answers each search as the search did, in no more nodes
    over the lot; a full bridge solve replayed with a whole solve's cuts keeps every value."""
    traced = solver_with(tt, make_state(tracing=100_000))
    total = replayed = 0
    for obj in mu_positions():
        for need, reached, *_ in needs(solver_with(tt, make_state()), obj):
            first, again, kept_from = replay(tt, traced, obj, need)
            assert first[0] == again[0] == reached and kept_from == 1
            total, replayed = total + first[2], replayed + again[2]
    assert replayed <= total
    bridge = BridgeSolver(tt)
    bridge.st = make_state(tracing=100_000)
    for obj in positions("bridge", "5", 5, 7):
        clear_trace(bridge.st.trace)
        want = bridge.solve(obj, all_moves=True)
        oracle = make_oracle(*records(bridge.st.trace))
        again = BridgeSolver(tt)
        again.st = make_state(oracle=oracle)
        assert again.solve(obj, all_moves=True) == want


@pytest.mark.slow
def test_records_round_trip_to_their_search(tt):
    """Each record, loaded into a fresh state, is a position whose search answers as the record
    says: a maximiser's cut reaches the need, a minimiser's denies it, all-failed the reverse; the
    cutting card is the mover's; the avail matches the cards; the root's record has all the nodes.
    The positions alternate player counts, as a study's sets do."""
    traced, plain = solver_with(tt, make_state(tracing=100_000)), solver_with(tt, make_state())
    checked = 0
    for obj in mu_positions():
        setup, *_ = plain.load(obj)
        team = setup.game.team
        need = next(needs(plain, obj))[0]
        _, _, nodes, _ = search(traced, obj, need)
        rec, hands = records(traced.st.trace)
        assert len(rec) == 0 or rec[:, R_NODES].max() == nodes
        assert not hands[:, setup.game.n :].any()  # no seat the position lacks (the oracle keys them all)
        assert (rec[:, R_WASTE] < rec[:, R_NODES]).all() and ((rec[:, R_INDEX] >= 0) == rec[:, R_CUT]).all()
        for row, h in zip(rec[::7], hands[::7], strict=True):
            rec_copy, hands_copy = row.copy(), h.copy()
            g, leader, k, need_at = load_record(plain, obj, rec_copy, hands_copy)
            st = plain.st
            assert available(g, st.hands, st.line, k) == row[R_AVAIL]
            if row[R_CUT]:
                assert int(st.hands[row[R_SEAT]]) >> int(row[R_CARD]) & 1
            reached, _ = can_reach(g, tt, st, leader, k, need_at, row[R_AVAIL], k)
            assert reached == (bool(team[row[R_SEAT]]) == bool(row[R_CUT]))
            assert np.array_equal(st.hands, h)
            checked += 1
    assert checked > 20


def test_collect_cuts_refuses_the_panels_seed(tmp_path):
    """The labels must come from seeds other than the panel's seed 1: a one-line error."""
    out = tmp_path / "cuts.npz"
    done = run_script("collect_cuts.py", "--sets", "4:11:1", "--seeds", "2,1", "--out", out)
    assert done.returncode != 0 and "seed 1" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()


@pytest.mark.slow
def test_collected_cuts_load_back_and_classify(tmp_path, tt):
    """collect_cuts.py's records load back (ordering.load_cut) into the position they were taken
    at: the cutting card is in the mover's hand and the search from there agrees with the record;
    classify_cuts.py tables them."""
    out = tmp_path / "cuts.npz"
    done = run_script("collect_cuts.py", "--sets", "4:5:3,5:4:3", "--seeds", "2", "--out", out)
    assert done.returncode == 0, done.stderr
    data = dict(np.load(out))
    assert len(data["rec"]) == len(data["hands"]) == len(data["seed"]) > 0 and set(data["seed"]) == {2}
    plain = solver_with(tt, make_state())
    cuts = np.flatnonzero(data["rec"][:, R_CUT] == 1)
    for j in cuts[:: max(1, len(cuts) // 20)]:
        g, leader, k, need = load_cut(plain, data, j)
        row = data["rec"][j]
        assert int(plain.st.hands[row[R_SEAT]]) >> int(row[R_CARD]) & 1
        reached, _ = can_reach(g, tt, plain.st, leader, k, need, row[R_AVAIL], k)
        assert reached == bool(g.team[row[R_SEAT]])
    table = run_script("classify_cuts.py", out)
    assert table.returncode == 0, table.stderr
    assert "| class |" in table.stdout and ("lead, " in table.stdout or "mid, " in table.stdout)
    # fit_ordering.py: held all the way to today's ordering by its ridge, the fit is today's table
    weights = tmp_path / "w.npy"
    fit = run_script("fit_ordering.py", "--cuts", out, "--ridge", "1e9", "--holdout", "2", "--out", weights)
    assert fit.returncode == 0, fit.stderr
    assert np.array_equal(np.load(weights), DEFAULT_ORDER)
    fit = run_script("fit_ordering.py", "--cuts", out, "--ridge", "1e-3", "--holdout", "2", "--out", weights)
    assert fit.returncode == 0, fit.stderr
    assert np.load(weights).shape == DEFAULT_ORDER.shape and not np.array_equal(np.load(weights), DEFAULT_ORDER)


@pytest.mark.slow
def test_bench_panel_compares_with_itself(tmp_path):
    """A panel run compared with itself: every ratio 1, none moved, the replay's nodes listed."""
    panel = tmp_path / "panel.csv"
    panel.write_text("set,seed,index,need\n4:5,1,0,10\n5:4,1,1,8\n")
    first = run_script("bench_panel.py", "--panel", panel, "--replay", "--csv", tmp_path / "a.csv")
    assert first.returncode == 0, first.stderr
    again = run_script("bench_panel.py", "--panel", panel, "--compare", tmp_path / "a.csv")
    assert again.returncode == 0, again.stderr
    assert "2 searches compared, 0 moved; geometric mean of new/old 1.0000" in again.stdout
    assert "replay/today node ratio" in first.stdout


def test_bench_panel_bad_panel(tmp_path):
    """A panel file without the columns: a one-line error, no traceback."""
    panel = tmp_path / "panel.csv"
    panel.write_text("set,seed\n4:5,1\n")
    done = run_script("bench_panel.py", "--panel", panel)
    assert done.returncode != 0 and "lacks a column" in done.stderr and "Traceback" not in done.stderr
