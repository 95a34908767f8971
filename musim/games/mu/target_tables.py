"""Rule variants of Mü's target table (docs/rules.md §2.11).

A designer writes a variant as a CSV file with the columns players,bid,target (`--targets
FILE`, the format `musim balance` writes as proposed_targets.csv).  A run carries it as its
option `targets`: the compact text `4:30,32,...` of the targets of the run's player counts
(a player count, a colon, its targets for bids 1..hand size; `;` between player counts), or
`rulebook` — so that the run's key, metadata and resume command hold the table itself, and a
table equal to the rulebook's is the rulebook (the same rows, key and run name).  The kernels
read the int64 table [n, bid] of `table()`.
"""

import csv
import re

from musim.core.cards import DECK, DECK_3P
from musim.games.mu.rules import MAX_PLAYERS, MIN_PLAYERS, hand_size, mask_points, rulebook_targets
from musim.io import records

RULEBOOK = "rulebook"  # the option `targets` at its default: the rulebook's table
COLUMNS = ("players", "bid", "target")
TEXT = re.compile(r"\d:\d+(?:,\d+)*(?:;\d:\d+(?:,\d+)*)*")
INTEGER = re.compile(r"-?\d+")


class TargetsError(ValueError):
    """A target table that cannot be used; the message is one line naming the file's row at fault."""


def points_in_play(n):
    """Card points of the cards dealt with n players (36 with 3, 60 with 4-6)."""
    return int(mask_points(DECK_3P if n == 3 else DECK))


def rulebook_rows(n):
    """The rulebook's targets for bids 1..hand size with n players."""
    return rulebook_targets()[n, 1 : hand_size(n) + 1].tolist()


def _check_rows(rows, where):
    """rows ({players: targets of bids 1..}) within the points in play and never falling as the
    bid rises; `where(n, bid)` names the row in a message."""
    for n, targets in rows.items():
        for b, t in enumerate(targets, 1):
            if not 0 <= t <= points_in_play(n):
                raise TargetsError(
                    f"{where(n, b)}: target {t} is not within the {points_in_play(n)} points in play with {n} players"
                )
            if b > 1 and t < targets[b - 2]:
                raise TargetsError(
                    f"{where(n, b)}: target {t} is below bid {b - 1}'s {targets[b - 2]} "
                    "(a higher bid may not need fewer points)"
                )


def read_csv(path):
    """{players: [targets of bids 1..hand size]} of a CSV file of columns players,bid,target:
    every bid of each player count it names, once.  TargetsError naming the line at fault."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            lines = [
                (k, [c.strip() for c in row]) for k, row in enumerate(csv.reader(fh), 1) if any(map(str.strip, row))
            ]
    except OSError as exc:
        raise TargetsError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, csv.Error):
        raise TargetsError(f"{path}: not a CSV text file") from None
    if not lines:
        raise TargetsError(f"{path}: empty, expected the columns {','.join(COLUMNS)}")
    head = tuple(lines[0][1])
    if {"target", "proposed_target"} <= set(head):
        raise TargetsError(
            f"{path} is a balance.csv of `musim balance`: its target column holds the targets that run was "
            "played under; give its proposed_targets.csv"
        )
    if head != COLUMNS:
        raise TargetsError(f"{path}: expected the columns {','.join(COLUMNS)}, got {','.join(head)}")
    seen = {}
    for k, cells in lines[1:]:
        where = f"{path} line {k}"
        if len(cells) != len(COLUMNS):
            raise TargetsError(f"{where}: expected 3 values ({','.join(COLUMNS)}), got {len(cells)}")
        bad = next((name for name, c in zip(COLUMNS, cells) if not INTEGER.fullmatch(c)), None)
        if bad:
            raise TargetsError(f"{where}: {bad} {cells[COLUMNS.index(bad)]!r} is not a whole number")
        n, b, t = map(int, cells)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise TargetsError(f"{where}: players {n} is not in {MIN_PLAYERS}..{MAX_PLAYERS}")
        if not 1 <= b <= hand_size(n):
            raise TargetsError(f"{where}: bid {b} is not in 1..{hand_size(n)} with {n} players")
        if (n, b) in seen:
            raise TargetsError(f"{where}: {n} players bid {b} again (line {seen[n, b][0]})")
        seen[n, b] = (k, t)
    rows = {}
    for n in sorted({n for n, _ in seen}):
        missing = [b for b in range(1, hand_size(n) + 1) if (n, b) not in seen]
        if missing:
            raise TargetsError(f"{path}: no row for {n} players bid {missing[0]} (every bid 1..{hand_size(n)})")
        rows[n] = [seen[n, b][1] for b in range(1, hand_size(n) + 1)]
    _check_rows(rows, lambda n, b: f"{path} line {seen[n, b][0]}")
    return rows


def write_csv(path, rows):
    """Write rows ({players: targets of bids 1..}) as read_csv reads them."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh, lineterminator="\n")
        out.writerow(COLUMNS)
        for n in sorted(rows):
            out.writerows((n, b, t) for b, t in enumerate(rows[n], 1))


def to_text(rows):
    """The compact text of rows ({players: targets}), or `rulebook` for the rulebook's."""
    if all(targets == rulebook_rows(n) for n, targets in rows.items()):
        return RULEBOOK
    return ";".join(f"{n}:{','.join(map(str, rows[n]))}" for n in sorted(rows))


def from_text(text):
    """{players: targets} of a compact text (to_text); {} for `rulebook`."""
    if text == RULEBOOK:
        return {}
    if not TEXT.fullmatch(text):
        raise TargetsError(f"{text!r} is neither a target table's text (4:30,32,...) nor {RULEBOOK}")
    rows = {}
    for part in text.split(";"):
        n, _, targets = part.partition(":")
        n, targets = int(n), [int(t) for t in targets.split(",")]
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise TargetsError(f"{n} players: not in {MIN_PLAYERS}..{MAX_PLAYERS}")
        if n in rows:
            raise TargetsError(f"{n} players: given twice")
        if len(targets) != hand_size(n):
            raise TargetsError(f"{n} players: {len(targets)} targets, expected bids 1..{hand_size(n)}")
        rows[n] = targets
    _check_rows(rows, lambda n, b: f"{n} players bid {b}")
    return rows


def for_players(rows, players, source):
    """The rows of the player counts `players` ({} for the rulebook); TargetsError if `source`
    lacks one of them."""
    if not rows:
        return {}
    missing = [n for n in players if n not in rows]
    if missing:
        raise TargetsError(f"{source}: no targets for {missing[0]} players (every bid 1..{hand_size(missing[0])})")
    return {n: rows[n] for n in players}


def load(value, players):
    """{players: targets} of the player counts `players` from an option value: `rulebook` ({}),
    a compact text (a run's metadata, a resume command), or the path of a CSV file."""
    if value == RULEBOOK:
        return {}
    if TEXT.fullmatch(value):
        return for_players(from_text(value), players, "the table")
    return for_players(read_csv(value), players, value)


def table(rows=None):
    """The int64 table [n, bid] the kernels read: the rulebook's, with `rows` in place of its own."""
    out = rulebook_targets()
    for n, targets in (rows or {}).items():
        out[n, 1 : len(targets) + 1] = targets
    return out


def table_of(text):
    """The kernels' table of an option value in compact text (`rulebook` included)."""
    return table(from_text(text))


def check(spec):
    """GAME.check's part: the option `targets` read (a file, a text) and replaced by the compact
    text of the run's player count, `rulebook` if that is the rulebook's; SpecError if unusable."""
    from musim.engine.errors import SpecError

    try:
        spec.options["targets"] = to_text(load(spec.options["targets"], [spec.players]))
    except TargetsError as exc:
        raise SpecError(f"--targets {exc}") from None


def record_field(text, n):
    """What a game record under the variant `text` carries: {"targets": [bids 1..]}, or {}."""
    rows = from_text(text)
    return {"targets": rows[n]} if rows else {}


def from_record(value, n):
    """The table a game record's "targets" (a list of bids 1..hand size, or absent: the
    rulebook's) stands for; TargetsError if it is not such a list."""
    if value is None:
        return table()
    size = hand_size(n)
    if not isinstance(value, list) or len(value) != size or not all(type(t) is int for t in value):
        raise TargetsError(f"expected a list of {size} whole numbers (bids 1..{size}), got {records.show(value)}")
    rows = {n: value}
    _check_rows(rows, lambda n, b: f"bid {b}")
    return table(rows)
