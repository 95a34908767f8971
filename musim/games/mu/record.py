"""Replay and validate one complete Mü game record (FORMATS.md "Mü game record").

The record is walked in order — deal, auction, trumps, partner, play — and every
rule question (lay limits, the end of the auction, eklat and provoker, chief and
vice, nameable trumps, partners, following, trick winners, points, scoring) is put
to the kernels of `musim.games.mu.rules`, so the validator can never disagree
with the simulator.  This module only checks the JSON shapes, tracks who holds
which cards, and words the errors.

Every error is an `InputError` whose one-line message starts with the offending
item.  Indices are 0-based, like the record's own lists: "auction turn i" is
record["auction"][i], "play card j" is record["play"][j], "trick k" is
result["tricks"][k].
"""

import json
from contextlib import contextmanager

import numpy as np

from musim.batch import InputError
from musim.bits import popcount
from musim.cards import (
    CARD_TEXT,
    COLOUR_MASK,
    COLOURS,
    N_COLOURS,
    NO_TYPE,
    CardError,
    card_index,
    deck_for,
    hand_mask,
    mask_cards,
    parse_type,
    type_text,
)
from musim.games.mu import rules


def replay(obj):
    """Validate a Mü game record and return its replay result (played or eklat form)."""
    n, dealer = _header(obj)
    hands = _deal(obj.get("hands"), n)
    laid, counts, last_lay = _auction(obj.get("auction"), hands, n, dealer)
    tied = np.empty(n, np.int64)
    chief, vice, provoker, n_tied = rules.auction_result(laid, counts, last_lay, n, tied)
    laid_text = [mask_cards(m) for m in laid]
    scores = np.empty(n, np.int64)
    if chief < 0:
        _check_eklat_leftovers(obj)
        rules.eklat_scores(counts, n, provoker, scores)
        return {
            "outcome": "eklat",
            "tied": [int(s) for s in tied[:n_tied]],
            "provoker": _seat_or_none(provoker),
            "scores": [int(s) for s in scores],
            "laid": laid_text,
        }

    vice_trump = _vice_trump(obj.get("vice_trump"), laid, vice)
    chief_trump = _chief_trump(obj.get("chief_trump"), laid, chief, vice_trump)
    partner = _partner(obj.get("partner"), n, chief, vice)
    tricks, card_points = _play(obj.get("play"), hands, n, chief, chief_trump, vice_trump)
    bid = int(counts[chief])
    team, success, shortfall, bonus = rules.score_played(n, bid, chief, partner, chief_trump, card_points, scores)
    return {
        "outcome": "played",
        "chief": int(chief),
        "vice": _seat_or_none(vice),
        "partner": _seat_or_none(partner),
        "bid": bid,
        "target": int(rules.target(n, bid)),
        "chief_trump": type_text(chief_trump),
        "vice_trump": type_text(vice_trump) if vice_trump != NO_TYPE else None,
        "laid": laid_text,
        "tricks": tricks,
        "card_points": [int(p) for p in card_points],
        "team_points": int(team),
        "success": bool(success),
        "shortfall": int(shortfall),
        "bonus": int(bonus),
        "scores": [int(s) for s in scores],
    }


# ---------------------------------------------------------------- helpers


@contextmanager
def _at(item):
    """Turn a CardError (bad card text, too many copies) into an InputError naming `item`."""
    try:
        yield
    except CardError as exc:
        raise InputError(f"{item}: {exc}") from None


def _show(value):
    """Short one-line JSON rendering of a user value for messages."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value):
    """JSON integer (bools are not seat numbers)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _seat_or_none(seat):
    """JSON form of a seat the kernels report as -1 when absent."""
    return None if seat < 0 else int(seat)


def _bit(i):
    """uint64 mask of card i (kept uint64 so the kernels see one signature)."""
    return np.uint64(1) << np.uint64(i)


# ---------------------------------------------------------------- the steps


def _header(obj):
    """(players, dealer) after checking "game", "players" and "dealer"."""
    if obj.get("game") != "mu":
        raise InputError(f'game: expected "mu", got {_show(obj.get("game"))}')
    n = obj.get("players")
    if not _is_int(n) or not rules.MIN_PLAYERS <= n <= rules.MAX_PLAYERS:
        raise InputError(f"players: expected {rules.MIN_PLAYERS}..{rules.MAX_PLAYERS}, got {_show(n)}")
    dealer = obj.get("dealer")
    if not _is_int(dealer) or not 0 <= dealer < n:
        raise InputError(f"dealer: expected a seat 0..{n - 1}, got {_show(dealer)}")
    return n, dealer


def _deal(hands, n):
    """Dealt hand masks; the hands must together be exactly the deck for n players."""
    if not isinstance(hands, list) or len(hands) != n:
        raise InputError(f"hands: expected a list of {n} hands, got {_show(hands)}")
    size = rules.hand_size(n)
    dealt = []
    taken = np.uint64(0)
    for s, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise InputError(f"hands[{s}]: expected a list of cards, got {_show(hand)}")
        if len(hand) != size:
            raise InputError(f"hands[{s}]: {len(hand)} cards, expected {size}")
        with _at(f"hands[{s}]"):
            mask = hand_mask(hand, within=~taken)
        dealt.append(mask)
        taken |= mask
    colours = [c for c in range(N_COLOURS) if taken & COLOUR_MASK[c]]
    deck = deck_for(n, colours)
    if taken != deck:
        what = "three complete colours" if n == 3 else "the whole deck"
        raise InputError(f"hands: the deal is not {what} (missing {' '.join(mask_cards(deck & ~taken))})")
    return dealt


def _auction(auction, hands, n, dealer):
    """(laid masks, laid counts, last laying turn per seat) after walking the auction."""
    if not isinstance(auction, list):
        raise InputError(f"auction: expected a list of turns, got {_show(auction)}")
    laid = np.zeros(n, np.uint64)
    counts = np.zeros(n, np.int64)
    last_lay = np.full(n, -1, np.int64)
    passes = 0
    for i, turn in enumerate(auction):
        seat = (dealer + i) % n
        where = f"auction turn {i} (seat {seat})"
        if rules.auction_over(passes, n):
            raise InputError(f"{where}: the auction already ended after turn {i - 1}")
        if not isinstance(turn, list):
            raise InputError(f"{where}: expected a list of cards, got {_show(turn)}")
        if not turn:
            passes += 1
            continue
        in_hand = hands[seat] & ~laid[seat]
        cards = np.uint64(0)
        for text in turn:
            with _at(where):
                c = card_index(text, in_hand & ~cards)
                if c < 0:
                    why = "already laid" if card_index(text, hands[seat]) >= 0 else "not dealt to this seat"
                    raise InputError(f"{where}: lays {text}, which is not in hand ({why})")
            cards |= _bit(c)
        limit = rules.lay_limit(counts[seat], rules.top_other(counts, n, seat), popcount(in_hand))
        if len(turn) > limit:
            raise InputError(f"{where}: lays {len(turn)} cards, limit is {limit}")
        laid[seat] |= cards
        counts[seat] += len(turn)
        last_lay[seat] = i
        passes = 0
    if not rules.auction_over(passes, n):
        raise InputError(f"auction: not ended after {len(auction)} turns ({passes} consecutive passes at the end)")
    return laid, counts, last_lay


def _check_eklat_leftovers(obj):
    """An eklat is unplayed: no trumps, partner or play may be given."""
    for key in ("vice_trump", "chief_trump", "partner"):
        if obj.get(key) is not None:
            raise InputError(f"{key}: must be null or absent on an eklat, got {_show(obj.get(key))}")
    if obj.get("play") not in (None, []):
        raise InputError(f"play: must be empty or absent on an eklat, got {_show(obj.get('play'))}")


def _vice_trump(text, laid, vice):
    """Vice trump type (NO_TYPE without a vice): one of the vice's laid types."""
    if vice < 0:
        if text is not None:
            raise InputError(f"vice_trump: there is no vice, got {_show(text)}")
        return NO_TYPE
    if text is None:
        raise InputError(f"vice_trump: missing (seat {vice} is vice)")
    with _at("vice_trump"):
        t = parse_type(text)
    if not rules.nameable_types(laid[vice], NO_TYPE) >> t & 1:
        raise InputError(
            f"vice_trump: {text} is not among vice seat {vice}'s laid cards ({' '.join(mask_cards(laid[vice]))})"
        )
    return t


def _chief_trump(text, laid, chief, vice_trump):
    """Chief trump type: "none" or a laid type of the chief's other than the vice trump."""
    if text is None:
        raise InputError("chief_trump: missing")
    with _at("chief_trump"):
        t = parse_type(text, allow_none=True)
    if t != NO_TYPE and not rules.nameable_types(laid[chief], vice_trump) >> t & 1:
        if t == vice_trump:
            raise InputError(f"chief_trump: {text} is already the vice trump")
        raise InputError(
            f"chief_trump: {text} is not among chief seat {chief}'s laid cards ({' '.join(mask_cards(laid[chief]))})"
        )
    return t


def _partner(partner, n, chief, vice):
    """Partner seat, or -1 where the rules allow no partner (then it must be null)."""
    allowed = [p for p in range(n) if rules.partner_allowed(p, chief, vice, n)]
    if not allowed:
        if partner is not None:
            raise InputError(f"partner: must be null with {n} players, got {_show(partner)}")
        return -1
    if partner is None:
        raise InputError("partner: missing")
    if not _is_int(partner) or partner not in allowed:
        raise InputError(
            f"partner: {_show(partner)} is not allowed (chief {chief}, vice {_seat_or_none(vice)}; "
            f"choose from {', '.join(map(str, allowed))})"
        )
    return partner


def _play(play, hands, n, chief, chief_trump, vice_trump):
    """(tricks, card points per seat) after playing every card in order."""
    size = rules.hand_size(n)
    if not isinstance(play, list):
        raise InputError(f"play: expected a list of cards, got {_show(play)}")
    if len(play) != n * size:
        raise InputError(f"play: {len(play)} cards, expected {n * size}")
    klass, power, class_mask = rules.contract(chief_trump, vice_trump)
    held = list(hands)
    card_points = np.zeros(n, np.int64)
    cards = np.empty(n, np.int64)
    tricks = []
    leader = chief
    for k in range(size):
        trick = np.uint64(0)
        for j in range(n):
            seat = (leader + j) % n
            text = play[k * n + j]
            where = f"play card {k * n + j} (seat {seat}, trick {k})"
            with _at(where):
                c = card_index(text, held[seat])
            if c < 0:
                raise InputError(f"{where}: {text} is not held")
            led = cards[0] if j else -1
            if not rules.legal_moves(held[seat], led, klass, class_mask) & _bit(c):
                lead_class = klass[led]
                name = "trump" if lead_class == rules.TRUMP else COLOURS[lead_class]
                follow = " ".join(mask_cards(held[seat] & class_mask[lead_class]))
                raise InputError(f"{where}: {text} fails to follow {name} (holds {follow})")
            cards[j] = c
            trick |= _bit(c)
            held[seat] &= ~_bit(c)
        winner = (leader + rules.trick_winner(cards, n, klass, power)) % n
        points = rules.mask_points(trick)
        card_points[winner] += points
        tricks.append(
            {"leader": leader, "cards": [CARD_TEXT[c] for c in cards], "winner": int(winner), "points": int(points)}
        )
        leader = int(winner)
    return tricks, card_points
