"""Mü's weighted worlds (mu/world_weights.py, docs/players.md "Search"): each world's weight is the
likelihood of the public actions so far, checked against a plain Python replay of the deal;
a seat that does not weight counts every world once; a search seat's cards stay legal and its
rows do not depend on the workers; and the weighted worlds predict who holds which card better
than uniform ones (Brier score on held-out deals)."""

import math
import random

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.core.bits import bit
from musim.games.mu import beliefs, policies, rules, search_player, world_weights
from musim.games.mu import simulate as sim
from musim.games.mu.learned import bidder
from musim.games.mu.learned.features import context, value
from musim.games.mu.params import WEIGHTS, learned_model
from musim.io import arrays_file
from musim.play import drivers
from musim.play.world_weights import digest, resolve

pytestmark = pytest.mark.slow  # compiles the search player with its weights (minutes cold)
PARAMS = np.array([3.0, 0.15, 0.25, 0.1])  # tau, eps_auction, eps_setup, eps_play: not the shipped ones
H, BOLD, LEARNED, RANDOM = policies.HEURISTIC, policies.BOLD, policies.LEARNED, policies.RANDOM


def pc(x):
    return bin(int(x)).count("1")


def soft(chosen, ruled, options, eps):
    """A rule taken with probability 1 - eps, else a uniform choice among all the options."""
    return (1.0 - eps if chosen == ruled else 0.0) + eps / options


def played_deal(n, seed, deal, bid, play, weights=PARAMS):
    """A finished deal of heuristic play (None: an eklat) and its workspace, logs in it."""
    model = learned_model("")[1]
    ws = sim.make_workspace(n, worlds=4, learned=model, weights=weights)
    rows = drivers.simulate_layout_deals(sim.DEAL, n, sim.run_policy(bid, play), seed, deal, 1, ws)
    res = rows["res"][0]
    return (None, ws) if res[sim.OUTCOME] == sim.EKLAT else (rows, ws)


def walk(n, ws, chief, count):
    """The first `count` cards played: (seat, k, card, winner, winning position) each, by plain Python."""
    out, leader, wpos = [], chief, 0
    for pos in range(count):
        k = pos % n
        if k == 0 and pos:
            leader, wpos = (leader + wpos) % n, 0
        s, c = (leader + k) % n, int(ws.play_log[pos])
        out.append((s, k, c, (leader + wpos) % n, wpos))
        if k and rules.beats(c, int(ws.play_log[pos - k + wpos]), ws.klass, ws.power):
            wpos = k
    return out


def set_position(n, ws, rows, bid, play, pos):
    """Set the search context as the deal stood before card `pos`; returns (seat to play, history)."""
    res, hands, laid = rows["res"][0], rows["hands"][0], rows["laid"][0]
    chief, vice = int(res[sim.CHIEF]), int(res[sim.VICE])
    ctx, wg = ws.search, ws.search.weighing
    history = walk(n, ws, chief, pos + 1)
    seat, k, _, _, winner_pos = history[pos]
    history = history[:pos]
    search_player.announce(ctx, n, laid, int(res[sim.BID]))
    world_weights.heard(wg, n, int(rows["dealer"][0]), int(res[sim.AUCTION_TURNS]), bid)
    if vice >= 0:
        world_weights.named(wg, world_weights.VICE_NAMED, vice, int(res[sim.VICE_TRUMP]))
    world_weights.named(wg, world_weights.CONTRACT, vice, int(res[sim.VICE_TRUMP]))
    search_player.begin(ctx, n, chief, int(res[sim.CHIEF_TRUMP]), int(res[sim.VICE_TRUMP]), play)
    for s in range(n):
        ws.held[s] = hands[s]
    for i, (s, j, c, _, _) in enumerate(history):
        if j:
            search_player.note(ctx, s, c, int(ws.play_log[i - j]))
        ws.held[s] ^= bit(c)
    for j in range(k):
        ws.trick[j] = ws.play_log[pos - k + j]
    leader = history[pos - k][0] if k else seat
    points = np.zeros(sim.MAX_PLAYERS, np.int64)  # what the playouts start from: not weighed
    assert search_player.know(ctx, n, seat, leader, k, winner_pos, points, search_player.ALL_GROUPS, ws.klass)
    world_weights.prepare(ctx, wg, n, chief, True)
    return seat, history


def reference(n, ws, rows, bid, play, seat, history, world):
    """The world's likelihood (world_weights.py's module doc), replayed in plain Python."""
    res, laid_final = rows["res"][0], rows["laid"][0]
    tau, eps_a, eps_s, eps_p = PARAMS
    model, est, targets = learned_model("")[1], np.zeros(15), ws.targets
    hands0 = np.zeros(sim.MAX_PLAYERS, np.uint64)
    for s in range(n):
        hands0[s] = world[s] | sum((bit(c) for p, _, c, _, _ in history if p == s), np.uint64(0))
    plan_type, plan_bid = np.zeros(sim.MAX_PLAYERS, np.int64), np.zeros(sim.MAX_PLAYERS, np.int64)
    plan_est = np.zeros((sim.MAX_PLAYERS, 3))
    policies.plan_auction(bid, n, hands0, plan_type, plan_bid, est, targets)
    bidder.plan_learned(bid, n, hands0, plan_type, plan_est, est)
    m = sim.MAX_PLAYERS
    laid, counts, last, ties = (
        np.zeros(m, np.uint64),
        np.zeros(m, np.int64),
        -np.ones(m, np.int64),
        np.zeros(m, np.int64),
    )
    w, passes, s = 1.0, 0, int(rows["dealer"][0])
    for turn in range(int(res[sim.AUCTION_TURNS])):
        lay = int(ws.auction_log[turn])
        avail = int(hands0[s]) & ~int(laid[s])
        own, top = int(counts[s]), max(int(counts[o]) for o in range(n) if o != s)
        limit = min(1 if own > top else top + 1 - own, pc(avail))
        if s != seat and bid[s] in (H, BOLD, LEARNED) and limit > 0:
            k, t = pc(lay), int(plan_type[s])
            if bid[s] == LEARNED:
                turn_ctx = context(n, s, laid, counts, last, ties, passes, plan_type, plan_est)
                q = [float(value(model.weights, model.model_of[s], n, turn_ctx, targets, j)) for j in range(limit + 1)]
                p = math.exp(q[k] / tau) / sum(math.exp(x / tau) for x in q)
            else:
                r, tie = policies.lay_plan(n, s, laid, counts, top, t, int(plan_bid[s]), bid[s] == BOLD)
                p = soft(k, r, limit + 1, eps_a)
                p = p if tie < 0 else (2 * p + soft(k, tie, limit + 1, eps_a)) / 3
            if k:
                p *= soft(lay == int(policies.show_cards(np.uint64(avail), t, k)), True, 2, eps_a)
            w *= p
        if lay:
            laid[s] |= np.uint64(lay)
            counts[s] += pc(lay)
            last[s], passes = turn, 0
            ties[s] += counts[s] == max(int(counts[o]) for o in range(n) if o != s)
        else:
            passes += 1
        s = (s + 1) % n
    vice, vice_trump, chief = int(res[sim.VICE]), int(res[sim.VICE_TRUMP]), int(res[sim.CHIEF])
    for who, named, exclude, extra in ((vice, vice_trump, -1, 0), (chief, int(res[sim.CHIEF_TRUMP]), vice_trump, 1)):
        if who >= 0 and who != seat and bid[who] != RANDOM:
            allowed = rules.nameable_types(laid_final[who], exclude)
            ruled = policies.best_type(hands0[who], allowed, n, est)[0]
            w *= soft(named, ruled, pc(allowed) + extra, eps_s)
    hands, remaining = [int(h) for h in hands0[:n]], int(np.bitwise_or.reduce(hands0[:n]))
    for i, (s, k, c, winner, wpos) in enumerate(history):
        if s != seat and play[s] != RANDOM:
            trick = np.zeros(sim.MAX_PLAYERS, np.int64)
            trick[:k] = ws.play_log[i - k : i]
            legal = rules.legal_moves(np.uint64(hands[s]), trick[0] if k else -1, ws.klass, ws.class_mask)
            mate = ws.on_team[winner] == ws.on_team[s]
            ruled = policies.choose_card(
                H, legal, np.uint64(hands[s]), np.uint64(remaining & ~hands[s]), trick, k, k == n - 1, wpos, mate,
                ws.on_team[s], ws.klass, ws.power, ws.class_mask, ws.tier_mask, np.zeros(1, np.uint64),
            )  # fmt: skip
            w *= soft(c, ruled, pc(legal), eps_p)
        hands[s] ^= 1 << c
        remaining ^= 1 << c
    return w


def test_each_worlds_weight_is_the_likelihood_of_the_public_actions_replayed_in_python():
    rng = random.Random(61)
    checked = 0
    for n in (3, 4, 5, 6):
        for deal in range(40):
            bid = np.array([rng.choice((H, BOLD, LEARNED, RANDOM)) for _ in range(n)], np.int64)
            play = np.where(bid == RANDOM, RANDOM, H)
            rows, ws = played_deal(n, 7, deal, bid, play)
            if rows is None:
                continue
            seat, history = set_position(n, ws, rows, bid, play, rng.randrange(1, n * rules.hand_size(n) - 1))
            ctx, state = ws.search, np.array([deal + 1], np.uint64)
            for _ in range(3):
                search_player.world(ctx, state)
                w = search_player.weight(ctx)
                world = [int(ctx.fixed[s]) for s in range(n)]
                for h in range(ctx.meta[search_player.HOLDERS]):
                    world[ctx.seat_of[h]] |= int(ctx.drawn[h])
                assert w == pytest.approx(reference(n, ws, rows, bid, play, seat, history, world), rel=1e-9)
                checked += 1
    assert checked >= 300


def test_a_seat_that_does_not_weight_counts_every_world_once():
    rows, ws = played_deal(4, 7, 1, np.full(4, H), np.full(4, H))
    set_position(4, ws, rows, np.full(4, H), np.full(4, H), 20)
    ctx, state = ws.search, np.array([5], np.uint64)
    weighted, unweighted = [], []
    for on in (True, False):
        ctx.weighing.hist[world_weights.WEIGHTED] = on
        state[0] = 5
        for _ in range(50):
            search_player.world(ctx, state)
            (weighted if on else unweighted).append((search_player.weight(ctx), ctx.drawn.copy()))
    assert all(w == 1.0 for w, _ in unweighted)
    assert len({w for w, _ in weighted}) > 1  # the same worlds weigh differently when weighted ...
    assert all((a == b).all() for (_, a), (_, b) in zip(weighted, unweighted, strict=True))  # ... drawn alike


def test_with_every_parameter_uninformative_every_world_weighs_the_same_before_the_play():
    """tau -> infinity and every eps 1: each auction turn and trump is a uniform choice among
    options every world shares (a card's legal count differs between worlds, so only before the play)."""
    bid = np.array([H, BOLD, LEARNED, H, H], np.int64)
    for deal in range(6):
        rows, ws = played_deal(5, 7, deal, bid, np.full(5, H), np.array([1e300, 1.0, 1.0, 1.0]))
        if rows is None:
            continue
        set_position(5, ws, rows, bid, np.full(5, H), 0)
        ctx, state = ws.search, np.array([deal], np.uint64)
        weights = []
        for _ in range(30):
            search_player.world(ctx, state)
            weights.append(search_player.weight(ctx))
        assert min(weights) > 0 and max(weights) / min(weights) - 1 < 1e-12


def test_rows_are_the_same_on_one_or_two_workers_and_the_key_names_the_weights(tmp_path, monkeypatch):
    from musim.engine.run import run_key
    from musim.engine.spec import RunSpec, checked
    from musim.games.mu import run as mu_run

    monkeypatch.setattr(mu_run, "CHUNK_SEARCH_DEALS", 4)  # several chunks, so that both workers play

    def run(name, *args):
        out, play = tmp_path / name, "search,heuristic,heuristic,heuristic"
        args = ("--deals", 10, "--seed", 3, "--play", play, "--auction", "cautious,cautious,bold,learned", *args)
        res = CliRunner().invoke(cli, ["run", *map(str, args), "--search-worlds", "8", "--out", str(out)])
        assert res.exit_code == 0, res.output
        return pq.read_table(out).to_pydict()

    assert run("one", "--workers", 1) == run("two", "--workers", 2)
    spec = RunSpec(game="mu", mode="deals", count=10, players=4, play="search", seed=1, options={})
    assert run_key(spec, checked(spec))["params"]["options"]["search_weights"] == resolve(WEIGHTS, "")[0]


def test_a_weights_file_out_of_range_or_the_option_without_a_search_seat_is_refused_in_one_line(tmp_path):
    bad, params = tmp_path / "bad.npz", np.full((4, 4), 2.0)  # tau 2 is fine, an eps of 2 is not
    meta = {"format": 1, "game": "mu", "version": 1, "params_sha256": digest(params)}
    arrays_file.write(bad, {"params": params, "names": np.array(list(WEIGHTS.names))}, meta)
    args = ["run", "--deals", 2, "--play", "search", "--search-weights", bad, "--out", tmp_path / "r"]
    res = CliRunner().invoke(cli, [str(a) for a in args])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "eps_auction outside (0, 1)" in res.output.strip().splitlines()[-1]
    res = CliRunner().invoke(cli, ["run", "--deals", "2", "--search-weights", "v1", "--out", str(tmp_path / "h")])
    assert res.exit_code == 2 and "--search-weights applies only with --play search" in res.output
    res = CliRunner().invoke(cli, ["run", "--deals", "2", "--play", "search", "--world-weights", "v1"])
    assert res.exit_code == 2 and "No such option '--world-weights'" in res.output  # the old name is gone


def test_weighted_worlds_predict_who_holds_which_card_better_than_uniform_ones():
    """Held-out deals (seed 4242, never a fitting seed), the shipped parameters."""
    frame = beliefs.predictions(4, 40, 4242, WEIGHTS.row(resolve(WEIGHTS, "")[1], 4), worlds=128)
    assert len(frame) > 10_000
    assert beliefs.brier(frame, "weighted") < beliefs.brier(frame, "uniform")
