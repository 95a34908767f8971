"""A slow, plain-Python statement of the Mü rules (docs/rules.md §1 and §2), for testing.

Written straight from the rules text, independently of musim.games.mu.rules:
cards are ints (index = 12*colour + slot), hands are lists, and every rule is a
few lines of lists, comparisons and sorting.  Only the deck layout constants
come from musim.core.cards.

Trump types use the project's codes so results can be compared with the
kernels: None or -1 = no trump, 0..4 = a colour (R Y G B K), 5..14 = the number
(code - 5).
"""

from musim.core.cards import COLOURS, SLOT_NUMBERS

N_CARDS = 60
TRUMP = "trump"


# ---------------------------------------------------------------- cards


def colour(card):
    """Colour 0..4 (R Y G B K) of a card index."""
    return card // 12


def number(card):
    """Printed number 0..9 of a card index."""
    return SLOT_NUMBERS[card % 12]


def points(card):
    """Triangles: 1 and 9 are worth 0, 6 and 7 worth 2, the rest 1."""
    d = number(card)
    if d in (1, 9):
        return 0
    if d in (6, 7):
        return 2
    return 1


def card_text(card):
    return COLOURS[colour(card)] + str(number(card))


def cards_of(mask):
    """Card indices of a bit mask (int or numpy uint64), ascending."""
    m = int(mask)
    return [i for i in range(N_CARDS) if (m >> i) & 1]


def mask_of(cards):
    """Bit mask (Python int) of a list of distinct card indices."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def points_of(cards):
    return sum(points(c) for c in cards)


# ---------------------------------------------------------------- trumps and tricks


def matches(trump_type, card):
    """Does the card belong to the trump type (colour or number)? None/-1 matches nothing."""
    if trump_type is None or trump_type < 0:
        return False
    if trump_type < 5:
        return colour(card) == trump_type
    return number(card) == trump_type - 5


def card_tier(card, chief_trump, vice_trump):
    """3 double trump, 2 chief trump only, 1 vice trump only, 0 not trump."""
    is_chief = matches(chief_trump, card)
    is_vice = matches(vice_trump, card)
    if is_chief and is_vice:
        return 3
    if is_chief:
        return 2
    if is_vice:
        return 1
    return 0


def card_class(card, chief_trump, vice_trump):
    """'trump' if the card is a trump of any tier, else its colour 0..4."""
    if card_tier(card, chief_trump, vice_trump) > 0:
        return TRUMP
    return colour(card)


def legal_cards(cards, led, chief_trump, vice_trump):
    """Cards the player may play; `led` is the first card of the trick or None."""
    if led is None:
        return list(cards)
    led_class = card_class(led, chief_trump, vice_trump)
    following = [c for c in cards if card_class(c, chief_trump, vice_trump) == led_class]
    if following:
        return following
    return list(cards)


def trick_winner(trick, chief_trump, vice_trump):
    """Position (0-based) of the winning card of a trick, cards in playing order."""
    trumps = [j for j, c in enumerate(trick) if card_tier(c, chief_trump, vice_trump) > 0]
    if trumps:
        candidates = trumps
        key = lambda j: (card_tier(trick[j], chief_trump, vice_trump), number(trick[j]))
    else:
        led_colour = colour(trick[0])
        candidates = [j for j, c in enumerate(trick) if colour(c) == led_colour]
        key = lambda j: number(trick[j])
    best = candidates[0]
    for j in candidates[1:]:
        if key(j) > key(best):  # strictly higher: among equals the first played stays
            best = j
    return best


# ---------------------------------------------------------------- auction


def lay_limit(own, top, in_hand):
    """Most cards a player may lay on a turn (0 means: must pass)."""
    if in_hand == 0:
        return 0
    if own > top:
        limit = 1
    else:
        limit = top + 1 - own
    return min(limit, in_hand)


class Auction:
    """The Mü auction as a state machine.

    hands: list of n lists of card indices (seat s holds hands[s]); the dealer
    acts first, then play goes left (seat + 1).  An action is a list of cards to
    lay; the empty list is a pass.
    """

    def __init__(self, hands, dealer=0):
        self.n = len(hands)
        self.hands = [list(h) for h in hands]
        self.laid = [[] for _ in range(self.n)]
        self.dealer = dealer
        self.turn = 0  # turns taken so far
        self.passes = 0  # consecutive passes just before now
        self.last_lay = [None] * self.n  # turn number of each seat's latest laying turn

    @property
    def seat(self):
        """Seat whose turn it is."""
        return (self.dealer + self.turn) % self.n

    @property
    def ended(self):
        return self.passes >= self.n

    def counts(self):
        return [len(x) for x in self.laid]

    def top_other(self, seat):
        others = [len(self.laid[s]) for s in range(self.n) if s != seat]
        return max(others) if others else 0

    def limit(self):
        seat = self.seat
        return lay_limit(len(self.laid[seat]), self.top_other(seat), len(self.hands[seat]))

    def is_legal(self, cards):
        if self.ended:
            return False
        if len(cards) == 0:
            return True
        hand = list(self.hands[self.seat])
        for c in cards:
            if c not in hand:
                return False
            hand.remove(c)
        return 1 <= len(cards) <= self.limit()

    def act(self, cards):
        if not self.is_legal(cards):
            raise ValueError(f"illegal auction action {cards} by seat {self.seat} on turn {self.turn}")
        seat = self.seat
        if len(cards) == 0:
            self.passes += 1
        else:
            self.passes = 0
            for c in cards:
                self.hands[seat].remove(c)
                self.laid[seat].append(c)
            self.last_lay[seat] = self.turn
        self.turn += 1

    def result(self):
        """AuctionResult of the ended auction."""
        assert self.ended
        return auction_outcome(self.laid, self.last_lay)


class AuctionResult:
    def __init__(self, eklat, tied, provoker, scores, chief, vice, bid):
        self.eklat = eklat  # True if the deal ends unplayed
        self.tied = tied  # eklat: seats with the highest laid count
        self.provoker = provoker  # eklat with M > 0: the provoker seat, else None
        self.scores = scores  # eklat: list of scores, else None
        self.chief = chief  # played deal: the chief seat, else None
        self.vice = vice  # played deal: the vice seat or None
        self.bid = bid  # M, the highest laid count

    def __repr__(self):
        return repr(self.__dict__)


def auction_outcome(laid, last_lay):
    """Result of an ended auction from each seat's laid cards and latest laying turn."""
    n = len(laid)
    counts = [len(x) for x in laid]
    M = max(counts)
    tied = [s for s in range(n) if counts[s] == M]
    if len(tied) >= 2:  # eklat (with M = 0: everyone ties at 0)
        scores = [0] * n
        provoker = None
        if M > 0:
            provoker = tied[0]
            for s in tied:
                if last_lay[s] > last_lay[provoker]:
                    provoker = s
            for s in tied:
                scores[s] = 5 * M
            scores[provoker] = -10 * M
        return AuctionResult(True, tied, provoker, scores, None, None, M)
    chief = tied[0]
    return AuctionResult(False, tied, None, None, chief, choose_vice(laid, chief), M)


def choose_vice(laid, chief):
    """The vice seat or None (3 players: never)."""
    n = len(laid)
    if n < 4:
        return None
    others = [s for s in range(n) if s != chief and len(laid[s]) >= 1]
    if not others:
        return None
    most = max(len(laid[s]) for s in others)
    candidates = [s for s in others if len(laid[s]) == most]
    # Tie-break: laid numbers sorted high to low, first difference wins.
    keyed = [(sorted((number(c) for c in laid[s]), reverse=True), s) for s in candidates]
    best_numbers = max(k for k, _ in keyed)
    best = [s for k, s in keyed if k == best_numbers]
    if len(best) > 1:
        return None
    return best[0]


def trump_types_of(cards):
    """Set of trump types (colour codes and 5+number codes) among the cards."""
    types = set()
    for c in cards:
        types.add(colour(c))
        types.add(5 + number(c))
    return types


def vice_may_name(laid_cards):
    """Trump types the vice may name: a colour or number of one of their laid cards."""
    return trump_types_of(laid_cards)


def chief_may_name(laid_cards, vice_trump):
    """Types the chief may name (None = no trump), never the vice's trump."""
    allowed = trump_types_of(laid_cards)
    allowed.discard(vice_trump)
    return allowed | {None}


def partner_choices(n, chief, vice):
    """Seats the chief may name as partner (none with 3 players)."""
    if n < 4:
        return []
    return [s for s in range(n) if s != chief and s != vice]


# ---------------------------------------------------------------- scoring


HAND_SIZE = {3: 12, 4: 15, 5: 12, 6: 10}
POINTS_IN_PLAY = {3: 36, 4: 60, 5: 60, 6: 60}

# The target table as printed in the rulebook ("Team Score" table).
TARGET_TABLE = {
    3: [12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34],
    4: [30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58],
    5: [24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57],
    6: [20, 24, 28, 32, 36, 40, 44, 48, 52, 56],
}


def target(n, bid):
    """Team points needed (docs/rules.md §2 formulas)."""
    if n == 3:
        return 10 + 2 * bid
    if n == 4:
        return 28 + 2 * bid
    if n == 5:
        return 21 + 3 * bid
    if n == 6:
        return 16 + 4 * bid
    raise ValueError(n)


def achieved_rank(n, team_points):
    """Largest bid whose target the team points reach, 0 if none."""
    ranks = [b for b in range(1, HAND_SIZE[n] + 1) if team_points >= target(n, b)]
    return max(ranks) if ranks else 0


def bonus(bid, chief_trump):
    """10 * min(b + a, 10): a = 0 colour, 1 number 1 or 7, 2 other number, 3 none."""
    if chief_trump is None or chief_trump < 0:
        a = 3
    elif chief_trump < 5:
        a = 0
    elif chief_trump - 5 in (1, 7):
        a = 1
    else:
        a = 2
    return 10 * min(bid + a, 10)


class DealScore:
    def __init__(self, scores, team, made, shortfall, bonus):
        self.scores, self.team, self.made, self.shortfall, self.bonus = scores, team, made, shortfall, bonus


def score_deal(n, bid, chief, partner, chief_trump, card_points):
    """Scores of a played deal; partner is None with 3 players."""
    team = card_points[chief] + (card_points[partner] if partner is not None else 0)
    scores = list(card_points)
    if team >= target(n, bid):
        b = bonus(bid, chief_trump)
        scores[chief] += b
        if partner is not None:
            scores[partner] += b
        return DealScore(scores, team, True, 0, b)
    s = bid - achieved_rank(n, team)
    for p in range(n):
        if p == chief:
            scores[p] += -10 * s
        elif p == partner:
            pass
        else:
            scores[p] += 5 * s
    return DealScore(scores, team, False, s, 0)
