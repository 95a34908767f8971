"""JSON batch input/output shared by `musim replay` and `musim solve` (docs/examples/README.md "Batches").

Input is one JSON object (possibly spread over several lines) or JSON Lines, split on
newlines alone (str.splitlines would also split on the line separators JSON allows in strings).  Each
input object yields one output line; a bad object yields {"error": ...} on its
line and the batch continues, whatever the error: one item never ends the batch.
"""

import json
import os
import sys
import traceback

from musim.cards import CardError


class InputError(ValueError):
    """A one-line, user-facing reason why one batch item is invalid."""


def read_items(text):
    """Yield (parsed object or InputError) for each item of a batch text."""
    stripped = text.strip()
    if not stripped:
        return
    if "\n" in stripped:
        try:
            whole = json.loads(stripped)
        except (json.JSONDecodeError, RecursionError):
            whole = None
        if isinstance(whole, dict):
            yield whole
            return
    for lineno, line in enumerate(text.split("\n"), 1):  # newlines alone: JSON strings may hold U+2028
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            yield InputError(f"line {lineno}: malformed JSON ({exc.msg} at column {exc.colno})")
            continue
        except RecursionError:  # Python's parser recurses once per bracket
            yield InputError(f"line {lineno}: JSON nested too deeply")
            continue
        if not isinstance(obj, dict):
            yield InputError(f"line {lineno}: expected a JSON object, got {type(obj).__name__}")
            continue
        yield obj


def run_batch(text, handle, out, after=None):
    """Apply `handle(obj) -> dict` to each item, writing one JSON line each; True if all succeeded.
    after(i), if given, is called once item i's line (0-based) is written."""
    ok = True
    for index, item in enumerate(read_items(text)):
        if isinstance(item, InputError):
            result = {"error": str(item)}
        else:
            try:
                result = handle(item)
            except Exception as exc:  # an item's failure is its line's answer
                result = {"error": _reason(exc)}
        if "error" in result:
            ok = False
        out.write(json.dumps(result) + "\n")
        out.flush()
        if after is not None:
            after(index)
    return ok


def _reason(exc):
    """One line for an item's failure: the message of an invalid item; the type and first line of
    an unexpected error (whose traceback MUSIM_DEBUG=1 writes to stderr)."""
    if isinstance(exc, (InputError, CardError)):
        return str(exc)
    if os.environ.get("MUSIM_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    first = str(exc).strip().split("\n")[0]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__
