"""The one option and the one file format of the search player's world weights in every game
(musim/play/world_weights.py): each shipped file reads, names the command that fits it and is
written again byte for byte from what it holds; a bad file is refused in one line; a `search`
run's key names the parameters, another run's does not; a file given as `--search-weights` is
the one a trick game's search seats play by, and its key names it; the scripts refuse in one
line what they cannot do."""

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.engine.errors import SpecError
from musim.engine.run import run_key
from musim.engine.spec import RunSpec, checked
from musim.games import beliefs_hook, get_game, weighted_games
from musim.games.mueckenstich import policies
from musim.games.mueckenstich import search as msearch
from musim.io import arrays_file
from musim.play import world_weights as ww

GAMES = ("mu", "mueckenstich", "panther", "wimmueln")
SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def script(name):
    """The module of scripts/<name>.py."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def weights_of(game):
    return beliefs_hook(game).weights


def test_the_games_with_weighted_worlds_declare_the_one_option_and_their_own_parameters():
    assert weighted_games() == list(GAMES)
    for game in GAMES:
        assert get_game(game).option("search_weights") is ww.OPTION
        assert weights_of(game).game == game


@pytest.mark.parametrize("game", GAMES)
def test_a_shipped_file_reads_names_its_fit_and_is_written_again_byte_for_byte(game, tmp_path):
    weights = weights_of(game)
    params, meta = ww.read(ww.path_of(weights), weights)
    assert params.shape == weights.shape and meta["game"] == game
    assert meta["command"].startswith(f"python scripts/fit_world_weights.py --game {game} --seed 61 ")
    assert ww.resolve(weights, "") == (f"v1@{ww.digest(params)[:8]}", pytest.approx(params))
    again = tmp_path / "again.npz"
    ww.save(again, weights, params, {k: v for k, v in meta.items() if k not in ("format", "game", "params_sha256")})
    assert again.read_bytes() == ww.path_of(weights).read_bytes()


def test_a_bad_file_is_refused_naming_its_fault(tmp_path):
    wimmueln, panther = weights_of("wimmueln"), weights_of("panther")
    good = tmp_path / "good.npz"
    shutil.copy(ww.path_of(wimmueln), good)
    cases = [
        (panther, good, "another format or game"),
        (ww.Weights("wimmueln", ("eps",)), good, r"parameters \['estimate_decay', 'departure'\] \(2,\), not"),
    ]
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    cases.append((wimmueln, bad, "not a readable world weights file"))
    corrupted, outside = tmp_path / "corrupted.npz", tmp_path / "outside.npz"
    meta = {"format": 1, "game": "wimmueln", "version": 1, "params_sha256": ww.digest([0.9, 0.5])}
    names = np.array(list(wimmueln.names))
    arrays_file.write(corrupted, {"params": np.array([0.9, 0.4]), "names": names}, meta)
    cases.append((wimmueln, corrupted, "do not match their digest"))
    arrays_file.write(
        outside, {"params": np.array([0.9, 1.5]), "names": names}, {**meta, "params_sha256": ww.digest([0.9, 1.5])}
    )
    cases.append((wimmueln, outside, r"departure outside \(0, 1\)"))
    for weights, path, fault in cases:
        with pytest.raises(ww.WeightsError, match=fault):
            ww.read(path, weights)
    with pytest.raises(ww.WeightsError, match=r"departure outside \(0, 1\)"):
        ww.save(tmp_path / "never.npz", wimmueln, [0.9, 1.5], {"version": 1})
    assert not (tmp_path / "never.npz").exists()


@pytest.mark.parametrize("game", GAMES)
def test_the_parameters_are_named_in_the_key_of_search_runs_only(game):
    def options(play, **given):
        spec = RunSpec(game, "deals", 10, 4, play, seed=1, options=given)
        return run_key(spec, checked(spec))["params"]["options"]

    ident = ww.resolve(weights_of(game), "")[0]
    assert options("heuristic,search,heuristic,heuristic")["search_weights"] == ident
    assert options("search", search_weights="v1")["search_weights"] == ident
    assert options("search", search_weights=ident)["search_weights"] == ident
    assert "search_weights" not in options("search-uniform")
    with pytest.raises(SpecError, match="only with --play search"):
        options("heuristic", search_weights="v1")
    with pytest.raises(SpecError, match="one of v1 or a model file"):
        options("search", search_weights="v2")


def test_a_file_value_is_keyed_by_its_path_and_digest_and_refused_when_it_changed(tmp_path):
    weights = weights_of("mueckenstich")
    mine = tmp_path / "mine.npz"
    ww.save(mine, weights, [0.05], {"version": 1})
    ident = f"{mine}@{ww.digest([0.05])[:8]}"
    spec = RunSpec("mueckenstich", "deals", 10, 4, "search", seed=1, options={"search_weights": str(mine)})
    assert run_key(spec, checked(spec))["params"]["options"]["search_weights"] == ident
    assert list(msearch.make_context(8, (policies.SEARCH,), weights=ident).params) == [0.0, 0.05]
    ww.save(mine, weights, [0.06], {"version": 1})
    ww.resolve.cache_clear()
    with pytest.raises(ww.WeightsError, match="the model there is"):
        checked(RunSpec("mueckenstich", "deals", 10, 4, "search", seed=1, options={"search_weights": ident}))


@pytest.mark.slow  # compiles Mückenstich's search player
def test_a_trick_game_plays_by_the_file_its_search_weights_name(tmp_path):
    weights = weights_of("mueckenstich")
    copy, other = tmp_path / "copy.npz", tmp_path / "other.npz"
    shutil.copy(ww.path_of(weights), copy)
    ww.save(other, weights, [0.01], {"version": 1})

    def rows(*extra):
        out = tmp_path / f"run{len(list(tmp_path.iterdir()))}"
        args = [
            "run",
            "--game",
            "mueckenstich",
            "--play",
            "search,heuristic,heuristic,heuristic",
            "--deals",
            "12",
            "--workers",
            "1",
        ]
        res = CliRunner().invoke(cli, [*args, "--seed", "3", "--search-worlds", "8", *extra, "--out", str(out)])
        assert res.exit_code == 0, res.output
        table = pq.read_table(out)
        return table.drop([name for name in table.column_names if name.endswith("_ms")]).to_pydict()

    shipped = rows()
    assert rows("--search-weights", str(copy)) == shipped
    assert rows("--search-weights", str(other)) != shipped


@pytest.mark.parametrize(
    "name, args, said",
    [
        ("fit_world_weights", ["--game", "mu", "--seed", "2027"], "an evaluation seed"),
        ("fit_world_weights", ["--game", "panther", "--seed", "61", "--players", "3,4"], "one count within 3..8"),
        ("fit_world_weights", ["--game", "mu", "--seed", "61", "--players", "7"], "counts within 3..6"),
        ("calibrate_worlds", ["--game", "wimmueln", "--seed", "61"], "--seed 61 fitted the parameters"),
    ],
)
def test_the_scripts_refuse_what_they_cannot_do_in_one_line(name, args, said):
    with pytest.raises(SystemExit, match=said):
        script(name).main(args)


def test_a_games_own_calibration_option_is_its_alone(capsys):
    args = ["--seed", "1", "--deals", "0", "--auction", "bold"]  # --deals 0: refused once parsed
    with pytest.raises(SystemExit, match="at least 1"):
        script("calibrate_worlds").main(["--game", "mu", *args])
    with pytest.raises(SystemExit):
        script("calibrate_worlds").main(["--game", "wimmueln", *args])
    assert "unrecognized arguments: --auction bold" in capsys.readouterr().err
