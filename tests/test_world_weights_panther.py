"""The Last Panther's weighted worlds (musim/games/panther/weights.py, docs/players.md "Search"):
each world's weight equals a pure-Python reading of the deal so far (the pass received as a soft
constraint, every other seat's card by soft_rule); unweighted, every world weighs 1 and the
worlds drawn are the uniform sampler's; weighted worlds predict who holds the hidden cards better
than uniform ones on held-out deals (their file and key: test_world_weights_files.py)."""

import numpy as np
import pytest
from search_checks import (
    check_search_seats_search_their_setup,
    check_unweighted_worlds_are_the_uniform_samplers,
    check_weighted_worlds_predict_better,
)

from musim.core.rng import stream_state
from musim.engine.seats import seat_policies
from musim.games.panther import WEIGHTS, beliefs, policies, rules, setup_search, weights
from musim.games.panther import search as psearch
from musim.games.panther.simulate import make_workspace, simulate_deals

pytestmark = pytest.mark.slow  # compiles the search player with its weights and replays (minutes cold)


def cards(mask):
    return [c for c in range(64) if int(mask) >> c & 1]


def same(a, b):
    return rules.CARD_COLOUR[a] == rules.CARD_COLOUR[b] and rules.CARD_RANK[a] == rules.CARD_RANK[b]


def soft(matched, r):
    return 1.0 if matched else r


def reference(ctx, n, seat, pos, passed, world, pass_ratio, play_ratio):
    """The weight of a world (hands `world`) at `seat`'s decision before card `pos`."""
    leads, hist = ctx.leads, ctx.hist
    movers = [(int(leads[i // n]) + i % n) % n for i in range(pos)]
    hands = [int(world[s]) for s in range(n)]
    for i in range(pos):
        hands[movers[i]] |= 1 << int(hist[i])
    right = (seat - 1) % n
    least = min(policies.danger(c) for c in cards(passed[right]))
    above = sum(policies.danger(c) > least for c in cards(hands[right]))
    excess = above - rules.pass_count(n) - (least < 100)
    p = pass_ratio**excess if excess > 0 else 1.0
    trick = []
    for i in range(pos):
        s, c = movers[i], int(hist[i])
        if s != seat:
            ok = int(rules.legal(np.uint64(hands[s]), trick[0] if trick else -1))
            wp = int(rules.trick_winner(np.array(trick + [0], np.int64), len(trick))) if trick else 0
            tr = np.array(trick + [0] * (rules.MAX_PLAYERS - len(trick)), np.int64)
            ruled = policies.heuristic_card(np.uint64(ok), np.uint64(hands[s]), tr, len(trick), len(trick) == n - 1, wp)
            p *= soft(same(c, ruled), play_ratio)
        hands[s] &= ~(1 << c)
        trick = [] if len(trick) == n - 1 else trick + [c]
    return p


def table(players):
    codes = seat_policies(players, "heuristic", policies.NAMES)
    return make_workspace(players, codes), psearch.make_context(1, players, 0, codes)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_each_worlds_weight_is_the_likelihood_of_what_the_others_did(players):
    rng = np.random.default_rng(players)
    ws, ctx = table(players)
    state = np.array([stream_state(3, players)], np.uint64)
    checked_worlds = 0
    for deal in range(6):
        for pos, (_, seat, _, passed) in enumerate(beliefs.decisions(players, 23, deal, ws, ctx)):
            for _ in range(2 if pos % 3 == 1 else 0):
                pass_ratio, play_ratio = rng.uniform(0.05, 1.0, 2)
                ctx.params[:] = (1.0, pass_ratio, play_ratio)
                psearch.world(ctx, state)
                expected = reference(ctx, players, seat, pos, passed, ctx.base.copy(), pass_ratio, play_ratio)
                assert weights.weight(ctx) == pytest.approx(expected, rel=1e-9)
                checked_worlds += 1
    assert checked_worlds >= 150


def test_unweighted_every_world_weighs_one_and_the_worlds_are_the_uniform_samplers():
    ws, ctx = table(4)
    for pos, _ in enumerate(beliefs.decisions(4, 5, 0, ws, ctx)):
        if pos == 21:
            break
    grid = np.array([[0.5, 0.5], [0.8, 0.35], [0.2, 0.1]])
    check_unweighted_worlds_are_the_uniform_samplers(ctx, psearch.world, ctx.base, grid)


def test_weighted_worlds_predict_the_hidden_cards_better_than_uniform_ones():
    check_weighted_worlds_predict_better(beliefs, WEIGHTS, deals=20, margin=0.005)


def test_the_pass_search_tries_the_heuristic_pass_and_every_one_card_swap():
    ctx = table(4)[1]
    hand = np.uint64(sum(1 << c for c in cards(rules.deck(4))[:15]))
    heuristic = policies.choose_pass(policies.HEURISTIC, hand, 3, np.zeros(1, np.uint64))
    count = setup_search.prepare(ctx, 4, 0, hand, heuristic)
    passes = [int(m) for m in ctx.cand[:count]]
    assert passes[0] == int(heuristic) and count == 1 + 3 * 12 and len(set(passes)) == count
    assert all(bin(m).count("1") == 3 and m & ~int(hand) == 0 for m in passes)


def test_search_seats_search_their_pass_and_search_uniform_passes_as_the_heuristic():
    check_search_seats_search_their_setup(simulate_deals, "passed")
