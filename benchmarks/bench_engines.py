"""The engines' figures: deals per second of heuristic and exact play on local threads (1 and 2
workers) and on a 2-worker Dask LocalCluster, the time a killed run takes to resume, and the
peak memory of the run's process and of its largest descendant process (a Dask worker).

Each configuration is a fresh `python -m musim run` process, so the times include start-up
(and a LocalCluster's start); numba's cache is warmed first.  Usage:
    python benchmarks/bench_engines.py [--heuristic-deals 1e6] [--dd-deals 300] [--players-dd 3]
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CONFIGS = [("local", 1), ("local", 2), ("dask", 2)]


def run(args, out):
    """(wall seconds, peak RSS MB of the musim process, of its largest descendant (a Dask
    worker), 0 if none) of one musim run; peaks are VmHWM, sampled while the run goes on."""
    t = time.perf_counter()
    command = [sys.executable, "-m", "musim", "run", *args, "--out", out, "--no-progress"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    peaks = {}
    while proc.poll() is None:
        for pid in [proc.pid, *descendants(proc.pid)]:
            peaks[pid] = max(peaks.get(pid, 0), peak_mb(pid))
        time.sleep(0.2)
    wall = time.perf_counter() - t
    if proc.returncode:
        sys.exit(f"musim run {' '.join(args)} failed ({proc.returncode})")
    main_peak = peaks.pop(proc.pid, 0)
    return wall, main_peak, max(peaks.values(), default=0)


def descendants(root):
    """The pids of every process below `root` (from /proc)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def peak_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0


def engine_args(engine, workers):
    return ["--engine", engine, "--workers", str(workers)]


def figures(tmp, label, base, count):
    for engine, workers in CONFIGS:
        out = os.path.join(tmp, f"{label}-{engine}{workers}")
        wall, rss, child = run([*base, *engine_args(engine, workers)], out)
        row = dict(play=label, engine=engine, workers=workers, deals=count, seconds=round(wall, 2))
        row |= dict(deals_per_s=round(count / wall, 1), peak_mb=round(rss), largest_child_mb=round(child))
        print(json.dumps(row), flush=True)
        shutil.rmtree(out)


def resume_figure(tmp, base):
    """Kill a run once half its parts are written, then time --resume to the end."""
    out = os.path.join(tmp, "resume")
    t = time.perf_counter()
    command = [sys.executable, "-m", "musim", "run", *base, "--out", out, "--no-progress"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    manifest = os.path.join(out + ".partial", "_manifest.json")
    while proc.poll() is None:
        try:
            with open(manifest) as fh:
                if len(json.load(fh)["parts"]) >= 2:
                    break
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    killed = time.perf_counter() - t
    wall, _, _ = run([*base, "--resume"], out)
    print(json.dumps(dict(figure="resume", killed_after_s=round(killed, 2), resume_s=round(wall, 2))), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heuristic-deals", default="1e6")
    parser.add_argument("--dd-deals", default="300")
    parser.add_argument("--players-dd", default="3")
    a = parser.parse_args()
    heuristic = ["--deals", a.heuristic_deals, "--players", "4", "--seed", "7"]
    exact = ["--deals", a.dd_deals, "--players", a.players_dd, "--play", "dd", "--seed", "7", "--tt-mb", "256"]
    with tempfile.TemporaryDirectory() as tmp:
        run([*heuristic[:1], "1000", *heuristic[2:]], os.path.join(tmp, "warm-h"))
        run([*exact[:1], "5", *exact[2:]], os.path.join(tmp, "warm-dd"))
        figures(tmp, "heuristic", heuristic, int(float(a.heuristic_deals)))
        figures(tmp, "dd", exact, int(float(a.dd_deals)))
        resume_figure(tmp, [*heuristic, "--workers", "2"])


if __name__ == "__main__":
    main()
