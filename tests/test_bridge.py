"""The solver on bridge against DDS (the endplay package): random endings of 1 to 8 tricks
(181 deals), every strain, rotating leaders; values and per-card values.  Full deals are
in test_bridge_fulldeals.py."""

import random

import pytest
from dds_reference import dds

from musim.games.bridge.solve import SEATS, STRAINS, BridgeSolver, random_pbn
from musim.solver.tt import make_table


@pytest.fixture(scope="module")
def solver():
    return BridgeSolver(make_table(16))


@pytest.mark.parametrize("tricks, deals", [(1, 25), (2, 25), (3, 25), (4, 25), (5, 25), (6, 25), (7, 20), (8, 6)])
def test_bridge_endings_agree_with_dds(solver, tricks, deals):
    rng = random.Random(tricks)
    for i in range(deals):
        pbn = random_pbn(rng, tricks)
        for strain in STRAINS:
            leader = SEATS[(i + STRAINS.index(strain)) % 4]
            ref = dds(pbn, strain, leader)
            got = solver.solve({"game": "bridge", "pbn": pbn, "trump": strain, "leader": leader}, all_moves=True)
            assert got["value"] == max(ref.values()), (pbn, strain, leader)
            # DDS lists one card per run of equivalent cards; each must agree
            assert all(got["moves"][card] == v for card, v in ref.items()), (pbn, strain, leader)
