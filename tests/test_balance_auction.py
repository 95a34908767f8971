"""`musim balance --auction`: the model the tables rest on is stated, several models are proposed
side by side with their agreement, also under a rule variant (--targets), and checkpoints never
mix models or tables."""

import itertools
import json
import os

import pandas as pd
import pytest
from click.testing import CliRunner
from PIL import Image

import musim
from musim.cli import cli
from musim.games.mu.analysis.balance import analyse, checkpoint_folders, checkpoint_key
from musim.games.mu.analysis.balance_report import AGREEMENT_FILES, FILES
from musim.games.mu.params import BY_PLAY, DEFAULT_AUCTION, MuParams
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


def test_two_models_write_both_and_where_their_proposals_agree(tmp_path):
    a, b = list(AUCTIONS)[:2]
    out = tmp_path / "two"
    text = balance("--out", out, "--auction", f"{a},{b}")
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


@pytest.mark.parametrize("value", ["timid", "cautious,timid", ",", "cautious,", "cautious,bold,cautious"])
def test_an_unknown_model_is_one_line(tmp_path, value):
    res = CliRunner().invoke(cli, [*BASE, "--out", str(tmp_path / "x"), "--auction", value])
    assert res.exit_code == 2 and "--auction" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "x").exists()


def test_checkpoint_keys_carry_the_model_unless_it_is_the_default():
    key = lambda auction: checkpoint_key("balance-deals", MuParams(4, auction=auction), 1)
    assert key(BY_PLAY) == key(DEFAULT_AUCTION) and "auction" not in key(DEFAULT_AUCTION)["params"]
    for job in ("balance-deals", "balance-strength"):
        keys = {json.dumps(checkpoint_key(job, MuParams(4, auction=m), 1), sort_keys=True) for m in AUCTIONS}
        assert len(keys) == len(AUCTIONS)


@pytest.mark.slow  # both models' deals, bids and strength replays
def test_a_checkpoint_never_hands_one_models_deals_to_another(tmp_path):
    a, b = list(AUCTIONS)[:2]
    kw = dict(strength_deals=0, checkpoint=str(tmp_path / "ck"))
    first = analyse(MuParams(4, auction=a), 300, 3, **kw)
    resumed = analyse(MuParams(4, auction=b), 300, 3, **kw)
    fresh = analyse(MuParams(4, auction=b), 300, 3, strength_deals=0)
    pd.testing.assert_frame_equal(resumed.table, fresh.table)
    assert not first.table.deals.equals(fresh.table.deals)


@pytest.mark.slow  # both models' deals, bids and strength replays
def test_two_models_under_a_variant_bid_and_score_under_it_and_say_so(tmp_path):
    """`--auction a,b --targets FILE`: each model's deals are those of `musim run --auction M
    --targets FILE`, every table holds the variant's targets, the summaries name the model and
    the variant, and the checkpoint keeps each (model, table) apart."""
    a, b = list(AUCTIONS)[:2]
    rows = {3: [11 + 2 * k for k in range(1, 13)], 4: [29 + 2 * k for k in range(1, 16)]}  # the rulebook's + 1
    path = tmp_path / "v.csv"
    path.write_text(
        "players,bid,target\n" + "".join(f"{n},{k},{t}\n" for n, ts in rows.items() for k, t in enumerate(ts, 1))
    )
    out, ck = tmp_path / "two", tmp_path / "ck"
    text = balance("--out", out, "--auction", f"{a},{b}", "--targets", path, "--checkpoint", ck)
    files = [p for p in out.rglob("*") if p.is_file()]
    assert f"wrote {len(files)} files" in text
    want = {(n, k): t for n, ts in rows.items() for k, t in enumerate(ts, 1)}
    agree = pd.read_csv(out / "agreement.csv")
    assert {(r.players, r.bid): r.target for r in agree.itertuples()} == want
    summary = (out / "summary.md").read_text()
    assert f"Targets: the rule variant `{path}`" in summary and "| bid | variant |" in summary
    assert "variant" in Image.open(out / "targets.png").info["Description"]
    for m in (a, b):
        table = pd.read_csv(out / m / "balance.csv")
        assert {(r.players, r.bid): r.target for r in table.itertuples()} == want
        own = (out / m / "summary.md").read_text()
        assert f"**Auction model: `{m}`**" in own and f"the rule variant `{path}`" in own
        assert (out / m / "proposed_targets.csv").exists()
        res = CliRunner().invoke(
            cli,
            ["run", "--players", "4", "--deals", "600", "--seed", "5", "--auction", m, "--targets", str(path)]
            + ["--out", str(tmp_path / f"run-{m}"), "--no-progress"],
        )
        assert res.exit_code == 0, res.output
        played = musim.read_run(tmp_path / f"run-{m}").query("outcome == 'played'")
        four = table[(table.players == 4) & (table.deals > 0)].set_index("bid")
        assert played.bid.value_counts().sort_index().to_dict() == four.deals.to_dict()
    from musim.games.mu import target_tables

    keys = set()
    for n, m in itertools.product(rows, (a, b)):
        text_n = target_tables.to_text({n: rows[n]})
        folders = checkpoint_folders(str(ck), MuParams(n, "heuristic", auction=m, targets=text_n), 5)
        assert all(os.path.isdir(f) for f in folders)
        key = checkpoint_key("balance-deals", MuParams(n, "heuristic", auction=m, targets=text_n), 5)["params"]
        assert key["targets"] == text_n and key.get("auction", DEFAULT_AUCTION) == m
        keys.update(folders)
    assert len(keys) == 2 * len(rows) * 2 == len(os.listdir(ck))


def test_a_learned_checkpoint_names_its_model(tmp_path):
    import shutil

    from musim.games.mu.learned.model_file import CURRENT, MODELS, SHIPPED
    from musim.games.mu.params import learned_model

    key = lambda **kw: checkpoint_key("balance-deals", MuParams(4, auction="learned", **kw), 1)["params"]
    assert key()["learned_model"] == learned_model("")[0]
    other = tmp_path / "other.npz"
    shutil.copy(MODELS / SHIPPED[CURRENT], other)
    assert key(learned_model=str(other))["learned_model"] != key()["learned_model"]
