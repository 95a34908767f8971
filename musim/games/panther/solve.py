"""`musim solve --game panther`: exact values of The Last Panther positions (docs/examples/README.md "The
Last Panther position") for one seat against all the others (games/seat_solve.py).

Each colour becomes a solver class in ascending rank with the cards' signed points, no
trumps, the first of equal cards winning (the solver's tie rule), and the last trick worth
LAST_TRICK: the value is the points `seat` takes from here, `seat` maximising and every
other seat minimising.
"""

import numpy as np

from musim.core.deck import MU
from musim.games.panther import rules
from musim.games.seat_solve import SeatSolver, parse_position
from musim.solver.layout import make_game


def solver_game(n, seat):
    """(SolverGame with `seat` against all others, the canonical position of each deck card) for n players."""
    deck = int(rules.deck(n))
    colours = range(len(MU.colours))
    cards = [[i for i in range(MU.n_cards) if deck >> i & 1 and rules.CARD_COLOUR[i] == c] for c in colours]
    classes = [[(int(rules.CARD_RANK[i]), int(rules.CARD_POINTS[i])) for i in members] for members in cards]
    game, index = make_game(n, classes, -1, 0, [seat], end_bonus=rules.LAST_TRICK)
    canon = np.full(MU.n_cards, -1, np.int64)
    for members, positions in zip(cards, index, strict=True):
        canon[members] = positions
    return game, canon


class PantherSolver(SeatSolver):
    """Panther positions (SeatSolver), one SolverGame per player count and seat."""

    def __init__(self, tt, counting=False):
        super().__init__(tt, counting)
        self.games = {}

    def layout(self, obj):
        players = (rules.MIN_PLAYERS, rules.MAX_PLAYERS)
        n, hands, leader, trick, seat, _ = parse_position(obj, players, rules.deck, rules.legal)
        if (n, seat) not in self.games:
            self.games[n, seat] = solver_game(n, seat)
        g, canon = self.games[n, seat]
        mover = (leader + len(trick)) % n
        legal = int(rules.legal(np.uint64(hands[mover]), trick[0] if trick else -1))
        return g, canon, hands, leader, trick, legal
