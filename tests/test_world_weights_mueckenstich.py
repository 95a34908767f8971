"""Mückenstich's weighted worlds (musim/games/mueckenstich/weights.py, docs/players.md "Search"):
each world's weight equals a pure-Python reading of the deal so far (every other seat's move by
soft_rule against the heuristic's); unweighted, every world weighs 1 and the worlds drawn are the
uniform sampler's; weighted worlds predict who holds the hidden cards better than uniform ones on
held-out deals; `search` is no longer `search-uniform` (the parameters' file and key:
test_world_weights_files.py)."""

import numpy as np
import pytest
from search_checks import (
    check_search_seats_search_their_setup,
    check_unweighted_worlds_are_the_uniform_samplers,
    check_weighted_worlds_predict_better,
)

from musim.core.rng import stream_state
from musim.engine.seats import seat_policies
from musim.games.mueckenstich import WEIGHTS, beliefs, cardplay, policies, rules, setup_search, weights
from musim.games.mueckenstich import search as msearch
from musim.games.mueckenstich.simulate import make_workspace, simulate_deals

pytestmark = pytest.mark.slow  # compiles the search player with its weights and replays (minutes cold)


def same(a, b):
    kind = (rules.CARD_COLOUR[a], rules.CARD_RANK[a], bool(rules.is_mosquito(a)))
    return kind == (rules.CARD_COLOUR[b], rules.CARD_RANK[b], bool(rules.is_mosquito(b)))


def reference(n, seat, first, moves, world, departure):
    """The weight of a world (hands `world`) at `seat`'s decision after `moves` (seat, card,
    trump named), every other seat a heuristic one."""
    tb = cardplay.make_table()
    cardplay.start(n, tb, first)
    for s in range(n):
        tb.held[s] = int(world[s]) | sum(1 << c for m, c, _ in moves if m == s)
    stop = np.full(rules.MAX_PLAYERS, policies.SEARCH, np.int64)
    p = 1.0
    for pos, (s, c, named) in enumerate(moves):
        k = pos % n
        if s != seat:
            ok = np.uint64(rules.legal(tb.held[s], tb.trick[0] if k > 0 else -1))
            at = tb.at
            paid = rules.paid_colours(tb.won[s])
            rc, rt = policies.heuristic_move(ok, tb.held[s], tb.trick, k, n, at[2], at[3], paid)
            p *= 1.0 if same(c, rc) and (not rules.is_mosquito(c) or rt == named) else departure
        cardplay.play_on(n, stop, np.zeros(1, np.uint64), tb, None, c, named)
    return p


def table(players):
    codes = seat_policies(players, "heuristic", policies.NAMES)
    return make_workspace(players, codes), msearch.make_context(1, codes)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_each_worlds_weight_is_the_likelihood_of_what_the_others_did(players):
    rng = np.random.default_rng(players)
    ws, ctx = table(players)
    state = np.array([stream_state(3, players)], np.uint64)
    checked_worlds = 0
    for deal in range(5):
        moves = []
        for _, seat, tb in beliefs.decisions(players, 23, deal, ws, ctx):
            pos = tb.at[cardplay.POS]
            if pos % 2 == 1:
                departure = rng.uniform(0.05, 1.0)
                ctx.params[:] = (1.0, departure)
                msearch.world(ctx, state)
                expected = reference(
                    players, seat, int(ctx.meta[msearch.FIRST]), moves, ctx.root.held.copy(), departure
                )
                assert weights.weight(ctx) == pytest.approx(expected, rel=1e-9)
                checked_worlds += 1
            moves.append((seat, int(ws.log[pos]), int(ws.named[pos])))
    assert checked_worlds >= 100


def test_unweighted_every_world_weighs_one_and_the_worlds_are_the_uniform_samplers():
    ws, ctx = table(4)
    for _, _, tb in beliefs.decisions(4, 5, 0, ws, ctx):
        if tb.at[cardplay.POS] == 21:
            break
    grid = np.array([[0.5], [0.5], [0.1]])
    check_unweighted_worlds_are_the_uniform_samplers(ctx, msearch.world, ctx.root.held, grid)


def test_search_weights_its_worlds_and_search_uniform_does_not():
    """search-uniform's rows are the first search player's (tests/test_search_uniform.py)."""
    play = "search-uniform,heuristic,heuristic,heuristic"
    first = simulate_deals(4, 3, play, 0, 12, worlds=8)
    weighted = simulate_deals(4, 3, play.replace("search-uniform", "search"), 0, 12, worlds=8)
    assert (first["hands"] == weighted["hands"]).all()
    assert (first["scores"] != weighted["scores"]).any()


def test_weighted_worlds_predict_the_hidden_cards_better_than_uniform_ones():
    check_weighted_worlds_predict_better(beliefs, WEIGHTS, deals=30, margin=0.003)


def test_the_discard_search_tries_the_heuristic_discards_and_every_one_card_swap():
    ctx = table(4)[1]
    hand = np.uint64(sum(1 << c for c in range(15)))
    heuristic = policies.choose_discards(policies.HEURISTIC, hand, 2, np.zeros(1, np.uint64))
    count = setup_search.prepare(ctx, 4, hand, heuristic)
    discards = [int(m) for m in ctx.cand[:count]]
    assert discards[0] == int(heuristic) and count == 1 + 2 * 13 and len(set(discards)) == count
    assert all(bin(m).count("1") == 2 and m & ~int(hand) == 0 for m in discards)


def test_search_seats_search_their_discards_and_search_uniform_discards_as_the_heuristic():
    check_search_seats_search_their_setup(simulate_deals, "discards")
