"""The game contract (musim/games/contract.py) and the registry: limits checked when a game is
declared, `musim games`, options a command takes from its --game, and a toy game that runs,
records and replays through the generic CLI and engine without any change outside its module."""

import dataclasses
import json
import sys
import types

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.core.deck import MU
from musim.engine.errors import SpecError
from musim.engine.option import Option
from musim.engine.parquet import SEAT, Column, read_metadata, schema_of
from musim.engine.run import Job
from musim.engine.spec import RunSpec, checked
from musim.games import GAMES, UnknownGame, all_games, get_game
from musim.games.contract import Game, GameError

BASE = dict(name="toy", title="Toy", players=(2, 5), default_players=3, deck=MU, result_version=1)
COLUMNS = (Column("deal", pa.int64(), "Index."), Column(f"score_{SEAT}", pa.int16(), "Seat i's score."))


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


class ToySummary:
    COLUMNS = ("score_0",)

    def __init__(self, params):
        self.total = 0

    def add(self, batch):
        self.total += sum(batch.column("score_0").to_pylist())

    def lines(self):
        return [f"toy total {self.total}"]


def _toy_job(spec):
    """Seat i scores deal * bonus + i (`bonus`: the toy's option)."""
    schema = schema_of(COLUMNS, spec.players)
    bonus = spec.options["bonus"]

    def to_batch(chunk):
        start, count = chunk
        deals = list(range(start, start + count))
        scores = [pa.array([d * bonus + i for d in deals], pa.int16()) for i in range(spec.players)]
        return pa.RecordBatch.from_arrays([pa.array(deals, pa.int64()), *scores], schema=schema)

    return Job(4, lambda start, count: (start, count), to_batch, schema)


TOY = Game(
    **BASE,
    policies=("plain",),
    play_help="plain: the only one.",
    options=(
        Option("bonus", int, 1, "Points per deal index.", range=(0, 9)),
        Option("style", str, "calm", "How to play.", choices=("calm", "wild"), per_deal=False),
    ),
    job=_toy_job,
    make_summary=ToySummary,
    record=lambda spec, index: {"game": "toy", "deal": index, "bonus": spec.options["bonus"]},
    replay=lambda obj: {"scores": [obj["deal"] * obj["bonus"]]},
)


TOY_MODULE = types.ModuleType("toy_game")


@pytest.fixture
def toy(monkeypatch):
    """The toy game registered: one module, one line in the registry."""
    module = TOY_MODULE
    module.GAME = TOY
    monkeypatch.setitem(sys.modules, "toy_game", module)
    monkeypatch.setitem(GAMES, "toy", "toy_game")
    return TOY


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(players=(1, 4)), "seats"),
        (dict(players=(3, 9)), "seats"),
        (dict(default_players=6), "seats"),
        (dict(name="Toy Game"), "lowercase identifier"),
        (dict(name="-toy"), "joined by single hyphens"),
        (dict(name="reverse--toy"), "joined by single hyphens"),
        (dict(policies=("dd",), job=len, make_summary=len), "needs a solver"),
        (dict(policies=("random",)), "needs job and make_summary"),
        (dict(matches=True), "matches need policies"),
        (dict(deck="mu-and-more"), "deck must be a musim.core.deck.Deck"),
        (dict(deck=None, policies=("random",), job=len, make_summary=len), "deck must be a musim.core.deck.Deck"),
        (dict(options=(Option("players", int, 3, "x"),)), "option names"),
        (dict(options=(Option("n", int, 20, "x", range=(0, 9)),)), "default --n: 20 is not in the range 0..9"),
        (dict(options=(Option("n", str, "a", "x", range=(0, 9)),)), "a range needs a number type"),
        (dict(options=(Option("n", list, [], "x"),)), "type must be one of"),
    ],
)
def test_a_game_that_breaks_the_contract_fails_when_declared(change, message):
    with pytest.raises(GameError, match=message):
        Game(**{**BASE, **change})


def test_a_variants_name_may_join_words_with_hyphens():
    assert Game(**{**BASE, "name": "reverse-toy"}).name == "reverse-toy"  # `--game reverse-safarue`


def test_every_registered_game_is_found_by_its_name():
    assert [g.name for g in all_games()] == sorted(GAMES)
    with pytest.raises(UnknownGame, match="unknown game 'chess'"):
        get_game("chess")


def test_musim_games_lists_every_game_with_what_it_offers():
    res = invoke("games")
    assert res.exit_code == 0
    header, *rows = [line.split("  ") for line in res.output.splitlines()]
    cells = [[c.strip() for c in row if c.strip()] for row in [header, *rows]]
    assert cells[0] == ["game", "title", "players", "policies", "exact play", "solve", "records", "matches"]
    by_name = {row[0]: row for row in cells[1:]}
    assert set(by_name) == set(GAMES)
    assert by_name["mu"][2:] == ["3-6", "heuristic,random,dd,search,search-uniform", "yes", "yes", "yes", "yes"]
    assert by_name["bridge"][2:] == ["4", "-", "no", "yes", "no", "no"]


def test_run_help_shows_the_games_own_options():
    res = invoke("run", "--game", "mu", "--help")
    assert res.exit_code == 0
    for text in [
        "--goal",
        "--dd-tricks",
        "--search-worlds",
        "--tt-mb",
        "[heuristic|random|dd|search|search-uniform]",
        "3<=x<=6",
    ]:
        assert text in res.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--game", "bridge", "--play", "x", "--deals", 1], "bridge has no play policies"),
        (["run", "--game=chess", "--deals", 1], "unknown game 'chess'"),
        (["record", "--game", "bridge", "--seed", 1, "--deal", 0], "bridge has no game records"),
        (["run", "--deals", 1, "--goal", 0], "--goal"),
        (["record", "--seed", 1, "--deal", 0, "--goal", 300], "No such option '--goal'"),  # matches only
        (
            ["solve", "--game", "chess", "-"],
            'unknown game "chess" for `musim solve` (known: bridge, mu, mueckenstich, panther, wimmueln)',
        ),
    ],
)
def test_a_command_checks_its_game_in_one_line(args, message):
    res = invoke(*args, input="")
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output


def test_the_engine_checks_a_spec_against_its_game_and_completes_its_options():
    spec = RunSpec("mu", "deals", 10, 4, "heuristic")
    assert checked(spec).name == "mu" and spec.options == {
        "goal": 200,
        "dd_tricks": 0,
        "auction": "play",
        "targets": "rulebook",
        "search_worlds": 128,
        "search_exact_tricks": 0,
        "node_limit": 0,
        "learned_model": "",
        "search_weights": "",
    }
    bad = [
        (dict(players=7), "--players: 7 is not in mu's range 3..6"),
        (dict(play="psychic"), "--play"),
        (dict(game="bridge"), "no play policies"),
        (dict(game="chess"), "unknown game"),
        (dict(options={"goals": 3}), "no option goals"),
        (dict(options={"goal": "200"}), "--goal: expected int"),
        (dict(options={"dd_tricks": 3}), "--dd-tricks applies only with --play dd"),
    ]
    for change, message in bad:
        with pytest.raises(SpecError, match=message):
            checked(dataclasses.replace(RunSpec("mu", "deals", 10, 4, "heuristic"), **change))


def test_a_new_game_runs_records_and_replays_through_the_generic_cli(toy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    help_text = invoke("run", "--game", "toy", "--help").output
    assert "--bonus" in help_text and "[calm|wild]" in help_text and "2<=x<=5" in help_text
    res = invoke("run", "--game", "toy", "--deals", 10, "--players", 2, "--bonus", 3, "--seed", 1, "--workers", 2)
    assert res.exit_code == 0, res.output
    path = "runs/toy-2p-plain-bonus3-seed1"  # the option not at its default is in the name
    table = pq.read_table(path)
    assert table.column_names == ["deal", "score_0", "score_1"]
    assert table["score_1"].to_pylist() == [3 * d + 1 for d in range(10)]
    assert res.stdout.splitlines()[0] == f"toy total {3 * sum(range(10))}"
    meta = read_metadata(path)
    assert meta["params"]["options"] == {"bonus": 3, "style": "calm"} and meta["result_version"] == 1
    assert invoke("summary", path).stdout.splitlines() == res.stdout.splitlines()[:1]
    assert invoke("run", "--game", "toy", "--matches", 2).output.count("toy plays no matches") == 1
    record = invoke("record", "--game", "toy", "--seed", 1, "--deal", 4, "--bonus", 2)
    assert json.loads(record.output) == {"game": "toy", "deal": 4, "bonus": 2}
    assert json.loads(invoke("replay", "-", input=record.output).output) == {"scores": [8]}


def test_an_option_omitted_at_its_default_keeps_the_key_and_metadata_of_runs_made_before_it(toy, monkeypatch):
    from musim.engine.run import metadata, run_key

    def key_and_params(game, **options):
        spec = RunSpec("toy", "deals", 8, 3, "plain", seed=2, options=options)
        monkeypatch.setattr(TOY_MODULE, "GAME", game)
        checked(spec)
        return run_key(spec, game), metadata(spec, game, 4)["params"]["options"]

    extra = Option("variant", str, "", "A rule variant added later.", omit_default=True)
    later = dataclasses.replace(TOY, options=(*TOY.options, extra))
    before = key_and_params(TOY)
    assert key_and_params(later) == before
    key, options = key_and_params(later, variant="x")
    assert key != before[0] and key["params"]["options"]["variant"] == options["variant"] == "x"


def test_replay_and_solve_dispatch_by_the_games_name():
    res = invoke("replay", "-", input='{"game": "bridge"}\n{"players": 4}\n')
    lines = [json.loads(x)["error"] for x in res.output.splitlines()]
    assert res.exit_code == 1 and all(x.startswith("game: unknown game") for x in lines)
    known = ", ".join(g.name for g in all_games() if g.replay)  # every registered game that replays
    assert "mu" in known.split(", ") and "bridge" not in known
    assert f'unknown game "bridge" for `musim replay` (known: {known})' in lines[0]
    assert "game null" in lines[1]
    pbn = {"pbn": "N:A... .A.. ..A. ...A", "trump": "NT", "leader": "N"}
    res = invoke("solve", "--game", "bridge", "-", input=json.dumps(pbn))
    assert res.exit_code == 0 and json.loads(res.output) == {"value": 1}
