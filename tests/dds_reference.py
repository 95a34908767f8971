"""DDS (the endplay package) as the reference for the bridge tests: tricks per card."""

try:
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player
except ImportError as e:  # fail, never skip: the bridge tests are part of the suite
    raise ImportError(f"the bridge tests need endplay (DDS), in the dev extra: pip install -e '.[dev]' ({e})") from e

from musim.games.bridge import SUITS

DENOMS = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, "NT": Denom.nt}
PLAYERS = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}


def dds(pbn, strain, leader, mode=SolveMode.Default):
    """DDS's tricks per card (Default: every card; OptimalOne: one best card)."""
    deal = Deal.from_pbn(pbn)
    deal.trump = DENOMS[strain]
    deal.first = PLAYERS[leader]
    return {SUITS[c.suit.value] + c.rank.abbr: v for c, v in solve_board(deal, mode)}
