"""A slow, plain-Python statement of Mückenstich's rules (docs/rules.md §8), for testing.

Written from the rules text, independently of musim.play.tricks and the game's kernels: a
card is a text (`R12`, `RM`) or an index whose colour and rank are read from a list,
hands are lists, and each rule is a few lines of comparisons.  Only the deck's
definition comes from musim.core.deck.
"""

from musim.core.deck import MUECKENSTICH as DECK

COLOURS = "RYGB"
SLOTS = [*(str(d) for d in range(1, 13)), "12", "M", "M", "M"]  # per colour, in index order


def text(card):
    return COLOURS[card // 16] + SLOTS[card % 16]


def colour(card):
    return card // 16


def rank(card):
    """1..12 for the number cards, 13 for a mosquito (its colour's highest card)."""
    label = SLOTS[card % 16]
    return 13 if label == "M" else int(label)


def is_mosquito(card):
    return SLOTS[card % 16] == "M"


def cards_of(mask):
    m = int(mask)
    return [i for i in range(64) if m >> i & 1]


def mask_of(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def legal(hand, led):
    """Follow the led colour if able (a mosquito belongs to its colour); trumping never forced."""
    if led is None:
        return list(hand)
    same = [c for c in hand if colour(c) == colour(led)]
    return same or list(hand)


def winner(trick, trump):
    """Position of the winning card: highest of the trump colour, else of the led colour; later equal wins."""
    pool = [j for j, c in enumerate(trick) if colour(c) == trump] or [
        j for j, c in enumerate(trick) if colour(c) == colour(trick[0])
    ]
    top = max(rank(trick[j]) for j in pool)
    return [j for j in pool if rank(trick[j]) == top][-1]


def single(values, most):
    """The one seat with the fewest (most) values, None if several share it."""
    best = max(values) if most else min(values)
    seats = [s for s, v in enumerate(values) if v == best]
    return seats[0] if len(seats) == 1 else None


def score(won, double, zero):
    """Number cards 2 in the double colour, 0 in the zero colour, else 1; the first mosquito of each colour -5."""
    total = 0
    seen = set()
    for c in won:
        if is_mosquito(c):
            if colour(c) not in seen:
                total -= 5
                seen.add(colour(c))
        elif COLOURS[colour(c)] == double:
            total += 2
        elif COLOURS[colour(c)] != zero:
            total += 1
    return total


def scores(record):
    """(tricks won, mosquitoes won, scores, trumps after each trick) of a valid record."""
    n, dealer = record["players"], record["dealer"]
    trump = None
    won = [[] for _ in range(n)]
    tricks = [0] * n
    after = []
    play = record["play"]
    leader = (dealer + 1) % n
    for k in range(len(play) // n):
        trick = []
        for move in play[k * n : (k + 1) * n]:
            card, _, named = move.partition(":")
            trick.append(DECK.kinds[card][0])  # copies are equal: any index of the kind will do
            if named:
                trump = COLOURS.index(named)
        w = (leader + winner(trick, trump)) % n
        won[w] += trick
        tricks[w] += 1
        after.append(None if trump is None else COLOURS[trump])
        leader = w
    mosquitoes = [sum(map(is_mosquito, w)) for w in won]
    double, zero = record.get("double"), record.get("zero")
    return tricks, mosquitoes, [score(w, double, zero) for w in won], after
