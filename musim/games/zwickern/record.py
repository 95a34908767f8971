"""Game records of Zwickern (docs/examples/README.md "Zwickern deal records"): replay and record.

`replay` deals the record's cards as the kernels do (`simulate.deal_hands`) and walks its turns
in seat order, asking the kernels whether each build (`rules.builds`) or buy is one the played
card may make and playing it with `simulate.turn`.  A buy is checked by `check.is_buy`, which
splits only the items the record names (`rules.buys` lists every buy of the table: minutes on a
large one), tested against `rules.buys`.  `record` re-plays one simulated deal from its seed and
writes its record (`write`) from the kernels' log, which `replay` scores to the same row.
"""

import numpy as np

from musim.core.deck import ZWICKERN as DECK
from musim.games.zwickern import check, rules
from musim.games.zwickern.points import DEFAULT, PointsError, parse
from musim.games.zwickern.rules import ACTIONS, BUILD, BUY, HAND, HIGH, LAY, LOW, PARTS, TABLE
from musim.games.zwickern.simulate import CARDS, deal_hands, make_workspace, open_deal, simulate_deals, turn
from musim.io import records
from musim.io.batch import InputError

GAME = "zwickern"
KEYS = ("card", "buy", "build", "value")


def replay(obj, trace=None):
    """Validate a Zwickern record and return its result: turns (seat, card, action, cards
    taken or built on, pile value, Zwick, the table after), won (per seat), piles left, the
    cards left on the table, each seat's parts (rules.PARTS) and scores.  A list `trace`
    receives each round's deal for `musim show` (show.py): its first turn, the hands dealt and
    the cards left in the stock."""
    n, dealer = records.header(obj, GAME, rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    text = obj.get("victory_points", DEFAULT)
    try:
        points = parse(text)
    except PointsError as exc:
        raise InputError(f"victory_points: {exc}") from None
    deck = np.array(records.dealt_order(DECK, obj, n, dealer, HAND, TABLE) + [0] * (64 - CARDS), np.int64)
    turns = obj.get("turns")
    if not isinstance(turns, list):
        raise InputError(f"turns: expected a list of turns, got {records.show(turns)}")
    ws = make_workspace(points)
    rules.clear(ws.table)
    first = (dealer + 1) % n
    pos = int(open_deal(n, first, deck, ws.held, ws.table))
    walked = []
    while True:
        if trace is not None:
            trace.append(
                {"turn": len(walked), "hands": [DECK.format(int(h)) for h in ws.held[:n]], "stock": CARDS - pos}
            )
        seat = first
        while any(ws.held[:n]):
            if ws.held[seat]:
                i = len(walked)
                if i >= len(turns):
                    raise InputError(f"turns: {len(turns)} turns, but the deal goes on: seat {seat} plays turn {i}")
                walked.append(_turn(ws, n, seat, turns[i], f"turn {i} (seat {seat})"))
            seat = (seat + 1) % n
        if pos >= CARDS:
            break
        pos = int(deal_hands(n, first, deck, pos, ws.held))
    if len(turns) > len(walked):
        raise InputError(f"turns: {len(turns)} turns, but the deal ends after {len(walked)}")
    t = ws.table
    rules.score(n, ws.won, t, ws.points, ws.parts, ws.scores, ws.side_cards, ws.side_total)
    return {
        "turns": walked,
        "won": [DECK.format(int(w)) for w in ws.won[:n]],
        "piles": _piles(t),
        "left": DECK.format(int(rules.on_table(t))),
        "parts": {name: ws.parts[:n, k].tolist() for k, name in enumerate(PARTS)},
        "scores": ws.scores[:n].tolist(),
    }


def _turn(ws, n, seat, entry, where):
    """Check one turn and play it; its summary for the result."""
    if not isinstance(entry, dict) or "card" not in entry or set(entry) - set(KEYS):
        raise InputError(
            f'{where}: expected {{"card": ...}}, with "buy": [cards] or "build": [cards] and "value", got '
            f"{records.show(entry)}"
        )
    text, held = entry["card"], int(ws.held[seat])
    if not isinstance(text, str):
        raise InputError(f"{where}: card: expected a card, got {records.show(text)}")
    with records.at(where):
        card = DECK.index(text, held)
    if card < 0:
        raise InputError(f"{where}: {text} is not in the hand ({' '.join(DECK.format(held))})")
    t, mv = ws.table, ws.moves
    m = int(rules.load_items(t, mv))
    cards, value = 0, 0
    if "buy" in entry:
        if {"build", "value"} & set(entry):
            raise InputError(f"{where}: a turn buys, builds or lays its card: not both buy and build")
        action, cards = BUY, _table_cards(ws, entry["buy"], f"{where}: buy")
        if not check.is_buy(mv, check.new_check(), m, card, np.uint64(cards)):
            raise InputError(f"{where}: buy: {_why_not_bought(mv, m, cards, card)}")
    elif "build" in entry:
        action, cards = BUILD, _table_cards(ws, entry["build"], f"{where}: build")
        value = entry.get("value")
        if not records.is_int(value):
            raise InputError(f"{where}: value: expected the new pile's value, got {records.show(value)}")
        item = next((i for i in range(m) if int(mv.item_cards[i]) == cards), -1)
        if item < 0:
            raise InputError(f"{where}: build: {' '.join(DECK.format(cards))} is not one table card or one pile")
        count = int(rules.builds(mv, m, card, np.uint64(held & ~(1 << card))))
        if (item, value) not in set(zip(mv.build_item[:count].tolist(), mv.build_value[:count].tolist())):
            raise InputError(f"{where}: build: {_why_not_built(mv, item, card, value, held)}")
    elif "value" in entry:
        raise InputError(f'{where}: value without "build"')
    else:
        action = LAY
    turn(n, seat, card, action, np.uint64(cards), value, ws)
    return {
        "seat": seat,
        "card": text,
        "action": ACTIONS[action],
        "cards": DECK.format(cards),
        **({"value": value} if action == BUILD else {}),
        "zwick": action == BUY and bool(rules.is_empty(t)),
        "table": DECK.format(int(t.loose[0])),
        "piles": _piles(t),
    }


def _table_cards(ws, cards, where):
    """Mask of the listed table cards."""
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
        raise InputError(f"{where}: expected a non-empty list of table cards, got {records.show(cards)}")
    on = int(rules.on_table(ws.table))
    with records.at(where):
        mask = DECK.parse(cards)
    if mask & ~on:
        raise InputError(f"{where}: {' '.join(DECK.format(mask & ~on))} not on the table")
    return mask


def _why_not_bought(mv, m, cards, card):
    for i in range(m):
        part = int(mv.item_cards[i])
        if part & cards and part & ~cards:
            return f"takes part of the pile {' '.join(DECK.format(part))} (a pile is bought whole)"
    values = f"{LOW[card]}" if LOW[card] == HIGH[card] else f"{LOW[card]} or {HIGH[card]}"
    return f"{' '.join(DECK.format(cards))} do not split into groups each worth {values} (one value for all)"


def _why_not_built(mv, item, card, value, held):
    every = np.uint64((1 << 64) - 1)
    possible = int(rules.build_values(mv.item_low[item], mv.item_high[item], card, every))
    if not 0 < value < 64 or not possible >> value & 1:
        made = ", ".join(str(v) for v in range(64) if possible >> v & 1)
        return f"{value} is not the sum or the difference of a value of the card and one of the item ({made})"
    return f"no other card of the hand buys a pile of {value}"


def _piles(t):
    return [
        {"cards": DECK.format(int(t.piles[k])), "value": int(t.value[k]), "builder": int(t.builder[k])}
        for k in range(int(t.count[0]))
    ]


def record(players, seed, policy, index, victory_points=DEFAULT):
    """The deal record (docs/examples/README.md) of deal `index` of a run, re-played from its seed."""
    ws = make_workspace(parse(victory_points))
    row = simulate_deals(players, seed, policy, index, 1, ws)
    moves = ws.log[: int(row["turns"][0])].tolist()
    return write(players, int(row["dealer"][0]), row["deck"][0].tolist(), moves, victory_points)


def write(players, dealer, deck, moves, victory_points=DEFAULT):
    """The record of a deal of `players` dealt by `dealer` from the card order `deck` (card
    indices), whose turns make `moves`: (card, action, cards taken or built on, value) each."""
    deck = [DECK.text(int(c)) for c in deck]
    first = (dealer + 1) % players
    hands = [[] for _ in range(players)]
    for k in range(HAND * players):
        hands[(first + k) % players].append(deck[k])
    dealt = HAND * players
    turns = []
    for card, action, cards, value in moves:
        entry = {"card": DECK.text(int(card))}
        if action == BUY:
            entry["buy"] = DECK.format(int(cards))
        elif action == BUILD:
            entry["build"], entry["value"] = DECK.format(int(cards)), int(value)
        turns.append(entry)
    return {
        "game": GAME,
        "players": players,
        "dealer": dealer,
        "victory_points": victory_points,
        "hands": hands,
        "table": deck[dealt : dealt + TABLE],
        "stock": deck[dealt + TABLE :],
        "turns": turns,
    }
