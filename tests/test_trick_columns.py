"""Run-output columns of The Last Panther and Wimmüln: every column described, values as simulated."""

import numpy as np
import pytest

from musim.core.deck import MU
from musim.engine.parquet import DESCRIPTION_KEY
from musim.games.panther import columns as panther_columns
from musim.games.panther import simulate as panther
from musim.games.wimmueln import columns as wimmueln_columns
from musim.games.wimmueln import simulate as wimmueln

GAMES = {"panther": (panther, panther_columns, 8), "wimmueln": (wimmueln, wimmueln_columns, 5)}


@pytest.mark.parametrize("game", GAMES)
def test_deal_rows(game):
    sim, cols, n = GAMES[game]
    out = sim.simulate_deals(n, 4, "heuristic", 100, 50)
    table = cols.deal_batch(out, 100, n)
    assert all(f.metadata[DESCRIPTION_KEY] for f in table.schema)
    assert table.column("deal").to_pylist() == list(range(100, 150))
    for i in range(n):
        assert table.column(f"score_{i}").to_pylist() == out["scores"][:, i].tolist()
        assert table.column(f"tricks_{i}").to_pylist() == out["tricks"][:, i].tolist()
    assert table.column("hands").to_pylist() == out["hands"].tolist()
    if game == "panther":
        assert table.column("passed").to_pylist() == out["passed"].tolist()
        assert table.column("last_trick").to_pylist() == out["last_trick"].tolist()
    else:
        assert table.column("estimate_up").to_pylist() == [[MU.text(c) for c in row[:, 0]] for row in out["estimates"]]
        assert table.column("revealed").to_pylist() == [[MU.text(c) for c in row] for row in out["revealed"]]
        trumps = table.column("trump").to_pylist()
        assert trumps == [None if t < 0 else MU.colours[t] for t in out["trump"]] and None in trumps
        assert table.column("bonus").to_pylist() == out["bonus"].tolist()


@pytest.mark.parametrize("game", GAMES)
def test_match_rows(game):
    sim, cols, n = GAMES[game]
    out = sim.simulate_matches(n, 4, "random", 0, 40)
    table = cols.match_batch(out, 0, n)
    assert all(f.metadata[DESCRIPTION_KEY] for f in table.schema)
    totals = np.array([table.column(f"total_{i}").to_pylist() for i in range(n)]).T
    assert (totals == out["totals"]).all()
    for row, winner, winners in zip(totals, table.column("winner").to_pylist(), table.column("winners").to_pylist()):
        assert winners == np.flatnonzero(row == row.max()).tolist()
        assert winner == (winners[0] if len(winners) == 1 else None)
