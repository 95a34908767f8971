"""The search player's exact endgames value each card in a world as brute-force minimax does:
Mü (reference_dd, the chief's team's points from the position, the searcher's side's card
points), Wimmüln (test_wimmueln_solve.brute_force, the searcher's card points and estimate bonus
against all the others), The Last Panther (test_panther_solve.brute_force, the searcher's
points against all the others), on small random positions; and a `search` seat's cards are legal with
exact endgames and set-up search on."""

import random

import numpy as np
import pytest
from reference import points_of
from reference_dd import dd_value
from test_panther_solve import brute_force as panther_brute_force
from test_panther_solve import random_ending as panther_ending
from test_solver import random_position
from test_wimmueln_solve import COLOURS, brute_force, random_ending

from musim.core.bits import bit
from musim.core.deck import MU
from musim.games.mu import policies, rules, search_player
from musim.games.mu import simulate as sim
from musim.games.panther import search as psearch
from musim.games.panther.rules import deck as panther_deck
from musim.games.panther.rules import legal as panther_legal
from musim.games.wimmueln import search as wsearch
from musim.games.wimmueln.rules import legal as wim_legal

pytestmark = pytest.mark.slow  # compiles every search with its solver (minutes cold); off by default

HEURISTIC_PLAY = np.full(sim.MAX_PLAYERS, policies.HEURISTIC, np.int64)  # every seat's card-play code


def mask(cards):
    m = np.uint64(0)
    for c in cards:
        m |= bit(c)
    return m


def indices(texts, avail):
    """Card indices of `texts`, a free copy each (the deck holds some cards twice); avail: [mask]."""
    out = []
    for t in texts:
        out.append(MU.index(t, avail[0]))
        avail[0] &= ~(1 << out[-1])
    return out


def mu_world(n, hands, leader, trick, team, chief_trump, vice_trump, tricks):
    """A Mü search context whose one world is the position itself (every hand fixed)."""
    ws = sim.make_workspace(n, worlds=1, exact_tricks=tricks)
    chief = min(team)
    partner = max(team) if len(team) > 1 else -1
    sim.set_team(n, chief, partner, ws)
    rules.fill_contract(chief_trump, vice_trump, ws.klass, ws.power, ws.class_mask)
    rules.fill_tier_masks(chief_trump, vice_trump, ws.tier_mask)
    ctx = ws.search
    search_player.announce(ctx, n, np.zeros(sim.MAX_PLAYERS, np.uint64), 0)
    search_player.begin(ctx, n, chief, chief_trump, vice_trump, HEURISTIC_PLAY)
    m = ctx.meta
    m[search_player.SEAT], m[search_player.N], m[search_player.LEADER] = (leader + len(trick)) % n, n, leader
    m[search_player.COUNT], m[search_player.HOLDERS] = len(trick), 0
    for s in range(n):
        ctx.fixed[s], ctx.start_points[s] = mask(hands[s]), 0
    for j, c in enumerate(trick):
        ws.trick[j] = c
    return ctx


@pytest.mark.parametrize("n, tricks", [(3, 4), (4, 3), (5, 2), (6, 2)])
def test_mu_exact_values_are_the_brute_force_minimax(n, tricks):
    rng = random.Random(61 + n)
    for i in range(25):
        _, args = random_position(rng, n, tricks, mid_trick=i % 2 == 1)
        _, hands, leader, trick, team, *_ = args
        _, moves = dd_value(*args)
        ctx = mu_world(*args, tricks)
        seat = (leader + len(trick)) % n
        legal = mask(moves)
        totals = np.zeros(64)
        search_player.exact_values(ctx, legal, totals, 2.0)  # a world of weight 2 counts twice
        left = points_of([c for h in hands for c in h] + list(trick))
        for c, team_points in moves.items():
            assert totals[c] == 2 * (team_points if seat in team else left - team_points), (args, c)


@pytest.mark.parametrize("n, tricks", [(3, 3), (4, 2), (6, 2)])
def test_wimmueln_exact_values_are_the_brute_force_minimax(n, tricks):
    rng = random.Random(n)
    ctx = wsearch.make_context(1, n, tricks)
    checked = 0
    for _ in range(40):
        obj = random_ending(rng, n, tricks)
        if set(obj["estimates"]) & ({c for h in obj["hands"] for c in h} | set(obj["trick"])):
            continue
        leader, trick = obj["leader"], obj["trick"]
        seat = obj["seat"] = (leader + len(trick)) % n
        _, moves = brute_force(obj)
        m = ctx.meta
        m[wsearch.N], m[wsearch.SEAT], m[wsearch.LEADER], m[wsearch.K] = n, seat, leader, len(trick)
        m[wsearch.TRUMP] = -1 if obj["trump"] is None else COLOURS.index(obj["trump"])
        avail = [MU.full]
        for s in range(n):
            ctx.held[s] = mask(indices(obj["hands"][s], avail))
            ctx.won[s], ctx.points[s] = obj["tricks"] if s == seat else 0, 5 if s == seat else 0
        cards = indices(trick, avail)
        ctx.trick[: len(cards)] = cards
        ctx.estimates[seat] = indices(obj["estimates"], avail)
        legal = wim_legal(ctx.held[seat], cards[0] if cards else -1, m[wsearch.TRUMP])
        totals = np.zeros(64)
        wsearch.exact_values(ctx, legal, totals, 2.0)  # a world of weight 2 counts twice
        for c in range(64):
            if int(legal) >> c & 1:
                assert totals[c] == 2 * (5 + moves[MU.text(c)]), (obj, MU.text(c))
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("n, tricks", [(3, 3), (4, 2), (5, 2)])
def test_panther_exact_values_are_the_brute_force_minimax(n, tricks):
    rng = random.Random(n + 7)
    ctx = psearch.make_context(1, n, tricks)
    for _ in range(30):
        obj = panther_ending(rng, n, tricks)
        leader, trick = obj["leader"], obj["trick"]
        seat = (leader + len(trick)) % n
        _, moves = panther_brute_force(n, obj["hands"], leader, trick, seat)
        m = ctx.meta
        m[psearch.N], m[psearch.SEAT], m[psearch.LEADER], m[psearch.K] = n, seat, leader, len(trick)
        m[psearch.SCORE] = 7
        avail = [int(panther_deck(n))]
        for s in range(n):
            ctx.base[s] = mask(indices(obj["hands"][s], avail))
        cards = indices(trick, avail)
        ctx.trick0[: len(cards)] = cards
        legal = panther_legal(ctx.base[seat], cards[0] if cards else -1)
        totals = np.zeros(64)
        psearch.exact_values(ctx, legal, totals, 2.0)  # a world of weight 2 counts twice
        for c in range(64):
            if int(legal) >> c & 1:
                assert totals[c] == 2 * (7 + moves[MU.text(c)]), (obj, MU.text(c))
