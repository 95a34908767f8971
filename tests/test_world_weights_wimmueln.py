"""Wimmüln's weighted worlds (musim/games/wimmueln/weights.py, docs/players.md "Search"): each
world's weight equals a pure-Python reading of the deal so far (estimates by their numbers'
distance from the rule's, the free lead and every other seat's card by soft_rule); unweighted,
every world weighs 1 and the worlds drawn are those of the uniform sampler; weighted worlds
predict who holds the hidden cards better than uniform ones on held-out deals (the parameters'
file and key: test_world_weights_files.py)."""

import itertools

import numpy as np
import pytest
from search_checks import check_unweighted_worlds_are_the_uniform_samplers, check_weighted_worlds_predict_better
from test_search_wimmueln import positions, view_at

from musim.core.rng import stream_state
from musim.games.wimmueln import WEIGHTS, beliefs, policies, rules, weights
from musim.games.wimmueln import search as wsearch
from musim.play.tricks import highest_ranked

pytestmark = pytest.mark.slow  # compiles the search player with its weights and replays (minutes cold)

RANK = rules.CARD_RANK


def same(a, b):
    return rules.CARD_COLOUR[a] == rules.CARD_COLOUR[b] and RANK[a] == RANK[b]


def soft(matched, r):
    return 1.0 if matched else r


def estimate_p(hand, up, down, ru, rd, q):
    """P(up, down): q to the distance of the pair's numbers from the rule's, over every ordered pair."""
    cards = [c for c in range(64) if hand >> c & 1]
    w = {(a, b): q ** (abs(RANK[a] - RANK[ru]) + abs(RANK[b] - RANK[rd])) for a, b in itertools.permutations(cards, 2)}
    return w[(up, down)] / sum(w.values())


def reference(row, play, stop, players, seat, world, down, q, r):
    """The weight of a world (hands `world`, face-down estimates `down`) at `seat`'s decision
    before card `stop`, every other seat a heuristic one."""
    n, dealer, trump, est = players, int(row["dealer"]), int(row["trump"]), row["estimates"]
    movers = view_at(row, play, n, stop)[-1]
    hands = [int(world[s]) for s in range(n)]
    for i in range(stop):
        hands[movers[i]] |= 1 << play[i]
    p = 1.0
    for s in range(n):
        if s == seat:
            continue
        up = int(est[s, 0])
        hand = hands[s] | 1 << up | 1 << down[s]
        if s == dealer and trump < 0:
            p *= soft(same(play[0], highest_ranked(np.uint64(hand), RANK)), r)
        extra = 0
        if s == dealer:
            hand &= ~(1 << play[0])
            extra = policies.strength(play[0], trump)
        ru, rd = policies.choose_estimates(
            policies.HEURISTIC, np.uint64(hand), trump, extra, rules.tricks_per_deal(n), np.zeros(1, np.uint64),
            *(np.zeros(20, np.int64) for _ in range(3)),
        )  # fmt: skip
        p *= estimate_p(hand, up, down[s], int(ru), int(rd), q)
    won, leader, trick = [0] * n, dealer, []
    for i in range(stop):
        s, c, t = movers[i], play[i], i // n
        if i > 0 and s != seat:
            ok = int(rules.legal(np.uint64(hands[s]), trick[0] if trick else -1, trump))
            wp = int(rules.trick_winner(np.array(trick + [0], np.int64), len(trick), trump)) if trick else 0
            win = policies.wants_to_win(won[s], rules.tricks_per_deal(n) - t, RANK[est[s, 0]], RANK[down[s]])
            tr = np.array(trick + [0] * (6 - len(trick)), np.int64)
            ruled = policies.heuristic_card(np.uint64(ok), tr, len(trick), wp, trump, win)
            p *= soft(same(c, ruled), r)
        hands[s] &= ~(1 << c)
        trick.append(c)
        if len(trick) == n:
            leader = (leader + int(rules.trick_winner(np.array(trick, np.int64), n, trump))) % n
            won[leader] += 1
            trick = []
    return p


def decision(ctx, row, play, players, stop):
    """Take the deal to the decision before card `stop`: notes, then the seat's view; its seat."""
    held, trick, won, points, leader, winner, _, movers = view_at(row, play, players, stop)
    revealed = [int(c) for c in row["revealed"]]
    wsearch.begin(ctx, players, int(row["dealer"]), revealed[0], revealed[1], int(row["trump"]))
    for i, c in enumerate(play[:stop]):
        wsearch.note(ctx, movers[i], i // players, i % players, c, play[i - i % players])
    seat = (leader + len(trick)) % players
    truth = np.array(held + [0] * (6 - players), np.uint64)
    tr = np.array(trick + [0] * (6 - len(trick)), np.int64)
    wsearch.look(
        ctx,
        seat,
        stop // players,
        len(trick),
        leader,
        winner,
        truth,
        tr,
        row["estimates"],
        np.array(won),
        np.array(points),
    )
    return seat


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_worlds_weight_is_the_likelihood_of_what_the_others_did(players):
    rng = np.random.default_rng(players)
    ctx = wsearch.make_context(1)
    state = np.array([stream_state(3, players)], np.uint64)
    count = players * int(rules.tricks_per_deal(players))
    checked_worlds = 0
    for row, play in positions(players, 17, 25):
        stop = int(rng.integers(1, count))
        seat = decision(ctx, row, play, players, stop)
        for _ in range(4):
            q, r = rng.uniform(0.3, 1.0), rng.uniform(0.05, 1.0)
            ctx.params[:] = (1.0, q, r)
            wsearch.world(ctx, state)
            down = [int(ctx.estimates[s, 1]) for s in range(players)]
            expected = reference(row, play, stop, players, seat, ctx.held.copy(), down, q, r)
            assert weights.weight(ctx) == pytest.approx(expected, rel=1e-9)
            checked_worlds += 1
    assert checked_worlds == 100


def test_unweighted_every_world_weighs_one_and_the_worlds_are_the_uniform_samplers():
    ctx = wsearch.make_context(1)
    row, play = next(positions(4, 5, 1))
    decision(ctx, row, play, 4, 23)
    grid = np.array([[0.5, 0.5], [0.9, 0.35], [0.6, 0.1]])
    check_unweighted_worlds_are_the_uniform_samplers(ctx, wsearch.world, ctx.held, grid)


def test_weighted_worlds_predict_the_hidden_cards_better_than_uniform_ones():
    check_weighted_worlds_predict_better(beliefs, WEIGHTS, deals=30, margin=0.003)
