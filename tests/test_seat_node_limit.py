"""`musim run --play dd --node-limit N` for the games whose dd play solves each card (The Last
Panther, Wimmüln, Mückenstich): a card whose search gives up is chosen by its moves' proved
bounds and counted in `dd_cards_limited`; a limit no search reaches changes no row."""

import json

import pytest
from click.testing import CliRunner

import musim
from musim.cli import cli
from musim.engine.parquet import read_metadata
from musim.solver.version import SEARCH_VERSION

SEAT_GAMES = ("panther", "wimmueln", "mueckenstich")


def invoke(*args, **kwargs):
    return CliRunner().invoke(cli, [str(a) for a in args], **kwargs)


@pytest.mark.parametrize("game", SEAT_GAMES)
@pytest.mark.parametrize("value", ["0", "-3", "abc", "1.5"])
def test_a_bad_node_limit_is_refused_in_one_line(game, value, tmp_path):
    out = tmp_path / "x.parquet"
    res = invoke(
        "run", "--game", game, "--deals", 1, "--players", 6, "--play", "dd", f"--node-limit={value}", "--out", out
    )
    assert res.exit_code == 2 and f"Invalid value for '--node-limit': '{value}'" in res.output
    assert "Traceback" not in res.output and not out.exists()


@pytest.mark.parametrize("game", SEAT_GAMES)
@pytest.mark.parametrize("args", [["--deals", 1, "--play", "heuristic"], ["--matches", 1, "--play", "dd"]])
def test_a_node_limit_needs_dd_play_and_deals(game, args, tmp_path):
    out = tmp_path / "x.parquet"
    res = invoke("run", "--game", game, "--players", 6, *args, "--node-limit", 1000, "--out", out)
    assert res.exit_code == 2, res.output
    assert "--node-limit applies only with --deals and --play dd" in res.output and not out.exists()
    assert "Traceback" not in res.output


@pytest.mark.parametrize("game", SEAT_GAMES)
def test_the_node_limit_names_and_keys_a_run_only_when_given(game):
    """Under a node limit the key holds the table size and the search's version (which cards
    give up depends on both) and the name the limit; without one, the key and name of before."""
    from musim.engine.key import result_key
    from musim.engine.run import default_out, run_key
    from musim.engine.spec import RunSpec, checked

    def key_and_name(tt_mb, **options):
        spec = RunSpec(game, "deals", 10, 4, "dd,heuristic,heuristic,heuristic", seed=1, tt_mb=tt_mb, options=options)
        checked_game = checked(spec)
        return run_key(spec, checked_game), default_out(spec, checked_game)

    params = dict(mode="deals", count=10, players=4, play="dd,heuristic,heuristic,heuristic", seed=1)
    key, name = key_and_name(16)
    assert key == result_key(game, params | {"options": {}}) == key_and_name(32)[0]
    assert name.endswith(f"{game}-4p-dd,heuristic,heuristic,heuristic-seed1")
    limited, limited_name = key_and_name(16, node_limit=10**6)
    expected = params | {"tt_mb": 16, "search": SEARCH_VERSION, "options": {"node_limit": 10**6}}
    assert limited == result_key(game, expected) != key_and_name(32, node_limit=10**6)[0]
    assert limited_name.endswith(f"{game}-4p-dd,heuristic,heuristic,heuristic-node-limit1000000-seed1")


def run(tmp_path, name, *extra):
    out = tmp_path / f"{name}.parquet"
    play = ",".join(["dd"] + ["heuristic"] * 5)
    res = invoke(
        "run", "--game", "wimmueln", "--players", 6, "--deals", 3, "--play", play, "--seed", 2,
        "--tt-mb", 16, *extra, "--out", out,
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    return out, musim.read_run(out)


@pytest.mark.slow  # compiles Wimmüln's exact play (about a minute) and solves the dd seat's cards
def test_a_limited_dd_run_counts_the_cards_past_the_limit_and_a_limit_never_reached_changes_nothing(tmp_path):
    _, full = run(tmp_path, "full", "--workers", 1)
    small_out, small = run(tmp_path, "small", "--workers", 1, "--node-limit", 200)
    _, large = run(tmp_path, "large", "--workers", 2, "--node-limit", "1e9")
    assert "dd_cards_limited" not in full
    assert list(large.columns) == [*full.columns, "dd_cards_limited"]
    assert (large.dd_cards_limited == 0).all()
    assert large.drop(columns="dd_cards_limited").astype(str).equals(full.astype(str))
    # the dd seat plays a card in each of the 6-player deal's 8 tricks: some searches give up at 200 nodes
    assert ((small.dd_cards_limited > 0) & (small.dd_cards_limited <= 8)).all()
    assert read_metadata(small_out)["params"]["options"] == {"node_limit": 200}
    assert small.hands.astype(str).equals(full.hands.astype(str))
    # other workers, the same rows; the record of a limited deal replays the run's cards
    _, again = run(tmp_path, "again", "--workers", 2, "--node-limit", 200)
    assert again.astype(str).equals(small.astype(str))
    record = invoke("record", small_out, "--deal", 1)
    assert record.exit_code == 0, record.output
    replayed = invoke("replay", "-", input=record.output)
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["scores"] == [int(small[f"score_{s}"][1]) for s in range(6)]
