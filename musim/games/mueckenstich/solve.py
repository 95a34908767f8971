"""`musim solve --game mueckenstich`: exact values of Mückenstich positions (docs/examples/README.md
"Mückenstich position") for one seat against all the others (games/seat_solve.py).

Each colour becomes a solver class in ascending rank (its mosquitoes on top), every card worth
0 and every trick 1, so the value is the tricks `seat` wins from here (the colours' worth is
named only after the deal).  The mosquitoes are the SolverGame's namers: a move is the card
and the trump it names, which decides the trick in progress too; the trump in force lives in
the search state, and the later of equal cards wins.
"""

import numpy as np

from musim.core.deck import MUECKENSTICH as DECK
from musim.games.mueckenstich import rules
from musim.games.seat_solve import SeatSolver, parse_position
from musim.io.batch import InputError
from musim.io.records import show
from musim.play.tricks import NO_TRUMP
from musim.solver.layout import make_game


def solver_game(n, seat):
    """(SolverGame of n seats with `seat` against all others, the canonical position of each card)."""
    cards = [np.flatnonzero(np.equal(rules.CARD_COLOUR, c)) for c in range(rules.COLOURS)]
    classes = [[(int(rules.CARD_RANK[i]), 0, bool(rules.is_mosquito(i))) for i in members] for members in cards]
    game, index = make_game(n, classes, NO_TRUMP, 1, [seat], later_wins=True)
    canon = np.full(DECK.n_cards, -1, np.int64)
    for members, positions in zip(cards, index, strict=True):
        canon[members] = positions
    return game, canon


def split_trick(trick):
    """(card texts, trumps named: a colour index or -1) of a position's `trick`, each entry
    checked (a mosquito names one colour, no other card does)."""
    if not isinstance(trick, list):
        raise InputError(f"trick: expected a list of cards, got {show(trick)}")
    texts, named = [], []
    for j, entry in enumerate(trick):
        card, colon, colour = entry.partition(":") if isinstance(entry, str) else (entry, "", "")
        is_mosquito = isinstance(card, str) and card[1:] == "M"
        where = f"trick[{j}]: {entry if isinstance(entry, str) else show(entry)}"
        if is_mosquito and (colour not in DECK.colours or len(colour) != 1):
            raise InputError(f"{where}: a mosquito names the trump, one of {' '.join(DECK.colours)} ({card}:G)")
        if not is_mosquito and colon:
            raise InputError(f"{where}: only a mosquito names a trump")
        texts.append(card)
        named.append(DECK.colours.index(colour) if is_mosquito else NO_TRUMP)
    return texts, named


def trump_field(obj, named):
    """The trump in force (a colour index or -1): `trump`, which must be the one the trick's last
    mosquito named."""
    v = obj.get("trump")
    if v is not None and (not isinstance(v, str) or v not in DECK.colours or len(v) != 1):
        raise InputError(f"trump: expected one of {' '.join(DECK.colours)} or null, got {show(v)}")
    trump = NO_TRUMP if v is None else DECK.colours.index(v)
    last = [t for t in named if t != NO_TRUMP]
    if last and last[-1] != trump:
        named = DECK.colours[last[-1]]
        raise InputError(f"trump: {v or 'null'} contradicts the trick's last mosquito, which named {named}")
    return trump


class MueckenstichSolver(SeatSolver):
    """Mückenstich positions (SeatSolver), one SolverGame per player count and seat."""

    DECK = DECK

    def __init__(self, tt, counting=False):
        super().__init__(tt, counting)
        self.games = {}

    def trump(self, obj):
        return trump_field(obj, split_trick(obj.get("trick", []))[1])

    def move_text(self, card, named):
        return rules.move_text(card, named)

    def layout(self, obj):
        texts, named = split_trick(obj.get("trick", []))
        trump_field(obj, named)
        players = (rules.MIN_PLAYERS, rules.MAX_PLAYERS)
        n, hands, leader, trick, seat, _ = parse_position(
            obj | {"trick": texts}, players, lambda n: DECK.full, rules.legal, DECK
        )
        if (n, seat) not in self.games:
            self.games[n, seat] = solver_game(n, seat)
        g, canon = self.games[n, seat]
        mover = (leader + len(trick)) % n
        legal = int(rules.legal(np.uint64(hands[mover]), trick[0] if trick else -1))
        return g, canon, hands, leader, trick, legal
