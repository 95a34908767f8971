"""Batches that never abort and commands that end as they should (docs/examples/README.md
"Batches"): a line nested too deeply or holding too long an integer, an answer that cannot be
serialised, an unexpected error while one line is handled, and a legal
record whose table has more moves than the kernels' first room each get their line's answer while
the batch goes on; `summary` into a closed pipe ends quietly; `solve --stats` reports numba's
compiling apart from the solve; NUMBA_CACHE_DIR keeps the cache in its source-digest folder."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.compile import cache as _cache
from musim.core.deck import ZWICKERN

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
ZWICKERN_RECORD = (EXAMPLES / "zwickern-records.jsonl").read_text().splitlines()[0]


def musim(*args, text="", env=None):
    """The real entry point on `text`: (exit code, answer objects, stderr)."""
    res = subprocess.run(
        [sys.executable, "-m", "musim", *args], input=text, capture_output=True, text=True, env=env, timeout=900
    )
    return res.returncode, [json.loads(line) for line in res.stdout.splitlines()], res.stderr


def test_a_line_nested_too_deeply_is_its_own_error_and_the_batch_goes_on():
    nested = "[" * 990 + "]" * 990
    code, answers, err = musim("replay", "-", text=f"{nested}\n{ZWICKERN_RECORD}\n")
    assert code == 1 and err == ""
    assert answers[0] == {"error": "line 1: JSON nested too deeply"} and "scores" in answers[1]


def test_an_unexpected_error_while_handling_a_line_becomes_that_lines_error(monkeypatch):
    def replay(obj):
        if obj["n"] == 1:
            raise ZeroDivisionError("division by zero\nsecond line")
        return {"n": obj["n"]}

    monkeypatch.setattr("musim.cli.commands._item_game", lambda *args: SimpleNamespace(replay=replay))
    res = CliRunner().invoke(cli, ["replay", "-"], input='{"n": 0}\n{"n": 1}\n{"n": 2}\n')
    answers = [json.loads(line) for line in res.stdout.splitlines()]
    assert res.exit_code == 1
    assert answers == [{"n": 0}, {"error": "ZeroDivisionError: division by zero"}, {"n": 2}]


def test_an_integer_too_long_for_python_is_its_lines_error_and_the_batch_goes_on():
    huge = '{"dealer": ' + "1" * 5000 + "}"  # json.loads raises ValueError past 4,300 digits
    code, answers, err = musim("replay", "-", text=f"{huge}\n{ZWICKERN_RECORD}\n")
    assert code == 1 and err == "" and len(answers) == 2
    assert answers[0]["error"].startswith("line 1: unreadable JSON (ValueError: ") and "scores" in answers[1]


def test_an_answer_that_cannot_be_serialised_becomes_that_lines_error(monkeypatch):
    answers = {0: {"n": 10**5000}, 1: {"n": {1, 2}}, 2: {"n": 2}}  # too long an int; a set
    monkeypatch.setattr(
        "musim.cli.commands._item_game", lambda *args: SimpleNamespace(replay=lambda obj: answers[obj["n"]])
    )
    res = CliRunner().invoke(cli, ["replay", "-"], input='{"n": 0}\n{"n": 1}\n{"n": 2}\n')
    lines = [json.loads(line) for line in res.stdout.splitlines()]
    assert res.exit_code == 1
    assert lines[0]["error"].startswith("ValueError: ") and lines[1]["error"].startswith("TypeError: ")
    assert lines[2] == {"n": 2}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "run"
    args = ["run", "--game", "zwickern", "--deals", "20", "--seed", "1", "--no-progress", "--out", str(out)]
    subprocess.run([sys.executable, "-m", "musim", *args], capture_output=True, check=True, timeout=900)
    return out


@pytest.mark.parametrize("reader", ["head -1", "true"])  # true closes the pipe before musim writes
def test_summary_into_a_closed_pipe_ends_quietly(run_dir, reader):
    script = f'"{sys.executable}" -m musim summary "{run_dir}" 2>"{run_dir}.err" | {reader}; echo "${{PIPESTATUS[0]}}"'
    res = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=300)
    assert res.stdout.splitlines()[-1] == "0"
    assert Path(f"{run_dir}.err").read_text() == ""


def test_solve_stats_report_numba_compiling_apart_from_the_solve(monkeypatch):
    from numba import njit

    search = 0.25

    def solve(obj, all_moves, node_limit):
        njit(lambda x: x + 1)(obj["n"])  # a kernel compiled on its first call, as the search is
        time.sleep(search)
        return {"value": obj["n"]}

    st = SimpleNamespace(stats=np.zeros(5, np.int64), counts=None)
    game = SimpleNamespace(name="fake", solver=lambda tt, counting: SimpleNamespace(st=st, solve=solve))
    monkeypatch.setattr("musim.cli.commands._item_game", lambda *args: game)
    res = CliRunner().invoke(cli, ["solve", "--stats", "-"], input='{"n": 1}\n')
    assert res.exit_code == 0 and res.stdout == '{"value": 1}\n'
    prefix, _, body = res.stderr.strip().partition(" ")
    stats = json.loads(body)
    assert prefix == "stats" and stats["compile_seconds"] > 0
    assert search <= stats["seconds"] < search + 0.2  # the compiling is not in the solve's time


def test_numba_cache_dir_holds_the_source_digest_folder(tmp_path):
    digest = _cache.source_digest()
    assert _cache.cache_dir({"NUMBA_CACHE_DIR": "/tmp/x"}) == Path("/tmp/x") / digest
    assert _cache.cache_dir({"XDG_CACHE_HOME": "/tmp/y"}) == Path("/tmp/y/musim/numba") / digest
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    shown = subprocess.run(
        [sys.executable, "-c", "import musim, numba; print(numba.config.CACHE_DIR)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.strip() == str(tmp_path / digest)


def zwickern_record(order, buys):
    """A legal 2-player Zwickern record dealing the 55 cards `order` (seat 1 deals, so seat 0
    plays first and each seat plays its cards in the order dealt): turn i buys the table cards
    buys[i], every other card is laid."""
    turns = [{"card": c} for c in order[:8] + order[12:]]
    for i, cards in buys.items():
        turns[i]["buy"] = cards
    hands = [order[0:8:2], order[1:8:2]]
    return {
        "game": "zwickern",
        "players": 2,
        "dealer": 1,
        "hands": hands,
        "table": order[8:12],
        "stock": order[12:],
        "turns": turns,
    }


def test_a_zwickern_buy_with_more_buys_than_the_first_room_replays():
    """The third round's first turn plays a 9 onto a table of the 20 aces to 5s (laid in the
    first two rounds): 114,547 buys, seven times the kernels' first room, which grows; the replay
    checks only the buy it names (check.is_buy)."""
    from musim.compile.jit import growing
    from musim.games.zwickern import rules

    small = [f"{s}{v}" for v in ("A", "2", "3", "4", "5") for s in "SHDC"]
    order = [*small, "S9", *(c for c in ZWICKERN.format(ZWICKERN.full) if c not in small and c != "S9")]
    t = rules.new_table()
    t.loose[0] = ZWICKERN.parse(small)
    mv = rules.new_moves()
    m, nine = rules.load_items(t, mv), ZWICKERN.index("S9", ZWICKERN.full)
    count, _ = growing(lambda mv: int(rules.buys(mv, m, nine)), mv, rules.grown)
    assert count == 114_547 > len(mv.buy_items)
    record = zwickern_record(order, {16: ["S5", "S4"]})
    res = CliRunner().invoke(cli, ["replay", "-"], input=f"{json.dumps(record)}\n{ZWICKERN_RECORD}\n")
    answers = [json.loads(line) for line in res.stdout.splitlines()]
    assert res.exit_code == 0 and len(answers) == 2, res.stdout
    assert answers[0]["turns"][16]["action"] == "buy" and answers[0]["turns"][16]["cards"] == ["S4", "S5"]


def test_a_rummue_deal_longer_than_the_log_is_recorded_whole(monkeypatch):
    """`record` plays a deal with more actions than the log's room again with room for all."""
    from musim.games.rummue import record, table

    whole = record.record(4, 7, "random", 3)
    monkeypatch.setattr(table, "LOG", 4)
    assert len(record.make_workspace().log) == 4
    assert record.record(4, 7, "random", 3) == whole


def test_rows_and_replays_are_the_same_whatever_room_the_lists_start_with(monkeypatch):
    """Simulations and replays that outgrow their lists at every turn (a first room of one) grow
    them, and give the rows and results of the usual room."""
    from musim.games.safarue import record as safarue_record
    from musim.games.safarue import simulate as safarue
    from musim.games.zwickern import rules
    from musim.games.zwickern import simulate as zwickern

    def everything():
        rows = [
            zwickern.simulate_deals(3, 5, "random", 0, 40),
            zwickern.simulate_matches(2, 5, "heuristic", 0, 5),
            safarue.simulate_deals(2, 5, "random", 0, 40),
            safarue.simulate_deals(4, 5, "heuristic", 0, 40, reverse=True),
        ]
        lines = [EXAMPLES / "zwickern-records.jsonl", EXAMPLES / "safarue-records.jsonl"]
        res = CliRunner().invoke(cli, ["replay", "-"], input="".join(p.read_text() for p in lines))
        assert res.exit_code == 0, res.stdout
        return rows, res.stdout

    (rows, replayed) = everything()
    for module, name in ((rules, "FIRST_GROUPS"), (rules, "FIRST_BUYS"), (safarue, "SETS"), (safarue_record, "SETS")):
        monkeypatch.setattr(module, name, 1)
    (small_rows, small_replayed) = everything()
    assert small_replayed == replayed
    for before, after in zip(rows, small_rows):
        assert before.keys() == after.keys() and all(np.array_equal(before[k], after[k]) for k in before)
