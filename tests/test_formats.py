"""Run output describes itself: column descriptions, docs/formats.md in step, file metadata, read_run."""

import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import musim
from musim.cli import cli
from musim.core.deck import MU
from musim.engine.parquet import DESCRIPTION_KEY, METADATA_FIELDS, read_metadata
from musim.games.mu import RESULT_VERSION
from musim.games.mu.columns import DD_COLUMNS, MATCH_SCHEMA, deal_schema
from musim.io.formats_doc import formats_markdown

DOC = Path(__file__).resolve().parent.parent / "docs" / "formats.md"
DD_NAMES = [c.name for c in DD_COLUMNS]
RUNS = {
    "random3": ["--deals", 200, "--players", 3, "--play", "random"],
    "random5": ["--deals", 200, "--players", 5, "--play", "random"],
    "dd3": ["--deals", 2, "--players", 3, "--play", "dd", "--tt-mb", 16, "--workers", 1],
    "matches3": ["--matches", 4, "--players", 3, "--play", "random"],
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The output file of each run in RUNS."""
    folder = tmp_path_factory.mktemp("runs")
    out = {}
    for name, args in RUNS.items():
        out[name] = folder / f"{name}.parquet"
        res = CliRunner().invoke(cli, ["run", *map(str, args), "--seed", "11", "--out", str(out[name])])
        assert res.exit_code == 0, res.output
    return out


def test_docs_formats_md_is_generated_from_the_descriptions():
    assert DOC.read_text() == formats_markdown(), "docs/formats.md is stale: run python scripts/make_formats_doc.py"


@pytest.mark.parametrize("schema", [deal_schema(5, False), deal_schema(3, True), deal_schema(None, True), MATCH_SCHEMA])
def test_every_column_has_a_description(schema):
    for field in schema:
        assert field.metadata[DESCRIPTION_KEY].decode().strip(), field.name


def test_files_carry_the_descriptions_and_dd_columns_only_with_dd_play(runs):
    expected_schemas = [("random5", deal_schema(5, False)), ("dd3", deal_schema(3, True)), ("matches3", MATCH_SCHEMA)]
    for name, expected in expected_schemas:
        schema = pq.read_schema(runs[name])
        assert schema.names == expected.names
        for field in schema:
            assert field.metadata[DESCRIPTION_KEY] == expected.field(field.name).metadata[DESCRIPTION_KEY]
    assert not set(DD_NAMES) & set(pq.read_schema(runs["random5"]).names)
    assert set(DD_NAMES) <= set(pq.read_schema(runs["dd3"]).names)


def test_wall_clock_columns_are_named_ms():
    assert [c.name for c in DD_COLUMNS if c.description.startswith("Wall-clock")] == ["solve_ms"]


def test_metadata_holds_the_documented_keys_and_versions(runs):
    import numba
    import numpy
    import pyarrow

    meta = read_metadata(runs["random3"])
    assert set(meta) == set(METADATA_FIELDS)
    assert meta["result_version"] == RESULT_VERSION and meta["musim_version"] == musim.__version__
    for module in (numba, numpy, pyarrow):
        assert meta[module.__name__] == module.__version__
    assert meta["params"]["players"] == 3 and meta["params"]["count"] == 200 and meta["seed"] == 11


@pytest.mark.parametrize("name, players", [("random3", 3), ("random5", 5)])
def test_read_run_gives_nullable_dtypes_and_readable_hands(runs, name, players):
    df = musim.read_run(runs[name])
    raw = pq.read_table(runs[name]).to_pandas()
    assert len(df) == 200 and list(df.columns) == deal_schema(players, False).names
    for column in ["players", "dealer", "chief", "vice", "partner", "bid", "shortfall", "provoker"]:
        assert df[column].dtype == "Int8", column
    for column in ["target", "team_points", "bonus", "auction_turns"]:
        assert df[column].dtype == "Int16", column
    assert df["deal"].dtype == "Int64" and df["success"].dtype == "boolean"
    for column in ["outcome", "chief_trump", "vice_trump"]:
        assert df[column].dtype == pd.StringDtype(), column
    assert set(df["outcome"]) <= {"played", "eklat"}
    eklat = df["outcome"] == "eklat"
    assert df.loc[eklat, "chief"].isna().all() and df.loc[~eklat, "chief"].notna().all()
    if players == 3:
        assert df["vice"].isna().all() and df["partner"].isna().all()
    for column in ["hands", "laid"]:  # the vectorised conversion agrees with MU.format, mask by mask
        assert df[column].tolist() == [[MU.format(m) for m in masks] for masks in raw[column]]
    assert [[len(h) for h in hands] for hands in df["hands"]] == [[12] * players] * 200
    assert df.attrs["musim"] == read_metadata(runs[name])


def test_read_run_reads_dd_and_match_files_and_directories(runs, tmp_path):
    dd = musim.read_run(runs["dd3"])
    assert dd["dd_value"].dtype == "Int16" and dd["solve_ms"].dtype == "Float32"
    played = dd["outcome"] == "played"
    assert (dd.loc[played, "dd_value"] == dd.loc[played, "team_points"]).all()
    assert dd.loc[~played, "solve_ms"].isna().all() and (dd.loc[played, "solve_ms"] >= 0).all()
    matches = musim.read_run(runs["matches3"])
    assert list(matches.columns) == MATCH_SCHEMA.names and matches["winner"].dtype == "Int8"
    assert matches["capped"].dtype == "boolean" and (matches["totals"].map(max) >= 200).all()
    parts = tmp_path / "parts"
    parts.mkdir()
    shutil.copy(runs["random5"], parts / "part-0.parquet")
    pd.testing.assert_frame_equal(musim.read_run(parts), musim.read_run(runs["random5"]))


@pytest.mark.parametrize("game, players, passed", [("mueckenstich", 4, "discards"), ("panther", 5, "passed")])
def test_read_run_writes_every_card_column_in_its_games_deck(tmp_path, game, players, passed):
    """A 64-card Mückenstich hand reads as its own card texts (`R12`, `RM`), not Mü's."""
    from musim.games import get_game

    out = tmp_path / "r.parquet"
    args = ["run", "--game", game, "--players", players, "--deals", 50, "--seed", 4, "--out", out]
    assert CliRunner().invoke(cli, [str(a) for a in args]).exit_code == 0
    df = musim.read_run(out)
    deck = get_game(game).deck
    raw = pq.read_table(out).to_pandas()
    for name in ("hands", passed):
        for texts, masks in zip(df[name], raw[name]):
            assert [deck.format(m) for m in masks] == [list(t) for t in texts]
