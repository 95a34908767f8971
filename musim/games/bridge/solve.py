"""Bridge, as a second game for the double-dummy solver (to check it against DDS).

Positions: {"game": "bridge", "pbn": "N:AKQ2.T98.... ...", "trump": "S|H|D|C|NT",
"leader": "N|E|S|W"} (docs/examples/README.md "Bridge position").  Suits become the solver's
classes in ascending rank, trumps get powers above every side card, each trick
is worth 1 and no card has points: the value is the tricks the side on lead takes.
"""

import numpy as np

from musim.io.batch import InputError
from musim.solver.answer import solve_position
from musim.solver.layout import make_game
from musim.solver.search import make_state
from musim.solver.tt import new_generation

SEATS = "NESW"
SUITS = "SHDC"
RANKS = "23456789TJQKA"
STRAINS = ("S", "H", "D", "C", "NT")
TT_BUCKET = 256  # transposition-table entries per bucket (tt.new_generation)


def parse_pbn(text):
    """Four hands (lists of (suit, rank) with rank 0 = deuce), in seat order N, E, S, W."""
    if not isinstance(text, str) or len(text) < 2 or text[0] not in SEATS or text[1] != ":":
        raise InputError(f"pbn: expected 'N:<hand> <hand> <hand> <hand>', got {text!r}")
    parts = text[2:].split()
    if len(parts) != 4:
        raise InputError(f"pbn: expected 4 hands, got {len(parts)}")
    first = SEATS.index(text[0])
    hands = [None] * 4
    seen = set()
    for i, part in enumerate(parts):
        suits = part.split(".")
        if len(suits) != 4:
            raise InputError(f"pbn: hand {part!r} does not have 4 suits")
        cards = []
        for s, ranks in enumerate(suits):
            for r in ranks:
                if r.upper() not in RANKS:
                    raise InputError(f"pbn: unknown rank {r!r} in hand {part!r}")
                card = (s, RANKS.index(r.upper()))
                if card in seen:
                    raise InputError(f"pbn: card {SUITS[s]}{r.upper()} appears twice")
                seen.add(card)
                cards.append(card)
        hands[(first + i) % 4] = cards
    sizes = {len(h) for h in hands}
    if len(sizes) != 1 or 0 in sizes:
        raise InputError(f"pbn: hands must hold the same number of cards (>0), got {[len(h) for h in hands]}")
    return hands


def random_pbn(rng, tricks=13):
    """A random deal (or ending of `tricks` cards per hand) in PBN, from a random.Random."""
    deck = [(s, r) for s in range(4) for r in range(13)]
    rng.shuffle(deck)
    hands = [deck[i * tricks : (i + 1) * tricks] for i in range(4)]
    return "N:" + " ".join(
        ".".join("".join(RANKS[r] for r in sorted((r for s, r in h if s == suit), reverse=True)) for suit in range(4))
        for h in hands
    )


def card_text(suit, rank):
    return SUITS[suit] + RANKS[rank]


class BridgeSolver:
    """Solves bridge positions at the start of a trick, like DDS's SolveBoard.
    counting: keep the search's detailed counters (solver/stats.py)."""

    def __init__(self, tt, counting=False):
        self.tt = tt
        self.st = make_state(counting)

    def solve(self, obj, all_moves=False, node_limit=0):
        """The answer (solver/answer.py), each solve within node_limit nodes (0: no limit)."""
        hands = parse_pbn(obj.get("pbn"))
        trump = obj.get("trump")
        if trump not in STRAINS:
            raise InputError(f"trump: expected one of {' '.join(STRAINS)}, got {trump!r}")
        leader = obj.get("leader")
        if not isinstance(leader, str) or leader not in SEATS:
            raise InputError(f"leader: expected one of N E S W, got {leader!r}")
        leader = SEATS.index(leader)
        trump_class = STRAINS.index(trump) if trump != "NT" else -1
        classes = [[(rank + (100 if s == trump_class else 0), 0) for rank in range(13)] for s in range(4)]
        g, index = make_game(4, classes, trump_class, 1, [leader, (leader + 2) % 4])
        new_generation(self.tt, TT_BUCKET)
        st = self.st
        for seat, cards in enumerate(hands):
            st.hands[seat] = np.uint64(sum(1 << index[s][r] for s, r in cards))
        result, moves = solve_position(g, self.tt, st, leader, 0, all_moves, node_limit)
        if all_moves:
            result["moves"] = {
                card_text(s, r): moves.card(index[s][r]) for s, r in sorted(hands[leader], key=lambda c: (c[0], -c[1]))
            }
        return result
