"""Game records of Calcory (docs/examples/README.md "Calcory game records"): replay and record.

`replay` lays out the record's grid and walks its turns on the same kernels as the simulation
(rules.turn, stop, put_back on a rules.Table), checking each step against the state first, so
that the rules have one statement; `record` re-plays one simulated game from its seed and
writes its record from the kernels' log, which `replay` scores to the same row.
"""

import numpy as np

from musim.core.deck import MU as DECK
from musim.games.calcory import rules
from musim.games.calcory.rules import (
    BACK,
    CELLS,
    DOWN,
    HAND,
    MARK_COUNT,
    MARK_TOTAL,
    OVER,
    PHASE,
    PLAY,
    SEAT,
    TOTAL,
    TURNS,
)
from musim.games.calcory.simulate import PUT_BACK, STOP, TURN_CARD, make_workspace, simulate_deals
from musim.io import records
from musim.io.batch import InputError

GAME = "calcory"
KEYS = ("turn", "stop", "back")


def replay(obj, trace=None):
    """Validate a Calcory record and return its result: turns (seat, cards turned, outcome),
    won (the cards each seat won), left (cards on the grid), scores (cards won), end.  A list
    `trace` receives, for `musim show` (show.py), each turn's cards won per seat (a seat's
    single surviving mark taken at the start of the next turn counts in the turn before) and
    the marks' sum after a stop."""
    n, dealer = records.header(obj, GAME, rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    memory = obj.get("memory", 1.0)
    if isinstance(memory, bool) or not isinstance(memory, int | float) or not 0 <= memory <= 1:
        raise InputError(f"memory: expected a number 0..1, got {records.show(memory)}")
    grid = obj.get("grid")
    if not isinstance(grid, list) or len(grid) != CELLS:
        raise InputError(f"grid: expected a list of {CELLS} cards, got {records.show(grid)}")
    cells, used = [], 0
    with records.at("grid"):
        DECK.parse(grid)  # 60 valid cards, no card more often than the deck holds it: the whole deck
    for text in grid:
        c = DECK.index(text, DECK.full & ~used)
        used |= 1 << c
        cells.append(c)
    turns = obj.get("turns")
    if not isinstance(turns, list):
        raise InputError(f"turns: expected a list of turns, got {records.show(turns)}")
    t = rules.new_table()
    rules.reset(t, n, (dealer + 1) % n, np.array(cells, np.int64))
    walked = []
    for i, entry in enumerate(turns):
        if t.g[PHASE] == OVER:
            raise InputError(f"turns: {len(turns)} turns, but the game ends after {i} ({rules.ENDS[t.g[rules.END]]})")
        won = t.won[:n].copy()
        walked.append(_turn(t, entry, f"turn {i} (seat {t.g[SEAT]})"))
        if trace is not None:
            gained = {s: DECK.format(int(t.won[s] & ~won[s])) for s in range(n) if t.won[s] != won[s]}
            trace.append({"won": gained, "marks": int(t.g[MARK_TOTAL]) if t.g[rules.OWNER] >= 0 else None})
    if t.g[PHASE] != OVER:
        raise InputError(f"turns: {len(turns)} turns, but the game goes on: seat {t.g[SEAT]} plays turn {len(turns)}")
    return {
        "turns": walked,
        "won": [DECK.format(int(w)) for w in t.won[:n]],
        "left": int(np.sum([t.at[p] >= 0 for p in range(CELLS)])),
        "scores": [len(DECK.format(int(w))) for w in t.won[:n]],
        "end": rules.ENDS[t.g[rules.END]],
    }


def _turn(t, entry, where):
    """Check one turn of the record and play it on t; its summary for the result."""
    if not isinstance(entry, dict) or set(entry) - set(KEYS):
        raise InputError(
            f'{where}: expected {{"turn": [...], "stop": true}} or {{"back": [card, position]}}, got '
            f"{records.show(entry)}"
        )
    seat, number = int(t.g[SEAT]), int(t.g[TURNS])
    if t.g[PHASE] == BACK:
        if set(entry) != {"back"}:
            raise InputError(f'{where}: its marks survived a round: it takes them and puts one back (only "back")')
        card = _back(t, entry["back"], where)
        return {"seat": seat, "outcome": "took its marks", "back": card}
    positions = entry.get("turn")
    if not isinstance(positions, list) or not positions or not all(records.is_int(p) for p in positions):
        raise InputError(f"{where}: turn: expected a non-empty list of grid positions, got {records.show(positions)}")
    cards = []
    for j, p in enumerate(positions):
        if t.g[PHASE] != PLAY or t.g[TURNS] != number:
            raise InputError(
                f"{where}: turn: position {records.show(p)} (card {j}) after the turn ended ({_how(t, number)})"
            )
        if not records.is_int(p) or not 0 <= p < CELLS or not int(t.m[DOWN]) >> p & 1:
            raise InputError(
                f"{where}: turn: position {records.show(p)} (card {j}) is not a face-down card of the grid"
            )
        cards.append(DECK.text(int(t.at[p])))
        rules.turn(t, p)
    ended = t.g[PHASE] == OVER or t.g[TURNS] != number
    if ended:
        extra = [k for k in ("stop", "back") if k in entry]
        if extra:
            raise InputError(f"{where}: {extra[0]}: the turn failed ({' '.join(cards)})")
        return {"seat": seat, "turned": cards, "outcome": "failed"}
    if t.g[PHASE] == BACK:
        if "stop" in entry or "back" not in entry:
            raise InputError(f'{where}: {" ".join(cards)} make 13: it takes them and puts one back ("back")')
        return {"seat": seat, "turned": cards, "outcome": "thirteen", "back": _back(t, entry["back"], where)}
    if "back" in entry:
        raise InputError(f"{where}: back: {' '.join(cards)} do not make 13")
    if "stop" in entry and not isinstance(entry["stop"], bool):
        raise InputError(f"{where}: stop: expected true, got {records.show(entry['stop'])}")
    if entry.get("stop") is not True:
        raise InputError(f'{where}: the turn neither fails nor makes 13 nor stops ({" ".join(cards)}: "stop": true?)')
    if not rules.can_stop(t):
        raise InputError(
            f"{where}: stop: {' '.join(cards)} (sum {t.g[TOTAL]}, {len(cards)} cards) do not beat the marks"
            f" (sum {t.g[MARK_TOTAL]}, {t.g[MARK_COUNT]} cards)"
        )
    rules.stop(t)
    return {"seat": seat, "turned": cards, "outcome": "stopped"}


def _how(t, number):
    return "the game is over" if t.g[PHASE] == OVER else "it failed" if t.g[TURNS] != number else "13"


def _back(t, back, where):
    """Put back the record's [card, position]; the card's text."""
    if not isinstance(back, list) or len(back) != 2 or not isinstance(back[0], str) or not records.is_int(back[1]):
        raise InputError(f"{where}: back: expected [card, position], got {records.show(back)}")
    text, p = back
    hand = int(t.m[HAND])
    with records.at(f"{where}: back"):
        c = DECK.index(text, hand)
    if c < 0:
        raise InputError(f"{where}: back: {text} is not one of the cards taken ({' '.join(DECK.format(hand))})")
    if not 0 <= p < CELLS or not int(rules.empty(t)) >> p & 1:
        raise InputError(f"{where}: back: position {p} is not an empty space of the grid")
    rules.put_back(t, c, p)
    return [text, p]


def record(players, seed, policy, index, memory=1.0):
    """The game record of game `index` of a run, re-played from its seed."""
    ws = make_workspace()
    row = simulate_deals(players, seed, policy, index, 1, ws, memory)
    turns = {}
    for number, kind, a, b in ws.log[: int(row["events"][0])]:
        entry = turns.setdefault(int(number), {})
        if kind == TURN_CARD:
            entry.setdefault("turn", []).append(int(a))
        elif kind == STOP:
            entry["stop"] = True
        elif kind == PUT_BACK:
            entry["back"] = [DECK.text(int(a)), int(b)]
    return {
        "game": GAME,
        "players": players,
        "dealer": int(row["dealer"][0]),
        "memory": memory,
        "grid": [DECK.text(int(c)) for c in row["grid"][0]],
        "turns": [turns[k] for k in sorted(turns)],
    }
