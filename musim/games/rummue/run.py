"""`musim run --game rummue` and `musim record --game rummue`: the kernels' arrays as rows."""

from functools import partial
from types import SimpleNamespace

from musim.games import seat_run
from musim.games.rummue import columns, simulate
from musim.games.rummue import record as records


def job(spec):
    """The engine's Job for a deals or matches spec."""
    teams = spec.options["teams"]
    game_simulate = SimpleNamespace(
        simulate_deals=partial(simulate.simulate_deals, teams=teams),
        simulate_matches=partial(simulate.simulate_matches, teams=teams),
    )
    return seat_run.job(spec, game_simulate, columns)


def record(spec, index):
    """The game record of deal `index` of the run `spec`."""
    return records.record(spec.players, spec.seed, spec.play, index, spec.options["teams"])
