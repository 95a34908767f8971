"""Whole deals of Mückenstich as numba kernels: deal, discard, play, name colours, score.

Runs of deals and matches go through musim.play.drivers (deal k of a run draws from the
stream keyed by (seed, k)): four cards are set aside at random, the other 60 dealt.  A
deal's columns are laid out by DEAL; `simulate_deals` and `simulate_matches` are the
Python entry points: one array per column, one row per deal (match).
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit
from musim.core.deal import deal_cards
from musim.core.deck import MUECKENSTICH as DECK
from musim.core.rng import random_bit
from musim.games.mueckenstich import cardplay, policies, setup_search, weights
from musim.games.mueckenstich import search as msearch
from musim.games.mueckenstich.rules import MAX_PLAYERS, UNDEALT, discard_count, match_deals, tricks_per_deal
from musim.games.mueckenstich.search import begin, decide, make_context
from musim.games.mueckenstich.solve import solver_game
from musim.games.seat_solve import worker_dd
from musim.play import drivers, search
from musim.play.drivers import SEATS
from musim.play.search_budget import DEFAULT_WORLDS
from musim.solver.choice import cards_limited
from musim.solver.table_size import DEFAULT_MB

Workspace = namedtuple("Workspace", "cards held won trick voids log named at rng deal dd search")
FULL = np.uint64(DECK.full)
NAMING = 4  # per deal: double colour, its namer, zero colour, its namer (-1: none)
Deal = namedtuple(  # one deal's results
    "Deal", "hands discards scores tricks mosquitoes_played mosquitoes_won trumps naming dd_limited"
)
DEAL = Deal(  # their columns (musim.play.drivers.deal_arrays): per seat hands and discards (uint64
    # masks), scores, tricks, mosquitoes_played and mosquitoes_won; trumps (the colours named, in
    # play order, -1 after the last); naming (NAMING); the dd cards whose search gave up
    # (solver/choice.py cards_limited)
    hands=(np.uint64, (SEATS,)),
    discards=(np.uint64, (SEATS,)),
    scores=(np.int64, (SEATS,)),
    tricks=(np.int64, (SEATS,)),
    mosquitoes_played=(np.int64, (SEATS,)),
    mosquitoes_won=(np.int64, (SEATS,)),
    trumps=(np.int64, (cardplay.MOSQUITO_COUNT,)),
    naming=(np.int64, (NAMING,)),
    dd_limited=(np.int64, ()),
)


def make_workspace(
    players=None, seat_policy=(), tt_mb=DEFAULT_MB, worlds=DEFAULT_WORLDS, node_limit=0, exact_tricks=0, weights=""
):
    """Scratch arrays for one thread's deals; deal: one deal's results in a match; with
    a seat playing dd (seat_policy: codes per seat) the solver's scratch for `players` seats and a
    table of tt_mb, each card's searches within node_limit nodes (seat_solve.worker_dd), else none;
    with a seat searching its context, drawing `worlds` worlds a decision, with `exact_tricks`
    exact endgames where a seat plays `search`, weighted there by the parameters `weights` names (a
    search_weights value; search.make_context), else none."""
    z = np.zeros
    searching = {policies.SEARCH, policies.SEARCH_UNIFORM} & {int(c) for c in seat_policy}
    exact = exact_tricks if policies.SEARCH in searching else 0
    return Workspace(
        cards=z(64, np.int64),
        held=z(MAX_PLAYERS, np.uint64),
        won=z(MAX_PLAYERS, np.uint64),
        trick=z(MAX_PLAYERS, np.int64),
        voids=z(MAX_PLAYERS, np.int64),
        log=z(64, np.int64),
        named=z(64, np.int64),
        at=z(cardplay.AT, np.int64),
        rng=z(1, np.uint64),
        deal=drivers.deal_arrays(DEAL, MAX_PLAYERS),
        dd=worker_dd(solver_game, players, tt_mb, node_limit) if policies.DD in list(seat_policy) else None,
        search=make_context(worlds, seat_policy, players, exact, weights) if searching else None,
    )


@flat_kernel
def play_cards(n, seat_policy, state, tb, discards, dd, search):
    """Play the deal's cards from the position in tb (cardplay.Table), each search seat's by
    searching (search.decide).  dd, search: ws.dd and ws.search, passed on their own so that
    numba compiles the solver and the search away when they are None."""
    if search is not None:
        begin(search, tb.at[cardplay.LEADER])
    cardplay.play_on(n, seat_policy, state, tb, dd, -1, -1)
    if search is not None:
        while tb.at[cardplay.POS] < n * tricks_per_deal(n):
            seat = (tb.at[cardplay.LEADER] + tb.at[cardplay.POS] % n) % n
            card, named = decide(search, n, state, tb, discards, seat_policy[seat] == policies.SEARCH)
            cardplay.play_on(n, seat_policy, state, tb, dd, card, named)


@flat_kernel
def choose_by_search(n, dealer, seat_policy, state, hands, discards, ctx):
    """Each `search` seat's discards chosen by search (setup_search.py), in seat order; ctx:
    ws.search, passed on its own so that numba compiles the search away when it is None."""
    if ctx is None or not discard_count(n):
        return
    for s in range(n):
        if seat_policy[s] == policies.SEARCH:
            discards[s] = search_discards(ctx, n, s, (dealer + 1) % n, hands[s], discards[s], state)


@flat_kernel
def search_discards(ctx, n, seat, leader, hand, heuristic, state):
    """The cards a `search` seat lays aside from `hand`: the heuristic's unless another candidate
    scores more over ctx's worlds (setup_search.py)."""
    count = setup_search.prepare(ctx, n, hand, heuristic)
    if count == 1:
        return heuristic
    for _ in range(ctx.meta[msearch.WORLDS]):
        setup_search.deal_world(ctx, n, seat, discard_count(n), state)
        for i in range(count):
            ctx.root.held[seat] = hand & ~ctx.cand[i]
            ctx.cand_totals[i] += setup_playout(ctx, n, seat, leader)
    return setup_search.best(ctx, count)


@flat_kernel
def setup_playout(ctx, n, seat, leader):
    """The seat's deal score when the hands in ctx.root.held are played by the heuristic from the
    first lead and the deal scored."""
    tb = ctx.play
    cardplay.start(n, tb, leader)
    for s in range(n):
        tb.held[s] = ctx.root.held[s]
    cardplay.play_on(n, ctx.policy, ctx.rng, tb, None, -1, -1)
    cardplay.score_deal(n, ctx.policy, ctx.rng, tb.won, tb.tricks, ctx.mosquitoes, ctx.naming, ctx.scores)
    return ctx.scores[seat]


@flat_kernel
def play_deal(n, dealer, seat_policy, state, out, ws):
    """Set four cards aside, deal, discard, play, name the colours and score one deal into `out`
    (a Deal of arrays)."""
    hands, discards = out.hands, out.discards
    rest = FULL
    for _ in range(UNDEALT):
        rest ^= bit(random_bit(state, rest))
    deal_cards(n, rest, ws.cards, state, hands)
    k = discard_count(n)
    for s in range(n):
        discards[s] = policies.choose_discards(seat_policy[s], hands[s], k, state)
    choose_by_search(n, dealer, seat_policy, state, hands, discards, ws.search)
    for s in range(n):
        ws.held[s] = hands[s] & ~discards[s]
    tb = cardplay.Table(
        ws.held, ws.won, ws.trick, ws.voids, out.tricks, out.mosquitoes_played, out.trumps, ws.log, ws.named, ws.at
    )
    cardplay.start(n, tb, (dealer + 1) % n)
    play_cards(n, seat_policy, state, tb, discards, ws.dd, ws.search)
    cardplay.score_deal(n, seat_policy, state, ws.won, out.tricks, out.mosquitoes_won, out.naming, out.scores)
    out.dd_limited[0] = cards_limited(ws.dd)


drivers.register(Workspace, play=play_deal, length=match_deals)
search.register(msearch.Context, msearch.world, msearch.playout, msearch.solved_values, weights.weight)
_GAME = drivers.SeatGame(DEAL, policies.NAMES, make_workspace)
simulate_deals = _GAME.simulate_deals  # policy: a name or one a seat (musim.engine.seats.seat_policies)
simulate_matches = _GAME.simulate_matches  # docs/rules.md §8: n deals, 2n with 3 players
