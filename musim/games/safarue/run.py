"""`musim run --game safarue|reverse-safarue` and `musim record`: the kernels' arrays as rows."""

from functools import partial
from types import SimpleNamespace

from musim.games import seat_run
from musim.games.safarue import columns, simulate
from musim.games.safarue import record as records


def _job(spec, reverse):
    game_simulate = SimpleNamespace(simulate_deals=partial(simulate.simulate_deals, reverse=reverse))
    game_columns = SimpleNamespace(
        DEAL_COLUMNS=columns.REVERSE_DEAL_COLUMNS if reverse else columns.DEAL_COLUMNS,
        deal_batch=partial(columns.deal_batch, reverse=reverse),
    )
    return seat_run.job(spec, game_simulate, game_columns)


def job(spec):
    """The engine's Job for a Safarü run (one row per game)."""
    return _job(spec, False)


def reverse_job(spec):
    """The engine's Job for a Reverse Safarü run (one row per game)."""
    return _job(spec, True)


def record(spec, index):
    """The game record of game `index` of a Safarü run."""
    return records.record(spec.players, spec.seed, spec.play, index)


def reverse_record(spec, index):
    """The game record of game `index` of a Reverse Safarü run."""
    return records.record(spec.players, spec.seed, spec.play, index, reverse=True)
