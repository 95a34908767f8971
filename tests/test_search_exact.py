"""The search player's exact endgames value each card in a world as brute-force minimax does:
Mü (reference_dd, the chief's team's points from the position, the searcher's side's card
points), Wimmüln (test_wimmueln_solve.brute_force, the searcher's card points and estimate bonus
against all the others), The Last Panther (test_panther_solve.brute_force, the searcher's
points against all the others), Mückenstich (each move followed by every seat's `dd` choice,
found by plain minimax of its own tricks, and the deal scored by reference_mueckenstich), on
small random positions; and a `search` seat's cards are legal with exact endgames and set-up
search on."""

import random
from functools import cache

import numpy as np
import pytest
import reference_mueckenstich as mref
from reference import points_of
from reference_dd import dd_value
from test_mueckenstich_solve import moves_of
from test_mueckenstich_solve import random_ending as mk_ending
from test_panther_solve import brute_force as panther_brute_force
from test_panther_solve import random_ending as panther_ending
from test_solver import random_position
from test_wimmueln_solve import COLOURS, brute_force, random_ending

from musim.core.bits import bit, lowest
from musim.core.deck import MU
from musim.games.mu import policies, rules, search_player
from musim.games.mu import simulate as sim
from musim.games.mueckenstich import cardplay
from musim.games.mueckenstich import rules as mrules
from musim.games.mueckenstich import search as msearch
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
def test_mu_solved_values_are_the_brute_force_minimax(n, tricks):
    rng = random.Random(61 + n)
    for i in range(25):
        _, args = random_position(rng, n, tricks, mid_trick=i % 2 == 1)
        _, hands, leader, trick, team, *_ = args
        _, moves = dd_value(*args)
        ctx = mu_world(*args, tricks)
        seat = (leader + len(trick)) % n
        legal = mask(moves)
        totals = np.zeros(64)
        search_player.solved_values(ctx, ctx.dd, legal, totals, 2.0)  # a world of weight 2 counts twice
        left = points_of([c for h in hands for c in h] + list(trick))
        for c, team_points in moves.items():
            assert totals[c] == 2 * (team_points if seat in team else left - team_points), (args, c)


@pytest.mark.parametrize("n, tricks", [(3, 3), (4, 2), (6, 2)])
def test_wimmueln_solved_values_are_the_brute_force_minimax(n, tricks):
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
        wsearch.solved_values(ctx, ctx.dd, legal, totals, 2.0)  # a world of weight 2 counts twice
        for c in range(64):
            if int(legal) >> c & 1:
                assert totals[c] == 2 * (5 + moves[MU.text(c)]), (obj, MU.text(c))
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("n, tricks", [(3, 3), (4, 2), (5, 2)])
def test_panther_solved_values_are_the_brute_force_minimax(n, tricks):
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
        psearch.solved_values(ctx, ctx.dd, legal, totals, 2.0)  # a world of weight 2 counts twice
        for c in range(64):
            if int(legal) >> c & 1:
                assert totals[c] == 2 * (7 + moves[MU.text(c)]), (obj, MU.text(c))


def mk_play(n, hands, leader, trick, trump, move):
    """(hands, leader, trick, trump, (taker, cards) of a trick the move completes, else None)."""
    c, named = move
    mover = (leader + len(trick)) % n
    hands = hands[:mover] + (tuple(x for x in hands[mover] if x != c),) + hands[mover + 1 :]
    trick, trump = trick + (c,), trump if named is None else named
    if len(trick) < n:
        return hands, leader, trick, trump, None
    taker = (leader + mref.winner(list(trick), trump)) % n
    return hands, taker, (), trump, (taker, trick)


@cache
def mk_tricks(n, seat, hands, leader, trick, trump):
    """The tricks `seat` wins from here, every other seat minimising them (plain minimax)."""
    mover = (leader + len(trick)) % n
    if not hands[mover]:
        return 0
    options = moves_of(hands[mover], trick[0] if trick else None)
    values = [mk_tricks_after(n, seat, hands, leader, trick, trump, m) for m in options]
    return max(values) if mover == seat else min(values)


def mk_tricks_after(n, seat, hands, leader, trick, trump, move):
    *position, taken = mk_play(n, hands, leader, trick, trump, move)
    return (taken is not None and taken[0] == seat) + mk_tricks(n, seat, *position)


def mk_dd_end(n, hands, leader, trick, trump, won, tricks):
    """Every seat plays as `--play dd` (docs/players.md): of the moves keeping its own tricks from
    here, the first by card index (a mosquito the first colour); the won piles and tricks at the end."""
    while hands[mover := (leader + len(trick)) % n]:
        options = moves_of(hands[mover], trick[0] if trick else None)
        values = [mk_tricks_after(n, mover, hands, leader, trick, trump, m) for m in options]
        hands, leader, trick, trump, taken = mk_play(n, hands, leader, trick, trump, options[values.index(max(values))])
        if taken is not None:
            won[taken[0]] += taken[1]
            tricks[taken[0]] += 1
    return won, tricks


def mk_named(won, n, seat, taken, zero):
    """The colour the heuristic names at scoring (docs/players.md): as double the colour where it
    won most number cards, as zero the fewest, ties the worse for the others, then the first."""

    def count(s, c):
        return sum(mref.colour(x) == c and not mref.is_mosquito(x) for x in won[s])

    keys = []
    for c in range(4):
        if c != taken:
            own, others = count(seat, c), sum(count(s, c) for s in range(n) if s != seat)
            keys.append(((-own, others) if zero else (own, -others), -c, c))
    return max(keys)[2]


def mk_score(n, won, tricks, seat):
    """`seat`'s deal score (docs/rules.md §8): the single seat with the fewest tricks names the
    double colour, the single seat with the most mosquitoes won the zero colour."""
    double = zero = None
    if (by := mref.single(tricks, False)) is not None:
        double = mk_named(won, n, by, None, False)
    if (by := mref.single([sum(map(mref.is_mosquito, w)) for w in won], True)) is not None:
        zero = mk_named(won, n, by, double, True)
    letter = [None if c is None else mref.COLOURS[c] for c in (double, zero)]
    return mref.score(won[seat], *letter)


def mk_position(rng, n, tricks):
    """A random ending (test_mueckenstich_solve.random_ending) after random earlier tricks: (hands,
    leader, trick, trump, won piles, tricks won)."""
    obj, hands, trick, trump = mk_ending(rng, n, tricks)
    used = {c for h in hands for c in h} | set(trick)
    pool = [c for c in range(64) if c not in used]
    rng.shuffle(pool)
    won, count = [[] for _ in range(n)], [0] * n
    for t in range(int(mrules.tricks_per_deal(n)) - tricks):
        taker = rng.randrange(n)
        won[taker] += pool[t * n : (t + 1) * n]
        count[taker] += 1
    return hands, obj["leader"], trick, trump, won, count


@pytest.mark.parametrize("n, tricks", [(3, 1), (3, 2), (3, 3), (4, 1), (4, 2), (4, 3)])
def test_mueckenstich_solved_values_are_each_move_then_dd_play_scored(n, tricks):
    """Each legal move (a mosquito with each trump) in a world: the searcher's deal score once
    every seat has played on double-dummy, its earlier tricks counted."""
    rng = random.Random(610 + 10 * n + tricks)
    ctx = msearch.make_context(1, (), n, tricks)
    root, spread = ctx.root, 0
    for _ in range(60):
        hands, leader, trick, trump, won, count = mk_position(rng, n, tricks)
        seat = (leader + len(trick)) % n
        for s in range(n):
            root.held[s], root.won[s], root.tricks[s] = mask(hands[s]), mask(won[s]), count[s]
        root.trick[: len(trick)] = trick
        played = [c for w in won for c in w] + trick
        at = (n * (int(mrules.tricks_per_deal(n)) - tricks) + len(trick), leader, -1 if trump is None else trump)
        root.at[: cardplay.WINNER] = at
        root.at[cardplay.WINNER] = mref.winner(trick, trump) if trick else 0
        root.at[cardplay.COUNT] = sum(map(mref.is_mosquito, played))
        ctx.meta[msearch.SEAT], ctx.meta[msearch.PLAYERS] = seat, n
        ok = np.uint64(mrules.legal(root.held[seat], trick[0] if trick else -1))
        moves = np.uint64(msearch.move_mask(ok))
        totals = np.zeros(64)
        msearch.solved_values(ctx, ctx.dd, moves, totals, 2.0)  # a world of weight 2 counts twice
        start = tuple(tuple(sorted(h)) for h in hands)
        got = {}
        for code in mref.cards_of(moves):
            card = lowest(root.held[seat] & msearch.CARDS[code])
            move = (card, int(msearch.NAMES[code]) if mref.is_mosquito(card) else None)
            *position, taken = mk_play(n, start, leader, tuple(trick), trump, move)
            piles, tally = [list(w) for w in won], list(count)
            if taken is not None:
                piles[taken[0]] += taken[1]
                tally[taken[0]] += 1
            got[code] = mk_score(n, *mk_dd_end(n, *position, piles, tally), seat)
            assert totals[code] == 2 * got[code], (hands, trick, trump, leader, move)
        spread += len(set(got.values())) > 1
    assert spread > 2  # the moves' values differ in some positions
