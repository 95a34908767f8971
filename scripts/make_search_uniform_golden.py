"""Write the search-uniform golden rows: what a few small fixed-seed `musim run`s of the first
search player wrote, with their result keys, under tests/golden/search_uniform/.

The files were made at commit c070e84, the last before issue 61, where that player was `--play
search`: `python scripts/make_search_uniform_golden.py search`.  tests/test_search_uniform.py runs
the same commands with `--play search-uniform` and asks for the same rows and the same keys, so
that player stays what it was.  Wall-clock columns (`*_ms`) are left out.

Usage: python scripts/make_search_uniform_golden.py NAME   (NAME: the policy name of that player)
"""

import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

from musim.cli import cli

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "search_uniform"
KEYS = GOLDEN / "keys.json"
COMMON = ("--seed", "61", "--workers", "1", "--no-progress")
S = "{S}"  # where the player's name goes

# name -> `musim run` arguments besides COMMON: Mü at each player count (the default budget once,
# seats mixed), a match, and each trick game with search
CASES = {
    "mu-4p": ("--game", "mu", "--deals", "6", "--players", "4", "--play", S),
    "mu-3p-mixed": (
        "--game",
        "mu",
        "--deals",
        "8",
        "--players",
        "3",
        "--play",
        f"{S},heuristic,random",
        "--search-worlds",
        "16",
    ),
    "mu-5p-mixed": (
        "--game",
        "mu",
        "--deals",
        "6",
        "--players",
        "5",
        "--play",
        f"heuristic,{S},heuristic,{S},heuristic",
        "--search-worlds",
        "16",
    ),
    "mu-6p": ("--game", "mu", "--deals", "3", "--players", "6", "--play", S, "--search-worlds", "8"),
    "mu-matches-4p": (
        "--game",
        "mu",
        "--matches",
        "1",
        "--players",
        "4",
        "--play",
        f"{S},heuristic,heuristic,heuristic",
        "--search-worlds",
        "8",
        "--goal",
        "60",
    ),
    "wimmueln-4p": ("--game", "wimmueln", "--deals", "6", "--players", "4", "--play", S, "--search-worlds", "16"),
    "panther-5p": (
        "--game",
        "panther",
        "--deals",
        "6",
        "--players",
        "5",
        "--play",
        f"{S},heuristic,heuristic,heuristic,heuristic",
        "--search-worlds",
        "16",
    ),
    "mueckenstich-4p": (
        "--game",
        "mueckenstich",
        "--deals",
        "5",
        "--players",
        "4",
        "--play",
        S,
        "--search-worlds",
        "16",
    ),
}


def args_for(case, name):
    """The case's `musim run` arguments with the player named `name`."""
    return [a.replace(S, name) for a in CASES[case]]


def run(case, name):
    """(rows without the `*_ms` columns, result key) of the case's run with the player `name`."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):
        out = Path(tmp) / "run"
        cli.main(["run", *COMMON, *args_for(case, name), "--out", str(out)], standalone_mode=False)
        table = pq.read_table(sorted(out.glob("part-*.parquet")))
        key = json.loads((out / "_manifest.json").read_text())["key"]
    table = table.drop_columns([c for c in table.column_names if c.endswith("_ms")]).replace_schema_metadata(None)
    key.pop("versions")  # the interpreter's and libraries' versions, not the player's
    return table, key


def main(name):
    GOLDEN.mkdir(parents=True, exist_ok=True)
    keys = {}
    for case in CASES:
        table, keys[case] = run(case, name)
        pq.write_table(table, GOLDEN / f"{case}.parquet", compression="zstd")
    KEYS.write_text(json.dumps(keys, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(CASES)} runs of --play {name} to {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
