"""`musim balance --auction`: the model the tables rest on is stated, several models are proposed
side by side with their agreement, and checkpoints never mix models."""

import json

import pandas as pd
import pytest
from click.testing import CliRunner
from PIL import Image

from musim.cli import cli
from musim.games.mu.analysis.balance import analyse, checkpoint_key
from musim.games.mu.analysis.balance_report import AGREEMENT_FILES, FILES
from musim.games.mu.policies import AUCTIONS

BASE = ["balance", "--players", "3,4", "--deals", "600", "--strength-deals", "0", "--seed", "5", "--no-progress"]


def balance(*args):
    res = CliRunner().invoke(cli, [*BASE, *map(str, args)])
    assert res.exit_code == 0, res.output
    return res.output


def test_one_model_writes_todays_files_and_states_the_model(tmp_path):
    out = tmp_path / "one"
    text = balance("--out", out)
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)
    summary = (out / "summary.md").read_text()
    assert "**Auction model: `cautious`**" in summary
    assert "conditional on bids made under the current targets" in summary
    for png in ("success_by_bid.png", "targets.png", "team_points.png", "strength.png"):
        assert "auction model: cautious" in Image.open(out / png).info["Description"]
    assert "conditional on bids made" in Image.open(out / "targets.png").info["Description"]
    assert "auction model cautious:" in text
    # the default model's table is the one balance made before there was a choice
    table = pd.read_csv(out / "balance.csv")
    assert "auction" not in table.columns and list(table.players.unique()) == [3, 4]


@pytest.mark.skipif(len(AUCTIONS) < 2, reason="one auction model")
def test_two_models_write_both_and_where_their_proposals_agree(tmp_path):
    a, b = list(AUCTIONS)[:2]
    out = tmp_path / "two"
    text = balance("--out", out, "--auction", f"{a},{b},{a}")
    assert sorted(p.name for p in out.iterdir()) == sorted(AGREEMENT_FILES + (a, b))
    for m in (a, b):
        assert sorted(p.name for p in (out / m).iterdir()) == sorted(FILES)
        assert f"**Auction model: `{m}`**" in (out / m / "summary.md").read_text()
    agree = pd.read_csv(out / "agreement.csv")
    # each model's column is its own table's proposal, the flag their equality
    for m in (a, b):
        own = pd.read_csv(out / m / "balance.csv")
        pd.testing.assert_series_equal(
            agree[f"proposed_{m}"], own.proposed_target, check_names=False, check_dtype=False
        )
    assert (agree.agree == (agree[f"proposed_{a}"] == agree[f"proposed_{b}"])).all()
    summary = (out / "summary.md").read_text()
    assert f"`{a}`" in summary and f"`{b}`" in summary and "conditional on bids made" in summary
    for _, t in agree.groupby("players"):
        assert f"agree on {int(t.agree.sum())} of {len(t)} levels" in summary
    assert f"agree on {int(agree.agree.sum())} of {len(agree)} levels" in text
    assert a in Image.open(out / "targets.png").info["Description"]
    # the tables differ where the deals were bid otherwise
    own_a, own_b = (pd.read_csv(out / m / "balance.csv") for m in (a, b))
    assert not own_a.deals.equals(own_b.deals)
    # back to one model in the same --out: nothing of the other layout stays
    balance("--out", out, "--overwrite")
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)


def test_a_model_under_another_run_is_refused_without_overwrite(tmp_path):
    out = tmp_path / "o"
    balance("--out", out)
    res = CliRunner().invoke(cli, [*BASE, "--out", str(out)])
    assert res.exit_code == 2 and "--overwrite" in res.output


@pytest.mark.parametrize("value", ["timid", "cautious,timid", ","])
def test_an_unknown_model_is_one_line(tmp_path, value):
    res = CliRunner().invoke(cli, [*BASE, "--out", str(tmp_path / "x"), "--auction", value])
    assert res.exit_code == 2 and "--auction" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "x").exists()


def test_checkpoint_keys_carry_the_model_unless_it_is_the_default():
    args = ("balance-deals", 4, 1, "heuristic", 0, 0, 64)
    assert checkpoint_key(*args) == checkpoint_key(*args, "value", "cautious")
    for job in ("balance-deals", "balance-strength"):
        keys = {json.dumps(checkpoint_key(job, *args[1:], "value", m), sort_keys=True) for m in AUCTIONS}
        assert len(keys) == len(AUCTIONS)


@pytest.mark.skipif(len(AUCTIONS) < 2, reason="one auction model")
def test_a_checkpoint_never_hands_one_models_deals_to_another(tmp_path):
    a, b = list(AUCTIONS)[:2]
    kw = dict(strength_deals=0, checkpoint=str(tmp_path / "ck"))
    first = analyse(4, 300, 3, auction=a, **kw)
    resumed = analyse(4, 300, 3, auction=b, **kw)
    fresh = analyse(4, 300, 3, auction=b, strength_deals=0)
    pd.testing.assert_frame_equal(resumed.table, fresh.table)
    assert not first.table.deals.equals(fresh.table.deals)
