"""One writer per output: a run directory (engine/parts.py), a single-file run's file or a
balance checkpoint's key folder.

Two processes writing one output destroy each other's work, so the writer holds a lock file
(LOCK in a directory, FILE.lock beside a file): a JSON object naming its process (pid,
host, start time) and a random token, created with O_CREAT|O_EXCL, which only one process
can do, then written and fsynced.  The file's modification time is the writer's heartbeat,
touched every HEARTBEAT_SECONDS by a background thread (the file is never rewritten).  A
lock is stale, and the next writer takes it over, when on this host its process is gone
(os.kill(pid, 0): a live process, even one suspended for hours, keeps its lock), on another
host (a shared file system) when its heartbeat stopped more than STALE_SECONDS ago, and when
it cannot be read (empty after a power loss) once it is that old.  Taking over and releasing
rename the file away, which only one process can do, and delete it only if it is still the
file judged stale or our own (else it is put back): a writer never deletes another's lock.
A writer whose lock was taken over notices at its next commit (`check`).
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
STALE_SECONDS = 300.0  # a heartbeat older than this is a stopped writer's (another host) or a dead one's
READ_TRIES = 3  # a lock read as it is being written: read again ...
READ_PAUSE = 0.1  # ... this many seconds later


class Lock:
    """The lock file `path` of the output `target`, taken by the constructor (OutputError naming
    the holder if a live writer has it); `option`: the command-line option that named the target."""

    def __init__(self, path, target, option="--out"):
        self.path, self.target, self.option = path, target, option
        self.info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": _now_text(),
            "token": secrets.token_hex(8),
        }
        self._text = json.dumps(self.info).encode()
        while not self._create():
            found = _holder(path)
            if found is None:  # released or taken over meanwhile: try again
                continue
            if not found["stale"]:
                raise OutputError(f"{option} {target} is being written by {describe(found)}")
            _remove_if(path, lambda moved, seen=found["identity"]: _identity(moved) == seen)
        self._stopped = threading.Event()
        self._beat = threading.Thread(target=self._heartbeat, name="musim-lock-heartbeat", daemon=True)
        self._beat.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    def _create(self):
        """Make the lock file ours (True, keeping a descriptor of it for the heartbeat), or False
        if one exists."""
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        except OSError as exc:
            raise OutputError(f"{self.option} {self.target}: cannot lock ({exc.strerror})") from None
        try:
            os.write(fd, self._text)
            os.fsync(fd)
        except OSError as exc:
            os.close(fd)
            os.unlink(self.path)
            raise OutputError(f"{self.option} {self.target}: cannot lock ({exc.strerror})") from None
        self._fd = fd
        return True

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
            found = _holder(self.path)
            who = describe(found) if found else "nobody"
            raise OutputError(f"{self.option} {self.target}: the lock was taken over (now {who})")

    def release(self, moved_to=None):
        """Stop the heartbeat and remove the lock (from `moved_to`, the new name of the directory
        holding it), if it is still ours."""
        self._stopped.set()
        os.close(self._fd)
        path = os.path.join(moved_to, os.path.basename(self.path)) if moved_to else self.path
        _remove_if(path, lambda moved: _read_bytes(moved) == self._text)


class DirectoryLock(Lock):
    """The lock of `directory` (LOCK in it)."""

    def __init__(self, directory, option="--out"):
        super().__init__(os.path.join(directory, LOCK), directory, option)


def file_lock(path, option="--out"):
    """The lock of the output file `path` (PATH.lock beside it)."""
    return Lock(path + ".lock", path, option)


def holder(directory):
    """The lock of `directory` as by _holder, or None if it has none."""
    return _holder(os.path.join(directory, LOCK))


def _holder(path):
    """The lock file `path` as {"info" (None if unreadable), "stale", "age" (seconds since its
    heartbeat), "path", "identity"}, or None if there is none."""
    for attempt in range(READ_TRIES):  # a lock being written: read again
        if attempt:
            time.sleep(READ_PAUSE)
        try:
            identity = _identity(path)
        except FileNotFoundError:
            return None
        try:
            info = json.loads(identity[2])
        except (TypeError, ValueError):  # no bytes (a directory, no permission) or no JSON object
            info = None
        if isinstance(info, dict):
            break
    else:
        info = None
    age = time.time() - identity[1] / 1e9
    if info is None:
        stale = age > STALE_SECONDS
    elif info.get("host") == socket.gethostname():
        stale = not _alive(info.get("pid"))
    else:
        stale = age > STALE_SECONDS
    return {"info": info, "stale": stale, "age": age, "path": path, "identity": identity}


def describe(found):
    """The holder of a lock as text: `pid 123 on host h (started 2026-12-04 10:00:00)`."""
    info = found["info"]
    if info is None:
        return f"an unknown process: its lock {found['path']} is unreadable"
    return f"pid {info.get('pid')} on host {info.get('host')} (started {info.get('started')})"


def _identity(path):
    """What tells one lock file from another at `path`: (inode, modification time, content)."""
    stat = os.stat(path)
    return stat.st_ino, stat.st_mtime_ns, _read_bytes(path)


def _read_bytes(path):
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return None


def _remove_if(path, expected):
    """Delete the lock file `path` if expected(its path once renamed away): rename first, which
    only one process can do, and put back a lock that is not the one expected (made meanwhile)."""
    moved = f"{path}.{secrets.token_hex(6)}"
    try:
        os.rename(path, moved)
    except FileNotFoundError:  # taken over or released by another process first
        return
    if not expected(moved):
        try:
            os.link(moved, path)  # fails if a newer lock exists: the one moved away is then lost, and its writer stops
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            if not os.path.exists(path):
                os.rename(moved, path)
                return
    os.unlink(moved)


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
