"""Game records of Safarü and Reverse Safarü (docs/formats.md "Safarü and Reverse Safarü"):
replay and record.

`replay` deals the record's cards round by round as the kernels do (`simulate.deal_round`)
and walks its turns in seat order, asking `rules.catch_sets` whether each set is one the
method may take, so that the legal catches have one statement; `record` re-plays one
simulated game from its seed and writes its record, which `replay` scores to the same row.
"""

import numpy as np

from musim.compile.jit import growing
from musim.core.cards import CardError
from musim.core.deck import MU as DECK
from musim.games.safarue import rules
from musim.games.safarue.rules import NUMBER, SETS, TOTAL, doubled
from musim.games.safarue.simulate import CARDS, deal_round, make_workspace, score_game, simulate_deals
from musim.io import records
from musim.io.batch import InputError

NAMES = {False: "safarue", True: "reverse-safarue"}
KEYS = ("card", *rules.METHODS)


def replay(obj, trace=None):
    """Validate a Safarü or Reverse Safarü record and return its result: turns (seat, card,
    caught cards, table after), caught (per seat), left (the table at the end), scores.
    A dict `trace` receives what `musim show` tells beyond the result (show.py): each round's
    deal (its first turn, dealer, hands, table, cards left in the stock) and the two majority
    bonuses per seat."""
    reverse = obj.get("game") == NAMES[True]
    n, dealer = records.header(obj, NAMES[reverse], rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    deck = _deck(obj, n, dealer)
    turns = obj.get("turns")
    if not isinstance(turns, list):
        raise InputError(f"turns: expected a list of turns, got {records.show(turns)}")
    game = _Game(n, reverse, deck)
    walked, r = [], 0
    while game.pos < CARDS:
        first = (dealer + r + 1) % n
        game.deal(first)
        if trace is not None:
            hands = [DECK.format(int(h)) for h in game.held[:n]]
            deal = {"turn": len(walked), "dealer": (dealer + r) % n, "hands": hands, "table": DECK.format(game.table)}
            trace.setdefault("rounds", []).append({**deal, "stock": CARDS - game.pos})
        seat = first
        while any(game.held[:n]):
            if game.held[seat]:
                i = len(walked)
                if i >= len(turns):
                    raise InputError(f"turns: {len(turns)} turns, but the game goes on: seat {seat} plays turn {i}")
                walked.append(game.turn(turns[i], seat, f"turn {i} (seat {seat})"))
            seat = (seat + 1) % n
        r += 1
    if len(turns) > len(walked):
        raise InputError(f"turns: {len(turns)} turns, but the game ends after {len(walked)}")
    scores = np.zeros(n, np.int64)
    first, second = np.zeros(n, np.int64), np.zeros(n, np.int64)
    score_game(n, reverse, game.won, scores, first, second, make_workspace())
    if trace is not None:
        trace["bonuses"] = first.tolist(), second.tolist()
    return {
        "turns": walked,
        "caught": [DECK.format(int(w)) for w in game.won[:n]],
        "left": DECK.format(game.table),
        "scores": scores.tolist(),
    }


def _deck(obj, n, dealer):
    """The card order (indices) of the record's hands, table and stock, padded to the kernels' 64."""
    order = records.dealt_order(DECK, obj, n, dealer, rules.HAND, rules.TABLE)
    return np.array(order + [0] * (64 - CARDS), np.int64)


class _Game:
    """The state a replay walks: hands, table, caught cards, the stock position, the cleared flag."""

    def __init__(self, n, reverse, deck):
        self.n, self.reverse, self.deck = n, reverse, deck
        self.held = np.zeros(rules.MAX_PLAYERS, np.uint64)
        self.won = np.zeros(rules.MAX_PLAYERS, np.uint64)
        self.pos, self.table, self.cleared = 0, 0, False
        self.order, self.sets = np.zeros(64, np.int64), np.zeros(SETS, np.uint64)

    def deal(self, first):
        pos, table = deal_round(self.n, first, self.deck, self.pos, self.held, np.uint64(self.table))
        self.pos, self.table = int(pos), int(table)

    def turn(self, turn, seat, where):
        """Check one turn and play it; its summary for the result."""
        if not isinstance(turn, dict) or "card" not in turn or set(turn) - set(KEYS):
            keys = ", ".join(rules.METHODS)
            raise InputError(f'{where}: expected {{"card": ...}} with any of {keys}, got {records.show(turn)}')
        text = turn["card"]
        if not isinstance(text, str):
            raise InputError(f"{where}: card: expected a card, got {records.show(text)}")
        with records.at(where):
            card = DECK.index(text, int(self.held[seat]))
        if card < 0:
            raise InputError(f"{where}: {text} is not in the hand ({' '.join(DECK.format(int(self.held[seat])))})")
        sets, taken = [], 0
        for m in range(3):
            sets.append(self._set(turn, m, card, taken, where))
            taken |= sets[-1]
        used = [m for m in range(3) if sets[m]]
        a, t, p = sets
        if used and self.cleared:
            raise InputError(f"{where}: {text} must be released: the previous player cleared the table")
        if self.reverse and len(used) > 1:
            raise InputError(f"{where}: Reverse Safarü catches by one method a turn, got {len(used)}")
        if not used and not self.cleared and self._can_catch(card):
            raise InputError(f"{where}: {text} can catch, so it must (only a card that catches nothing is released)")
        caught = int(rules.caught_cards(card, np.uint64(a), np.uint64(t), np.uint64(p)))
        self.held[seat] = int(self.held[seat]) & ~(1 << card)
        self.won[seat] = int(self.won[seat]) | caught
        self.table = int(rules.table_after(np.uint64(self.table), card, np.uint64(a), np.uint64(t), np.uint64(p)))
        self.cleared = self.table == 0
        return {"seat": seat, "card": text, "caught": DECK.format(caught), "table": DECK.format(self.table)}

    def _set(self, turn, method, card, taken, where):
        """Mask of the table cards `turn` catches by `method` (0 if unused), checked against the rules;
        the methods before it took `taken` (a copy of a 1 or 7 named twice is each copy once)."""
        name = rules.METHODS[method]
        if name not in turn:
            return 0
        value = turn[name]
        if method == rules.PAIRING:
            if not isinstance(value, str):
                raise InputError(f"{where}: pairing: expected one card, got {records.show(value)}")
            value = [value]
        elif not isinstance(value, list) or not value or not all(isinstance(c, str) for c in value):
            raise InputError(f"{where}: {name}: expected a non-empty list of cards, got {records.show(value)}")
        with records.at(f"{where}: {name}"):
            DECK.parse(value)
            try:
                mask = DECK.parse(value, within=self.table & ~taken)
            except CardError:
                rest = " ".join(DECK.format(self.table & ~taken))
                also = " once the methods before it took theirs" if taken else ""
                raise InputError(f"{where}: {name}: {' '.join(value)} not all on the table{also} ({rest})") from None
        if method == rules.PAIRING:
            if not mask & int(rules.pairing_cards(np.uint64(self.table), card)):
                raise InputError(f"{where}: pairing: {value[0]} is not a {NUMBER[card]}")
            return mask
        target = NUMBER[card] if method == rules.ADDING else TOTAL - NUMBER[card]
        count, self.sets = rules.all_catch_sets(self.table, target, self.order, self.sets)
        if mask not in {int(s) for s in self.sets[:count]}:
            rule = "summing to" if method == rules.ADDING else f"that with {NUMBER[card]} sum to {TOTAL}, i.e."
            zero = " and holding a 0 (the table holds one)" if self.table & int(rules.ZEROS) else ""
            raise InputError(f"{where}: {name}: {' '.join(value)} is not a set of table cards {rule} {target}{zero}")
        return mask

    def _can_catch(self, card):
        found, self.sets = growing(
            lambda sets: bool(rules.can_catch(np.uint64(self.table), card, self.order, sets)), self.sets, doubled
        )
        return found


def record(players, seed, policy, index, reverse=False):
    """The game record (docs/formats.md) of game `index` of a run, re-played from its seed."""
    ws = make_workspace()
    row = simulate_deals(players, seed, policy, index, 1, ws, reverse)
    dealer, deck = int(row["dealer"][0]), [DECK.text(int(c)) for c in row["deck"][0]]
    first = (dealer + 1) % players
    hands = [[] for _ in range(players)]
    for k in range(rules.HAND * players):
        hands[(first + k) % players].append(deck[k])
    dealt = rules.HAND * players
    turns = []
    for card, *sets in ws.log[: int(row["turns"][0])]:
        turn = {"card": DECK.text(int(card))}
        for m, mask in enumerate(sets):
            if mask:
                cards = DECK.format(int(mask))
                turn[rules.METHODS[m]] = cards[0] if m == rules.PAIRING else cards
        turns.append(turn)
    return {
        "game": NAMES[reverse],
        "players": players,
        "dealer": dealer,
        "hands": hands,
        "table": deck[dealt : dealt + rules.TABLE],
        "stock": deck[dealt + rules.TABLE :],
        "turns": turns,
    }
