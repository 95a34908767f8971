"""The click layer: the commands and their entry point (commands), their shared options (options).
It names no game."""

from musim.cli.commands import cli, main

__all__ = ["cli", "main"]
