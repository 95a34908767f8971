"""The `musim` command line: a thin click layer over the library."""
import sys

import click

from musim import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="musim")
def cli():
    """Monte Carlo simulator and double-dummy solver for the Mü & More card games."""


def _read_input(path):
    """Text of a batch input file or stdin ('-'); usage error (exit 2) if unreadable."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.UsageError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")


@cli.command()
@click.argument("path", metavar="FILE|-")
def replay(path):
    """Validate Mü game records (JSON or JSON Lines) and print each result."""
    from musim.batch import run_batch
    from musim.games.mu.record import replay as replay_record

    ok = run_batch(_read_input(path), replay_record, sys.stdout)
    sys.exit(0 if ok else 1)


def main():
    """Console entry point: click's own usage errors exit 2; nothing ever shows a traceback."""
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("musim: interrupted", err=True)
        sys.exit(130)
