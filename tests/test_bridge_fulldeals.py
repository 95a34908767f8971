"""The solver on bridge against DDS: 100 random full 13-card deals per strain (marked
`fulldeals`: about 5 minutes on one core; leave it out with `-m "not fulldeals"`).  A file of
its own, so that pytest-xdist runs it on one worker while the other runs the rest."""

import random

import pytest
from dds_reference import SolveMode, dds

from musim.games.bridge.solve import SEATS, STRAINS, BridgeSolver, random_pbn
from musim.solver.tt import make_table


@pytest.mark.fulldeals
@pytest.mark.parametrize("strain", STRAINS)
def test_bridge_full_deals_agree_with_dds(strain):
    solver = BridgeSolver(make_table(256))
    rng = random.Random(13 + STRAINS.index(strain))
    for i in range(100):
        pbn = random_pbn(rng, 13)
        leader = SEATS[i % 4]
        ref = max(dds(pbn, strain, leader, SolveMode.OptimalOne).values())
        assert solver.solve({"game": "bridge", "pbn": pbn, "trump": strain, "leader": leader})["value"] == ref, (
            pbn,
            strain,
            leader,
        )
