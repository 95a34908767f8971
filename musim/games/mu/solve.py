"""`musim solve` for Mü positions (docs/examples/README.md "Mü position").

Parses and checks a position, maps it into the solver's canonical layout and
returns the exact double-dummy value (and, with all_moves, the value after each
distinct legal card of the seat to move).
"""

import numpy as np

from musim.core.cards import CARD_TEXT, N_CARDS, CardError, hand_mask, parse_type
from musim.core.deck import MU
from musim.games.mu import rules
from musim.games.mu.solver_layout import TT_BUCKET, MuSolverSetup, to_canon
from musim.io.batch import InputError
from musim.solver.answer import solve_position
from musim.solver.search import make_state
from musim.solver.tt import new_generation


def _seat(obj, name, n, nullable):
    v = obj.get(name)
    if v is None and nullable:
        return -1
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n:
        raise InputError(f"{name}: expected a seat 0..{n - 1}{' or null' if nullable else ''}, got {v!r}")
    return v


def parse_position(obj):
    """(n, hands masks, leader, trick card indices, chief, partner, vice, chief_trump, vice_trump)."""
    n = obj.get("players")
    if isinstance(n, bool) or not isinstance(n, int) or not 3 <= n <= 6:
        raise InputError(f"players: expected 3..6, got {n!r}")
    hands_txt = obj.get("hands")
    if not isinstance(hands_txt, list) or len(hands_txt) != n:
        raise InputError(f"hands: expected a list of {n} hands")
    trick_txt = obj.get("trick", [])
    if not isinstance(trick_txt, list):
        raise InputError("trick: expected a list of cards")
    if len(trick_txt) >= n:
        raise InputError(f"trick: {len(trick_txt)} cards, a trick in progress has at most {n - 1}")
    leader = _seat(obj, "leader", n, False)
    chief = _seat(obj, "chief", n, False)
    partner = _seat(obj, "partner", n, True)
    vice = _seat(obj, "vice", n, True)
    if partner == chief:
        raise InputError("partner: the chief cannot be their own partner")
    if vice >= 0 and vice in (chief, partner):
        raise InputError("vice: must differ from chief and partner")
    chief_trump = _trump(obj, "chief_trump", allow_none=True)
    vice_trump = _trump(obj, "vice_trump", allow_none=True, nullable=True)
    if chief_trump >= 0 and chief_trump == vice_trump:
        raise InputError("chief_trump: may not equal the vice trump")
    used = 0
    hands = []
    for s, cards in enumerate(hands_txt):
        if not isinstance(cards, list):
            raise InputError(f"hands[{s}]: expected a list of cards")
        try:
            m = int(hand_mask(cards, within=np.uint64(((1 << N_CARDS) - 1) & ~used)))
        except CardError as exc:
            raise InputError(f"hands[{s}]: {exc}") from None
        used |= m
        hands.append(m)
    trick = []
    for j, text in enumerate(trick_txt):
        try:
            copies = MU.copies(text)
        except CardError as exc:
            raise InputError(f"trick[{j}]: {exc}") from None
        free = [i for i in copies if not used >> i & 1]
        if not free:
            raise InputError(f"trick[{j}]: {text} appears more often than available")
        used |= 1 << free[0]
        trick.append(free[0])
    k = len(trick)
    sizes = [bin(h).count("1") for h in hands]
    left = [sizes[(leader + j) % n] + (1 if j < k else 0) for j in range(n)]
    if len(set(left)) != 1:
        raise InputError(f"hands: sizes {sizes} do not fit a trick led by seat {leader} with {k} card(s) played")
    if left[0] == 0:
        raise InputError("hands: no cards left to play")
    return n, hands, leader, trick, chief, partner, vice, chief_trump, vice_trump


def _trump(obj, name, allow_none, nullable=False):
    v = obj.get(name)
    if v is None and nullable:
        return -1
    try:
        return parse_type(v, allow_none=allow_none)
    except CardError as exc:
        raise InputError(f"{name}: {exc}") from None


class MuSolver:
    """Solves Mü positions, keeping one transposition table and search state across calls.
    counting: keep the search's detailed counters (solver/stats.py)."""

    def __init__(self, tt, counting=False):
        self.tt = tt
        self.st = make_state(counting)

    def load(self, obj):
        """Parse a position into the search state, with a fresh table generation; returns
        (setup, hands as deck masks, leader, trick as deck cards)."""
        n, hands, leader, trick, chief, partner, _vice, ct, vt = parse_position(obj)
        team = [chief] + ([partner] if partner >= 0 else [])
        setup = MuSolverSetup(n, ct, vt, team)
        new_generation(self.tt, TT_BUCKET)
        for s in range(n):
            self.st.hands[s] = to_canon(np.uint64(hands[s]), setup.canon_of)
        for j, c in enumerate(trick):
            self.st.line[j] = setup.canon_of[c]
        return setup, hands, leader, trick

    def solve(self, obj, all_moves=False, node_limit=0):
        """The answer (solver/answer.py), each solve within node_limit nodes (0: no limit)."""
        setup, hands, leader, trick = self.load(obj)
        g, st, n, k = setup.game, self.st, setup.game.n, len(trick)
        result, moves = solve_position(g, self.tt, st, leader, k, all_moves, node_limit)
        if all_moves:
            seat = (leader + k) % n
            legal = int(rules.legal_moves(np.uint64(hands[seat]), trick[0] if k else -1, setup.klass, setup.class_mask))
            result["moves"] = {}
            for c in range(N_CARDS):
                if legal >> c & 1 and CARD_TEXT[c] not in result["moves"]:
                    result["moves"][CARD_TEXT[c]] = moves.card(setup.canon_of[c])
        return result
