"""Compiling (musim/compile/once.py, musim/cli/compile_ahead.py): each kernel compiled once on a machine however
many processes want it, a command that compiles says so at once and leaves the compiling out of
its rates, and `musim compile` fills the cache ahead."""

import os
import re
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from musim.cli import cli, commands, compile_ahead
from musim.compile import notice, once
from musim.engine import progress
from musim.games import get_game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = """
from musim.compile.jit import flat_kernel

@flat_kernel
def inner(a, k):
    total = 0
    for i in range(a):
        total += (i * k) % 7
    return total

@flat_kernel
def outer(a):
    return inner(a, 3) + inner(a, 5)
"""
WANT = """
import os, sys, time
sys.path.insert(0, sys.argv[1])
from musim.compile import once
import kernels
while not os.path.exists(sys.argv[2]):
    time.sleep(0.005)
assert kernels.outer(10) == kernels.inner(10, 3) + kernels.inner(10, 5)
print(once.compiles())
"""


def test_two_processes_wanting_the_same_kernels_compile_them_once(tmp_path):
    """Both start together on an empty cache: one compiles `outer` and its callee (nested
    locks), the other waits and loads them; unlocked, both would compile both."""
    (tmp_path / "kernels.py").write_text(KERNELS)
    go = tmp_path / "go"
    env = os.environ | {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": ROOT}
    procs = [
        subprocess.Popen([sys.executable, "-c", WANT, tmp_path, go], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    time.sleep(3)  # both imported and waiting
    go.touch()
    counts = [int(proc.communicate(timeout=300)[0]) for proc in procs]
    assert sorted(counts) == [0, 2], counts  # outer and inner, compiled by one process


def _fresh_kernel():
    """An uncached kernel wrapped by compile_once: every call with new types compiles."""
    from numba import njit

    return once.compile_once(njit(_nrt=False)(lambda a: a + 1))


def test_the_notice_comes_once_at_the_first_real_compile_and_never_from_the_cache():
    said = []
    notice.notice("compiling", said.append)
    kernel = _fresh_kernel()
    assert said == []
    kernel(1)
    kernel(2.0)
    assert said == ["compiling"]
    notice.notice("again", said.append)
    kernel(3)  # compiled already
    notice.notice(None)
    assert said == ["compiling"]


def test_compile_seconds_count_the_compiling_once_however_nested():
    before = once.seconds()
    started = time.perf_counter()
    _fresh_kernel()(1)
    took = time.perf_counter() - started
    assert 0 < once.seconds() - before <= took


def test_the_bars_rate_and_eta_leave_the_compiling_out(monkeypatch):
    """A bar that waited 100 s for a compile and then did 1 deal in 1 s shows 1 deal/s."""
    compiled = [0.0]
    monkeypatch.setattr(once, "seconds", lambda: compiled[0])
    with open(os.devnull, "w") as devnull, progress.progress_bar(10, "deal", True, file=devnull) as bar:
        bar.start_t -= 101
        compiled[0] = 100.0
        bar.update(1)
        assert bar.format_dict["elapsed"] == pytest.approx(1, abs=0.5)


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_the_run_summary_leaves_the_compiling_out(monkeypatch, tmp_path):
    """Half of the run's time spent compiling (faked): the summary counts the other half alone."""
    calls = []

    def half_the_time_so_far():
        if calls:
            time.sleep(0.2)  # a run long enough for its compiling to be said, however warm the cache
        calls.append(time.perf_counter())
        return (calls[-1] - calls[0]) / 2

    monkeypatch.setattr(once, "seconds", half_the_time_so_far)
    res = invoke("run", "--game", "panther", "--deals", 100, "--seed", 1, "--out", tmp_path / "x.parquet")
    assert res.exit_code == 0, res.output
    found = re.search(r", ([\d.]+) s \(.*; ([\d.]+) s of compiling kernels not counted\), ", res.output)
    work, compiled = map(float, found.groups())
    assert work > 0 and abs(work - compiled) < 0.05 + 0.05 * compiled, res.output


@pytest.mark.parametrize(
    "args, what",
    [
        (["run", "--players", 3, "--play", "dd"], commands.EXACT),
        (["run", "--play", "search,heuristic,heuristic,heuristic"], commands.SEARCH_PLAYER),
        (["run"], commands.KERNELS),
        (["solve", "-"], commands.SOLVER),
    ],
)
def test_each_command_says_what_it_compiles_and_how_long_that_takes(args, what, monkeypatch, tmp_path):
    """The notice is set before any kernel can compile (here: a refused output or game ends the command)."""
    noticed = []
    monkeypatch.setattr(notice, "notice", lambda text, say=None: noticed.append(text))
    refused = ["--deals", 1, "--out", tmp_path / "x.csv"] if args[0] == "run" else ["--game", "nonsense"]
    assert invoke(*args, *refused).exit_code == 2
    name, seconds, command = what
    said = [text for text in noticed if text]  # notice(None) drops it when the command ends
    assert said[-1] == f"musim: compiling {name} for first use, about {seconds} s; `{command}` does it ahead"


def test_compile_plays_each_policy_and_solves_the_examples_of_the_games_asked_for():
    labels = [step.label for step in compile_ahead.steps([get_game("panther")], solver=True)]
    assert labels == [
        "panther: heuristic, deals",
        "panther: heuristic, matches",
        "panther: random, deals",
        "panther: random, matches",
        "panther: dd, deals",
        "panther: solve",
    ]
    assert [s.label for s in compile_ahead.steps([get_game("mu")], search=True)][-1] == "mu: search, deals"
    assert compile_ahead.example_positions("panther")[0]["game"] == "panther"


def test_compile_of_an_unknown_game_is_one_line_and_exit_2():
    res = invoke("compile", "--game", "chess")
    assert res.exit_code == 2 and "unknown game 'chess'" in res.output and "Traceback" not in res.output


def test_compile_fills_the_cache_a_run_needs_and_a_run_that_compiles_says_so_first(tmp_path):
    """`musim compile` on an empty cache, then a run: nothing to compile, nothing said.  With
    its top kernel's cache removed, the run compiles it and says so on its first line, once."""
    env = os.environ | {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    musim = lambda *args: subprocess.run(
        [sys.executable, "-m", "musim", *map(str, args)], env=env, capture_output=True, text=True
    )
    filled = musim("compile", "--game", "safarue")
    assert filled.returncode == 0, filled.stderr
    assert "safarue: heuristic, deals: " in filled.stderr and int(filled.stdout.split()[1]) > 0, filled.stdout
    run = ["run", "--game", "safarue", "--deals", 10, "--seed", 1, "--out", tmp_path / "x.parquet", "--overwrite"]
    warm = musim(*run)
    assert warm.returncode == 0 and "compiling" not in warm.stderr, warm.stderr
    top = list((tmp_path / "cache").rglob("*simulate_chunk*"))
    assert top
    for path in top:
        path.unlink()
    cold = musim(*run)
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.splitlines()[0].startswith("musim: compiling the kernels for first use, about ")
    assert cold.stderr.count("compiling") == 1


def test_a_kernel_calling_itself_holds_its_lock_again_without_waiting(tmp_path, monkeypatch):
    monkeypatch.setattr(once.numba.config, "CACHE_DIR", str(tmp_path))
    path = str(tmp_path / "locks" / "k.lock")
    with once._file_lock(path), once._file_lock(path):
        assert once._held[path][1] == 2
    assert path not in once._held
