"""Per-seat policies on the command line (`--play random,heuristic,...`, seats in the order of the
rows) for every game: the deal stays and only the chosen seat's decisions change, a list of one
policy is that policy (rows, key, default name), the run's metadata and key carry the seats'
policies, bad lists are refused in one line, records of such runs replay; Mü's heuristic seats
decide as its heuristic kernels given the record's state; Mü's Python API plays duplicate deals."""

import json
import shutil

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.core.cards import CARD_TEXT
from musim.core.deck import MU
from musim.engine.parquet import read_manifest, read_metadata
from musim.games import all_games, get_game

# every game with policies; beyond Mü and one seat game, in the slow tier (each compiles its kernels)
GAMES = [
    g.name if g.name in ("mu", "wimmueln") else pytest.param(g.name, marks=pytest.mark.slow)
    for g in all_games()
    if g.policies
]
DEAL_COLUMNS = ("dealer", "starter", "hands", "deck")  # drawn before any policy decides


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def run(path, game, play, *args, players=3, deals=300, seed=5):
    res = invoke(*run_args(game, play, players, deals, seed), "--out", path, "--no-progress", *args)
    assert res.exit_code == 0, res.output
    return pq.read_table(path)


def run_args(game, play, players, deals, seed):
    return ("run", "--game", game, "--players", players, "--deals", deals, "--seed", seed, "--play", play)


def scores(table, players):
    return np.stack([table.column(f"score_{i}").to_numpy() for i in range(players)], axis=1)


@pytest.mark.parametrize("game", GAMES)
def test_a_random_seat_plays_its_own_decisions_on_the_same_deals(tmp_path, game):
    heuristic = run(tmp_path / "h.parquet", game, "heuristic")
    mixed = run(tmp_path / "m.parquet", game, "heuristic,random,heuristic")
    random = run(tmp_path / "r.parquet", game, "random")
    for name in (c for c in DEAL_COLUMNS if c in heuristic.column_names):
        assert mixed.column(name).equals(heuristic.column(name)), name
        assert mixed.column(name).equals(random.column(name)), name
    h, m, r = scores(heuristic, 3), scores(mixed, 3), scores(random, 3)
    assert (m != h).any(axis=1).mean() > 0.1 and (m != r).any(axis=1).mean() > 0.1


@pytest.mark.parametrize("game", ["panther", "mu"])
def test_one_policy_a_seat_all_alike_is_that_policy(tmp_path, monkeypatch, game):
    """The same rows, key and default run name as the one policy."""
    monkeypatch.chdir(tmp_path)
    seen = []
    for play in ("heuristic", "heuristic,heuristic,heuristic,heuristic", " heuristic , heuristic,heuristic,heuristic"):
        res = invoke(*run_args(game, play, 4, 200, 7), "--no-progress")
        assert res.exit_code == 0, res.output
        (out,) = (tmp_path / "runs").iterdir()
        assert out.name == f"{game}-4p-heuristic-seed7"
        seen.append((pq.read_table(out), read_manifest(out)["key"]))
        shutil.rmtree(out)
    assert all(table.equals(seen[0][0]) and key == seen[0][1] for table, key in seen)


def test_the_seats_policies_are_in_the_metadata_key_and_default_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    play = "random,heuristic,heuristic,heuristic"
    res = invoke(*run_args("mu", play, 4, 100, 3), "--no-progress")
    assert res.exit_code == 0, res.output
    out = tmp_path / "runs" / f"mu-4p-{play}-seed3"
    assert out.is_dir() and f"play {play} by seat" in res.output
    meta = read_metadata(next(out.glob("*.parquet")))
    assert meta["params"]["play"] == play and meta["policy"] == play
    assert read_manifest(out)["key"]["params"]["play"] == play
    again = invoke("summary", out)
    assert again.exit_code == 0 and f"play {play}" in again.output


@pytest.mark.parametrize(
    ("game", "play", "message"),
    [
        ("panther", "random,heuristic", "--play: expected one policy or 4 (one a seat), got 2 in 'random,heuristic'"),
        ("mu", "random,heuristic,heuristic,heuristic,random", "--play: expected one policy or 4 (one a seat), got 5"),
        ("rummue", "random,bold,random,random", "--play: 'bold' is not one of the policies (heuristic, random)"),
        ("zwickern", "random,,random,random", "--play: '' is not one of the policies"),
        ("mu", "dd,heuristic,dd,heuristic", "--dd-tricks applies only with --play dd"),
    ],
)
def test_a_bad_list_of_policies_is_refused_in_one_line(game, play, message):
    extra = ("--dd-tricks", 3) if "dd" in play else ()  # the last tricks exact: only with dd at every seat
    for command in (run_args(game, play, 4, 10, 1), ("record", "--game", game, "--players", 4, "--play", play)):
        res = invoke(*command, "--seed", 1, *extra, *(("--deal", 0) if command[0] == "record" else ()))
        assert res.exit_code == 2 and message in res.output, res.output
        assert "Traceback" not in res.output and len(res.output.strip().splitlines()[-1]) > 0


@pytest.mark.parametrize("game", GAMES)
def test_a_record_of_a_per_seat_runs_deal_replays_to_its_row(tmp_path, game):
    play = "random,heuristic,heuristic"
    table = run(tmp_path / "m.parquet", game, play, deals=6, seed=9)
    for deal in range(6):
        res = invoke("record", "--game", game, "--players", 3, "--seed", 9, "--play", play, "--deal", deal)
        assert res.exit_code == 0, res.output
        path = tmp_path / "record.json"
        path.write_text(res.output)
        replayed = invoke("replay", path)
        assert replayed.exit_code == 0, replayed.output
        row = table.slice(deal, 1).to_pylist()[0]
        assert json.loads(replayed.output)["scores"] == [row[f"score_{i}"] for i in range(3)]


class HeuristicMu:
    """The Mü heuristic's own choices at each decision of a record, from the record's state alone
    (the kernels of musim.games.mu.policies called with that state): what a heuristic seat must
    have done."""

    def __init__(self, record, result):
        from musim.games.mu import policies, rules
        from musim.games.mu.simulate import MAX_PLAYERS

        self.p, self.r, self.n = policies, rules, record["players"]
        self.held = np.zeros(MAX_PLAYERS, np.uint64)
        for s, hand in enumerate(record["hands"]):  # the copies of a kind (R1 R1) go to seats in turn
            self.held[s] = np.uint64(MU.parse(hand, within=MU.full & ~int(np.bitwise_or.reduce(self.held))))
        self.state = np.ones(1, np.uint64)  # the heuristic draws nothing
        self.est = np.zeros(15, np.float64)
        self.plan_type, self.plan_bid = np.zeros(MAX_PLAYERS, np.int64), np.zeros(MAX_PLAYERS, np.int64)
        codes = np.full(MAX_PLAYERS, policies.HEURISTIC)  # every seat's auction code
        policies.plan_auction(
            codes, self.n, self.held, self.plan_type, self.plan_bid, self.est, rules.rulebook_targets()
        )
        self.record, self.result = record, result

    def auction(self):
        """(seat, the lay the heuristic makes, the lay made) per auction turn."""
        n, laid, counts = self.n, np.zeros(len(self.held), np.uint64), np.zeros(len(self.held), np.int64)
        for i, turn in enumerate(self.record["auction"]):
            seat = (self.record["dealer"] + i) % n
            lay = self.p.choose_lay(
                self.p.HEURISTIC, n, seat, self.held, laid, counts, self.plan_type, self.plan_bid, self.state
            )
            yield seat, sorted(MU.format(lay)), sorted(turn)
            laid[seat] |= np.uint64(MU.parse(turn, within=self.held[seat] & ~laid[seat]))
            counts[seat] += len(turn)
        self.laid = laid

    def contract(self):
        """(seat, the heuristic's choice, the choice made) of the vice's trump, the chief's, the partner."""
        from musim.core.cards import parse_type

        res, n, p = self.result, self.n, self.p
        chief, vice = res["chief"], res["vice"]
        vice_trump = -1 if vice is None else parse_type(res["vice_trump"])
        if vice is not None:
            yield (
                vice,
                p.choose_trump(p.HEURISTIC, n, self.held[vice], self.laid[vice], -1, False, self.est, self.state),
                vice_trump,
            )
        chief_trump = parse_type(res["chief_trump"], allow_none=True)
        chosen = p.choose_trump(
            p.HEURISTIC, n, self.held[chief], self.laid[chief], vice_trump, True, self.est, self.state
        )
        yield chief, chosen, chief_trump
        if n >= 4:
            choice = p.choose_partner(
                p.HEURISTIC, n, chief, -1 if vice is None else vice, self.laid, chief_trump, self.state
            )
            yield chief, choice, res["partner"]
        self.trumps = chief_trump, vice_trump

    def positions(self):
        """(seat, position, the card played) of every card of the play: position (hands, trick
        cards, leader, and the contract's arrays) as the seat to move sees it."""
        n, rules = self.n, self.r
        klass, power, class_mask = rules.contract(*self.trumps)
        tier_mask = np.zeros(4, np.uint64)
        rules.fill_tier_masks(*self.trumps, tier_mask)
        held, trick = self.held.copy(), np.zeros(len(self.held), np.int64)
        play, leader = self.record["play"], self.result["chief"]
        for t in range(len(play) // n):
            winner_pos = 0
            for k in range(n):
                seat, text = (leader + k) % n, play[t * n + k]
                contract = klass, power, class_mask, tier_mask
                yield (
                    seat,
                    dict(held=held, trick=trick, k=k, leader=leader, winner_pos=winner_pos, contract=contract),
                    text,
                )
                card = MU.index(text, held[seat])
                held[seat] ^= np.uint64(1) << np.uint64(card)
                trick[k] = card
                if k and rules.beats(card, trick[winner_pos], klass, power):
                    winner_pos = k
            leader = (leader + winner_pos) % n

    def cards(self):
        """(seat, the card the heuristic plays, the card played) of every card of the play."""
        n, p, team = self.n, self.p, {self.result["chief"], self.result["partner"]}
        for seat, at, text in self.positions():
            held, trick, k, leader, winner_pos = at["held"], at["trick"], at["k"], at["leader"], at["winner_pos"]
            klass, power, class_mask, tier_mask = at["contract"]
            legal = self.r.legal_moves(held[seat], trick[0] if k else -1, klass, class_mask)
            unseen = np.uint64(np.bitwise_or.reduce(held[:n])) & ~held[seat]
            winner = (leader + winner_pos) % n
            choice = p.choose_card(
                p.HEURISTIC, legal, held[seat], unseen, trick, k, k == n - 1, winner_pos,
                (winner in team) == (seat in team), seat in team, klass, power, class_mask, tier_mask, self.state,
            )  # fmt: skip
            yield seat, CARD_TEXT[choice], text

    def solved(self, seat, at):
        """`musim solve`'s position of the seat to move (docs/examples/README.md)."""
        res = self.result
        return {
            "game": "mu",
            "players": self.n,
            "hands": [MU.format(h) for h in at["held"][: self.n]],
            "leader": at["leader"],
            "chief": res["chief"],
            "vice": res["vice"],
            "partner": res["partner"],
            "chief_trump": res["chief_trump"],
            "vice_trump": res["vice_trump"],
            "trick": [CARD_TEXT[c] for c in at["trick"][: at["k"]]],
        }


@pytest.mark.parametrize("players", [3, 4])
def test_mus_heuristic_seats_decide_as_the_heuristic_and_the_random_seat_does_not(tmp_path, players):
    """Every decision of the heuristic seats (auction lays, trumps, partner, cards) is the heuristic
    kernel's given the record's state; the random seat's differ from it somewhere."""
    random_seat = 1
    play = ",".join("random" if s == random_seat else "heuristic" for s in range(players))
    deviations = {"auction": 0, "cards": 0}
    for deal in range(40):
        res = invoke("record", "--players", players, "--seed", 4, "--play", play, "--deal", deal)
        assert res.exit_code == 0, res.output
        path = tmp_path / "record.json"
        path.write_text(res.output)
        result = json.loads(invoke("replay", path).output)
        mu = HeuristicMu(json.loads(res.output), result)
        for step, decisions in (("auction", mu.auction), ("contract", mu.contract), ("cards", mu.cards)):
            if step != "auction" and result["outcome"] == "eklat":
                break
            for seat, heuristic, made in decisions():
                if seat != random_seat:
                    assert heuristic == made, (deal, step, seat)
                elif step in deviations:
                    deviations[step] += heuristic != made
    assert deviations["auction"] > 0 and deviations["cards"] > 0


def test_mus_python_api_plays_per_seat_duplicate_deals(tmp_path):
    """musim.games.mu.simulate.simulate_deals gives the rows `musim run` writes, a seat's policy
    by name, as does musim.play.duplicate.game_simulate, and serves duplicate_advantage as the
    other games' do."""
    from musim.games.mu.simulate import simulate_deals
    from musim.play.duplicate import duplicate_advantage, game_simulate

    play = "heuristic,heuristic,random,heuristic"
    table = run(tmp_path / "m.parquet", "mu", play, players=4, deals=500, seed=6)
    out = simulate_deals(4, 6, play.split(","), 0, 500)
    assert np.array_equal(out["scores"], scores(table, 4))
    assert np.array_equal(out["hands"], np.array(table.column("hands").to_pylist(), np.uint64))
    assert np.array_equal(game_simulate("mu", 2)(4, 6, play, 0, 500)["scores"], out["scores"])  # any game's rows
    with pytest.raises(ValueError, match="expected one policy or 4"):
        simulate_deals(4, 6, ["random", "heuristic"], 0, 1)
    mean, half = duplicate_advantage(simulate_deals, 4, 6, 2000)
    assert mean - half > 0  # a heuristic seat among random ones gains on the same deals


@pytest.mark.slow  # compiles Wimmüln's exact play: about 2 minutes
def test_a_seat_games_dd_seat_plays_among_heuristic_ones(tmp_path):
    """Exact play of a seat game is a seat's own solve: a dd seat sits among others, its rows
    carry the seats' policies and the others' decisions are theirs."""
    play = "dd,heuristic,heuristic"
    mixed = run(tmp_path / "d.parquet", "wimmueln", play, deals=3, seed=2)
    heuristic = run(tmp_path / "h.parquet", "wimmueln", "heuristic", deals=3, seed=2)
    assert mixed.column("hands").equals(heuristic.column("hands"))
    assert read_metadata(tmp_path / "d.parquet")["params"]["play"] == play
    assert get_game("wimmueln").exact_play


@pytest.mark.slow  # compiles Mü's exact play and solves every card of the dd seat
def test_a_mu_dd_seat_among_heuristic_ones_plays_cards_that_musim_solve_finds_best(tmp_path):
    """A Mü dd seat among heuristic ones: each of its cards has the best value `musim solve
    --all-moves` gives its side in the position (the most for the chief's team, the least for
    the others); the heuristic seats' cards are the heuristic's."""
    dd_seat, checked = 1, 0
    for deal in range(3):
        res = invoke("record", "--players", 3, "--seed", 4, "--play", "heuristic,dd,heuristic", "--deal", deal)
        assert res.exit_code == 0, res.output
        (tmp_path / "record.json").write_text(res.output)
        result = json.loads(invoke("replay", tmp_path / "record.json").output)
        if result["outcome"] == "eklat":
            continue
        mu = HeuristicMu(json.loads(res.output), result)
        assert all(h == m for _, h, m in mu.auction()) and all(h == m for _, h, m in mu.contract())
        heuristic = list(mu.cards())
        for (seat, at, made), (_, choice, _) in zip(mu.positions(), heuristic):
            if seat != dd_seat:
                assert choice == made
                continue
            (tmp_path / "position.json").write_text(json.dumps(mu.solved(seat, at)))
            solved = invoke("solve", tmp_path / "position.json", "--all-moves")
            assert solved.exit_code == 0, solved.output
            values = json.loads(solved.output)["moves"]
            best = max(values.values()) if seat == result["chief"] else min(values.values())
            assert values[made] == best, (deal, at["k"], made, values)
            checked += 1
    assert checked > 0


def test_a_stopped_per_seat_runs_resume_command_names_the_seats_policies():
    """The command that continues a stopped run gives --play as the run was keyed, and --tt-mb
    when a seat plays exactly."""
    import shlex

    from musim.engine.run import default_out, resume_command
    from musim.engine.spec import RunSpec, checked

    spec = RunSpec("wimmueln", "deals", 10, 3, "dd, heuristic,heuristic", seed=1, workers=1)
    game = checked(spec)
    spec.out = default_out(spec, game)
    args = shlex.split(resume_command(spec, game))
    assert args[args.index("--play") + 1] == "dd,heuristic,heuristic" and "--tt-mb" in args
    assert args[args.index("--out") + 1] == "runs/wimmueln-3p-dd,heuristic,heuristic-seed1"


def test_an_auction_model_bids_for_every_seat_but_the_random_ones(tmp_path):
    """`--auction bold` raises the bids of the heuristic seats; a random seat still bids at random,
    so a table of random seats alone takes no model."""
    mixed = "random,heuristic,heuristic"
    cautious = run(tmp_path / "c.parquet", "mu", mixed, deals=1000)
    bold = run(tmp_path / "b.parquet", "mu", mixed, "--auction", "bold", deals=1000)
    assert bold.column("hands").equals(cautious.column("hands"))
    assert np.nanmean(bold.column("bid").to_numpy(zero_copy_only=False).astype(float)) > np.nanmean(
        cautious.column("bid").to_numpy(zero_copy_only=False).astype(float)
    )
    refused = invoke(*run_args("mu", "random,random,random", 3, 10, 1), "--auction", "bold")
    assert refused.exit_code == 2 and "--auction" in refused.output
