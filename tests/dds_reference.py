"""DDS (the endplay package) as the reference for the bridge tests and benchmarks/bench_solver.py: tricks per card."""

try:
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player
except ImportError as e:  # fail, never skip: the bridge tests are part of the suite
    raise ImportError(f"the bridge tests need endplay (DDS), in the dev extra: pip install -e '.[dev]' ({e})") from e

from musim.games.bridge.solve import SUITS

DENOMS = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, "NT": Denom.nt}
PLAYERS = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}


def dds_solve(pbn, strain, leader, mode=SolveMode.Default):
    """(DDS's tricks per card (Default: every card, one of each run of equivalent cards, as
    SolveBoard with all solutions; OptimalOne: one best card), the tricks its search completed:
    DDS's node count)."""
    deal = Deal.from_pbn(pbn)
    deal.trump = DENOMS[strain]
    deal.first = PLAYERS[leader]
    solved = solve_board(deal, mode)
    return {SUITS[c.suit.value] + c.rank.abbr: v for c, v in solved}, solved._data.nodes


def dds(pbn, strain, leader, mode=SolveMode.Default):
    """DDS's tricks per card (dds_solve)."""
    return dds_solve(pbn, strain, leader, mode)[0]
