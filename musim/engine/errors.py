"""The engine's own errors: each message is one line for the user, naming the option at fault;
the CLI shows it as `musim <cmd>: error: ...` (the engine knows no click)."""


class EngineError(Exception):
    """A run that cannot be done as asked."""


class SpecError(EngineError):
    """The run's parameters do not fit its game (seats, policy, the game's own options)."""


class OutputError(EngineError):
    """The output path cannot be used (exists, or not writable)."""
