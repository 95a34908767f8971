"""The result key (musim/engine/key.py): what it holds, and that a source edit leaves it alone."""

import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import musim
from musim.engine import key as key_module
from musim.engine.checkpoint import Checkpoint
from musim.engine.key import key_hash, result_key
from musim.games import mu

PARAMS = {"job": "balance-deals", "players": 4, "seed": 7, "play": "dd", "dd_tricks": 0}
SHOW_HASH = "from musim.engine.key import key_hash, result_key; print(key_hash(result_key('mu', {params!r})))"


def test_the_key_names_game_result_version_params_and_dependency_versions():
    import numba

    k = result_key("mu", PARAMS)
    assert k == {
        "game": "mu",
        "result_version": mu.RESULT_VERSION,
        "params": PARAMS,
        "versions": {
            "numba": numba.__version__,
            "numpy": np.__version__,
            "python": f"{sys.version_info.major}.{sys.version_info.minor}",
        },
    }


def test_the_hash_changes_with_every_param_the_result_version_and_a_dependency_version(monkeypatch):
    base = key_hash(result_key("mu", PARAMS))
    assert key_hash(result_key("mu", dict(reversed(PARAMS.items())))) == base  # order is not part of it
    for name, other in [("players", 5), ("seed", 8), ("play", "heuristic"), ("dd_tricks", 3), ("job", "x")]:
        assert key_hash(result_key("mu", {**PARAMS, name: other})) != base, name
    assert key_hash(result_key("mu", {**PARAMS, "node_limit": 10})) != base
    monkeypatch.setattr(mu, "GAME", dataclasses.replace(mu.GAME, result_version=mu.RESULT_VERSION + 1))
    assert key_hash(result_key("mu", PARAMS)) != base
    monkeypatch.undo()
    for dep in ("numba", "numpy", "python"):
        versions = {**key_module.dependency_versions(), dep: "0.0"}
        monkeypatch.setattr(key_module, "dependency_versions", lambda v=versions: v)
        assert key_hash(result_key("mu", PARAMS)) != base, dep
    monkeypatch.undo()
    assert key_hash(result_key("mu", PARAMS)) == base


def test_the_hash_is_the_same_in_another_process_and_after_a_source_edit(tmp_path):
    """A copy of the package with a docstring edited in every module keys results as before."""
    here = subprocess.run([sys.executable, "-c", SHOW_HASH.format(params=PARAMS)], capture_output=True, text=True)
    assert here.stdout.strip() == key_hash(result_key("mu", PARAMS))
    src = Path(musim.__file__).parent
    shutil.copytree(src, tmp_path / "musim", ignore=shutil.ignore_patterns("__pycache__", "*.nb*"))
    for path in (tmp_path / "musim").rglob("*.py"):
        path.write_text('"""An edited docstring."""\n' + path.read_text())
    edited = subprocess.run(
        [sys.executable, "-c", "import musim; print(musim.__file__)\n" + SHOW_HASH.format(params=PARAMS)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    where, hashed = edited.stdout.split()
    assert Path(where).parent == tmp_path / "musim"  # the edited copy was the one imported
    assert hashed == here.stdout.strip()


def test_a_checkpoint_directory_is_named_by_the_hash_and_holds_its_key(tmp_path):
    k = result_key("mu", PARAMS)
    ck = Checkpoint(str(tmp_path), k)
    ck.save(0, 2, {"a": np.arange(2)})
    assert Path(ck.dir) == tmp_path / key_hash(k)
    assert json.loads((tmp_path / key_hash(k) / "key.json").read_text()) == k
    assert (Checkpoint(str(tmp_path), k).load(0, 2)["a"] == np.arange(2)).all()
