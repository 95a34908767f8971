"""The state of a Rummü deal and its actions as numba kernels on a workspace: deal, restock,
draw, lay, extend, swap, discard, score.  The simulation plays through them and the replay of
records walks them after checking each step against the rules (rules.py), so that each action
has one statement.  Every action is logged (ws.log rows: turn, kind, a, b, c) for the records.

ws.g holds the scalars (G_*); the stock and the discard pile are stacks of card indices whose
top is their last entry; melds[m] is the m-th meld laid, owner[m] the seat that laid it, and
placer[c] the seat that put card c on the table (laid, added or swapped it in), so that `score`
values each meld by its cards at the end of the deal (docs/rules.md §5.1: "per meld a player laid").
A seat comes out (came[seat]) once the melds it lays in one turn hold need[seat] cards together
(g[G_OPENING] counts them; docs/rules.md §5.2: the first play is every meld of that turn).
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, popcount
from musim.core.deal import shuffle
from musim.games.rummue.rules import ADDED, HAND_SIZE, MAX_MELDS, MAX_PLAYERS, OUT_BONUS, owner_points, penalty
from musim.play.sides import side

G_STOCK, G_PILE, G_MELDS, G_EVENTS, G_TURN, G_RESTOCKS, G_OPENING = range(7)
DRAW, LAY, EXTEND, SWAP, DISCARD, RESTOCK = range(6)  # log kinds
LOG = 8192  # room at first for a deal's actions (`record` plays a longer deal again with room for all)
# per seat parts of a deal (ws.parts columns)
MELDS, MELD_POINTS, ADDED_CARDS, SWAPS, LEFT, PENALTY, CAME_OUT = range(7)
PARTS = ("melds", "meld_points", "added", "swaps", "left", "penalty", "came_out")

Workspace = namedtuple(
    "Workspace",
    "order held stock pile melds owner placer came need g parts scratch masks values rest_masks rest_values totals "
    "match log rng deal",
)


def make_workspace(max_candidates, deal):
    """Scratch arrays for one thread's deals (max_candidates: the meld search's buffers; rest_*: a
    second search, on the cards a first meld leaves); deal: one deal's results in a match (the
    arrays of simulate.DEAL)."""
    z = np.zeros
    return Workspace(
        order=z(64, np.int64),
        held=z(MAX_PLAYERS, np.uint64),
        stock=z(64, np.int64),
        pile=z(64, np.int64),
        melds=z(MAX_MELDS, np.uint64),
        owner=z(MAX_MELDS, np.int64),
        placer=z(64, np.int64),
        came=z(MAX_PLAYERS, np.int64),
        need=z(MAX_PLAYERS, np.int64),
        g=z(8, np.int64),
        parts=z((MAX_PLAYERS, len(PARTS)), np.int64),
        scratch=z(16, np.int64),
        masks=z(max_candidates, np.uint64),
        values=z(max_candidates, np.int64),
        rest_masks=z(max_candidates, np.uint64),
        rest_values=z(max_candidates, np.int64),
        totals=z(MAX_PLAYERS, np.int64),
        match=z(2, np.int64),
        log=z((LOG, 5), np.int64),
        rng=z(1, np.uint64),
        deal=deal,
    )


@flat_kernel(inline="always")
def _log(ws, what, a, b, c):
    e = ws.g[G_EVENTS]
    if e < ws.log.shape[0]:  # counted beyond it
        row = ws.log[e]
        row[0], row[1], row[2], row[3], row[4] = ws.g[G_TURN], what, a, b, c
    ws.g[G_EVENTS] = e + 1


@flat_kernel
def setup(ws, n, dealer, cards):
    """Deal from the card order `cards` (60 card indices): the hands one card at a time from the
    seat left of the dealer, then one card face up to start the discard pile; the rest is the
    stock, cards[n*h+1] on top."""
    h = HAND_SIZE[n]
    for s in range(MAX_PLAYERS):
        ws.held[s] = 0
        ws.came[s] = 0
        for k in range(ws.parts.shape[1]):
            ws.parts[s, k] = 0
        ws.parts[s, CAME_OUT] = -1
    for k in range(ws.g.shape[0]):
        ws.g[k] = 0
    for j in range(n * h):
        ws.held[(dealer + 1 + j) % n] |= bit(cards[j])
    ws.pile[0] = cards[n * h]
    ws.g[G_PILE] = 1
    rest = 60 - n * h - 1
    for j in range(rest):
        ws.stock[j] = cards[59 - j]
    ws.g[G_STOCK] = rest


@flat_kernel
def take_pile(ws):
    """The discard pile but its top card becomes the stock (in pile order); returns its size."""
    k = ws.g[G_PILE] - 1
    for j in range(k):
        ws.stock[j] = ws.pile[j]
    ws.pile[0] = ws.pile[k]
    ws.g[G_PILE], ws.g[G_STOCK] = 1, k
    ws.g[G_RESTOCKS] += 1
    return k


@flat_kernel
def restock(ws, state):
    """docs/rules.md §5.1 (a Decision): the discard pile but its top card, shuffled from the deal's stream, is
    the new stock.  Logged card by card, top first."""
    k = take_pile(ws)
    shuffle(ws.stock, k, state)
    for j in range(k - 1, -1, -1):
        _log(ws, RESTOCK, ws.stock[j], 0, 0)


@flat_kernel
def draw(ws, seat, k):
    """k = 0: the top card of the stock; k >= 1: the top k cards of the discard pile.  A turn starts
    with its draw: no card laid towards coming out yet."""
    ws.g[G_OPENING] = 0
    if k == 0:
        ws.g[G_STOCK] -= 1
        card = ws.stock[ws.g[G_STOCK]]
        ws.held[seat] |= bit(card)
        _log(ws, DRAW, 0, card, 0)
        return
    for _ in range(k):
        ws.g[G_PILE] -= 1
        ws.held[seat] |= bit(ws.pile[ws.g[G_PILE]])
    _log(ws, DRAW, k, 0, 0)


@flat_kernel
def lay(ws, seat, mask):
    """Lay a legal meld from the hand; `score` values it for `seat` by its cards at the end.  The
    seat has come out once this turn's melds hold its coming-out count."""
    m = ws.g[G_MELDS]
    ws.melds[m], ws.owner[m] = mask, seat
    ws.g[G_MELDS] = m + 1
    ws.held[seat] &= ~mask
    rest = mask
    while rest:
        ws.placer[lowest(rest)] = seat
        rest &= rest - np.uint64(1)
    ws.parts[seat, MELDS] += 1
    if not ws.came[seat]:
        ws.g[G_OPENING] += popcount(mask)
        if ws.g[G_OPENING] >= ws.need[seat]:
            ws.came[seat] = 1
            ws.parts[seat, CAME_OUT] = ws.g[G_TURN]
    _log(ws, LAY, m, np.int64(mask), 0)


@flat_kernel
def extend(ws, seat, m, card):
    """Add a card from the hand to meld m: to one's own meld it is the owner's card, to another's
    it scores +10 for `seat` (docs/rules.md §5.1, a Decision)."""
    ws.melds[m] |= bit(card)
    ws.held[seat] &= ~bit(card)
    ws.placer[card] = seat
    ws.parts[seat, ADDED_CARDS] += 1
    _log(ws, EXTEND, m, card, 0)


@flat_kernel
def swap(ws, seat, m, card, joker):
    """Put `card` from the hand in place of the yellow `joker` of meld m; the joker goes to the hand.
    The card is `seat`'s as if added (the owner's card in its own meld, +10 in another's), and the
    joker no longer counts for whoever put it there."""
    ws.melds[m] = (ws.melds[m] & ~bit(joker)) | bit(card)
    ws.held[seat] = (ws.held[seat] & ~bit(card)) | bit(joker)
    ws.placer[card] = seat
    ws.parts[seat, SWAPS] += 1
    _log(ws, SWAP, m, card, joker)


@flat_kernel
def discard(ws, seat, card):
    """Discard a card from the hand onto the pile."""
    ws.held[seat] &= ~bit(card)
    ws.pile[ws.g[G_PILE]] = card
    ws.g[G_PILE] += 1
    _log(ws, DISCARD, card, 0, 0)


@flat_kernel
def owned(ws, m):
    """The cards of meld m that its owner put there (laid, added or swapped in)."""
    own, rest = np.uint64(0), ws.melds[m]
    while rest:
        c = lowest(rest)
        rest &= rest - np.uint64(1)
        if ws.placer[c] == ws.owner[m]:
            own |= bit(c)
    return own


@flat_kernel
def score(ws, n, teams, out, scores):
    """Each seat's points: its melds by their cards at the end less those other seats put there,
    +10 for each card it put into another's meld, +10 for going out (seat `out`, -1: nobody), -10 a
    red and -5 any other card left in hand (not for the partner of the seat going out).  With teams
    both partners show their side's points."""
    for s in range(n):
        ws.parts[s, MELD_POINTS] = 0
    for m in range(ws.g[G_MELDS]):
        own = owned(ws, m)
        ws.parts[ws.owner[m], MELD_POINTS] += owner_points(ws.melds[m], own)
        rest = ws.melds[m] & ~own
        while rest:
            ws.parts[ws.placer[lowest(rest)], MELD_POINTS] += ADDED
            rest &= rest - np.uint64(1)
    for s in range(n):
        hand = ws.held[s]
        spared = out >= 0 and teams and s != out and side(n, teams, s) == side(n, teams, out)
        ws.parts[s, LEFT] = popcount(hand)
        ws.parts[s, PENALTY] = 0 if spared else penalty(hand)
        scores[s] = ws.parts[s, MELD_POINTS] + ws.parts[s, PENALTY] + (OUT_BONUS if s == out else 0)
    if teams:
        half = n // 2
        for s in range(half):
            both = scores[s] + scores[s + half]
            scores[s], scores[s + half] = both, both
