"""scripts/seat_tables.py --games: only the named games' files are made again, and the other
games' rows of advantage.csv stay as they were."""

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "seat_tables.py"


def seat_tables(cwd, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, SCRIPT, *args], cwd=cwd, env=env, capture_output=True, text=True)


def test_one_game_is_made_again_and_the_others_rows_stay(tmp_path):
    out = tmp_path / "results" / "seat_games"
    out.mkdir(parents=True)
    kept = "game,players,position,rows,mean\ncalcory,2,dealer,100000,9.437\nrummue,3,dealer,1,0.5\n"
    (out / "advantage.csv").write_text(kept)
    done = seat_tables(tmp_path, "--games", "rummue", "--rows", "40", "--seed", "3")
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(out / "advantage.csv")
    assert table["game"].tolist()[0] == "calcory" and table["mean"].tolist()[0] == 9.437
    rummue = table[table["game"] == "rummue"]
    assert sorted(set(rummue["players"])) == [3, 4, 5, 6] and (rummue["rows"] == 40).all()
    assert sorted(p.name for p in out.iterdir()) == ["advantage.csv", "rummue.md"]
    assert "## 6 players" in (out / "rummue.md").read_text()


def test_an_unknown_game_is_refused(tmp_path):
    done = seat_tables(tmp_path, "--games", "rummue", "chess")
    assert done.returncode == 2 and "--games: chess not among the games that can be run" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "results").exists()
