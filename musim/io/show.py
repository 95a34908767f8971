"""Text pieces of `musim show`: a deal written for a person (docs/examples/README.md "Reading one deal").

Each game's show(record, result) (games/contract.py) gets a record its replay has checked and
that replay's result, and builds its lines from these helpers, so that every game writes seats,
cards, tricks and scores alike.  Nothing here decides a rule: winners and points come from the
result (the game's own kernels).  Seats and tricks are numbered from 0, as in records and their
error messages.
"""

import textwrap


def seat(s):
    """'seat 2'; '-' for no seat (None)."""
    return "-" if s is None else f"seat {s}"


def cards(deck, items):
    """Cards in `deck`'s notation, in deck order: `items` is a list of card texts or a mask (int)."""
    mask = items if isinstance(items, int) else deck.parse(items)
    return " ".join(deck.format(mask)) or "-"


def hands(deck, dealt, title="hands"):
    """`title:` then one line per seat with its cards (`dealt`: per seat, texts or masks)."""
    return [f"{title}:", *(f"  {seat(s)}: {cards(deck, h)}" for s, h in enumerate(dealt))]


def signed(value):
    return f"{value:+d}" if value else "0"


def per_seat(title, values):
    """'tricks won: seat 0 3, seat 1 4': one value per seat, in seat order."""
    return f"{title}: " + ", ".join(f"{seat(s)} {v}" for s, v in enumerate(values))


def score_line(scores, title="scores"):
    """'scores: seat 0 +12, seat 1 -5, seat 2 0'."""
    return per_seat(title, map(signed, scores))


def points(value):
    return f"{value} point" + ("" if value == 1 else "s")


def tricks(played, n, extra=None):
    """One line per trick of a replay result's `tricks` (each a dict with `leader`, `cards` as
    played, `winner`, and `points` when the trick has a value of its own): who led, the cards
    with the winning one starred, who took it and for how much.  extra(k, trick) -> text or
    None adds a note to trick k's line (a trump named during it)."""
    lines = []
    for k, t in enumerate(played):
        won = (t["winner"] - t["leader"]) % n
        shown = " ".join(c + ("*" if j == won else "") for j, c in enumerate(t["cards"]))
        line = f"trick {k}, {seat(t['leader'])} leads: {shown} -> {seat(t['winner'])}"
        if "points" in t:
            line += f", {points(t['points'])}"
        note = extra(k, t) if extra else None
        lines.append(line + (f" ({note})" if note else ""))
    return lines


def turns(rows):
    """Numbered turn lines of a game played turn by turn: rows = [(seat, text)] ->
    'turn 0, seat 1: text'."""
    return [f"turn {k}, {seat(s)}: {text}" for k, (s, text) in enumerate(rows)]


WIDTH = 100  # the columns a line of `musim show` fits in


def fit(lines, width=WIDTH):
    """`lines` with each one longer than `width` broken at spaces, the rest indented under its text."""
    out = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
    return out


def turns_between(rows, headers):
    """turns(rows) with the lines headers[k] (a round's deal, a restock) before turn k."""
    lines = []
    for k, line in enumerate(turns(rows)):
        lines += headers.get(k, []) + [line]
    return lines


def count(k, word):
    """'1 card', '3 cards'."""
    return f"{k} {word}" + ("" if k == 1 else "s")
