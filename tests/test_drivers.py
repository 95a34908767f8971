"""musim.play.drivers: one driver for every game scored per seat, compiled once per game and then
loaded from numba's on-disk cache (the reason the games register their kernels by workspace
type instead of passing them as function arguments, which numba cannot cache)."""

import json
import subprocess
import sys
from collections import namedtuple

import pytest

from musim.compile.jit import flat_kernel
from musim.play import drivers

RUN = """
import json
from musim.play import drivers
from musim.games.calcory import simulate as calcory
from musim.games.danger import simulate as danger
from musim.games.mu import run as mu
from musim.games.mu.params import MuParams
from musim.games.mueckenstich import simulate as mueckenstich
from musim.games.panther import simulate as panther
from musim.games.rummue import simulate as rummue
from musim.games.safarue import simulate as safarue
from musim.games.wimmueln import simulate as wimmueln
from musim.games.zwickern import simulate as zwickern
for sim in (panther, wimmueln, mueckenstich, rummue, zwickern):
    sim.simulate_deals(4, 1, "heuristic", 0, 2)
    sim.simulate_matches(4, 1, "heuristic", 0, 2)
safarue.simulate_deals(4, 1, "heuristic", 0, 2)  # a game per row and no matches; both variants, one compilation
safarue.simulate_deals(4, 1, "heuristic", 0, 2, reverse=True)
calcory.simulate_deals(4, 1, "heuristic", 0, 2, memory=0.5)
danger.simulate_deals(4, 1, "heuristic", 0, 2, copies=2)
mu.simulate_deal_chunk(MuParams(4), 1, 0, 2)
mu.simulate_match_chunk(MuParams(4, goal=100), 1, 0, 2)
print(json.dumps({k.__name__: [sum(k.stats.cache_hits.values()), sum(k.stats.cache_misses.values())]
                  for k in (drivers.simulate_chunk, drivers.simulate_match_chunk)}))
"""


def _hits_and_misses():
    out = subprocess.run([sys.executable, "-c", RUN], capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


def test_the_drivers_load_from_the_cache_for_every_game():
    _hits_and_misses()  # compiles what is not cached yet
    assert _hits_and_misses() == {"simulate_chunk": [9, 0], "simulate_match_chunk": [6, 0]}


@flat_kernel(inline="always")
def _inlined(n, dealer, seat_policy, state, out, ws):
    out.scores[0] = 1


def test_a_deal_kernel_may_not_be_inlined():
    """numba dropped writes of an inlined deal kernel into a run's row views: register refuses one."""
    with pytest.raises(ValueError, match="_inlined"):
        drivers.register(namedtuple("Workspace", "rng deal"), play=_inlined)
