"""A slow, plain-Python statement of Danger (docs/rules.md §9, with the decisions of §9.2),
for testing the kernels of musim/games/danger/rules.py.

Written from the rules text, independently of the kernels: cards are (colours, value) read from
the deck's texts ("RY2": rows R or Y, value 2), rows are dicts, stock and pile are lists.
"""

from dataclasses import dataclass, field

LIMIT = 15
ROWS = "RYGB"
MAX_ROUND_TURNS = 500


def colours(text):
    return text.rstrip("0123456789")


def value(text):
    return int(text[len(colours(text)) :])


@dataclass
class State:
    n: int
    starter: int
    rounds: int
    stock: list  # card ids, the top first
    texts: dict  # card id -> text
    seat: int = 0
    round: int = 0
    pile: list = field(default_factory=list)
    offer: int = -1
    discarded: int = -1
    hand: int = -1
    phase: str = "take"  # take, row, secure, over
    rows: dict = field(default_factory=dict)  # (seat, colour) -> list of card ids
    closed: dict = field(default_factory=dict)  # (seat, colour) -> "secured" | "blocked"
    placed: dict = field(default_factory=dict)  # seat -> cards placed this round
    scores: list = field(default_factory=list)
    round_turns: int = 0
    ends: list = field(default_factory=list)

    def __post_init__(self):
        self.seat = self.starter
        self.scores = [0] * self.n
        self.begin()

    def total(self, s, c):
        return sum(value(self.texts[k]) for k in self.rows.get((s, c), []))

    def counted(self, s, c):
        return 0 if self.closed.get((s, c)) == "blocked" else self.total(s, c)

    def open_rows(self, s, card):
        return [c for c in colours(self.texts[card]) if (s, c) not in self.closed]

    def may_take_offer(self):
        return self.offer >= 0

    def may_secure(self):
        s = self.seat
        if self.placed.get(s, 0) < 2:
            return []
        return [
            c
            for c in ROWS
            if (s, c) not in self.closed and self.total(s, c) > min(self.counted(k, c) for k in range(self.n))
        ]

    def begin(self):
        while self.phase != "over":
            if self.round_turns >= MAX_ROUND_TURNS:
                self.score_round("capped")
            elif not self.stock and not self.pile:
                self.score_round("exhausted")
            else:
                self.round_turns += 1
                self.phase = "take"
                return

    def refill(self, order):
        assert sorted(order) == sorted(self.pile)
        self.stock, self.pile, self.offer = list(order), [], -1

    def take(self, offer):
        if offer:
            assert self.may_take_offer()
            card = self.pile.pop()
            assert card == self.offer
        else:
            card = self.stock.pop(0)
        self.offer, self.hand = -1, card
        rows = self.open_rows(self.seat, card)
        if not rows:
            self.pile.append(card)
            self.discarded, self.hand = card, -1
            self.after_placing()
        elif len(rows) == 2:
            self.phase = "row"
        else:
            self.place(rows[0])

    def place(self, c):
        s = self.seat
        assert c in self.open_rows(s, self.hand)
        self.rows.setdefault((s, c), []).append(self.hand)
        self.hand = -1
        self.placed[s] = self.placed.get(s, 0) + 1
        if self.total(s, c) > LIMIT:
            self.closed[(s, c)] = "blocked"
            if self.fourth(s):
                return
        self.after_placing()

    def fourth(self, s):
        if sum(1 for c in ROWS if (s, c) in self.closed) == 4:
            self.score_round("fourth")
            self.begin()
            return True
        return False

    def after_placing(self):
        if self.may_secure():
            self.phase = "secure"
        else:
            self.next_turn()

    def secure(self, c):
        if c is not None:
            assert c in self.may_secure()
            self.closed[(self.seat, c)] = "secured"
            if self.fourth(self.seat):
                return
        self.next_turn()

    def next_turn(self):
        self.offer, self.discarded = self.discarded, -1
        self.seat = (self.seat + 1) % self.n
        self.begin()

    def score_round(self, why):
        self.ends.append(why)
        for c in ROWS:
            low = min(self.counted(s, c) for s in range(self.n))
            for s in range(self.n):
                if self.counted(s, c) > low:
                    self.scores[s] += self.counted(s, c)
        self.pile += sorted(k for cards in self.rows.values() for k in cards)
        self.rows, self.closed, self.placed = {}, {}, {}
        self.offer = self.discarded = self.hand = -1
        self.round_turns = 0
        self.round += 1
        if self.round == self.rounds:
            self.phase = "over"
        else:
            self.seat = (self.starter + self.round) % self.n
