"""Legal Zwickern records whose table grows large, and crowded tables, for the replay's tests and
benchmarks/bench_zwickern_replay.py: players who mostly lay (always legal, docs/rules.md §10.2),
now and then build, and now and then buy a few random groups of the table's items.

The simulation's policies list every buy of the table, which takes minutes on such tables; a
buy here is drawn instead: a value of the card, then groups of that value found by a random
search over the items, so that only legal buys are drawn, without listing them.
"""

import numpy as np

from musim.games.zwickern import record, rules
from musim.games.zwickern.rules import BUILD, BUY, HIGH, LAY, LOW
from musim.games.zwickern.simulate import CARDS, deal_hands, make_workspace, open_deal, turn


def large_table_record(players, seed, buy=0.1, build=0.05, more=0.5):
    """The record of a deal (card order and dealer from `seed`) in which each turn buys with
    probability `buy` (when a random card of the hand has a buy; `random_buy` with `more`),
    builds with probability `build` (when it has a build) and lays otherwise."""
    rng = np.random.default_rng(seed)
    dealer = int(rng.integers(players))
    deck = np.zeros(64, np.int64)
    deck[:CARDS] = rng.permutation(CARDS)
    ws = make_workspace()
    rules.clear(ws.table)
    first = (dealer + 1) % players
    pos = int(open_deal(players, first, deck, ws.held, ws.table))
    moves = []
    while True:
        seat = first
        while ws.held[:players].any():
            if ws.held[seat]:
                move = _move(ws, seat, rng, buy, build, more)
                turn(players, seat, move[0], move[1], np.uint64(move[2]), move[3], ws)
                moves.append(move)
            seat = (seat + 1) % players
        if pos >= CARDS:
            break
        pos = int(deal_hands(players, first, deck, pos, ws.held))
    return record.write(players, dealer, deck[:CARDS], moves)


def _move(ws, seat, rng, buy, build, more):
    """(card, action, cards, value) of one turn of `seat`."""
    hand = int(ws.held[seat])
    card = int(rng.choice([c for c in range(CARDS) if hand >> c & 1]))
    mv = ws.moves
    m = int(rules.load_items(ws.table, mv))
    draw = rng.random()
    if draw < buy:
        items = [(int(mv.item_cards[i]), int(mv.item_low[i]), int(mv.item_high[i])) for i in range(m)]
        taken = random_buy(items, card, rng, more)
        if taken:
            return card, BUY, taken, 0
    elif draw < buy + build:
        count = int(rules.builds(mv, m, card, np.uint64(hand & ~(1 << card))))
        if count:
            j = int(rng.integers(count))
            return card, BUILD, int(mv.item_cards[mv.build_item[j]]), int(mv.build_value[j])
    return card, LAY, 0, 0


def random_buy(items, card, rng, more=0.5):
    """The cards of a random buy of `card` on `items` ((cards, low, high) each), 0 if none found:
    groups of one value of the card, drawn one after another from the items left, each after the
    first with probability `more`."""
    target = int(rng.choice([LOW[card], HIGH[card]]))
    left = [items[i] for i in rng.permutation(len(items))]
    taken = 0
    while True:
        group = _group(left, target, rng)
        if group is None:
            return taken
        taken |= sum(left[i][0] for i in group)
        left = [item for i, item in enumerate(left) if i not in group]
        if rng.random() >= more:
            return taken


def _group(items, target, rng, budget=2000):
    """Positions of items summing to target (each at a random one of its values first), found by a
    depth-first search over the items in order that gives up after `budget` steps; None if none."""
    chosen, steps = [], [budget]

    def search(start, total):
        if total == target:
            return True
        for i in range(start, len(items)):
            steps[0] -= 1
            if steps[0] < 0:
                return False
            _, low, high = items[i]
            for v in rng.permutation([low, high]) if high != low else (low,):
                if total + v <= target:
                    chosen.append(i)
                    if search(i + 1, total + int(v)):
                        return True
                    chosen.pop()
        return False

    return set(chosen) if search(0, 0) else None


def crowded_table(rng, most):
    """A random table of up to `most` items, most of them small and many equal (loose aces to 5s
    and court cards, up to 10 piles of 1 to 12), where buys split many ways; and a card not on it."""
    small = [c for c in range(CARDS) if rules.LOW[c] <= 5]
    loose = [int(c) for c in rng.choice(small, int(rng.integers(0, min(most, len(small)) + 1)), replace=False)]
    rest = [int(c) for c in rng.permutation(CARDS) if c not in loose]
    t = rules.new_table()
    t.loose[0] = sum(1 << c for c in loose)
    t.count[0] = rng.integers(0, min(most - len(loose), 10) + 1)
    for k in range(t.count[0]):
        t.piles[k], t.value[k] = (1 << rest[2 * k]) | (1 << rest[2 * k + 1]), rng.integers(1, 13)
    return t, rest[-1]
