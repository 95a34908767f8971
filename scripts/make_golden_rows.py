"""Write the golden rows: what a few small fixed-seed `musim run`s write, kept under tests/golden/.

tests/test_golden_rows.py runs the same commands with the current code and fails when their
rows differ while the game's RESULT_VERSION is the one stored here: a change of rows has to
bump it (musim/games/mu/__init__.py), and then these files are made again with this script.
Wall-clock columns (`*_ms`) are left out.  Takes a minute or two, most of it compiling.

Usage: python scripts/make_golden_rows.py
"""

import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

from musim.cli import cli
from musim.games import get_game

GAME = "mu"
GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "runs"
MANIFEST = GOLDEN / "manifest.json"
COMMON = ("--game", GAME, "--seed", "37", "--workers", "1", "--tt-mb", "16", "--no-progress")

# name -> `musim run` arguments besides COMMON: every play mode and player count, matches too
CASES = {
    **{
        f"deals-{play}-{n}p": ("--deals", "300", "--players", str(n), "--play", play)
        for play in ("random", "heuristic")
        for n in (3, 4, 5, 6)
    },
    "matches-heuristic-3p": ("--matches", "3", "--players", "3", "--play", "heuristic"),
    "matches-random-5p": ("--matches", "2", "--players", "5", "--play", "random", "--goal", "100"),
    "deals-dd-3p": ("--deals", "6", "--players", "3", "--play", "dd"),
    "deals-dd-tricks4-5p": ("--deals", "6", "--players", "5", "--play", "dd", "--dd-tricks", "4"),
}


def rows(args):
    """The rows `musim run` writes for `args` (COMMON added), without the `*_ms` columns."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):
        out = str(Path(tmp) / "run.parquet")
        cli.main(["run", *COMMON, *args, "--out", out], standalone_mode=False)
        table = pq.read_table(out)
    return table.drop_columns([c for c in table.column_names if c.endswith("_ms")]).replace_schema_metadata(None)


def main():
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for old in GOLDEN.glob("*.parquet"):
        old.unlink()
    for name, args in CASES.items():
        pq.write_table(rows(args), GOLDEN / f"{name}.parquet", compression="zstd")
    manifest = {
        "game": GAME,
        "result_version": get_game(GAME).result_version,
        "common": list(COMMON),
        "cases": {name: list(args) for name, args in CASES.items()},
    }
    MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {len(CASES)} golden runs to {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    main()
