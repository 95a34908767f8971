"""`--play search-uniform` is the first search player unchanged: small runs of it write the rows
and result keys that `--play search` wrote before issue 61 (tests/golden/search_uniform/, made at
commit c070e84 by scripts/make_search_uniform_golden.py), and the second player's runs carry its
version in their keys."""

import importlib.util
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from musim.engine.run import run_key
from musim.engine.seats import SEARCH_PLAYER_VERSION, play_key
from musim.engine.spec import RunSpec, checked
from musim.play.search_budget import EXACT_TRICKS

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("golden", ROOT / "scripts" / "make_search_uniform_golden.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)
KEYS = json.loads(golden.KEYS.read_text())


@pytest.mark.slow  # compiles every game's whole search deal driver
@pytest.mark.parametrize("case", sorted(golden.CASES))
def test_search_uniform_writes_the_rows_and_keys_of_the_first_search_player(case):
    table, key = golden.run(case, "search-uniform")
    old = pq.read_table(golden.GOLDEN / f"{case}.parquet")
    assert table.column_names == old.column_names
    for name in old.column_names:
        assert table[name].to_pylist() == old[name].to_pylist(), f"{case}: column {name} differs"
    assert key == KEYS[case]


def _key(play, **options):
    spec = RunSpec(game="mu", mode="deals", count=10, players=4, play=play, seed=1, options=options)
    return run_key(spec, checked(spec))["params"]


def test_a_search_seat_puts_the_players_version_in_the_key_and_search_uniform_keys_as_before():
    assert _key("search")["search_player"] == SEARCH_PLAYER_VERSION
    assert "search_player" not in _key("search-uniform")
    second = {k: v for k, v in _key("search").items() if k != "search_player"}
    assert second["options"].pop("search_weights").startswith("v1@")  # its weighted worlds' parameters
    assert second == _key("search-uniform")
    assert play_key("search-uniform,heuristic") == {"play": "search,heuristic"}
    mixed = "search,search-uniform,heuristic"
    assert play_key(mixed) == {"play": mixed, "search_player": SEARCH_PLAYER_VERSION}
    assert play_key("heuristic") == {"play": "heuristic"}


def test_exact_endgames_enter_the_key_only_away_from_their_default():
    default = EXACT_TRICKS.default
    assert "search_exact_tricks" not in _key("search", search_exact_tricks=default)["options"]
    assert _key("search", search_exact_tricks=default + 1)["options"]["search_exact_tricks"] == default + 1
