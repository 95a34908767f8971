"""A slow, plain-Python statement of the trick rules, The Last Panther (docs/rules.md §4) and
Wimmüln (docs/rules.md §3), for testing.

Written from the rules text, independently of musim.play.tricks and the games' kernels:
a card is (colour, rank) looked up in lists, hands are lists, and each rule is a few
lines of comparisons.  Only the decks' definitions come from musim.core.deck.
"""

from musim.core.deck import MU

COLOURS = "RYGBK"


def colour(card):
    return card // 12


def number(card):
    return (0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9)[card % 12]


def cards_of(mask):
    m = int(mask)
    return [i for i in range(64) if m >> i & 1]


def mask_of(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# ---------------------------------------------------------------- trick machinery


def legal(hand, led, colour_of, trump, must_trump):
    """Cards of the list `hand` that may be played; led None when leading."""
    if led is None:
        return list(hand)
    same = [c for c in hand if colour_of[c] == colour_of[led]]
    if same:
        return same
    trumps = [c for c in hand if colour_of[c] == trump]
    if must_trump and trumps:
        return trumps
    return list(hand)


def winner(trick, colour_of, rank_of, trump, later_wins):
    """Position of the winning card: highest trump, else highest of the led colour; ties by rule."""
    trumps = [j for j, c in enumerate(trick) if colour_of[c] == trump]
    pool = trumps or [j for j, c in enumerate(trick) if colour_of[c] == colour_of[trick[0]]]
    top = max(rank_of[trick[j]] for j in pool)
    best = [j for j in pool if rank_of[trick[j]] == top]
    return best[-1] if later_wins else best[0]


# ---------------------------------------------------------------- The Last Panther


def panther_deck(n):
    """Card indices in play: 3 players no 1s or 2s; 7-8 players no 2s but the yellow 2."""
    cards = range(60)
    if n == 3:
        return [c for c in cards if number(c) not in (1, 2)]
    if n >= 7:
        return [c for c in cards if number(c) != 2 or colour(c) == 1]
    return list(cards)


def panther_points(cards):
    """+5 each yellow, -10 each red, -50 each black 7."""
    total = 0
    for c in cards:
        if colour(c) == 1:
            total += 5
        elif colour(c) == 0:
            total -= 10
        elif colour(c) == 4 and number(c) == 7:
            total -= 50
    return total


def panther_scores(record):
    """Scores of a valid Panther record, played out card by card."""
    n, dealer = record["players"], record["dealer"]
    hands = [list(h) for h in record["hands"]]
    for s in range(n):
        for text in record["passed"][s]:
            hands[s].remove(text)
            hands[(s + 1) % n].append(text)
    scores = [0] * n
    play = record["play"]
    leader = (dealer + 1) % n
    for k in range(len(play) // n):
        trick = [MU.parse([t]).bit_length() - 1 for t in play[k * n : (k + 1) * n]]
        w = (leader + winner(trick, [colour(c) for c in range(60)], [number(c) for c in range(60)], None, False)) % n
        scores[w] += panther_points(trick)
        leader = w
    scores[leader] += 50
    return scores


# ---------------------------------------------------------------- Wimmüln


def triangles(card):
    return {1: 0, 9: 0, 6: 2, 7: 2}.get(number(card), 1)


def wimmueln_trump(a, b):
    """Colour of the lower-numbered revealed card; None if they share a number or a colour."""
    if number(a) == number(b) or colour(a) == colour(b):
        return None
    return colour(a) if number(a) < number(b) else colour(b)


def estimate_bonus(tricks, face_up, hidden):
    """docs/rules.md §3: lower estimate 5, higher 10, doubled if face up; both equal and matched 25."""
    if face_up == hidden:
        return 25 if tricks == face_up else 0
    if tricks == min(face_up, hidden):
        return 10 if face_up < hidden else 5
    if tricks == max(face_up, hidden):
        return 20 if face_up > hidden else 10
    return 0


def wimmueln_scores(record):
    """(trump, tricks won, scores) of a valid Wimmüln record, played out card by card."""
    n, dealer = record["players"], record["dealer"]
    a, b = (MU.parse([t]).bit_length() - 1 for t in record["revealed"])
    trump = wimmueln_trump(a, b)
    colour_of = [colour(c) for c in range(60)]
    number_of = [number(c) for c in range(60)]
    play = [MU.parse([t]).bit_length() - 1 for t in record["play"]]  # kinds: copies are equal
    won = [0] * n
    pts = [0] * n
    leader = dealer
    for k in range(len(play) // n):
        trick = play[k * n : (k + 1) * n]
        w = (leader + winner(trick, colour_of, number_of, trump, False)) % n
        won[w] += 1
        pts[w] += sum(triangles(c) for c in trick)
        leader = w
    scores = []
    for s in range(n):
        up, down = (number(MU.parse([t]).bit_length() - 1) for t in record["estimates"][s])
        scores.append(pts[s] + estimate_bonus(won[s], up, down))
    return trump, won, scores
