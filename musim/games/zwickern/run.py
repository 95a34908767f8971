"""`musim run --game zwickern` and `musim record --game zwickern`: the kernels' arrays as rows."""

from functools import partial
from types import SimpleNamespace

from musim.engine.errors import SpecError
from musim.games import seat_run
from musim.games.zwickern import columns, simulate
from musim.games.zwickern import record as records
from musim.games.zwickern.points import PointsError, parse


def check(spec):
    """SpecError naming the fault of a victory-points table that cannot be read."""
    try:
        parse(spec.options["victory_points"])
    except PointsError as exc:
        raise SpecError(f"--victory-points: {exc}") from None


def job(spec):
    """The engine's Job for a deals or matches spec."""
    points = parse(spec.options["victory_points"])
    game_simulate = SimpleNamespace(
        simulate_deals=partial(simulate.simulate_deals, points=points),
        simulate_matches=partial(simulate.simulate_matches, points=points),
    )
    return seat_run.job(spec, game_simulate, columns)


def record(spec, index):
    """The game record of deal `index` of the run `spec`."""
    return records.record(spec.players, spec.seed, spec.play, index, spec.options["victory_points"])
