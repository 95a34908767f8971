"""The click layer (main) and its shared options (options); it names no game."""

from musim.cli.main import cli, main

__all__ = ["cli", "main"]
