"""A slow, plain-Python statement of Rummü's melds, their points and coming out (docs/rules.md §5), for testing.

Written from the rules text, independently of the kernels: a card is an index whose colour and
number are read from the deck's layout, a meld a list of indices, and the melds of a hand are
found by trying every subset.  A deal's meld points are found by walking its plays with each
meld's cards and who put them there.
"""

from itertools import combinations

from musim.core.deck import MU_NUMBERS

YELLOW = 1
COLOURS = "RYGBK"


def colour(card):
    return card // 12


def number(card):
    return MU_NUMBERS[card % 12]


def is_meld(cards):
    """>= 3 cards, no two identical; a set (one number, all colours different) or a run (consecutive
    numbers, all one colour with more non-yellow cards than yellow ones, or all colours different);
    a yellow card keeps its number and stands for it in another colour; a meld that is not a
    one-colour run holds at most one yellow card; an all-yellow meld is illegal."""
    if len(cards) < 3 or len({(colour(c), number(c)) for c in cards}) < len(cards):
        return False
    yellow = [c for c in cards if colour(c) == YELLOW]
    others = [c for c in cards if colour(c) != YELLOW]
    if not others:
        return False
    nums = sorted(number(c) for c in cards)
    distinct_colours = len({colour(c) for c in cards}) == len(cards)
    if len(set(nums)) == 1:
        return distinct_colours and len(yellow) <= 1
    if nums != list(range(nums[0], nums[0] + len(cards))):
        return False
    one_colour = len({colour(c) for c in others}) == 1 and len(others) > len(yellow)
    return one_colour or (distinct_colours and len(yellow) <= 1)


def meld_points(cards):
    """The scoring table: sets 3: 0, 4 pure 30 / with a joker 10, 5: 50, halved for 1s and 7s;
    runs 3: pure 10 else 0, 4: 20 / 10, 5: 40 / 20, +10 each card beyond 5.  Pure: no yellow card,
    and a run all one colour."""
    k = len(cards)
    has_yellow = any(colour(c) == YELLOW for c in cards)
    if len({number(c) for c in cards}) == 1:
        value = {3: 0, 4: 10 if has_yellow else 30, 5: 50}[k]
        return value // 2 if number(cards[0]) in (1, 7) else value
    pure = not has_yellow and len({colour(c) for c in cards}) == 1
    table = {3: (0, 10), 4: (10, 20), 5: (20, 40)}
    return table[min(k, 5)][pure] + 10 * max(0, k - 5)


def best_meld(hand, least):
    """(points, cards) of the best legal meld of the hand of at least `least` cards that leaves a
    card in hand, or None."""
    best = None
    for k in range(max(3, least), len(hand)):
        for cards in combinations(hand, k):
            if is_meld(list(cards)):
                found = (meld_points(list(cards)), k)
                best = found if best is None or found > best else best
    return best


def can_come_out(hand, need, holding=None):
    """Can a player holding `hand` come out this turn: lay melds, no card in two of them, of at
    least `need` cards together (docs/rules.md §5.2: every meld laid in the turn it comes out,
    counted together), leaving a card to discard, and (if given) one of them holding the card
    `holding`?  Tries every collection of the hand's melds."""
    melds = [set(m) for k in range(3, len(hand)) for m in combinations(hand, k) if is_meld(list(m))]

    def grow(start, used):
        if need <= len(used) < len(hand) and (holding is None or holding in used):
            return True
        return any(grow(j + 1, used | melds[j]) for j in range(start, len(melds)) if not melds[j] & used)

    return grow(0, set())


def is_coming_out(hand, melds, need):
    """Is laying `melds` (lists of cards) in one turn a coming out from `hand`: each a meld, no card
    twice and all in the hand, at least `need` cards together, and a card left to discard?"""
    cards = [c for m in melds for c in m]
    return (
        all(is_meld(m) for m in melds)
        and len(set(cards)) == len(cards)
        and set(cards) <= set(hand)
        and need <= len(cards) < len(hand)
    )


def index(text):
    """The card index of a card's text ("R7": a red 7, either copy)."""
    return 12 * COLOURS.index(text[0]) + MU_NUMBERS.index(int(text[1:]))


def plays(rec):
    """(seat, play) of every meld, extension and swap of a record, in order."""
    n = rec["players"]
    return [((rec["dealer"] + 1 + i) % n, item) for i, turn in enumerate(rec["turns"]) for item in turn.get("play", [])]


def deal_meld_points(n, seat_plays):
    """Each seat's meld points at the end of a deal: a meld scores for the player who laid it by the
    table, on its final cards less those other players put there (fewer than 3: 0); each card a
    player put into another's meld, by adding it or swapping it in for a joker, +10 for that
    player; a swapped-out joker counts for nobody."""
    melds = []  # (owner, {card text: the seat that put it there})
    for seat, item in seat_plays:
        if "meld" in item:
            melds.append((seat, dict.fromkeys(item["meld"], seat)))
        elif "extend" in item:
            melds[item["extend"]][1][item["card"]] = seat
        else:
            cards = melds[item["swap"]][1]
            del cards[item["joker"]]
            cards[item["card"]] = seat
    result = [0] * n
    for owner, cards in melds:
        own = [index(t) for t, by in cards.items() if by == owner]
        result[owner] += meld_points(own) if len(own) >= 3 else 0
        for by in cards.values():
            result[by] += 10 if by != owner else 0
    return result
