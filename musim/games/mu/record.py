"""Replay and validate one complete Mü game record (docs/examples/README.md "Mü game record").

The record is walked in order — deal, auction, trumps, partner, play — and every
rule question (lay limits, the end of the auction, eklat and provoker, chief and
vice, nameable trumps, partners, following, trick winners, points, scoring) is put
to the kernels of `musim.games.mu.rules`, so the validator can never disagree
with the simulator.  The steps every trick game's record shares (header, dealt
hands, trick-by-trick play) are musim.io.records'; this module checks the rest of the
JSON shapes, tracks who holds which cards, and words the errors.

Every error is an `InputError` whose one-line message starts with the offending
item.  Indices are 0-based, like the record's own lists: "auction turn i" is
record["auction"][i], "play card j" is record["play"][j], "trick k" is
result["tricks"][k].
"""

from types import SimpleNamespace

import numpy as np

from musim.core.bits import popcount
from musim.core.cards import COLOURS, NO_TYPE, parse_type, type_text
from musim.core.deck import MU
from musim.games.mu import rules, target_tables
from musim.io import records
from musim.io.batch import InputError


def replay(obj):
    """Validate a Mü game record and return its replay result (played or eklat form)."""
    n, dealer = records.header(obj, "mu", rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    targets = _targets(obj.get("targets"), n)
    hands = _deal(obj.get("hands"), n)
    laid, counts, last_lay = _auction(obj.get("auction"), hands, n, dealer)
    tied = np.empty(n, np.int64)
    chief, vice, provoker, n_tied = rules.auction_result(laid, counts, last_lay, n, tied)
    laid_text = [MU.format(m) for m in laid]
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
    team, success, shortfall, bonus = rules.score_played(
        n, bid, chief, partner, chief_trump, card_points, scores, targets
    )
    return {
        "outcome": "played",
        "chief": int(chief),
        "vice": _seat_or_none(vice),
        "partner": _seat_or_none(partner),
        "bid": bid,
        "target": int(targets[n, bid]),
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


def _seat_or_none(seat):
    """JSON form of a seat the kernels report as -1 when absent."""
    return None if seat < 0 else int(seat)


def _bit(i):
    """uint64 mask of card i (kept uint64 so the kernels see one signature)."""
    return np.uint64(1) << np.uint64(i)


# ---------------------------------------------------------------- the steps


def _targets(value, n):
    """The target table the record was played under: its "targets" (a rule variant, docs/rules.md
    §2.11), or the rulebook's without one."""
    try:
        return target_tables.from_record(value, n)
    except target_tables.TargetsError as exc:
        raise InputError(f"targets: {exc}") from None


def _deal(hands, n):
    """Dealt hand masks; the hands must together be exactly the deck for n players."""
    dealt = records.dealt_hands(MU, hands, n, int(rules.hand_size(n)))
    records.check_colours_deal(MU, dealt, n)
    return [np.uint64(h) for h in dealt]


def _auction(auction, hands, n, dealer):
    """(laid masks, laid counts, last laying turn per seat) after walking the auction."""
    if not isinstance(auction, list):
        raise InputError(f"auction: expected a list of turns, got {records.show(auction)}")
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
            raise InputError(f"{where}: expected a list of cards, got {records.show(turn)}")
        if not turn:
            passes += 1
            continue
        in_hand = hands[seat] & ~laid[seat]
        cards = np.uint64(0)
        for text in turn:
            with records.at(where):
                c = MU.index(text, in_hand & ~cards)
                if c < 0:
                    why = "already laid" if MU.index(text, hands[seat]) >= 0 else "not dealt to this seat"
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
            raise InputError(f"{key}: must be null or absent on an eklat, got {records.show(obj.get(key))}")
    if obj.get("play") not in (None, []):
        raise InputError(f"play: must be empty or absent on an eklat, got {records.show(obj.get('play'))}")


def _vice_trump(text, laid, vice):
    """Vice trump type (NO_TYPE without a vice): one of the vice's laid types."""
    if vice < 0:
        if text is not None:
            raise InputError(f"vice_trump: there is no vice, got {records.show(text)}")
        return NO_TYPE
    if text is None:
        raise InputError(f"vice_trump: missing (seat {vice} is vice)")
    with records.at("vice_trump"):
        t = parse_type(text)
    if not rules.nameable_types(laid[vice], NO_TYPE) >> t & 1:
        raise InputError(
            f"vice_trump: {text} is not among vice seat {vice}'s laid cards ({' '.join(MU.format(laid[vice]))})"
        )
    return t


def _chief_trump(text, laid, chief, vice_trump):
    """Chief trump type: "none" or a laid type of the chief's other than the vice trump."""
    if text is None:
        raise InputError("chief_trump: missing")
    with records.at("chief_trump"):
        t = parse_type(text, allow_none=True)
    if t != NO_TYPE and not rules.nameable_types(laid[chief], vice_trump) >> t & 1:
        if t == vice_trump:
            raise InputError(f"chief_trump: {text} is already the vice trump")
        raise InputError(
            f"chief_trump: {text} is not among chief seat {chief}'s laid cards ({' '.join(MU.format(laid[chief]))})"
        )
    return t


def _partner(partner, n, chief, vice):
    """Partner seat, or -1 where the rules allow no partner (then it must be null)."""
    allowed = [p for p in range(n) if rules.partner_allowed(p, chief, vice, n)]
    if not allowed:
        if partner is not None:
            raise InputError(f"partner: must be null with {n} players, got {records.show(partner)}")
        return -1
    if partner is None:
        raise InputError("partner: missing")
    if not records.is_int(partner) or partner not in allowed:
        raise InputError(
            f"partner: {records.show(partner)} is not allowed (chief {chief}, vice {_seat_or_none(vice)}; "
            f"choose from {', '.join(map(str, allowed))})"
        )
    return partner


def _play(play, hands, n, chief, chief_trump, vice_trump):
    """(tricks, card points per seat) after playing every card in order."""
    klass, power, class_mask = rules.contract(chief_trump, vice_trump)
    walk = SimpleNamespace(
        legal=lambda hand, led: rules.legal_moves(hand, led, klass, class_mask),
        winner=lambda cards, count: rules.trick_winner(cards, count, klass, power),
        points=rules.mask_points,
        colour=lambda card: "trump" if klass[card] == rules.TRUMP else COLOURS[klass[card]],
    )
    held = [int(h) for h in hands]
    tricks, _, won = records.play_tricks(MU, play, held, n, chief, int(rules.hand_size(n)), walk)
    return tricks, np.array([rules.mask_points(np.uint64(w)) for w in won], np.int64)
