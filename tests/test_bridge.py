"""The solver on bridge against DDS (the endplay package): random endings of 1 to 8 tricks
(181 deals), every strain, rotating leaders; values and per-card values.  Also 100 random
full 13-card deals per strain (marked `fulldeals`: about 5 minutes on one core; leave it
out with `-m "not fulldeals"`)."""
import random

import pytest

from musim.games.bridge import SEATS, STRAINS, SUITS, BridgeSolver, random_pbn
from musim.solver.tt import make_table

endplay = pytest.importorskip("endplay")
from endplay.dds import solve_board  # noqa: E402
from endplay.dds.solve import SolveMode  # noqa: E402
from endplay.types import Deal, Denom, Player  # noqa: E402

DENOMS = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, "NT": Denom.nt}
PLAYERS = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}


def dds(pbn, strain, leader, mode=SolveMode.Default):
    """DDS's tricks per card (Default: every card; OptimalOne: one best card)."""
    deal = Deal.from_pbn(pbn)
    deal.trump = DENOMS[strain]
    deal.first = PLAYERS[leader]
    return {SUITS[c.suit.value] + c.rank.abbr: v for c, v in solve_board(deal, mode)}


@pytest.fixture(scope="module")
def solver():
    return BridgeSolver(make_table(16))


@pytest.mark.parametrize("tricks, deals", [(1, 25), (2, 25), (3, 25), (4, 25), (5, 25), (6, 25), (7, 20),
                                           (8, 6)])
def test_bridge_endings_agree_with_dds(solver, tricks, deals):
    rng = random.Random(tricks)
    for i in range(deals):
        pbn = random_pbn(rng, tricks)
        for strain in STRAINS:
            leader = SEATS[(i + STRAINS.index(strain)) % 4]
            ref = dds(pbn, strain, leader)
            got = solver.solve({"game": "bridge", "pbn": pbn, "trump": strain, "leader": leader},
                               all_moves=True)
            assert got["value"] == max(ref.values()), (pbn, strain, leader)
            # DDS lists one card per run of equivalent cards; each must agree
            assert all(got["moves"][card] == v for card, v in ref.items()), (pbn, strain, leader)


@pytest.mark.fulldeals
@pytest.mark.parametrize("strain", STRAINS)
def test_bridge_full_deals_agree_with_dds(strain):
    solver = BridgeSolver(make_table(256))
    rng = random.Random(13 + STRAINS.index(strain))
    for i in range(100):
        pbn = random_pbn(rng, 13)
        leader = SEATS[i % 4]
        ref = max(dds(pbn, strain, leader, SolveMode.OptimalOne).values())
        assert solver.solve({"game": "bridge", "pbn": pbn, "trump": strain, "leader": leader})["value"] == ref, \
            (pbn, strain, leader)
