"""Double-dummy card play in the deal kernel: the team's points in the solver-played tricks
equal the value the solver computed, and the record replays."""
import pytest

from musim.games.mu import simulate as sim
from musim.games.mu.record import replay
from musim.games.mu.run import deal_record, simulate_deals


@pytest.mark.parametrize("n, tricks", [(3, 5), (4, 4), (5, 4), (6, 4)])
def test_dd_tricks_earn_exactly_the_solved_value(n, tricks):
    ch = simulate_deals(n, 3, "dd", 0, 12, tt_mb=16, dd_tricks=tricks)
    played = 0
    for i in range(12):
        r = ch.res[i]
        if r[sim.OUTCOME] != sim.PLAYED:
            continue
        played += 1
        res = replay(deal_record(n, 3, i, "dd", tt_mb=16, dd_tricks=tricks))
        team = {res["chief"], res["partner"]} - {None}
        last = res["tricks"][-tricks:]
        assert sum(t["points"] for t in last if t["winner"] in team) == r[sim.DD_VALUE]
        assert res["team_points"] == r[sim.TEAM_POINTS]
        assert ch.solve_ms[i] >= 0
    assert played > 0


def test_dd_play_is_reproducible():
    a = simulate_deals(4, 8, "dd", 5, 4, tt_mb=16, dd_tricks=4)
    b = simulate_deals(4, 8, "dd", 5, 4, tt_mb=8, dd_tricks=4)
    assert (a.res == b.res).all() and (a.card_points == b.card_points).all()
