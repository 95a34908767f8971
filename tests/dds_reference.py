"""DDS (the endplay package) as the reference for the bridge tests: tricks per card."""

import pytest

endplay = pytest.importorskip("endplay")
from endplay.dds import solve_board  # noqa: E402
from endplay.dds.solve import SolveMode  # noqa: E402
from endplay.types import Deal, Denom, Player  # noqa: E402

from musim.games.bridge import SUITS  # noqa: E402

DENOMS = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, "NT": Denom.nt}
PLAYERS = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}


def dds(pbn, strain, leader, mode=SolveMode.Default):
    """DDS's tricks per card (Default: every card; OptimalOne: one best card)."""
    deal = Deal.from_pbn(pbn)
    deal.trump = DENOMS[strain]
    deal.first = PLAYERS[leader]
    return {SUITS[c.suit.value] + c.rank.abbr: v for c, v in solve_board(deal, mode)}
