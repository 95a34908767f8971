"""`musim solve --node-limit N` and `musim run --play dd --node-limit N`: a position or deal whose
solve passes the limit reports the bounds it proved, which hold the value an unlimited solve
finds; one solved within it is answered (its row written) as without a limit."""

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import musim
from musim.cli import cli
from musim.engine.parquet import read_metadata
from musim.games.bridge.solve import random_pbn
from musim.solver.version import SEARCH_VERSION

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
POSITIONS = (EXAMPLES / "mu-positions.jsonl", EXAMPLES / "trick-positions.jsonl")


def positions():
    """The example positions of Mü and the games scored per seat (namers included), and small
    bridge endings: JSON Lines text."""
    lines = [line for path in POSITIONS for line in path.read_text().splitlines() if line.strip()]
    rng = random.Random(51)
    lines += [json.dumps({"game": "bridge", "pbn": random_pbn(rng, 5), "trump": t, "leader": "N"}) for t in ("S", "NT")]
    return "\n".join(lines) + "\n"


def solve(text, *args):
    res = CliRunner().invoke(cli, ["solve", "--all-moves", *args, "-"], input=text)
    assert res.exit_code == 0, res.output
    return res.output.splitlines()


def holds(answer, value):
    """Does an answer's value, or a move's entry, say `value` (exactly, or within its bounds)?"""
    if isinstance(answer, int):
        return answer == value
    if answer.get("value") is not None:
        return answer.get("lo") is None and answer["value"] == value
    return answer["lo"] < answer["hi"] and answer["lo"] <= value <= answer["hi"]


@pytest.fixture(scope="module")
def exact():
    text = positions()
    return text, solve(text)


@pytest.mark.parametrize("limit", ["5", "30"])
def test_a_position_past_the_limit_answers_bounds_that_hold_its_value(exact, limit):
    text, lines = exact
    limited = solve(text, "--node-limit", limit)
    undecided = decided = 0
    for line, bounded in zip(lines, limited, strict=True):
        full, part = json.loads(line), json.loads(bounded)
        assert holds(part, full["value"]), (line, bounded)
        assert part.keys() - {"lo", "hi"} == full.keys()
        assert part["moves"].keys() == full["moves"].keys()
        for card, value in full["moves"].items():
            assert holds(part["moves"][card], value), (card, line, bounded)
        if part["value"] is None:
            undecided += 1
        elif bounded == line:
            decided += 1
    assert undecided and decided  # the limit leaves some positions open and decides others


def test_a_limit_no_solve_reaches_changes_no_answer(exact):
    text, lines = exact
    assert solve(text, "--node-limit", "1e9") == lines


@pytest.mark.parametrize("command", [["solve", "-"], ["run", "--deals", "1", "--players", "3", "--play", "dd"]])
@pytest.mark.parametrize("value", ["0", "-3", "many", "1.5"])
def test_a_bad_node_limit_is_refused(command, value):
    """(One line from the real entry point: tests/test_bad_inputs.py.)"""
    res = CliRunner().invoke(cli, [*command, f"--node-limit={value}"], input="")
    assert res.exit_code == 2 and f"Invalid value for '--node-limit': '{value}'" in res.output


@pytest.mark.parametrize(
    "args",
    [
        ["--deals", "1", "--play", "heuristic"],
        ["--matches", "1", "--play", "dd,heuristic,dd"],
        ["--matches", "1", "--play", "dd"],
        ["--deals", "1", "--play", "dd", "--dd-tricks", "2"],
        ["--deals", "1", "--play", "dd,heuristic,dd", "--dd-tricks", "2"],
    ],
)
def test_a_run_takes_a_node_limit_only_under_dd_play_over_deals_of_every_trick(args, tmp_path):
    """dd at every seat or at some: the rows account for the limit (deal rows only, every trick)."""
    out = tmp_path / "x.parquet"
    res = CliRunner().invoke(cli, ["run", "--players", "3", *args, "--node-limit", "100", "--out", str(out)])
    assert res.exit_code == 2 and " applies only with " in res.output and "Traceback" not in res.output
    assert not out.exists()


def test_the_node_limit_says_both_its_meanings():
    res = CliRunner().invoke(cli, ["run", "--game", "mu", "--help"], terminal_width=200)
    text = " ".join(res.output.split())
    assert "With --play dd at every seat: a deal whose solve takes more than N nodes" in text
    assert "With dd at some seats only: each search of a dd card's choice takes at most N nodes" in text


def seat_run(tmp_path, name, *extra):
    """A Mü run of 3 deals with dd at one seat of 3."""
    out = tmp_path / f"{name}.parquet"
    args = ["run", "--game", "mu", "--players", "3", "--deals", "3", "--play", "dd,heuristic,heuristic"]
    res = CliRunner().invoke(cli, [*args, "--seed", "2", "--tt-mb", "16", *extra, "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out, musim.read_run(out)


@pytest.mark.slow  # compiles Mü's dd play at some seats (about two minutes)
def test_dd_at_some_seats_under_a_node_limit_counts_the_cards_chosen_by_bounds(tmp_path):
    _, full = seat_run(tmp_path, "full", "--workers", "1")
    small_out, small = seat_run(tmp_path, "small", "--workers", "1", "--node-limit", "200")
    _, large = seat_run(tmp_path, "large", "--workers", "2", "--node-limit", "1e9")
    same = [c for c in full.columns if c != "solve_ms"]
    assert "dd_cards_limited" not in full and "dd_low" not in large  # no start solve to bound
    assert list(large.columns) == [*full.columns, "dd_cards_limited"]
    assert (large.dd_cards_limited == 0).all()
    assert large[same].astype(str).equals(full[same].astype(str))
    # the dd seat plays one card in each of the 12 tricks: at 200 nodes some searches give up
    assert (small.dd_cards_limited > 0).any() and (small.dd_cards_limited <= 12).all()
    assert (small.dd_cards_limited[small.outcome == "eklat"] == 0).all()
    assert read_metadata(small_out)["params"]["options"]["node_limit"] == 200
    assert small.hands.astype(str).equals(full.hands.astype(str))
    # other workers, the same rows; the record of a limited deal replays the run's cards
    _, again = seat_run(tmp_path, "again", "--workers", "2", "--node-limit", "200")
    assert again[[*same, "dd_cards_limited"]].astype(str).equals(small[[*same, "dd_cards_limited"]].astype(str))
    deal = int(small.dd_cards_limited.idxmax())
    record = CliRunner().invoke(cli, ["record", str(small_out), "--deal", str(deal)])
    assert record.exit_code == 0, record.output
    replayed = CliRunner().invoke(cli, ["replay", "-"], input=record.output)
    assert json.loads(replayed.output)["team_points"] == small.team_points[deal]


def test_a_limited_run_bounds_each_deal_by_its_unlimited_value(tmp_path):
    common = ["run", "--game", "mu", "--deals", "6", "--players", "3", "--play", "dd", "--seed", "11"]
    common += ["--workers", "1", "--tt-mb", "16"]
    runs = {}
    for name, extra in (("full", []), ("limited", ["--node-limit", "2e4"])):
        out = tmp_path / f"{name}.parquet"
        res = CliRunner().invoke(cli, [*common, *extra, "--out", str(out)])
        assert res.exit_code == 0, res.output
        runs[name] = musim.read_run(out)
        runs[name + "_options"] = read_metadata(out)["params"]["options"]
    full, limited = runs["full"], runs["limited"]
    assert "dd_low" not in full and "node_limit" not in runs["full_options"]
    assert runs["limited_options"]["node_limit"] == 20000
    assert ((limited.dd_low <= full.dd_value) & (full.dd_value <= limited.dd_high)).all()
    solved = limited.dd_low == limited.dd_high
    assert solved.any() and not solved.all()  # the limit leaves some deals open and solves others
    assert limited.dd_value[~solved].isna().all()
    assert (limited.dd_value[solved] == full.dd_value[solved]).all()
    same = [c for c in full.columns if c != "solve_ms"]
    assert limited.loc[solved, same].astype(str).equals(full.loc[solved, same].astype(str))


def test_the_record_of_a_deal_past_the_limit_replays_to_its_row(tmp_path):
    out = tmp_path / "limited.parquet"
    args = ["run", "--deals", "1", "--players", "3", "--play", "dd", "--seed", "11", "--workers", "1"]
    res = CliRunner().invoke(cli, [*args, "--tt-mb", "16", "--node-limit", "2e4", "--out", str(out)])
    assert res.exit_code == 0, res.output
    row = musim.read_run(out).iloc[0]
    assert row.dd_low < row.dd_high  # played by the heuristic
    record = CliRunner().invoke(cli, ["record", str(out), "--deal", "0"])
    assert record.exit_code == 0, record.output
    replayed = CliRunner().invoke(cli, ["replay", "-"], input=record.output)
    assert json.loads(replayed.output)["team_points"] == row.team_points


@pytest.mark.slow  # compiles the counting search apart
def test_stats_under_a_node_limit_count_each_solve_and_leave_stdout_alone(exact):
    text, _ = exact
    res = CliRunner().invoke(cli, ["solve", "--all-moves", "--stats", "--node-limit", "5", "-"], input=text)
    assert res.exit_code == 0
    stats = [json.loads(line[len("stats ") :]) for line in res.stderr.splitlines() if line.startswith("stats ")]
    assert [s["item"] for s in stats] == list(range(len(text.splitlines())))
    assert res.stdout.splitlines() == solve(text, "--node-limit", "5")
    assert any(s["gave_up"] for s in stats)


def test_the_node_limit_and_then_the_table_size_name_a_runs_rows(monkeypatch):
    """Under a node limit the key holds the table size and the search's version (which deals give
    up depends on both); without one, neither."""
    from musim.engine.key import result_key
    from musim.engine.run import default_out, run_key
    from musim.engine.spec import RunSpec, checked

    def key_and_name(tt_mb, **options):
        spec = RunSpec("mu", "deals", 10, 4, "dd", seed=1, tt_mb=tt_mb, options=options)
        game = checked(spec)
        return run_key(spec, game), default_out(spec, game)

    params = dict(mode="deals", count=10, players=4, play="dd", seed=1)
    key, name = key_and_name(16)
    assert key == result_key("mu", params | {"options": {"goal": 200, "dd_tricks": 0}}) == key_and_name(32)[0]
    assert name.endswith("mu-4p-dd-seed1")
    limited, limited_name = key_and_name(16, node_limit=10**6)
    options = {"goal": 200, "dd_tricks": 0, "node_limit": 10**6}
    assert limited == result_key("mu", params | {"tt_mb": 16, "search": SEARCH_VERSION, "options": options})
    assert limited != key_and_name(32, node_limit=10**6)[0]
    monkeypatch.setattr("musim.solver.version.SEARCH_VERSION", SEARCH_VERSION + 1)
    assert key_and_name(16, node_limit=10**6)[0] != limited and key_and_name(16)[0] == key
    assert limited_name.endswith("mu-4p-dd-node-limit1000000-seed1")
