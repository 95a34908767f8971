"""One writer per output directory: a run directory (engine/parts.py) or a balance checkpoint.

Two processes writing one directory destroy each other's parts, so the writer holds LOCK in
it: a JSON file naming its process (pid, host, start time), created whole and atomically
(written under a private name made with O_CREAT|O_EXCL, then hard-linked to LOCK, which
fails if LOCK exists).  The file's modification time is the writer's heartbeat, touched
every HEARTBEAT_SECONDS by a background thread (the file is never rewritten, so a reader
never sees half of it).  A lock is stale, and the next writer takes it over, when its
process is gone (same host: os.kill(pid, 0) finds no such process) or its heartbeat stopped
more than STALE_SECONDS ago (any host: a run killed on another machine of a shared file
system, or a process suspended that long).  Taking over renames the stale file away, which
only one process can do; a writer whose lock was taken over notices at its next commit
(`check`).
"""

import json
import os
import secrets
import socket
import threading
import time
from contextlib import suppress
from datetime import datetime

from musim.engine.errors import OutputError

LOCK = "_lock.json"  # a leading underscore: pyarrow and pandas skip it when reading the directory
HEARTBEAT_SECONDS = 30.0
STALE_SECONDS = 300.0  # a heartbeat older than this is a stopped writer's


class DirectoryLock:
    """The lock of `directory`, taken by the constructor (OutputError naming the holder if a
    live writer has it); `option`: the command-line option that named the directory."""

    def __init__(self, directory, option="--out"):
        self.path = os.path.join(directory, LOCK)
        self.option = option
        self.info = {"pid": os.getpid(), "host": socket.gethostname(), "started": _now_text()}
        while not self._create():
            found = holder(directory)
            if found is None:  # released or taken over meanwhile: try again
                continue
            if not found["stale"]:
                raise OutputError(f"{option} {directory} is being written by {describe(found)}")
            self._take_over(found)
        self._stopped = threading.Event()
        self._beat = threading.Thread(target=self._heartbeat, name="musim-lock-heartbeat", daemon=True)
        self._beat.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    def _create(self):
        """Make LOCK ours, whole (True, keeping a descriptor of it for the heartbeat), or False if
        a lock exists."""
        private = f"{self.path}.{secrets.token_hex(6)}"
        try:
            fd = os.open(private, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except OSError as exc:
            raise OutputError(f"{self.option} {os.path.dirname(self.path)}: cannot lock ({exc.strerror})") from None
        try:
            os.write(fd, json.dumps(self.info).encode())
            os.link(private, self.path)
        except FileExistsError:
            os.close(fd)
            return False
        finally:
            os.unlink(private)
        self._fd = fd
        return True

    def _take_over(self, stale):
        """Remove the stale lock `stale` (as read), unless another process replaced it meanwhile."""
        moved = f"{self.path}.stale-{secrets.token_hex(6)}"
        try:
            os.rename(self.path, moved)
        except FileNotFoundError:  # another process took it over first
            return
        if _read(moved) == stale["info"]:
            os.unlink(moved)
        else:  # a live lock made since we read the stale one: put it back
            with suppress(FileExistsError):
                os.link(moved, self.path)
            os.unlink(moved)

    def _heartbeat(self):
        while not self._stopped.wait(HEARTBEAT_SECONDS):
            with suppress(OSError):
                os.utime(self._fd)

    def check(self):
        """OutputError if this lock is no longer ours (taken over as stale while we were stopped)."""
        try:
            ours = os.stat(self.path).st_ino == os.fstat(self._fd).st_ino
        except OSError:
            ours = False
        if not ours:
            found = holder(os.path.dirname(self.path))
            who = describe(found) if found else "nobody"
            raise OutputError(f"{self.option} {os.path.dirname(self.path)}: the lock was taken over (now {who})")

    def release(self, moved_to=None):
        """Stop the heartbeat and remove the lock (from `moved_to`, the directory's new name)."""
        self._stopped.set()
        os.close(self._fd)
        with suppress(FileNotFoundError):
            os.unlink(os.path.join(moved_to, LOCK) if moved_to else self.path)


def holder(directory):
    """The lock of `directory` as {"info", "stale", "age"} (age: seconds since its heartbeat),
    or None if it has none."""
    path = os.path.join(directory, LOCK)
    for _ in range(3):  # a half-written or just-replaced file: read again
        try:
            age = time.time() - os.stat(path).st_mtime
        except FileNotFoundError:
            return None
        info = _read(path)
        if isinstance(info, dict):
            break
    else:
        info = {}
    same_host = info.get("host") == socket.gethostname()
    gone = same_host and not _alive(info.get("pid"))
    return {"info": info, "stale": gone or age > STALE_SECONDS, "age": age}


def describe(found):
    """The holder of a lock as text: `pid 123 on host h (started 2026-12-04 10:00:00)`."""
    info = found["info"]
    return f"pid {info.get('pid')} on host {info.get('host')} (started {info.get('started')})"


def _read(path):
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def _alive(pid):
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _now_text():
    return datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S %z")
