"""Game records of Danger (docs/examples/README.md "Danger game records"): replay and record.

`replay` stacks the record's stock and walks its turns on the same kernels as the simulation
(rules.take, place, secure, refill on a rules.Table), checking each choice against the state
first, so that the rules have one statement; `record` re-plays one simulated game from its seed
and writes its record from the kernels' log, which `replay` scores to the same row.
"""

from collections import Counter

import numpy as np

from musim.core.deck import danger_deck
from musim.games.danger import rules
from musim.games.danger.rules import (
    CARD,
    COLOUR_NAMES,
    COLOURS,
    OVER,
    PHASE,
    PILE_END,
    ROUND,
    ROW,
    SEAT,
    SECURE,
    card_table,
)
from musim.games.danger.simulate import (
    RECORD_SHUFFLED,
    RESHUFFLE,
    ROW_CHOICE,
    SECURE_CHOICE,
    TAKE_OFFER,
    make_workspace,
    simulate_deals,
)
from musim.io import records
from musim.io.batch import InputError

GAME = "danger"
KEYS = ("take", "row", "secure")
OPTIONS = {"copies": (3, 1, 3), "multicolour": (3, 0, 3), "rounds": (5, 1, 20)}  # default, low, high


def _options(obj):
    out = {}
    for name, (default, low, high) in OPTIONS.items():
        v = obj.get(name, default)
        if not records.is_int(v) or not low <= v <= high:
            raise InputError(f"{name}: expected {low}..{high}, got {records.show(v)}")
        out[name] = v
    return out


def _order(deck, cards, allowed, item):
    """Card indices of the list `cards`, which must be exactly the cards of the mask `allowed`
    (copies, written alike, are taken from `allowed`, the lowest first)."""
    if not isinstance(cards, list):
        raise InputError(f"{item}: expected a list of cards, got {records.show(cards)}")
    with records.at(item):
        deck.parse(cards)  # known cards, none more often than the deck holds it
    wanted = Counter(deck.format(allowed))
    if Counter(cards) != wanted:
        missing, extra = wanted - Counter(cards), Counter(cards) - wanted
        what = f"missing {' '.join(sorted(missing.elements()))}" if missing else f"not there {' '.join(extra)}"
        raise InputError(f"{item}: not the cards expected ({what})")
    used, out = 0, []
    for text in cards:
        c = deck.index(text, allowed & ~used)
        used |= 1 << c
        out.append(c)
    return out


def replay(obj, trace=None):
    """Validate a Danger record and return its result: scores (totals), rounds (each round's
    points per seat), secured and blocked (rows per seat and colour, R Y G B), turns, reshuffles.
    A list `trace` receives each turn for `musim show` (show.py, _step)."""
    n, dealer = records.header(obj, GAME, rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    options = _options(obj)
    deck = danger_deck(options["copies"], options["multicolour"])
    stock = _order(deck, obj.get("stock"), deck.full, "stock")
    shuffles = obj.get("reshuffles", [])
    if not isinstance(shuffles, list):
        raise InputError(f"reshuffles: expected a list of card lists, got {records.show(shuffles)}")
    turns = obj.get("turns")
    if not isinstance(turns, list):
        raise InputError(f"turns: expected a list of turns, got {records.show(turns)}")
    t = rules.new_table()
    rules.reset(t, n, (dealer + 1) % n, options["rounds"], card_table(deck), np.array(stock, np.int64))
    rounds, last, used = [], [0] * n, 0
    for i, entry in enumerate(turns):
        if t.g[PHASE] == OVER:
            raise InputError(f"turns: {len(turns)} turns, but the game ends after {i}")
        where = f"turn {i} (seat {t.g[SEAT]}, round {t.g[ROUND]})"
        round_before = int(t.g[ROUND])
        if trace is None:
            used = _turn(t, deck, entry, where, shuffles, used)
        else:
            before, step = _state(t, n), {"take": entry["take"], "reshuffle": used, "ends": t.ends.copy()}
            used = _turn(t, deck, entry, where, shuffles, used, step)
            trace.append(_step(t, n, deck, before, step, used))
        if t.g[ROUND] != round_before:
            now = [int(v) for v in t.scores[:n]]
            rounds.append([a - b for a, b in zip(now, last)])
            last = now
    if t.g[PHASE] != OVER:
        raise InputError(f"turns: {len(turns)} turns, but the game goes on: seat {t.g[SEAT]} takes turn {len(turns)}")
    if used != len(shuffles):
        raise InputError(f"reshuffles: {len(shuffles)} given, but the stock ran out {used} times")
    counts = t.counts[:n]
    return {
        "scores": [int(v) for v in t.scores[:n]],
        "rounds": rounds,
        "secured": [[int(v) for v in counts[s, rules.SECURED_ROWS : rules.SECURED_ROWS + COLOURS]] for s in range(n)],
        "blocked": [[int(v) for v in counts[s, rules.BLOCKED_ROWS : rules.BLOCKED_ROWS + COLOURS]] for s in range(n)],
        "turns": int(t.g[rules.TURNS]),
        "reshuffles": used,
    }


def _colour(value, allowed, item, why):
    """The colour index of a row letter that must be in the colour mask `allowed`."""
    if not isinstance(value, str) or value not in COLOUR_NAMES or len(value) != 1:
        raise InputError(f"{item}: expected a row R, Y, G or B, got {records.show(value)}")
    c = COLOUR_NAMES.index(value)
    if not allowed >> c & 1:
        rows = " ".join(COLOUR_NAMES[k] for k in range(COLOURS) if allowed >> k & 1) or "none"
        raise InputError(f"{item}: {value} {why} (legal: {rows})")
    return c


def _turn(t, deck, entry, where, shuffles, used, step=None):
    """Check one turn of the record and play it on t; the number of reshuffles used after it.
    A dict `step` receives the card taken."""
    if not isinstance(entry, dict) or set(entry) - set(KEYS) or entry.get("take") not in ("stock", "discard"):
        raise InputError(
            f'{where}: expected {{"take": "stock" or "discard", "row": R/Y/G/B, "secure": R/Y/G/B}}, got '
            f"{records.show(entry)}"
        )
    if entry["take"] == "discard":
        if not rules.can_take_offer(t):
            raise InputError(f"{where}: take: no discard on offer (the previous seat discarded nothing)")
    elif rules.stock_empty(t):
        if used >= len(shuffles):
            raise InputError(f"{where}: take: the stock ran out, but reshuffles holds no order {used}")
        pile = sum(1 << int(c) for c in t.pile[: t.g[PILE_END]])
        order = _order(deck, shuffles[used], pile, f"reshuffles[{used}]")
        rules.refill(t)
        t.stock[: len(order)] = order
        used += 1
    if step is not None:
        step["card"] = int(t.g[rules.OFFER] if entry["take"] == "discard" else t.stock[t.g[rules.TOP]])
    rules.take(t, entry["take"] == "discard")
    if t.g[PHASE] == ROW:
        if "row" not in entry:
            raise InputError(f"{where}: row: {deck.text(int(t.g[CARD]))} may go in either of its rows: name one")
        rows = rules.open_rows(t, t.g[SEAT], t.g[CARD])
        rules.place(t, _colour(entry["row"], rows, f"{where}: row", "is not a row of the card"))
    elif "row" in entry:
        raise InputError(f"{where}: row: the card taken leaves no choice of row")
    if t.g[PHASE] == SECURE:
        if entry.get("secure") is not None:
            rules.secure(t, _colour(entry["secure"], rules.securable(t), f"{where}: secure", "may not be secured"))
        else:
            rules.secure(t, -1)
    elif entry.get("secure") is not None:
        raise InputError(
            f"{where}: secure: no row may be secured now (fewer than two cards placed this round, "
            "or no open row above the lowest total, or the round ended)"
        )
    return used


def _rows(t, n, rows):
    """Each seat's rows ([total, state] per colour R Y G B) of the arrays `rows` (t's, or t.scored)."""
    return [[[int(v) for v in rows[s, c]] for c in range(COLOURS)] for s in range(n)]


def _state(t, n):
    """What _step compares: the seat to move, the round, the rows, the totals."""
    rows = _rows(t, n, np.stack([t.total, t.state], axis=2))
    return {"seat": int(t.g[SEAT]), "round": int(t.g[ROUND]), "rows": rows, "scores": t.scores[:n].tolist()}


def _step(t, n, deck, before, step, used):
    """One turn for `musim show`, read off the kernels' state before and after it: seat, round,
    take, card, reshuffle (the stock was renewed first), row (the colour of the row the card went
    to, null when it was discarded), the seat's rows after it ([total, state] per colour), secured
    (a colour or null), and, when the turn ended the round, end: why, every seat's rows as the
    round was scored and each seat's points."""
    s, after = before["seat"], _state(t, n)
    ended = after["round"] != before["round"]
    rows = _rows(t, n, t.scored) if ended else after["rows"]
    old, new = before["rows"][s], rows[s]
    row = next((c for c in range(COLOURS) if new[c][0] != old[c][0]), None)
    secured = next((c for c in range(COLOURS) if new[c][1] == rules.SECURED != old[c][1]), None)
    out = {"seat": s, "round": before["round"], "take": step["take"], "card": deck.text(step["card"])}
    out |= {"reshuffle": used > step["reshuffle"], "row": None if row is None else COLOUR_NAMES[row], "rows": new}
    out["secured"] = None if secured is None else COLOUR_NAMES[secured]
    if ended:
        why = rules.ENDS[int(np.argmax(t.ends != step["ends"]))]
        out["end"] = {"why": why, "rows": rows, "points": [a - b for a, b in zip(after["scores"], before["scores"])]}
    return out


def record(players, seed, policy, index, copies=3, multicolour=3, rounds=5):
    """The game record of game `index` of a run, re-played from its seed."""
    ws = make_workspace(RECORD_SHUFFLED)
    row = simulate_deals(players, seed, policy, index, 1, ws, copies, multicolour, rounds)
    deck = danger_deck(copies, multicolour)
    turns, shuffles, kept = [], [], 0
    for kind, a in ws.log[: int(row["events"][0])]:
        if kind == RESHUFFLE:
            shuffles.append([deck.text(int(c)) for c in ws.shuffled[kept : kept + a]])
            kept += int(a)
        elif kind == ROW_CHOICE:
            turns[-1]["row"] = COLOUR_NAMES[a]
        elif kind == SECURE_CHOICE:
            if a >= 0:
                turns[-1]["secure"] = COLOUR_NAMES[a]
        else:
            turns.append({"take": "discard" if kind == TAKE_OFFER else "stock"})
    return {
        "game": GAME,
        "players": players,
        "dealer": int(row["dealer"][0]),
        "copies": copies,
        "multicolour": multicolour,
        "rounds": rounds,
        "stock": [deck.text(int(c)) for c in row["deck"][0]],
        "reshuffles": shuffles,
        "turns": turns,
    }
