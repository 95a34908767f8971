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

from musim.core.cards import CardError


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
        except Exception:  # not one object: each line is then read (and its error named) alone
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
        except Exception as exc:  # e.g. ValueError for an integer of more than 4,300 digits
            yield InputError(f"line {lineno}: unreadable JSON ({error_reason(exc)})")
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
        try:  # an item's failure, up to serialising its answer, is its line's answer
            if isinstance(item, InputError):
                raise item
            result = handle(item)
            line = json.dumps(result)
            ok = ok and "error" not in result
        except Exception as exc:
            ok = False
            line = json.dumps({"error": error_reason(exc)})
        out.write(line + "\n")
        out.flush()
        if after is not None:
            after(index)
    return ok


def error_reason(exc):
    """One line for an item's failure: the message of an invalid item; the type and first line of
    an unexpected error (whose traceback MUSIM_DEBUG=1 writes to stderr)."""
    if isinstance(exc, (InputError, CardError)):
        return str(exc)
    if os.environ.get("MUSIM_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    first = str(exc).strip().split("\n")[0]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__
