"""Double-dummy card play in the deal kernel: the team's points in the solver-played tricks
equal the value the solver computed, the record replays, and each card is the one the
fixed preference names, whatever the table or the search's move order."""

import random
import threading

import pytest
from reference_dd import dd_value
from test_solver import random_position

from musim.core.cards import CARD_TEXT
from musim.games.mu import simulate as sim
from musim.games.mu.ddplay import worker_ddplay
from musim.games.mu.params import MuParams
from musim.games.mu.record import replay
from musim.games.mu.run import deal_record, simulate_deal_chunk
from musim.games.mu.solve import MuSolver
from musim.solver.solve import first_keeping_move
from musim.solver.stats import S_NODES
from musim.solver.tt import make_table


@pytest.mark.parametrize("n, tricks", [(3, 5), (4, 4), (5, 4), (6, 4)])
def test_dd_tricks_earn_exactly_the_solved_value(n, tricks):
    ch = simulate_deal_chunk(MuParams(n, "dd", dd_tricks=tricks, tt_mb=16), 3, 0, 12)
    played = 0
    for i in range(12):
        r = ch.res[i]
        if r[sim.OUTCOME] != sim.PLAYED:
            continue
        played += 1
        res = replay(deal_record(MuParams(n, "dd", dd_tricks=tricks, tt_mb=16), 3, i))
        team = {res["chief"], res["partner"]} - {None}
        last = res["tricks"][-tricks:]
        assert sum(t["points"] for t in last if t["winner"] in team) == r[sim.DD_VALUE]
        assert res["team_points"] == r[sim.TEAM_POINTS]
        assert ch.solve_ms[i] >= 0
    assert played > 0


def test_dd_rows_do_not_depend_on_the_table_or_the_search_order():
    """The same rows with another table size, and with the search's move budgets shrunk so far
    that it explores its moves in another order (budget_next) and fills its table otherwise."""
    players, seed, start, count, tricks = 4, 8, 5, 4, 4
    a = simulate_deal_chunk(MuParams(players, "dd", dd_tricks=tricks, tt_mb=16), seed, start, count)
    b = simulate_deal_chunk(MuParams(players, "dd", dd_tricks=tricks, tt_mb=8), seed, start, count)
    assert (a.res[:, sim.OUTCOME] == sim.PLAYED).sum() >= 2
    for name in ("res", "scores", "card_points"):
        assert (getattr(a, name) == getattr(b, name)).all()
    for i in range(count):
        th, out = _deal_in_thread(_shrink_budgets, players, seed, start + i, tricks)
        th.join()
        for name in ("res", "scores", "card_points"):
            assert (getattr(out["chunk"], name)[0] == getattr(a, name)[i]).all()


def _shrink_budgets(dd):
    """Budget every node with a choice of moves: 16 nodes for its first, 4 for each other."""
    dd.st.budget[:] = (1, 16, 4)


@pytest.mark.parametrize("n, tricks", [(3, 4), (4, 3), (5, 2), (6, 2)])
def test_dd_card_is_the_lowest_card_that_keeps_the_value(n, tricks):
    """The fixed preference that makes double-dummy rows reproducible: of the legal cards whose
    brute-force value (reference_dd) equals the position's, the one of lowest card index; the
    same card on a fresh table and on one holding the whole solve, of two sizes."""
    rng = random.Random(n * 31 + tricks)
    solvers = [MuSolver(make_table(8)), MuSolver(make_table(1))]
    not_lowest = 0
    for i in range(300):
        obj, args = random_position(rng, n, tricks, mid_trick=i % 2 == 1)
        value, moves = dd_value(*args)
        lowest = min(c for c, v in moves.items() if v == value)
        for solver in solvers:
            setup, _, leader, trick = solver.load(obj)
            for warm in (False, True):  # a fresh table generation, then one holding the whole solve
                if warm:
                    solver.solve(obj)
                card = first_keeping_move(setup.game, solver.tt, solver.st, leader, len(trick), value, setup.canon_of)
                assert CARD_TEXT[setup.orig_of[card]] == CARD_TEXT[lowest], obj  # either copy of a 1 or 7
        not_lowest += lowest != min(moves)
    assert not_lowest > 10  # positions where the lowest legal card loses value


def _deal_in_thread(before, players, seed, deal, tricks):
    """Play one double-dummy deal on a fresh worker thread (so with a table of its own), after
    before(its DDPlay); returns (the thread, a dict that gets its chunk and nodes searched)."""
    out = {}

    def go():
        dd = worker_ddplay(16, tricks)
        dd.st.stats[S_NODES] = 0
        before(dd)
        out["chunk"] = simulate_deal_chunk(MuParams(players, "dd", dd_tricks=tricks, tt_mb=16), seed, deal, 1)
        out["nodes"] = int(dd.st.stats[S_NODES])

    th = threading.Thread(target=go)
    th.start()
    return th, out


def test_a_node_limit_leaves_deals_unresolved_with_bounds_and_the_rest_as_they_were():
    """Under a node limit (`musim balance --node-limit`) a deal whose start solve gives up is
    marked UNRESOLVED with bounds around the exact value, and decides the target when it
    finished a search (the target is asked first); every other row is the row without a
    limit.  Which deals give up depends on the deal alone, not on what the worker did before."""
    from musim.games.mu.ddplay import UNRESOLVED

    n, seed, deals, limit = 3, 21, 40, 100_000
    free = simulate_deal_chunk(MuParams(n, "dd", tt_mb=8), seed, 0, deals)
    capped = simulate_deal_chunk(MuParams(n, "dd", node_limit=limit, tt_mb=8), seed, 0, deals)
    unresolved = resolved = 0
    for i in range(deals):
        a, b = free.res[i], capped.res[i]
        if a[sim.OUTCOME] != sim.PLAYED:
            assert (a == b).all()
            continue
        assert a[sim.DD_LOW] == a[sim.DD_HIGH] == a[sim.DD_VALUE] == a[sim.TEAM_POINTS]
        if b[sim.DD_VALUE] != UNRESOLVED:
            assert (a == b).all() and (free.card_points[i] == capped.card_points[i]).all()
            resolved += 1
            continue
        unresolved += 1
        assert b[sim.DD_LOW] <= a[sim.DD_VALUE] <= b[sim.DD_HIGH]
        if (b[sim.DD_LOW], b[sim.DD_HIGH]) != (0, 36):  # a search finished: the target's
            assert b[sim.DD_LOW] >= b[sim.TARGET] or b[sim.DD_HIGH] < b[sim.TARGET]
        alone = simulate_deal_chunk(MuParams(n, "dd", node_limit=limit, tt_mb=8), seed, i, 1)
        assert (alone.res[0] == b).all()
    assert unresolved > 5 and resolved > 5
