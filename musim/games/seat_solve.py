"""`musim solve` for the games scored per seat (The Last Panther, Wimmüln): the value of a
position for one seat against all the others.

A game's adapter parses what its position adds (trump, tricks, estimates) and builds the
SolverGame; the common part — players, hands, the trick in progress, leader and seat, each
checked with a one-line InputError — and the solve itself live here.  A game whose cards name
the trump (layout.SolverGame.namers: Mückenstich's mosquitoes) gives the trump in force and its
moves' text; its --all-moves lists every card with each trump it may name.
"""

import threading
from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest
from musim.core.cards import CardError
from musim.core.deck import MU
from musim.io.batch import InputError
from musim.io.records import is_int, show
from musim.solver.answer import solve_position
from musim.solver.choice import GAVE_UP, LIMIT, make_limited
from musim.solver.layout import MAX_CLASSES
from musim.solver.search import make_state
from musim.solver.table_size import DEFAULT_MB
from musim.solver.tt import make_table, new_generation

TT_BUCKET = 256  # transposition-table entries per bucket (tt.new_generation), as Mü's

SeatDD = namedtuple("SeatDD", "tt st game canon orig order lim")
# game: the SolverGame of the player count; canon[card] = its canonical position (-1: not in the
# deck), orig[position] = its card; order: the deck's canonical positions by card index; lim: the
# node limit and the count of cards whose search gave up (solver/choice.py)

_per_thread = threading.local()


def worker_scratch(tt_mb, node_limit):
    """(table, search state, limited_play's scratch, a dict for the caller's games) of this
    thread, made once per table size and reused (a fresh table's first touch costs page
    faults); the scratch's searches within `node_limit` nodes (0: no limit) from now on."""
    cache = getattr(_per_thread, "dd", None)
    if cache is None or cache[0] != tt_mb:
        cache = _per_thread.dd = (tt_mb, make_table(tt_mb), make_state(), make_limited(), {})
    _, tt, st, lim, games = cache
    lim.meta[LIMIT], lim.meta[GAVE_UP] = node_limit, 0
    return tt, st, lim, games


def worker_dd(solver_game, players, tt_mb=DEFAULT_MB, node_limit=0):
    """This thread's exact-play scratch for a game scored per seat (solver_game(players, 0) ->
    its SolverGame and canon), each card's searches within `node_limit` nodes (0: no limit):
    worker_scratch, and the rest made once per game and player count."""
    tt, st, lim, games = worker_scratch(tt_mb, node_limit)
    if (solver_game, players) not in games:
        games[solver_game, players] = make_seat_dd(solver_game, players, tt, st, lim)
    return games[solver_game, players]


def make_seat_dd(solver_game, players, tt, st, lim):
    """The scratch of a game scored per seat (as worker_dd's) over a table, a search state and
    limited_play's scratch of the caller's."""
    game, canon = solver_game(players, 0)
    orig = np.full(64, -1, np.int64)
    order = np.flatnonzero(canon >= 0)
    orig[canon[order]] = order
    return SeatDD(tt, st, game, canon, orig, canon[order], lim)


@flat_kernel(inline="always")
def load_position(canon, n, held, trick, k, st):
    """Put the hands held[:n] and the trick's cards trick[:k] (deck indices) into the solver
    state st in the canonical layout (canon[card]: its position), for a --play dd card."""
    for s in range(n):
        m = held[s]
        h = np.uint64(0)
        while m:
            h |= bit(canon[lowest(m)])
            m = drop_lowest(m)
        st.hands[s] = h
    for j in range(k):
        st.line[j] = canon[trick[j]]


def seat_field(obj, name, n):
    v = obj.get(name)
    if not is_int(v) or not 0 <= v < n:
        raise InputError(f"{name}: expected a seat 0..{n - 1}, got {show(v)}")
    return v


def cards_field(cards, within, item, deck=MU):
    """Mask (int) of a list of card texts of `deck`, each taken from `within`."""
    if not isinstance(cards, list):
        raise InputError(f"{item}: expected a list of cards, got {show(cards)}")
    try:
        return deck.parse(cards, within=within)
    except CardError as exc:
        raise InputError(f"{item}: {exc}") from None


def parse_position(obj, players, deck, legal, notation=MU):
    """(n, hand masks, leader, trick card indices, seat, cards still free) of a position:
    players = (fewest, most); deck(n) the mask of the cards in play (of the Deck `notation`);
    legal(hand, led) the rule the trick's cards must have followed."""
    n = obj.get("players")
    if not is_int(n) or not players[0] <= n <= players[1]:
        raise InputError(f"players: expected {players[0]}..{players[1]}, got {show(n)}")
    hands_txt = obj.get("hands")
    if not isinstance(hands_txt, list) or len(hands_txt) != n:
        raise InputError(f"hands: expected a list of {n} hands, got {show(hands_txt)}")
    trick_txt = obj.get("trick", [])
    if not isinstance(trick_txt, list):
        raise InputError(f"trick: expected a list of cards, got {show(trick_txt)}")
    if len(trick_txt) >= n:
        raise InputError(f"trick: {len(trick_txt)} cards, a trick in progress has at most {n - 1}")
    leader = seat_field(obj, "leader", n)
    seat = seat_field(obj, "seat", n)
    free = int(deck(n))
    hands = []
    for s, cards in enumerate(hands_txt):
        hands.append(cards_field(cards, free, f"hands[{s}] (the {n}-player deck)", notation))
        free &= ~hands[-1]
    trick = []
    for j, text in enumerate(trick_txt):
        card = cards_field([text], free, f"trick[{j}] (the {n}-player deck)", notation).bit_length() - 1
        free &= ~(1 << card)
        trick.append(card)
    for j in range(1, len(trick)):
        before = (leader + j) % n
        if not int(legal(np.uint64(hands[before] | 1 << trick[j]), trick[0])) >> trick[j] & 1:
            card, led = notation.text(trick[j]), notation.text(trick[0])
            raise InputError(f"trick[{j}]: {card} does not follow {led}, as seat {before} can")
    k = len(trick)
    sizes = [bin(h).count("1") for h in hands]
    left = [sizes[(leader + j) % n] + (1 if j < k else 0) for j in range(n)]
    if len(set(left)) != 1:
        raise InputError(f"hands: sizes {sizes} do not fit a trick led by seat {leader} with {k} card(s) played")
    if left[0] == 0:
        raise InputError("hands: no cards left to play")
    return n, hands, leader, trick, seat, free


class SeatSolver:
    """Solves a game's positions for one seat against all the others, keeping one transposition
    table and search state across calls.  A game's subclass gives `layout(obj)`: (SolverGame,
    canonical position of each deck card (-1: none), hands, leader, trick, legal cards of the
    mover); one whose cards name the trump gives `trump(obj)`, the trump in force (a class), and
    `move_text(card, named)`.  counting: keep the search's detailed counters (solver/stats.py)."""

    DECK = MU  # the deck whose cards the positions write

    def __init__(self, tt, counting=False):
        self.tt = tt
        self.st = make_state(counting)

    def trump(self, obj):
        """The trump in force at the position, for a game whose cards name it (-1: none)."""
        return -1

    def move_text(self, card, named):
        return self.DECK.text(card)

    def solve(self, obj, all_moves=False, node_limit=0):
        """The answer (solver/answer.py), each solve within node_limit nodes (0: no limit)."""
        g, canon, hands, leader, trick, legal = self.layout(obj)
        self.st.trump[0] = self.trump(obj)
        new_generation(self.tt, TT_BUCKET)
        deck = self.DECK
        for s in range(g.n):
            self.st.hands[s] = np.uint64(sum(1 << int(canon[c]) for c in range(deck.n_cards) if hands[s] >> c & 1))
        for j, c in enumerate(trick):
            self.st.line[j] = canon[c]
        result, moves = solve_position(g, self.tt, self.st, leader, len(trick), all_moves, node_limit)
        if all_moves:
            result["moves"] = {}
            for c in range(deck.n_cards):
                if not legal >> c & 1:
                    continue
                if g.namers >> np.uint64(canon[c]) & np.uint64(1):
                    for t in range(MAX_CLASSES):
                        if g.class_mask[t]:
                            result["moves"][self.move_text(c, t)] = moves.named(canon[c], t)
                else:
                    result["moves"][self.move_text(c, -1)] = moves.card(canon[c])
        return result
