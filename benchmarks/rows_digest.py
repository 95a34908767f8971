"""Digest of the rows every game writes, for checking that a refactor changes no row.

Runs small fixed-seed `musim run`s in process: every game with policies, every player count,
every policy (dd and search on few deals, dd under a node limit), a mixed seating, each game option at its documented
example value, matches where a game has them; Mü also under a target variant, each auction
model and one a seat.  Prints one line per case, `case sha256`, over every column but the wall-clock ones
(`*_ms`).  Compare two checkouts with `diff`:

    python benchmarks/rows_digest.py > before.txt   # on the old commit
    python benchmarks/rows_digest.py > after.txt    # on the new one
    diff before.txt after.txt                        # no output: the same rows

`--games mu,zwickern` limits the games; `--quick` plays only the default policy of each
player count (plus the mix).  Takes a few minutes on a warm cache, most of it exact play.
"""

import argparse
import contextlib
import hashlib
import io
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's musim, whatever is installed
from musim.cli import cli
from musim.engine.seats import EXACT_PLAY
from musim.games import all_games

SEED = "11"
DEALS = {"heuristic": 200, "random": 200, "search": 6, "search-uniform": 6, EXACT_PLAY: 3}
MATCHES = 2
LIMIT = ("--node-limit", "100000")  # exact play within bounded time (some 3-player deals take hours)


def cases(game, quick):
    """(name, `musim run` arguments) of `game`'s cases."""
    low, high = game.players
    policies = game.policies[:1] if quick else game.policies
    for n in range(low, high + 1):
        for play in policies:
            args = ("--players", n, "--play", play, "--deals", DEALS[play])
            if play == EXACT_PLAY:
                if n > low + 1:
                    continue
                args += LIMIT if any(o.name == "node_limit" for o in game.options) else ()
            yield f"{game.name}-{n}p-{play}", args
    n = game.default_players
    mix = ",".join(game.policies[i % 2] for i in range(n))
    yield f"{game.name}-{n}p-{mix}", ("--players", n, "--play", mix, "--deals", DEALS["heuristic"])
    if game.matches:
        yield f"{game.name}-{n}p-matches", ("--players", n, "--matches", MATCHES)
    for option in game.options:
        if option.example is not None and option.example != option.default:
            flag = () if option.type is bool else (option.example,)
            args = ("--players", n, option.flag, *flag, "--deals", DEALS["heuristic"])
            if option.name in ("dd_tricks", "node_limit"):
                args = ("--players", low, "--play", EXACT_PLAY, option.flag, option.example, "--deals", 2)
            yield f"{game.name}-{n}p-{option.name}", args
    yield from extra_cases(game, n)


def extra_cases(game, n):
    """Mü's auction models and a target variant: options whose example alone misses them."""
    if game.name != "mu":
        return
    from musim.games.mu.params import AUCTION_NAMES

    for auction in AUCTION_NAMES:
        yield f"mu-{n}p-auction-{auction}", ("--players", n, "--auction", auction, "--deals", 200)
    seats = ",".join(["bold"] + ["cautious"] * (n - 1))  # one model a seat
    yield f"mu-{n}p-auction-{seats}", ("--players", n, "--auction", seats, "--deals", 200)
    targets = Path(tempfile.mkdtemp()) / "targets.csv"
    targets.write_text("players,bid,target\n" + "".join(f"4,{b},{30 + b}\n" for b in range(1, 16)))
    yield "mu-4p-targets-variant", ("--players", 4, "--targets", targets, "--deals", 200)


def digest(game, args, folder):
    """sha256 over the rows of one run (wall-clock columns left out)."""
    out = folder / "rows.parquet"
    argv = ["run", "--game", game, "--seed", SEED, "--workers", "1", "--no-progress", "--overwrite"]
    argv += [*map(str, args), "--out", str(out)]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            cli.main(argv, standalone_mode=False)
        except (SystemExit, Exception) as stop:
            return f"failed: {type(stop).__name__} {stop} {err.getvalue().strip()[:200]}"
    table = pq.read_table(out)
    h = hashlib.sha256()
    for name in sorted(table.column_names):
        if not name.endswith("_ms"):
            h.update(name.encode())
            h.update(repr(table[name].to_pylist()).encode())
    return h.hexdigest()[:16]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="", help="comma-separated game names (default: every game with policies)")
    parser.add_argument("--quick", action="store_true", help="the default policy only, and the mix")
    a = parser.parse_args()
    wanted = set(filter(None, a.games.split(",")))
    with tempfile.TemporaryDirectory() as tmp:
        for game in all_games():
            if not game.policies or (wanted and game.name not in wanted):
                continue
            for name, args in cases(game, a.quick):
                print(name, digest(game.name, args, Path(tmp)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
