"""Danger (docs/rules.md §9) as a state machine of numba kernels on a `Table`, shared by the
simulation and the replay of records, so that each rule has one statement.

A card is an index of the game's deck (musim.core.deck.danger_deck); `card_table(deck)` gives each
card's colour(s) and value, which the kernels read from `t.kind`.  The stock is an order of
cards (`t.stock[TOP:STOCK_END]`, the top first), the discard pile a stack (`t.pile[:PILE_END]`),
and each seat has a row per colour R Y G B holding a total and a state (open, secured, blocked).
A Table always waits for a decision of the seat to move: TAKE (the stock's top card, or the
card the previous seat just discarded), ROW (the row of a two-colour card whose two rows are
open), SECURE (secure a row, or not), or OVER.  Each action moves on to the next decision,
resolving whatever needs none (a forced row, a discard, a block, the end of a round).
The kernels of a turn are inlined into their callers: a call passing the Table's dozen arrays
costs more than most rules it would run.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel

MIN_PLAYERS, MAX_PLAYERS = 3, 5
COLOURS = 4  # rows per seat: R Y G B
LIMIT = 15  # a row above this is blocked
MAX_CARDS = 128  # two words: copies <= 3 and two-colour cards of values <= 3
MAX_ROUND_TURNS = 500  # a round that has not ended by then is scored as it stands ('capped')

# t.g: the scalars
(PLAYERS, SEAT, ROUND, ROUNDS, PHASE, OFFER, DISCARDED, CARD, TOP, STOCK_END, PILE_END, CARDS, STARTER) = range(13)
(ROUND_TURNS, TURNS, RESHUFFLES) = range(13, 16)
TAKE, ROW, SECURE, OVER = range(4)
OPEN, SECURED, BLOCKED = range(3)
FOURTH, EXHAUSTED, CAPPED = range(3)
ENDS = ("fourth", "exhausted", "capped")  # what ended a round
IN_STOCK, IN_PILE, IN_HAND = -1, -2, -3  # t.where[card]; a row is seat * COLOURS + colour >= 0
# t.counts[seat]: the parts of a seat's game
SECURED_ROWS = 0  # .. + colour: rows of that colour secured
BLOCKED_ROWS = 4  # .. + colour: rows of that colour blocked
LOWEST, TAKEN, DISCARDS, TURNS_OF = 8, 9, 10, 11
PARTS = 12
COLOUR_NAMES = "RYGB"

Table = namedtuple("Table", "g kind stock pile where total state placed closed counts scores ends scored")


def card_table(deck):
    """(cards, 3) int64: each card's colour, second colour (-1 if none) and value."""
    out = np.full((deck.n_cards, 3), -1, np.int64)
    for i in range(deck.n_cards):
        c, _ = deck.colour_slot(i)
        letters = deck.colours[c]
        out[i, 0] = COLOUR_NAMES.index(letters[0])
        if len(letters) == 2:
            out[i, 1] = COLOUR_NAMES.index(letters[1])
        out[i, 2] = deck.card_rank[i]
    return out


def new_table():
    """An empty Table (reset() starts a game)."""
    z = np.zeros
    return Table(
        g=z(16, np.int64),
        kind=np.full((MAX_CARDS, 3), -1, np.int64),
        stock=z(MAX_CARDS, np.int64),
        pile=z(MAX_CARDS, np.int64),
        where=z(MAX_CARDS, np.int64),
        total=z((MAX_PLAYERS, COLOURS), np.int64),
        state=z((MAX_PLAYERS, COLOURS), np.int64),
        placed=z(MAX_PLAYERS, np.int64),
        closed=z(MAX_PLAYERS, np.int64),
        counts=z((MAX_PLAYERS, PARTS), np.int64),
        scores=z(MAX_PLAYERS, np.int64),
        ends=z(3, np.int64),
        scored=z((MAX_PLAYERS, COLOURS, 2), np.int64),  # each seat's rows (total, state) as the last round was scored
    )


@flat_kernel
def reset(t, n, starter, rounds, kind, order):
    """Start a game of `rounds` rounds: the cards (kind: card_table) stacked as `order`, the top
    first; `starter` takes the first turn."""
    m = order.shape[0]
    for k in range(t.g.shape[0]):
        t.g[k] = 0
    for c in range(m):
        for j in range(3):
            t.kind[c, j] = kind[c, j]
        t.stock[c] = order[c]
        t.where[order[c]] = IN_STOCK
    for s in range(MAX_PLAYERS):
        t.scores[s] = 0
        for k in range(PARTS):
            t.counts[s, k] = 0
    for k in range(3):
        t.ends[k] = 0
    t.g[PLAYERS], t.g[ROUNDS], t.g[CARDS], t.g[STOCK_END], t.g[STARTER] = n, rounds, m, m, starter
    _clear_rows(t)
    t.g[SEAT] = starter
    begin(t)


@flat_kernel(inline="always")
def _clear_rows(t):
    for s in range(MAX_PLAYERS):
        t.placed[s], t.closed[s] = 0, 0
        for c in range(COLOURS):
            t.total[s, c], t.state[s, c] = 0, OPEN
    t.g[OFFER], t.g[DISCARDED], t.g[CARD], t.g[ROUND_TURNS] = -1, -1, -1, 0


@flat_kernel(inline="always")
def counted(t, s, c):
    """The total of seat s's row c as it counts (a blocked row: 0)."""
    return 0 if t.state[s, c] == BLOCKED else t.total[s, c]


@flat_kernel(inline="always")
def lowest_total(t, c):
    """The lowest counted total of colour c over all seats."""
    low = counted(t, 0, c)
    for s in range(1, t.g[PLAYERS]):
        low = min(low, counted(t, s, c))
    return low


@flat_kernel(inline="always")
def securable(t):
    """Colours (bit c) the seat to move may secure: from its second card placed in the round,
    its open rows in which it does not have the (possibly shared) lowest total."""
    s, out = t.g[SEAT], 0
    if t.placed[s] < 2:
        return 0
    for c in range(COLOURS):
        if t.state[s, c] == OPEN and t.total[s, c] > lowest_total(t, c):
            out |= 1 << c
    return out


@flat_kernel(inline="always")
def open_rows(t, s, card):
    """Colours (bit c) of the card's rows that are open for seat s."""
    out = 0
    for j in range(2):
        c = t.kind[card, j]
        if c >= 0 and t.state[s, c] == OPEN:
            out |= 1 << c
    return out


@flat_kernel(inline="always")
def can_take_offer(t):
    """May the seat to move take the card the previous seat just discarded: there is one (docs/rules.md
    §9.1 makes no exception for a card it cannot place: take discards such a card again)."""
    return t.g[OFFER] >= 0


@flat_kernel(inline="always")
def stock_empty(t):
    """Has the stock run out (a draw needs a refill first)?"""
    return t.g[TOP] == t.g[STOCK_END]


@flat_kernel
def refill(t):
    """The stock has run out: the discard pile becomes the stock, in pile order from the bottom
    (the caller shuffles t.stock[:STOCK_END], or lays a record's order there)."""
    for k in range(t.g[PILE_END]):
        t.stock[k] = t.pile[k]
        t.where[t.pile[k]] = IN_STOCK
    t.g[TOP], t.g[STOCK_END], t.g[PILE_END], t.g[OFFER] = 0, t.g[PILE_END], 0, -1
    t.g[RESHUFFLES] += 1


@flat_kernel(inline="always")
def begin(t):
    """Start the turn of t.g[SEAT], or end the round when it has lasted MAX_ROUND_TURNS turns or
    no card is left to take (stock and discard pile empty), then start the next round's."""
    while t.g[PHASE] != OVER:
        if t.g[ROUND_TURNS] >= MAX_ROUND_TURNS:
            _score_round(t, CAPPED)
        elif stock_empty(t) and t.g[PILE_END] == 0:
            _score_round(t, EXHAUSTED)
        else:
            t.g[ROUND_TURNS] += 1
            t.g[TURNS] += 1
            t.counts[t.g[SEAT], TURNS_OF] += 1
            t.g[PHASE] = TAKE
            return


@flat_kernel(inline="always")
def take(t, offer):
    """Take the offered discard (offer true; legal when can_take_offer) or the stock's top card
    (the caller refills an empty stock first).  A card with no open row is discarded (a taken
    discard goes back on the pile, offered to the next seat); with one open row, placed there;
    with two (a two-colour card), the seat chooses (ROW)."""
    s = t.g[SEAT]
    if offer:
        card = t.g[OFFER]
        t.g[PILE_END] -= 1
        t.counts[s, TAKEN] += 1
    else:
        card = t.stock[t.g[TOP]]
        t.g[TOP] += 1
    t.g[OFFER], t.g[CARD] = -1, card
    t.where[card] = IN_HAND
    rows = open_rows(t, s, card)
    if rows == 0:
        t.pile[t.g[PILE_END]] = card
        t.g[PILE_END] += 1
        t.where[card] = IN_PILE
        t.g[DISCARDED], t.g[CARD] = card, -1
        t.counts[s, DISCARDS] += 1
        _after_placing(t)
    elif rows & (rows - 1):
        t.g[PHASE] = ROW
    else:
        place(t, t.kind[card, 0] if rows == 1 << t.kind[card, 0] else t.kind[card, 1])


@flat_kernel(inline="always")
def place(t, c):
    """Place the card in hand in the seat's open row c; above LIMIT the row is blocked, and a
    fourth row secured or blocked ends the round at once."""
    s, card = t.g[SEAT], t.g[CARD]
    t.total[s, c] += t.kind[card, 2]
    t.where[card] = s * COLOURS + c
    t.placed[s] += 1
    t.g[CARD] = -1
    if t.total[s, c] > LIMIT:
        t.state[s, c] = BLOCKED
        t.counts[s, BLOCKED_ROWS + c] += 1
        t.closed[s] += 1
        if t.closed[s] == COLOURS:
            end_round(t, FOURTH)
            return
    _after_placing(t)


@flat_kernel(inline="always")
def _after_placing(t):
    if securable(t):
        t.g[PHASE] = SECURE
    else:
        next_turn(t)


@flat_kernel(inline="always")
def secure(t, c):
    """Secure the seat's row c (a colour of securable(t)), or none (c < 0); the turn ends, and a
    fourth row secured or blocked ends the round."""
    s = t.g[SEAT]
    if c >= 0:
        t.state[s, c] = SECURED
        t.counts[s, SECURED_ROWS + c] += 1
        t.closed[s] += 1
        if t.closed[s] == COLOURS:
            end_round(t, FOURTH)
            return
    next_turn(t)


@flat_kernel(inline="always")
def next_turn(t):
    """The seat to the left takes its turn; the card just discarded, if any, is offered to it."""
    t.g[OFFER], t.g[DISCARDED] = t.g[DISCARDED], -1
    t.g[SEAT] = t.g[SEAT] + 1 if t.g[SEAT] + 1 < t.g[PLAYERS] else 0
    begin(t)


@flat_kernel(inline="always")
def end_round(t, why):
    """Score the round, then start the next one (or end the game)."""
    _score_round(t, why)
    begin(t)


@flat_kernel
def _score_round(t, why):
    """Per colour, the seats with the lowest counted total score nothing, the others their
    total; the rows go onto the discard pile (in card order).  The next round starts one seat
    further left than this one did, with no discard on offer; after the last round, OVER."""
    n = t.g[PLAYERS]
    t.ends[why] += 1
    for c in range(COLOURS):
        low = lowest_total(t, c)
        for s in range(n):
            v = counted(t, s, c)
            if v > low:
                t.scores[s] += v
            elif t.state[s, c] != BLOCKED and t.total[s, c] > 0:
                t.counts[s, LOWEST] += 1
            t.scored[s, c, 0], t.scored[s, c, 1] = t.total[s, c], t.state[s, c]
    for card in range(t.g[CARDS]):
        if t.where[card] >= 0:
            t.pile[t.g[PILE_END]] = card
            t.g[PILE_END] += 1
            t.where[card] = IN_PILE
    _clear_rows(t)
    t.g[ROUND] += 1
    if t.g[ROUND] == t.g[ROUNDS]:
        t.g[PHASE] = OVER
        return
    t.g[SEAT] = (t.g[STARTER] + t.g[ROUND]) % n
