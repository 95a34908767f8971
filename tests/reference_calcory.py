"""A slow, plain-Python statement of a Calcory turn (docs/rules.md §7, with the decisions of
docs/rules.md §7.2), for testing the kernels of musim/games/calcory/rules.py.

Written from the rules text, independently of the kernels: the grid is a dict position -> card
index, face-down and marked places are Python sets, a card's number is read from the deck's
list of numbers.
"""

from dataclasses import dataclass, field

from musim.core.deck import MU_NUMBERS

TARGET = 13


def number(card):
    return MU_NUMBERS[card % 12]


@dataclass
class State:
    n: int
    seat: int
    at: dict  # position -> card, only places holding a card
    down: set
    marks: set = field(default_factory=set)
    owner: int = -1
    mark_total: int = 0
    turned: list = field(default_factory=list)
    hand: set = field(default_factory=set)  # cards taken, one to put back
    won: dict = field(default_factory=dict)  # seat -> set of cards
    over: str = ""

    def total(self):
        return sum(number(self.at[p]) for p in self.turned)

    def may_stop(self):
        if not self.turned:
            return False
        if self.owner < 0:
            return True
        total, count = self.total(), len(self.turned)
        return total > self.mark_total or (total == self.mark_total and count > len(self.marks))

    def _take(self, places):
        cards = {self.at.pop(p) for p in places}
        self.down -= set(places)
        return cards

    def start(self):
        """The next seat's turn begins: its surviving marks are taken (a single card ends the game)."""
        self.seat = (self.seat + 1) % self.n
        self.turned = []
        if self.owner == self.seat:
            cards = self._take(self.marks)
            self.marks, self.owner = set(), -1
            if len(cards) == 1:
                self.won.setdefault(self.seat, set()).update(cards)
                self.over = "single"
            else:
                self.hand = cards
        elif not self.down:
            self.over = "exhausted"

    def turn(self, p):
        self.down.discard(p)
        self.turned.append(p)
        zeros = sum(1 for q in self.turned if number(self.at[q]) == 0)
        total = self.total()
        if total > TARGET or zeros > 1 or (total < TARGET and not self.down and not self.may_stop()):
            self.down |= set(self.turned)
            self.start()
        elif total == TARGET:
            self.down |= self.marks
            self.marks, self.owner = set(), -1
            self.hand = self._take(self.turned)
            self.turned = []

    def stop(self):
        self.down |= self.marks
        self.marks, self.owner, self.mark_total = set(self.turned), self.seat, self.total()
        self.start()

    def put_back(self, card, p):
        self.won.setdefault(self.seat, set()).update(self.hand - {card})
        self.hand = set()
        self.at[p] = card
        self.down.add(p)
        self.start()
