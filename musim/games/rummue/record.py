"""Game records of Rummü (docs/examples/README.md "Rummü deal records"): replay and record.

`replay` deals the record's card order and walks its turns on the same kernels as the
simulation (table.setup, draw, lay, extend, swap, discard, score), checking each step against
the rules (rules.py) first, so that each rule has one statement; `record` re-plays one
simulated deal from its seed and writes its record from the kernels' log, which `replay` scores
to the same row.
"""

import numpy as np

from musim.core.cards import CardError
from musim.core.deck import MU as DECK
from musim.games.rummue import rules, table
from musim.games.rummue.rules import ILLEGAL, KINDS, MAX_PLAYERS, come_out, extends, kind, owner_points, swaps
from musim.games.rummue.simulate import ENDS, MAX_TURNS, make_workspace, simulate_deals
from musim.games.rummue.table import G_MELDS, G_OPENING, G_PILE, G_STOCK, G_TURN, PARTS
from musim.io import records
from musim.io.batch import InputError

GAME = "rummue"
CARDS = DECK.n_cards


def _cards(mask):
    return DECK.format(int(mask))


def _bad(where, what):
    return InputError(f"{where}: {what}")


def replay(obj, trace=None):
    """Validate a Rummü record and return its result: scores, parts per seat (table.PARTS), out
    (the seat that went out, or null), end, turns, melds (owner, kind, the cards laid, the cards at
    the end and the points they score for the owner).  A dict `trace` receives for `musim show`
    (show.py) the hands dealt, the card starting the pile, the stock's size, each seat's
    coming-out count and, per turn, the cards drawn and whether the seat came out in it."""
    n, dealer = records.header(obj, GAME, rules.MIN_PLAYERS, MAX_PLAYERS)
    teams = obj.get("teams", False)
    if not isinstance(teams, bool) or (teams and n not in (4, 6)):
        raise InputError(f"teams: expected false, or true with 4 or 6 players, got {records.show(teams)}")
    totals = obj.get("totals")
    if totals is not None and (
        not isinstance(totals, list) or len(totals) != n or not all(records.is_int(t) for t in totals)
    ):
        raise InputError(f"totals: expected null (the first deal) or {n} totals, got {records.show(totals)}")
    order = _deck(obj.get("deck"))
    turns = obj.get("turns")
    if not isinstance(turns, list):
        raise InputError(f"turns: expected a list of turns, got {records.show(turns)}")
    ws = make_workspace()
    table.setup(ws, n, dealer, np.array(order, np.int64))
    for s in range(n):
        ws.need[s] = come_out(0 if totals is None else totals[s], teams, totals is None)
    seat, out, laid = (dealer + 1) % n, -1, []
    if trace is not None:
        trace |= {"hands": [_cards(h) for h in ws.held[:n]], "pile": DECK.text(int(ws.pile[0]))}
        trace |= {"stock": int(ws.g[G_STOCK]), "need": ws.need[:n].tolist(), "turns": []}
    for i, entry in enumerate(turns):
        if out >= 0:
            raise InputError(f"turns: {len(turns)} turns, but seat {out} went out in turn {i - 1}")
        if i == MAX_TURNS:
            raise InputError(f"turns: {len(turns)} turns, past the cap of {MAX_TURNS:,} turns (where a deal ends)")
        ws.g[G_TURN] = i
        came = ws.came[seat]
        drawn = _turn(ws, seat, entry, f"turn {i} (seat {seat})", laid)
        if trace is not None:
            trace["turns"].append({"drew": _cards(drawn), "came_out": bool(ws.came[seat] and not came)})
        if ws.held[seat] == 0:
            out = seat
        seat = (seat + 1) % n
    if out < 0 and len(turns) < MAX_TURNS:
        raise InputError(f"turns: {len(turns)} turns, but the deal goes on: seat {seat} plays turn {len(turns)}")
    scores = np.zeros(MAX_PLAYERS, np.int64)
    table.score(ws, n, teams, out, scores)
    for m, meld in enumerate(laid):
        meld["cards"] = _cards(ws.melds[m])  # as it lies at the end
        meld["points"] = int(owner_points(ws.melds[m], table.owned(ws, m)))
    return {
        "scores": [int(x) for x in scores[:n]],
        **{name: [int(ws.parts[s, k]) for s in range(n)] for k, name in enumerate(PARTS)},
        "out": None if out < 0 else out,
        "end": ENDS[0 if out >= 0 else 1],
        "turns": len(turns),
        "melds": laid,
    }


def _deck(deck):
    """Card indices of the record's 60-card order (copies of a 1 or 7 in order of appearance)."""
    if not isinstance(deck, list) or len(deck) != CARDS:
        raise InputError(f"deck: expected a list of {CARDS} cards, got {records.show(deck)}")
    with records.at("deck"):
        DECK.parse(deck)
    order, used = [], 0
    for text in deck:
        c = DECK.index(text, DECK.full & ~used)
        used |= 1 << c
        order.append(c)
    return order


def _held(ws, seat, text, where):
    """Card index of `text` in the seat's hand."""
    hand = int(ws.held[seat])
    with records.at(where):
        c = DECK.index(text, hand) if isinstance(text, str) else -2
    if c == -2:
        raise _bad(where, f"expected a card, got {records.show(text)}")
    if c < 0:
        raise _bad(where, f"{text} is not in the hand ({' '.join(_cards(hand))})")
    return c


def _turn(ws, seat, entry, where, laid):
    """Check one turn of the record and play it on ws; the cards drawn (a mask)."""
    if (
        not isinstance(entry, dict)
        or not {"draw", "discard"} <= set(entry)
        or set(entry)
        - {
            "restock",
            "draw",
            "play",
            "discard",
        }
    ):
        raise _bad(where, f'expected {{"draw": ..., "play": [...], "discard": card}}, got {records.show(entry)}')
    _restock(ws, entry.get("restock"), f"{where}: restock")
    k = entry["draw"]
    if k == "stock":
        if ws.g[G_STOCK] == 0:
            raise _bad(where, "draw: the stock is empty (the discard pile held only its top card)")
        k = 0
    elif not records.is_int(k) or not 1 <= k <= ws.g[G_PILE]:
        raise _bad(where, f'draw: expected "stock" or 1..{ws.g[G_PILE]} cards of the pile, got {records.show(k)}')
    hand = int(ws.held[seat])
    table.draw(ws, seat, k)
    drawn = int(ws.held[seat]) & ~hand
    plays = entry.get("play", [])
    if not isinstance(plays, list):
        raise _bad(where, f"play: expected a list, got {records.show(plays)}")
    before = len(laid)
    for j, item in enumerate(plays):
        _play(ws, seat, item, f"{where}: play {j}", laid)
    if not ws.came[seat] and len(laid) > before:
        melds = " + ".join(" ".join(meld["laid"]) for meld in laid[before:])
        raise _bad(
            where,
            f"play: coming out needs {ws.need[seat]} cards or more in the turn's melds together, "
            f"got {ws.g[G_OPENING]} ({melds})",
        )
    table.discard(ws, seat, _held(ws, seat, entry["discard"], f"{where}: discard"))
    return drawn


def _restock(ws, cards, where):
    """The new stock, top first, when (and only when) the stock is empty at the start of the turn."""
    if ws.g[G_STOCK]:
        if cards is not None:
            raise _bad(where, f"the stock still holds {ws.g[G_STOCK]} cards")
        return
    if cards is None:
        raise _bad(where, "the stock is empty: the discard pile but its top card becomes the stock (missing)")
    k = table.take_pile(ws)
    pile = 0
    for j in range(k):
        pile |= 1 << int(ws.stock[j])
    if not isinstance(cards, list) or len(cards) != k:
        raise _bad(where, f"expected the {k} cards of the discard pile but its top, got {records.show(cards)}")
    for j, text in enumerate(cards):
        with records.at(where):
            c = DECK.index(text, pile) if isinstance(text, str) else -1
        if c < 0:
            raise _bad(where, f"{records.show(text)} is not one of the pile's cards ({' '.join(_cards(pile))})")
        pile &= ~(1 << c)
        ws.stock[k - 1 - j] = c


def _play(ws, seat, item, where, laid):
    """One meld, extension or joker swap."""
    if isinstance(item, dict) and set(item) == {"meld"}:
        mask = _meld(ws, seat, item["meld"], where)
        laid.append({"owner": seat, "kind": KINDS[kind(np.uint64(mask))], "laid": _cards(mask)})
        return
    if not isinstance(item, dict) or set(item) not in ({"extend", "card"}, {"swap", "card", "joker"}):
        raise _bad(
            where,
            'expected {"meld": [...]}, {"extend": meld, "card": c} or {"swap": meld, "card": c, "joker": j}, got '
            f"{records.show(item)}",
        )
    m = item.get("extend", item.get("swap"))
    if not ws.came[seat]:
        raise _bad(where, "a seat extends melds and swaps jokers only once it has come out")
    if not records.is_int(m) or not 0 <= m < ws.g[G_MELDS]:
        raise _bad(where, f"meld {records.show(m)} is not on the table (0..{ws.g[G_MELDS] - 1})")
    meld = ws.melds[m]
    card = _held(ws, seat, item["card"], f"{where}: card")
    if "extend" in item:
        if not extends(meld, card):
            raise _bad(where, f"{item['card']} does not extend meld {m} ({' '.join(_cards(meld))})")
        if int(ws.held[seat]) == 1 << card:
            raise _bad(where, "it would leave no card to discard")
        table.extend(ws, seat, m, card)
        return
    text = item["joker"]
    with records.at(f"{where}: joker"):
        joker = DECK.index(text, int(meld)) if isinstance(text, str) else -1
    if joker < 0 or not swaps(meld, card, joker):
        raise _bad(
            where,
            f"{item['card']} cannot take the place of {records.show(text)} in meld {m} ({' '.join(_cards(meld))})",
        )
    table.swap(ws, seat, m, card, joker)


def _meld(ws, seat, cards, where):
    """Check and lay a new meld; its mask."""
    hand = int(ws.held[seat])
    if not isinstance(cards, list):
        raise _bad(where, f"meld: expected a list of cards, got {records.show(cards)}")
    if len(cards) < 3:
        raise _bad(where, f"meld: a meld has at least 3 cards, got {len(cards)}")
    with records.at(where):
        for text in cards:
            DECK.parse([text])
        try:
            mask = DECK.parse(cards, within=hand)
        except CardError:
            raise _bad(where, f"{' '.join(cards)} not all in the hand ({' '.join(_cards(hand))})") from None
    if kind(np.uint64(mask)) == ILLEGAL:
        raise _bad(where, f"{' '.join(cards)} is not a meld")
    if mask == hand:
        raise _bad(where, f"{' '.join(cards)}: it would leave no card to discard")
    table.lay(ws, seat, np.uint64(mask))
    return mask


def record(players, seed, policy, index, teams=False):
    """The record of deal `index` of a run, re-played from its seed."""
    ws = make_workspace()
    row = simulate_deals(players, seed, policy, index, 1, ws, teams)
    if ws.g[table.G_EVENTS] > len(ws.log):  # the same deal again, with room for all its actions
        ws = ws._replace(log=np.zeros((int(ws.g[table.G_EVENTS]), ws.log.shape[1]), np.int64))
        row = simulate_deals(players, seed, policy, index, 1, ws, teams)
    turns = []
    for t, what, a, b, c in ws.log[: int(ws.g[table.G_EVENTS])]:
        while len(turns) <= t:
            turns.append({})
        entry = turns[t]
        if what == table.RESTOCK:
            entry.setdefault("restock", []).append(DECK.text(int(a)))
        elif what == table.DRAW:
            entry["draw"] = "stock" if a == 0 else int(a)
        elif what == table.LAY:
            entry.setdefault("play", []).append({"meld": _cards(int(b))})
        elif what == table.EXTEND:
            entry.setdefault("play", []).append({"extend": int(a), "card": DECK.text(int(b))})
        elif what == table.SWAP:
            entry.setdefault("play", []).append({"swap": int(a), "card": DECK.text(int(b)), "joker": DECK.text(int(c))})
        else:
            entry["discard"] = DECK.text(int(a))
    return {
        "game": GAME,
        "players": players,
        "teams": bool(teams),
        "dealer": int(row["dealer"][0]),
        "totals": None,
        "deck": [DECK.text(int(c)) for c in row["deck"][0]],
        "turns": turns,
    }
