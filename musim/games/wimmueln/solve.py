"""`musim solve --game wimmueln`: exact values of Wimmüln positions (docs/examples/README.md "Wimmüln
position") for one seat against all the others (games/seat_solve.py).

Each colour becomes a solver class in ascending number, the trump colour's numbers above
every other card's (trumping is never forced; the first of equal cards wins), with Mü's card
points.  The estimate bonus is paid at the end on the tricks `seat` has won in all, which is
not a sum over tricks: the SolverGame's count_bonus gives it per number of tricks won from the
position on, the tricks already won folded in (docs/solver.md).
"""

import numpy as np

from musim.core.deck import MU
from musim.games.seat_solve import SeatSolver, cards_field, parse_position
from musim.games.wimmueln import rules
from musim.io.batch import InputError
from musim.io.records import is_int, show
from musim.play.tricks import NO_TRUMP
from musim.solver.layout import make_game

TRUMP_POWER = 100  # above every number


def _trump(obj):
    v = obj.get("trump")
    if v is None:
        return NO_TRUMP
    if v not in MU.colours:
        raise InputError(f"trump: expected one of {' '.join(MU.colours)} or null, got {show(v)}")
    return MU.colours.index(v)


def solver_game(seat, n, trump, count_bonus):
    """(SolverGame for `seat` against all others, the canonical position of each card)."""
    colours = range(len(MU.colours))
    cards = [[i for i in range(MU.n_cards) if rules.CARD_COLOUR[i] == c] for c in colours]
    classes = [
        [(int(rules.CARD_RANK[i]) + (TRUMP_POWER if c == trump else 0), int(rules.CARD_POINTS[i])) for i in members]
        for c, members in zip(colours, cards, strict=True)
    ]
    game, index = make_game(n, classes, trump, 0, [seat], count_bonus=count_bonus)
    canon = np.full(MU.n_cards, -1, np.int64)
    for members, positions in zip(cards, index, strict=True):
        canon[members] = positions
    return game, canon


class WimmuelnSolver(SeatSolver):
    """Wimmüln positions (SeatSolver): a SolverGame per position (its trump and seat's bonus)."""

    def layout(self, obj):
        trump = _trump(obj)

        def legal(hand, led):
            return rules.legal(hand, led, trump)

        players = (rules.MIN_PLAYERS, rules.MAX_PLAYERS)
        n, hands, leader, trick, seat, free = parse_position(obj, players, lambda n: MU.full, legal)
        per_deal = int(rules.tricks_per_deal(n))
        left = bin(hands[(leader + len(trick)) % n]).count("1")
        won = obj.get("tricks")
        if not is_int(won) or not 0 <= won <= per_deal - left:
            raise InputError(f"tricks: expected 0..{per_deal - left} (tricks {seat} won before), got {show(won)}")
        estimates = cards_field(obj.get("estimates"), free, "estimates")
        if bin(estimates).count("1") != 2:
            raise InputError(f"estimates: expected 2 cards (face up, hidden), got {show(obj.get('estimates'))}")
        face_up, hidden = (int(rules.CARD_RANK[MU.index(t, estimates)]) for t in obj["estimates"])
        bonus = [int(rules.estimate_bonus(won + t, face_up, hidden)) for t in range(left + 1)]
        g, canon = solver_game(seat, n, trump, bonus)
        mover = (leader + len(trick)) % n
        return g, canon, hands, leader, trick, int(legal(np.uint64(hands[mover]), trick[0] if trick else -1))
