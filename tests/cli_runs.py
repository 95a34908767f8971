"""A game's run, record and replay through the CLI, as the games' tests take them: each step must
exit 0, and a run must say what it ran and write one described row per game."""

import json

import pyarrow.parquet as pq
from click.testing import CliRunner

from musim.cli import cli


def cli_run(tmp_path, game, players, deals, *options, seed=9):
    """`musim run` of `deals` heuristic games into a parquet file: (what it printed, the table)."""
    out = tmp_path / "out.parquet"
    args = ["run", "--game", game, "--players", str(players), "--deals", str(deals), "--seed", str(seed), *options]
    res = CliRunner().invoke(cli, [*args, "--out", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    title = f"{game}, {players} players, heuristic play, seed {seed}: {deals} games"
    assert title in res.output, (title, res.output)
    table = pq.read_table(out)
    assert table.num_rows == deals and all(f.metadata for f in table.schema), table.schema
    return res.output, table


def cli_record(game, players, deal, *options, seed=9):
    """The record `musim record` prints of game `deal` of a run (heuristic play): JSON text."""
    args = ["record", "--game", game, "--players", str(players), "--seed", str(seed), "--deal", str(deal), *options]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    return res.output


def cli_replay(text):
    """What `musim replay -` answers for the record `text` (as printed by `musim record`), as a dict."""
    res = CliRunner().invoke(cli, ["replay", "-"], input=text)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)
