"""Time the replay of legal Zwickern records whose table grows large (docs/rules.md §12).

Generates records of 3 players who mostly lay (tests/zwickern_large.py; a fixed seed, every
other record with buys of more groups) plus tests/golden/zwickern-large-table.json, then, on a
warm cache, with the code of the checkout `--root`:
- each record's replay in a worker process that has replayed docs/examples/zwickern-records.jsonl
  first (so the time is the replay's alone, the kernels loaded); a record still replaying after
  `--timeout` seconds is stopped, counted, and the worker started again on the next one;
- the whole batch as one `python -m musim replay FILE` (the process's start included), stopped
  after `--batch-timeout` seconds;
- when `--root` is this checkout, `check.is_buy` alone on `--tables` crowded tables
  (tests/zwickern_large.py) of 20 to 42 items: a buy of as many groups as a random search finds,
  and it with one item more.

    python benchmarks/bench_zwickern_replay.py                     # this checkout
    python benchmarks/bench_zwickern_replay.py --root /work/main   # another one (same records)

Prints the load (`uptime`), the example's time, the max and median of the records timed one by one
(`--timed N`: the first N only), how many took over 1 s and how many were stopped, and the batch's
wall time, then the checker's max and median.
"""

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the records from this checkout's code

import numpy as np  # noqa: E402
from zwickern_large import crowded_table, large_table_record, random_buy  # noqa: E402

from musim.games.zwickern import check, rules  # noqa: E402

EXAMPLE = ROOT / "tests" / "golden" / "zwickern-large-table.json"
WARM = ROOT / "docs" / "examples" / "zwickern-records.jsonl"
# replays the records of argv[1] untimed (loading the kernels), then each of argv[2] timed
WORKER = """
import json, sys, time
from musim.games.zwickern.record import replay
for line in open(sys.argv[1]):
    replay(json.loads(line))
print("ready", flush=True)
for line in open(sys.argv[2]):
    obj = json.loads(line)
    start = time.perf_counter()
    replay(obj)
    print(time.perf_counter() - start, flush=True)
"""


def records(count, seed):
    """The example, then `count` generated records (seeds seed, seed + 1, ...)."""
    out = [json.loads(EXAMPLE.read_text())]
    out += [large_table_record(3, seed + k, more=0.8 if k % 2 else 0.5) for k in range(count)]
    return out


def per_record(root, lines, timeout):
    """Seconds of each record's replay, None for those stopped after `timeout`."""
    times = []
    while len(times) < len(lines):
        times += _worker(root, lines[len(times) :], timeout)
    return times


def _worker(root, lines, timeout):
    """The times of a worker run on `lines` up to the first record stopped (None) or the last."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        path.write_text("".join(lines))
        worker = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(WARM), str(path)], cwd=root, env=_env(root), stdout=subprocess.PIPE
        )
        out = queue.Queue()
        threading.Thread(target=lambda: [out.put(line) for line in worker.stdout] + [out.put(b"")], daemon=True).start()
        times = []
        try:
            if out.get() != b"ready\n":
                raise SystemExit(f"the worker of {root} failed before replaying")
            while len(times) < len(lines):
                line = out.get(timeout=timeout)
                if not line:
                    raise SystemExit(f"the worker of {root} failed on a record")
                times.append(float(line))
        except queue.Empty:
            times.append(None)
        finally:
            worker.kill()
            worker.wait()
    return times


def batch(root, lines, timeout):
    """Wall seconds of `python -m musim replay` on all the records, None if stopped after `timeout`."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        path.write_text("".join(lines))
        start = time.perf_counter()
        try:
            subprocess.run(
                [sys.executable, "-m", "musim", "replay", str(path)],
                cwd=root,
                env=_env(root),
                stdout=subprocess.DEVNULL,
                timeout=timeout,
                check=True,
            )
        except subprocess.TimeoutExpired:
            return None
        return time.perf_counter() - start


def checker(tables, seed):
    """This checkout's `check.is_buy` alone on crowded tables of 20 items or more: (seconds, items
    named) of a buy of as many groups as a random search finds, and of it with one item more."""
    rng = np.random.default_rng(seed)
    mv, ck = rules.new_moves(), check.new_check()
    check.is_buy(mv, ck, 0, 0, np.uint64(1))  # loads the kernel
    legal, more = [], []
    while len(legal) < tables:
        t, played = crowded_table(rng, 42)
        m = int(rules.load_items(t, mv))
        items = [(int(mv.item_cards[i]), int(mv.item_low[i]), int(mv.item_high[i])) for i in range(m)]
        taken = random_buy(items, played, rng, more=1.0) if m >= 20 else 0
        if taken:
            legal.append(_timed_check(mv, ck, m, played, taken, items))
            extra = next((cards for cards, _, _ in items if not cards & taken), 0)
            more.append(_timed_check(mv, ck, m, played, taken | extra, items))
    return legal, more


def _timed_check(mv, ck, m, played, taken, items):
    start = time.perf_counter()
    check.is_buy(mv, ck, m, played, np.uint64(taken))
    return time.perf_counter() - start, sum(1 for cards, _, _ in items if cards & taken)


def _env(root):
    return {**os.environ, "PYTHONPATH": str(root)}


def _seconds(t):
    return "stopped" if t is None else f"{t:.3f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose replay is timed")
    parser.add_argument("--records", type=int, default=160, help="records generated (besides the example)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timed", type=int, help="time only the first N records one by one (default: all)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a record may take")
    parser.add_argument("--batch-timeout", type=float, default=600.0, help="seconds the batch may take")
    parser.add_argument("--tables", type=int, default=2000, help="crowded tables for the checker alone (0: none)")
    args = parser.parse_args()
    lines = [json.dumps(r) + "\n" for r in records(args.records, args.seed)]
    print(f"root {args.root.resolve()}, {len(lines)} records (seed {args.seed}); load {_uptime()}")
    times = per_record(args.root, lines[: args.timed], args.timeout)
    done = sorted(t for t in times if t is not None)
    print(f"example: {_seconds(times[0])}")
    spread = f"max {_seconds(max(done))}, median {_seconds(statistics.median(done))}, " if done else ""
    print(
        f"{len(times)} records one by one: {spread}{sum(t > 1 for t in done)} over 1 s, "
        f"{len(times) - len(done)} stopped after {args.timeout:g} s"
    )
    wall = batch(args.root, lines, args.batch_timeout)
    print(f"{len(lines)} records in one python -m musim replay: {_seconds(wall)}; load {_uptime()}")
    if args.tables and args.root.resolve() == ROOT:
        for what, found in zip(("drawn", "drawn with one item more"), checker(args.tables, args.seed)):
            seconds = sorted(t for t, _ in found)
            print(
                f"check.is_buy on {len(found)} tables of 20-42 items, a buy {what} ({min(n for _, n in found)}-"
                f"{max(n for _, n in found)} items named): max {_seconds(seconds[-1])}, "
                f"median {_seconds(statistics.median(seconds))}; load {_uptime()}"
            )


def _uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.split("load average:")[-1].strip()


if __name__ == "__main__":
    main()
