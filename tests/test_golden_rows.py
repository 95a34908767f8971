"""Rows change only with a result-version bump: the golden runs (scripts/make_golden_rows.py) again.

Each golden file holds the rows a small fixed-seed `musim run` wrote under the stored
RESULT_VERSION; the same command now must write the same values (column types aside, and
`*_ms` wall-clock columns left out), or the version must have moved on.
"""

import dataclasses
import importlib
import importlib.util
import json
import math
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from musim.games import GAMES, get_game

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("make_golden_rows", ROOT / "scripts" / "make_golden_rows.py")
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)
MANIFEST = json.loads(make.MANIFEST.read_text())
REGENERATE = "regenerate them with `python scripts/make_golden_rows.py`"
SHOWN = 5  # differing rows named per column


def _same(a, b):
    """Equal values, NaN equal to NaN, at any depth of lists."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def differences(golden, now):
    """Lines saying which columns were added or dropped and at which rows columns differ."""
    lines = []
    added, dropped = set(now.column_names) - set(golden.column_names), set(golden.column_names) - set(now.column_names)
    if added or dropped:
        lines.append(f"columns added {sorted(added)}, dropped {sorted(dropped)}")
    if golden.num_rows != now.num_rows:
        lines.append(f"{now.num_rows} rows instead of {golden.num_rows}")
    for name in [c for c in golden.column_names if c in now.column_names]:
        old, new = golden[name].to_pylist(), now[name].to_pylist()
        rows = [i for i, (a, b) in enumerate(zip(old, new)) if not _same(a, b)]
        if rows:
            i = rows[0]
            lines.append(f"{name}: {len(rows)} rows differ, {rows[:SHOWN]}...; row {i} was {old[i]!r}, is {new[i]!r}")
    return lines


def _check_manifest():
    """Fails, saying to regenerate, if the golden runs are not those of this version and script."""
    version = get_game(MANIFEST["game"]).result_version
    assert MANIFEST["result_version"] == version, (
        f"the golden rows were made under {MANIFEST['game']} result version {MANIFEST['result_version']} "
        f"and the code is at {version}: {REGENERATE}"
    )
    script = {name: list(args) for name, args in make.CASES.items()}
    assert (MANIFEST["common"], MANIFEST["cases"]) == (list(make.COMMON), script), f"the script changed: {REGENERATE}"


def test_the_golden_runs_are_those_of_this_version_and_script():
    _check_manifest()


@pytest.mark.parametrize("case", sorted(MANIFEST["cases"]))
def test_rows_change_only_with_a_result_version_bump(case):
    _check_manifest()
    golden = pq.read_table(make.GOLDEN / f"{case}.parquet")
    diff = differences(golden, make.rows(MANIFEST["cases"][case]))
    assert not diff, (
        f"{case}: rows changed without a result-version bump ({MANIFEST['game']} RESULT_VERSION "
        f"{MANIFEST['result_version']}); if the change is meant, bump it and {REGENERATE}:\n  " + "\n  ".join(diff)
    )


def test_a_changed_value_or_column_is_reported():
    golden = pq.read_table(make.GOLDEN / "deals-heuristic-3p.parquet")
    dealer = [(d + 1) % 3 for d in golden["dealer"].to_pylist()]
    changed = golden.set_column(golden.column_names.index("dealer"), "dealer", [dealer])
    diff = differences(golden, changed.drop_columns(["target"]))
    assert diff[0] == "columns added [], dropped ['target']"
    assert diff[1].startswith(f"dealer: {golden.num_rows} rows differ, [0, 1, 2, 3, 4]...")
    assert len(diff) == 2 and not differences(golden, golden)


def test_another_result_version_asks_for_new_golden_rows(monkeypatch):
    module = importlib.import_module(GAMES[MANIFEST["game"]])
    bumped = dataclasses.replace(module.GAME, result_version=MANIFEST["result_version"] + 1)
    monkeypatch.setattr(module, "GAME", bumped)
    with pytest.raises(AssertionError, match=r"made under mu result version .* regenerate them with"):
        _check_manifest()
