"""Runs that never lose work (engine/lock.py, engine/stop.py): one writer per run directory or
balance checkpoint, a stale lock taken over, a stop that keeps every finished deal and names
the command that resumes it, `musim summary` of an unfinished run, and default run names that
are valid for every game and option."""

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time

import pytest
from test_run_output import data, invoke

import musim
from musim.engine import lock as lock_module
from musim.engine import parts
from musim.engine.errors import OutputError
from musim.engine.lock import LOCK, DirectoryLock, holder
from musim.engine.parts import MANIFEST, PARTIAL
from musim.games import all_games
from musim.games.mu import run as mu_run
from musim.games.mu.analysis.balance import checkpoint_folders
from musim.games.mu.params import MuParams
from musim.play.search_budget import EXACT_TRICKS, WORLDS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # this checkout, for processes in other directories
RUN = ["run", "--game", "mu", "--deals", 3000, "--players", 5, "--seed", 11, "--no-progress"]
# `musim` with chunks of 100 deals whose batches reach the writer MUSIM_TEST_DELAY seconds apart
# (and not while the file MUSIM_TEST_GATE exists), whose chunk MUSIM_TEST_SLOW (a first deal)
# takes 600 s to compute: a run that is still going; and that, once its last chunk is written,
# makes the file MUSIM_TEST_FINISHING and waits 3 s before finishing.  Ctrl-C acts as at a
# terminal even when the tests run in a background job, whose processes inherit SIGINT ignored.
SLOW = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
import musim.engine.parts as parts
import musim.engine.run as run
import musim.games.mu.run as mu_run
mu_run.CHUNK_DEALS = 100
delay, slow = float(os.environ.get("MUSIM_TEST_DELAY", 0)), int(os.environ.get("MUSIM_TEST_SLOW", -1))
gate, finishing = os.environ.get("MUSIM_TEST_GATE"), os.environ.get("MUSIM_TEST_FINISHING")
engine_ordered = run.ordered
def computed(start, count, fn):
    time.sleep(600 if start == slow else 0)
    return fn(start, count)
def ordered(fn, chunks, *args):
    if slow >= 0:
        fn = lambda start, count, fn=fn: computed(start, count, fn)
    for batch in engine_ordered(fn, chunks, *args):
        time.sleep(delay)
        while gate and os.path.exists(gate):
            time.sleep(0.05)
        yield batch
run.ordered = ordered
engine_finish = parts.RunDirectory.finish
def finish(self, total):
    if finishing:
        open(finishing, "w").close()
        time.sleep(3)
    engine_finish(self, total)
parts.RunDirectory.finish = finish
sys.argv[0] = "musim"
from musim.cli import main
main()
"""


def start(args, delay=0.1, slow=-1, cwd=None, gate="", finishing=""):
    """`musim ARGS` started by way of SLOW."""
    env = {**os.environ, "MUSIM_TEST_DELAY": str(delay), "MUSIM_TEST_SLOW": str(slow), "PYTHONPATH": ROOT}
    env |= {"MUSIM_TEST_GATE": str(gate), "MUSIM_TEST_FINISHING": str(finishing)}
    return subprocess.Popen(
        [sys.executable, "-c", SLOW, *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
    )


def musim_process(*args, cwd=None):
    """`python -m musim ARGS`, run to its end (at most 10 minutes)."""
    return subprocess.run(
        [sys.executable, "-m", "musim", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": ROOT},
        timeout=600,
    )


def wait_for(path, proc, seconds=300):
    deadline = time.time() + seconds
    while not os.path.exists(path):
        assert proc.poll() is None and time.time() < deadline, proc.communicate()[1] if proc.poll() else "timeout"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The rows of RUN, in one file, from one uninterrupted run."""
    out = tmp_path_factory.mktemp("ref") / "ref.parquet"
    res = invoke(*RUN, "--out", out)
    assert res.exit_code == 0, res.output
    return data(musim.read_run(out))


def _refused(output, pid):
    line = output.strip().splitlines()[-1]
    assert f"is being written by pid {pid} on host {socket.gethostname()} (started 20" in line, output
    return line


@pytest.mark.parametrize("engine", ["local", "dask"])
def test_a_second_writer_of_a_run_directory_is_refused_naming_the_holder(tmp_path, reference, engine):
    """Both write the default directory (runs/... under the current one): the second is refused,
    however it names the directory, and the first's rows are whole.  The first writes nothing
    while the file `gate` exists, so that it is still writing, however loaded the machine."""
    out = tmp_path / "runs" / "mu-5p-heuristic-seed11"
    args = [*RUN, "--engine", engine, "--workers", 1]
    gate = tmp_path / "gate"
    gate.touch()
    first = start(args, cwd=tmp_path, gate=gate)
    try:
        wait_for(f"{out}{PARTIAL}/{LOCK}", first)
        second = musim_process(*args, "--resume", cwd=tmp_path)
        assert second.returncode == 2 and "Traceback" not in second.stderr
        _refused(second.stderr, first.pid)
        for other in (["--resume"], [], ["--overwrite"]):
            _refused(invoke(*RUN, "--out", out, *other).output, first.pid)
        busy = invoke("summary", out)
        assert busy.exit_code == 1 and f"unfinished run, being written by pid {first.pid}" in busy.output
        assert first.poll() is None
        gate.unlink()
        _, err = first.communicate(timeout=300)
    finally:
        first.kill()
    assert first.returncode == 0, err
    assert data(musim.read_run(out)).equals(reference)
    assert not (out / LOCK).exists()


def _write_lock(directory, pid, host, age):
    path = directory / LOCK
    path.write_text(json.dumps({"pid": pid, "host": host, "started": "2026-12-04 10:00:00 +0000"}))
    os.utime(path, (time.time() - age, time.time() - age))


def test_a_lock_is_stale_when_its_process_is_gone_or_its_heartbeat_stopped(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    here = socket.gethostname()
    cases = [
        (int(dead.stdout), here, 0, True),  # this host, no such process
        (os.getpid(), here, 0, False),  # this host, alive
        (os.getpid(), here, lock_module.STALE_SECONDS + 5, False),  # this host, alive but suspended for long
        (1, "elsewhere", 10, False),  # another host: its heartbeat is recent
        (1, "elsewhere", lock_module.STALE_SECONDS + 5, True),  # another host: its heartbeat stopped
    ]
    for pid, host, age, stale in cases:
        _write_lock(tmp_path, pid, host, age)
        assert holder(tmp_path)["stale"] == stale, (pid, host, age)
        if not stale:
            with pytest.raises(OutputError, match=f"is being written by pid {pid} on host {host}"):
                DirectoryLock(str(tmp_path))
            continue
        with DirectoryLock(str(tmp_path)) as taken:
            assert json.loads((tmp_path / LOCK).read_text())["pid"] == os.getpid()
            taken.check()
        assert not (tmp_path / LOCK).exists() and os.listdir(tmp_path) == []


def test_a_writer_keeps_its_heartbeat_going(tmp_path, monkeypatch):
    monkeypatch.setattr(lock_module, "HEARTBEAT_SECONDS", 0.05)
    with DirectoryLock(str(tmp_path)):
        old = time.time() - 2 * lock_module.STALE_SECONDS
        os.utime(tmp_path / LOCK, (old, old))
        time.sleep(0.5)
        assert holder(tmp_path)["age"] < 5


def _partial_run(tmp_path, parts_kept=None):
    """A finished run of RUN at tmp_path/run turned back into an unfinished one (run.partial/)
    keeping its first `parts_kept` parts (default: all)."""
    res = invoke(*RUN, "--out", tmp_path / "run")
    assert res.exit_code == 0, res.output
    partial = tmp_path / f"run{PARTIAL}"
    os.rename(tmp_path / "run", partial)
    manifest = json.loads((partial / MANIFEST).read_text())
    manifest |= {"complete": False, "parts": manifest["parts"][:parts_kept], "held": []}
    (partial / MANIFEST).write_text(json.dumps(manifest))
    return partial


def test_an_unreadable_lock_is_refused_naming_it_and_taken_over_once_old(tmp_path, reference):
    """An empty lock (a power loss before it was written): refused while it may be a writer's
    being written, taken over once STALE_SECONDS old (it once made --resume spin for ever)."""
    lock = _partial_run(tmp_path) / LOCK
    lock.touch()
    young = musim_process(*RUN, "--out", tmp_path / "run", "--resume")
    assert young.returncode == 2 and young.stderr.count("\n") == 1, young.stderr
    assert f"its lock {lock} is unreadable" in young.stderr
    old = time.time() - 3600
    os.utime(lock, (old, old))
    resumed = musim_process(*RUN, "--out", tmp_path / "run", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert data(musim.read_run(tmp_path / "run")).equals(reference)
    assert not (tmp_path / "run" / LOCK).exists()


def test_a_lock_that_cannot_be_read_as_a_file_is_an_unreadable_lock(tmp_path):
    """A directory in the lock's place (no bytes to read) is refused as an unreadable lock, not a crash."""
    (tmp_path / LOCK).mkdir()
    assert holder(str(tmp_path))["info"] is None
    with pytest.raises(OutputError, match="is unreadable"):
        DirectoryLock(str(tmp_path))


def test_a_writer_releases_only_its_own_lock(tmp_path):
    """A writer whose lock was taken over (while it was stopped) leaves the new writer's lock."""
    mine = DirectoryLock(str(tmp_path))
    os.unlink(tmp_path / LOCK)
    theirs = DirectoryLock(str(tmp_path))
    mine.release()
    assert json.loads((tmp_path / LOCK).read_text()) == theirs.info
    theirs.check()
    theirs.release()
    assert os.listdir(tmp_path) == []


def test_a_lock_needs_no_hard_links(tmp_path, monkeypatch):
    def refused(*args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", refused)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    _write_lock(tmp_path, int(dead.stdout), socket.gethostname(), 0)
    with DirectoryLock(str(tmp_path)) as taken:
        assert json.loads((tmp_path / LOCK).read_text()) == taken.info
    assert os.listdir(tmp_path) == []


def test_a_writer_whose_lock_was_taken_over_stops(tmp_path):
    mine = DirectoryLock(str(tmp_path))
    os.unlink(tmp_path / LOCK)
    _write_lock(tmp_path, 1, "elsewhere", 0)
    with pytest.raises(OutputError, match="the lock was taken over \\(now pid 1 on host elsewhere"):
        mine.check()
    mine.release()


def test_a_run_killed_with_sigkill_leaves_a_stale_lock_that_resume_takes_over(tmp_path, reference):
    out = tmp_path / "run"
    proc = start([*RUN, "--out", out, "--workers", 1])
    try:
        wait_for(tmp_path / f"run{PARTIAL}" / LOCK, proc)
        time.sleep(1)
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert json.loads((tmp_path / f"run{PARTIAL}" / LOCK).read_text())["pid"] == proc.pid
    resumed = musim_process(*RUN, "--out", out, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert data(musim.read_run(out)).equals(reference)


def _stopped(proc, how, partial):
    """Stop `proc` by `how` once it has written some rows; its stderr."""
    wait_for(partial / LOCK, proc)
    deadline = time.time() + 300
    while not any(name.startswith("part-") and name.endswith(".partial") for name in os.listdir(partial)):
        assert proc.poll() is None and time.time() < deadline, proc.communicate()[1]
        time.sleep(0.05)
    time.sleep(1.5)
    proc.send_signal(how)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    return err


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_keeps_every_finished_deal_and_names_the_resume_command(tmp_path, reference, how):
    """The run's one part is open when it is stopped (it would close after 120 s): the stop
    closes it with the chunks written so far, and holds those finished behind the slow chunk
    (deals 1000..1099, still in flight), so that --resume computes only that one."""
    out = tmp_path / "run"
    proc = start([*RUN, "--out", out, "--workers", 2], delay=0.05, slow=1000)
    try:
        err = _stopped(proc, how, tmp_path / f"run{PARTIAL}")
    finally:
        proc.kill()
    said = [line for line in err.splitlines() if line.startswith("musim: stopped: ")]
    assert len(said) == 1 and err.strip().splitlines()[-1] == "musim: interrupted", err
    kept = int(said[0].split()[2].replace(",", ""))
    manifest = json.loads((tmp_path / f"run{PARTIAL}" / MANIFEST).read_text())
    in_parts = sum(part["count"] for part in manifest["parts"])
    assert in_parts == 1000 and kept == 1000 + sum(held["count"] for held in manifest["held"]) > 1000
    assert not (tmp_path / f"run{PARTIAL}" / LOCK).exists()
    unfinished = invoke("summary", out)
    assert unfinished.exit_code == 1, unfinished.output
    assert "unfinished run, stopped (continue it with: musim run --game mu" in unfinished.output
    assert f"{kept:,} of 3,000 deals so far" in unfinished.output
    command = shlex.split(said[0].split("continue with: ")[1])
    assert command[:2] == ["musim", "run"] and command[-1] == "--resume"
    resumed = start(command[1:], delay=0)  # the same chunks of 100 deals: the held ones are read back
    out_text, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert f"{kept:,} deals were already written" in out_text  # only the slow chunk was computed again
    assert sorted(os.listdir(out)) == [MANIFEST, "part-000000.parquet", "part-000001.parquet"]
    assert data(musim.read_run(out)).equals(reference)


def test_a_resume_at_another_chunk_size_computes_the_held_chunks_again(tmp_path, reference, monkeypatch):
    """A held chunk of 1000 deals (2000..2999) is no chunk of a run in chunks of 500: it is
    dropped and its deals computed again, not written twice."""
    monkeypatch.setattr(mu_run, "CHUNK_DEALS", 1000)
    monkeypatch.setattr(parts, "PART_ROWS", 1)  # a part per chunk
    partial = _partial_run(tmp_path, parts_kept=1)
    manifest = json.loads((partial / MANIFEST).read_text())
    os.rename(partial / "part-000002.parquet", partial / "_held-000000002000+1000.parquet")
    manifest["held"] = [{"file": "_held-000000002000+1000.parquet", "first": 2000, "count": 1000}]
    (partial / MANIFEST).write_text(json.dumps(manifest))
    monkeypatch.setattr(mu_run, "CHUNK_DEALS", 500)
    res = invoke(*RUN, "--out", tmp_path / "run", "--resume")
    assert res.exit_code == 0, res.output
    assert "1,000 deals were already written" in res.output
    assert data(musim.read_run(tmp_path / "run")).equals(reference)


def test_a_resume_never_finishes_a_run_whose_rows_are_not_the_run(tmp_path, monkeypatch):
    """A manifest that undercounts its part (900 of its 1000 rows) would make a run of 3,100
    rows: the run is refused, in one line, and stays unfinished."""
    monkeypatch.setattr(mu_run, "CHUNK_DEALS", 100)
    monkeypatch.setattr(parts, "PART_ROWS", 1000)
    partial = _partial_run(tmp_path, parts_kept=1)
    manifest = json.loads((partial / MANIFEST).read_text())
    manifest["parts"][0]["count"] = 900
    (partial / MANIFEST).write_text(json.dumps(manifest))
    res = invoke(*RUN, "--out", tmp_path / "run", "--resume")
    assert res.exit_code != 0 and "part-000000.parquet is not rows 0.. of the run: not finished" in res.output
    assert not (tmp_path / "run").exists() and (partial / MANIFEST).exists() and not (partial / LOCK).exists()


def test_a_single_file_run_has_one_writer(tmp_path, reference):
    out = tmp_path / "x.parquet"
    lock = tmp_path / "x.parquet.lock"
    lock.write_text(json.dumps({"pid": os.getppid(), "host": socket.gethostname(), "started": "then"}))
    res = invoke(*RUN, "--out", out)
    assert res.exit_code == 2 and f"--out {out} is being written by pid {os.getppid()}" in res.output
    assert not out.exists()
    lock.unlink()
    res = invoke(*RUN, "--out", out)
    assert res.exit_code == 0, res.output
    assert data(musim.read_run(out)).equals(reference) and os.listdir(tmp_path) == ["x.parquet"]


def test_a_run_refused_for_its_default_directory_in_use_never_says_it_writes_there(tmp_path, monkeypatch):
    """The check comes before the announcement: a run whose default directory another process
    is writing says only that, not "writing the rows to" it."""
    monkeypatch.chdir(tmp_path)
    partial = _partial_run(tmp_path)
    held = tmp_path / "runs" / f"mu-5p-heuristic-seed11{PARTIAL}"
    held.parent.mkdir()
    os.rename(partial, held)
    _write_lock(held, os.getppid(), socket.gethostname(), 0)
    res = invoke(*RUN)
    assert res.exit_code == 2 and f"is being written by pid {os.getppid()}" in res.output
    assert "writing the rows" not in res.output


def test_overwrite_deletes_nothing_before_it_holds_the_lock(tmp_path, monkeypatch):
    """A writer that takes OUT.partial/ just after the check for one (here: the check sees
    none) keeps its directory, and the finished run at OUT is not deleted."""
    out, partial = tmp_path / "run", _partial_run(tmp_path)
    os.rename(partial, out)
    partial.mkdir()
    (partial / MANIFEST).write_text((out / MANIFEST).read_text())
    _write_lock(partial, os.getppid(), socket.gethostname(), 0)
    monkeypatch.setattr(parts, "holder", lambda directory: None)
    res = invoke(*RUN, "--out", out, "--overwrite")
    assert res.exit_code == 2 and f"is being written by pid {os.getppid()}" in res.output
    assert sorted(os.listdir(partial)) == [LOCK, MANIFEST] and (out / MANIFEST).exists()


def test_a_signal_once_the_last_chunk_is_written_lets_the_run_finish(tmp_path, reference):
    out, finishing = tmp_path / "run", tmp_path / "finishing"
    proc = start([*RUN, "--out", out, "--workers", 1], delay=0, finishing=finishing)
    try:
        wait_for(finishing, proc)
        proc.send_signal(signal.SIGTERM)
        text, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0 and "interrupted" not in err, err
    assert "written to" in text and data(musim.read_run(out)).equals(reference)


def test_a_stop_on_dask_keeps_the_rows_written(tmp_path, reference):
    out = tmp_path / "run"
    proc = start([*RUN, "--out", out, "--workers", 1, "--engine", "dask"], delay=0.3)
    try:
        err = _stopped(proc, signal.SIGTERM, tmp_path / f"run{PARTIAL}")
    finally:
        proc.kill()
    said = err.split("musim: stopped: ")[1]
    assert int(said.split()[0].replace(",", "")) > 0
    resumed = musim_process(*shlex.split(said.split("continue with: ")[1].splitlines()[0])[1:])
    assert resumed.returncode == 0 and "--engine dask" in said, resumed.stderr
    assert data(musim.read_run(out)).equals(reference)


def test_summary_of_a_run_with_no_deal_yet_is_not_a_summary_of_nothing(tmp_path):
    res = invoke(*RUN, "--out", tmp_path / "run")
    assert res.exit_code == 0
    partial = tmp_path / f"run{PARTIAL}"
    os.rename(tmp_path / "run", partial)
    manifest = json.loads((partial / MANIFEST).read_text())
    (partial / MANIFEST).write_text(json.dumps(manifest | {"complete": False, "parts": []}))
    for name in (partial, tmp_path / "run"):
        said = invoke("summary", name)
        assert said.exit_code == 1 and "is an unfinished run, stopped" in said.output
        assert "0 of 3,000 deals so far" in said.output.splitlines()[0]


BALANCE = ["balance", "--players", 3, "--deals", 10, "--strength-deals", 0, "--no-progress"]
# a process that holds the lock of the directory argv[1] and says so
HOLD = "import sys, time; from musim.engine.lock import DirectoryLock as L; L(sys.argv[1]); print(1, flush=True)"
HOLD += "; time.sleep(600)"


def test_a_balance_checkpoint_key_folder_has_one_writer_and_others_share_the_root(tmp_path):
    """Another process holds the folder of seed 1's deals: a balance of seed 1 is refused, one
    of seed 2 writes beside it, and leaves no lock."""
    checkpoint = tmp_path / "cp"
    folder = checkpoint_folders(str(checkpoint), MuParams(3, "heuristic"), 1)[0]
    os.makedirs(folder)
    env = {**os.environ, "PYTHONPATH": ROOT}
    holding = subprocess.Popen([sys.executable, "-c", HOLD, folder], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert holding.stdout.readline() == "1\n"
        refused = musim_process(*BALANCE, "--seed", 1, "--checkpoint", checkpoint, "--out", tmp_path / "a")
        assert refused.returncode == 2, refused.stderr
        assert f"--checkpoint {folder} is being written by pid {holding.pid}" in refused.stderr
        other = musim_process(*BALANCE, "--seed", 2, "--checkpoint", checkpoint, "--out", tmp_path / "b")
        assert other.returncode == 0, other.stderr
        assert holding.poll() is None
    finally:
        holding.kill()
        holding.wait()
    assert os.listdir(folder) == [LOCK]  # the refused run wrote nothing
    written = checkpoint_folders(str(checkpoint), MuParams(3, "heuristic"), 2)
    assert all(os.listdir(path) and LOCK not in os.listdir(path) for path in written)


def _non_default(option):
    """A valid value of a game's option other than its default."""
    if option.type is bool:
        return not option.default
    if option.choices:
        return next(c for c in option.choices if c != option.default)
    if option.type is str:
        return option.default.replace("=1", "=2", 1)
    if option.type is float:
        low, high = option.range
        return (low + high) / 2 if option.default != (low + high) / 2 else (low + high) / 4
    low, high = option.range
    return low if option.default != low else low + 1


@pytest.mark.parametrize("game", [g for g in all_games() if g.policies and g.options], ids=lambda g: g.name)
def test_default_run_names_are_valid_for_every_game_and_option(tmp_path, monkeypatch, game):
    options = []
    for option in game.options:
        if option.name in (WORLDS.name, EXACT_TRICKS.name):  # a search seat: tests/test_search_<game>.py names those
            continue
        if option.table_sized:  # a node limit needs every trick exact: tests/test_node_limit.py names those runs
            continue
        value = _non_default(option)
        options += [option.flag] if option.type is bool else [option.flag, value]
    players = 4 if game.name == "rummue" else game.default_players  # teams: an even count
    play = "dd" if game.name == "mu" else "heuristic"  # --dd-tricks: the last tricks played exactly
    args = ["run", "--game", game.name, "--players", players, "--play", play, "--deals", 2, "--seed", 1, *options]
    monkeypatch.chdir(tmp_path)  # the default directory runs/ under the current one
    res = invoke(*args)
    assert res.exit_code == 0, res.output
    (name,) = os.listdir("runs")
    assert name.startswith(f"{game.name}-{players}p-{play}-") and name.endswith("-seed1")
    assert invoke("summary", os.path.join("runs", name)).exit_code == 0
