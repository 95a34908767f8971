"""The line a command says when it first compiles a kernel: the CLI sets it (musim/cli/commands.py
compile_notice), musim/compile/once.py says it when numba really compiles (or waits for another
process's compile), so that a warm command says nothing."""

_pending = []  # the (text, say) of `notice`, until the next real compile


def notice(text, say=None):
    """Call say(text) once, when this process next compiles a kernel (not: loads it from the
    cache); a later notice replaces it, and notice(None) drops it."""
    _pending[:] = [(text, say)] if text else []


def compiling():
    """A kernel is being compiled (or waited for): say the pending notice, once."""
    while _pending:
        text, say = _pending.pop()
        say(text)
