"""Checks shared by the game records of the trick games (docs/examples/README.md "Mü game record"
and the records of Wimmüln, The Last Panther and Mückenstich).

Each game's record module walks its record in order and asks its own rule kernels;
this module holds what every such walk needs: the header, the dealt hands, sets of
cards taken from a hand, and the trick-by-trick play; and the card order of the records that
deal hands, a table and a stock (`dealt_order`).  Errors are `InputError`s whose
one-line message names the offending item; indices are 0-based, like the record's
lists ("play card j" is record["play"][j]).
"""

import json
from contextlib import contextmanager

import numpy as np

from musim.core.cards import CardError
from musim.io.batch import InputError


@contextmanager
def at(item):
    """Turn a CardError (bad card text, too many copies) into an InputError naming `item`."""
    try:
        yield
    except CardError as exc:
        raise InputError(f"{item}: {exc}") from None


def show(value):
    """Short one-line JSON rendering of a user value for messages."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def is_int(value):
    """JSON integer (bools are not seat numbers)."""
    return isinstance(value, int) and not isinstance(value, bool)


def header(obj, game, lo, hi):
    """(players, dealer) after checking "game", "players" (lo..hi) and "dealer"."""
    if obj.get("game") != game:
        raise InputError(f'game: expected "{game}", got {show(obj.get("game"))}')
    n = obj.get("players")
    if not is_int(n) or not lo <= n <= hi:
        raise InputError(f"players: expected {lo}..{hi}, got {show(n)}")
    dealer = obj.get("dealer")
    if not is_int(dealer) or not 0 <= dealer < n:
        raise InputError(f"dealer: expected a seat 0..{n - 1}, got {show(dealer)}")
    return n, dealer


def dealt_hands(deck, hands, n, size):
    """Hand masks (ints) of the record's `hands`: n lists of `size` distinct cards of `deck`."""
    if not isinstance(hands, list) or len(hands) != n:
        raise InputError(f"hands: expected a list of {n} hands, got {show(hands)}")
    dealt = []
    taken = 0
    for s, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise InputError(f"hands[{s}]: expected a list of cards, got {show(hand)}")
        if len(hand) != size:
            raise InputError(f"hands[{s}]: {len(hand)} cards, expected {size}")
        with at(f"hands[{s}]"):
            mask = deck.parse(hand, within=deck.full & ~taken)
        dealt.append(mask)
        taken |= mask
    return dealt


def check_deck(deck, dealt, wanted, what):
    """The hands together must be exactly the cards of `wanted`."""
    taken = 0
    for mask in dealt:
        taken |= mask
    if taken != wanted:
        missing = " ".join(deck.format(wanted & ~taken))
        extra = " ".join(deck.format(taken & ~wanted))
        raise InputError(
            f"hands: the deal is not {what} (" + (f"missing {missing}" if missing else f"not in play {extra}") + ")"
        )


def check_colours_deal(deck, dealt, n):
    """The whole deck, or with 3 players any three complete colours (Mü and Wimmüln)."""
    if n != 3:
        check_deck(deck, dealt, deck.full, "the whole deck")
        return
    taken = 0
    for mask in dealt:
        taken |= mask
    wanted = sum(deck.colour_mask(c) for c in range(len(deck.colours)) if taken & deck.colour_mask(c))
    check_deck(deck, dealt, wanted, "three complete colours")


def cards_from(deck, cards, hand, count, item):
    """Mask of `count` cards listed in `cards`, all taken from `hand` (a mask)."""
    if not isinstance(cards, list):
        raise InputError(f"{item}: expected a list of cards, got {show(cards)}")
    if len(cards) != count:
        raise InputError(f"{item}: {len(cards)} cards, expected {count}")
    with at(item):
        for text in cards:
            deck.parse([text])
        try:
            return deck.parse(cards, within=hand)
        except CardError:
            raise InputError(f"{item}: {' '.join(cards)} not all in the hand ({' '.join(deck.format(hand))})") from None


def play_tricks(deck, play, held, n, leader, count, rules, first=0, trick0=()):
    """Walk `count` tricks of `play` from `leader`; returns (tricks, tricks won, won cards per seat).

    `held` (per seat masks) is updated as cards are played.  `rules` gives the game's
    kernels: legal(hand, led) -> mask, winner(cards, count) -> position,
    points(mask) -> int, and colour(card) -> the name of its class for messages.  The first
    `first` cards of play (already checked and taken from their hands by the caller) are
    the start of trick 0, given as card indices in `trick0`.
    """
    if not isinstance(play, list):
        raise InputError(f"play: expected a list of cards, got {show(play)}")
    if len(play) != n * count:
        raise InputError(f"play: {len(play)} cards, expected {n * count}")
    won = [0] * n
    tricks_won = [0] * n
    tricks = []
    cards = np.empty(n, np.int64)
    for k in range(count):
        trick = 0
        for j in range(n):
            seat = (leader + j) % n
            i = k * n + j
            if i < first:
                c = trick0[i]
            else:
                text = play[i]
                where = f"play card {i} (seat {seat}, trick {k})"
                with at(where):
                    c = deck.index(text, held[seat])
                if c < 0:
                    raise InputError(f"{where}: {text} is not held")
                led = int(cards[0]) if j else -1
                legal = int(rules.legal(np.uint64(held[seat]), led))
                if not legal >> c & 1:  # then `legal` is the cards of the led class
                    follow = " ".join(deck.format(legal))
                    raise InputError(f"{where}: {text} fails to follow {rules.colour(led)} (holds {follow})")
                held[seat] &= ~(1 << c)
            cards[j] = c
            trick |= 1 << c
        winner = (leader + int(rules.winner(cards, n))) % n
        won[winner] |= trick
        tricks_won[winner] += 1
        tricks.append(
            {
                "leader": leader,
                "cards": [deck.text(int(c)) for c in cards],
                "winner": winner,
                "points": int(rules.points(np.uint64(trick))),
            }
        )
        leader = winner
    return tricks, tricks_won, won


def dealt_order(deck, obj, n, dealer, hand, table):
    """The card indices, in dealing order, of a record's `hands`, `table` and `stock` (the
    records of the fishing games): `hand` cards a seat, dealt one at a time from the seat left of
    `dealer`, then the `table` cards, then the stock; together the whole deck, once."""
    lists = obj.get("hands")
    dealt = dealt_hands(deck, lists, n, hand)
    cards, stock = obj.get("table"), obj.get("stock")
    if not isinstance(cards, list) or len(cards) != table:
        raise InputError(f"table: expected a list of {table} cards, got {show(cards)}")
    if not isinstance(stock, list):
        raise InputError(f"stock: expected a list of cards, got {show(stock)}")
    taken = 0
    for mask in dealt:
        taken |= mask
    with at("table"):
        taken |= deck.parse(cards, within=deck.full & ~taken)
    with at("stock"):
        taken |= deck.parse(stock, within=deck.full & ~taken)
    check_deck(deck, [taken], deck.full, f"the {deck.n_cards} cards of the deck")
    first = (dealer + 1) % n
    order, used = [], 0
    for text in [*(lists[(first + k) % n][j] for j in range(hand) for k in range(n)), *cards, *stock]:
        c = deck.index(text, deck.full & ~used)
        used |= 1 << c
        order.append(c)
    return order
