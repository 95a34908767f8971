"""The search player of Mückenstich (`--play search`, docs/players.md "Search"): flat Monte Carlo
(musim.play.search) over the hands a seat cannot see.

What the seat knows: its hand and its own discards, every card played with the trump each
mosquito named, who won which trick, the size of every hand, and the voids shown: a seat that
did not follow the led colour holds none of it (a mosquito belongs to its colour).  The hidden
cards (the other hands, the other seats' discards and the 4 undealt cards) go uniformly
(musim.play.worlds) to the other hands, within their voids, and to the dead piles: each other
seat's discards and the undealt cards, barred from nothing (laid aside before any card was
played, they show no void).

A move is a card and, for a mosquito, the trump it names: the search chooses among them all.
Identical cards (the two 12s of a colour, its three mosquitoes) are one move, so the moves fit
the 64 codes of a mask: a number move is coded by the lowest card of its kind, and a colour's
four mosquito moves (naming trump 0..3) by the colour's other cards (its second 12 and its
mosquitoes), in index order.  Each move is played out in every world: the searcher plays it,
then every seat plays the heuristic on (cardplay.play_on, the deal's own loop), the colours are
named and the deal scored (cardplay.score_deal); the objective is the searcher's own score.

The second search player (`search`; `search-uniform` is the first) values its moves otherwise
once `--search-exact-tricks` tricks or fewer are left (solved_values): in each world the searcher
makes the move, then every seat plays on as the `dd` player does (ddplay.dd_move in the same
loop: each seat the move keeping the most tricks it can win from there against all the others),
and the deal is scored as above.  The solver's value alone would not do: it counts the tricks a
seat wins, while the score counts the cards they hold (number cards, the -5 of a colour's first
mosquito) and the colours named after the deal by the single seats with the fewest tricks and
the most mosquitoes, so a trick more may cost points.  So each move is solved to the deal's end
and the end scored by the game's own kernel; every dd choice depends on the position alone, so
the values never depend on the solver's table.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import drop_lowest, lowest, popcount
from musim.core.deck import MUECKENSTICH as DECK
from musim.games.mueckenstich import WEIGHTS, policies
from musim.games.mueckenstich.cardplay import AT, LEADER, POS, TRUMP, make_table, play_on, score_deal, start
from musim.games.mueckenstich.rules import (
    CARD_COLOUR,
    CARD_RANK,
    COLOURS,
    MAX_PLAYERS,
    MOSQUITOES,
    UNDEALT,
    discard_count,
    is_mosquito,
    legal,
)
from musim.games.mueckenstich.solve import solver_game
from musim.games.seat_solve import make_seat_dd
from musim.play import search, world_weights, worlds
from musim.play.search_budget import DEFAULT_WORLDS
from musim.solver.choice import make_limited
from musim.solver.search import make_state
from musim.solver.tt import make_table as make_tt

Context = namedtuple(
    "Context",
    "root play sampler drawn capacity allowed policy rng totals mosquitoes naming scores meta "
    "code hist named mover params replay stop cand cand_totals one_group dd dd_policy",
)
# root: the position searched (cardplay.Table), its other hands replaced by each world's; play: a
# playout's copy; drawn: a world's holders (the other seats from the searcher's left, then the
# dead piles); policy: HEURISTIC for every seat; mosquitoes, naming, scores: a playout's scoring
# The world weights' (weights.py): code, the table's policy per seat; hist, named: the cards played
# and the trumps they named, mover: the seat that played each; params: weighted (1) or not, then
# the fitted parameters (WEIGHTS.names); replay: the table the weights replay the deal on, stop:
# every seat's code a search one (so that cardplay.play_on plays one card at a time).  The
# discards' search (setup_search.py): cand, cand_totals its candidates and their totals;
# one_group: every card in group 0 (its worlds, dealt into root.held).  dd: the exact endgames'
# solver scratch (None without them); dd_policy: DD at every seat (their play after a move)
SEAT, PLAYERS, WORLDS, FIRST, EXACT_TRICKS = range(5)
# meta; FIRST: the deal's first leader; EXACT_TRICKS: the exact endgames' tricks (0: none)
EVERY_COLOUR = (1 << COLOURS) - 1
FULL = np.uint64(DECK.full)
MAX_CANDIDATES = 64  # the discards' search: 1 + 2 x 18 at most
SEARCH_TT_MB = 16  # the exact endgames' table: a few tricks solve in little room, and values never depend on it


def _move_codes():
    """(MOVES[card]: the codes of a card's moves, CARDS[code]: the cards that make the move,
    NAMES[code]: the trump it names, -1 for a number card) as the module docstring lays out."""
    moves, cards, names = [0] * DECK.n_cards, [0] * 64, [-1] * 64
    for c in range(COLOURS):
        members = [int(i) for i in np.flatnonzero(np.equal(CARD_COLOUR, c))]
        mosquitoes = [i for i in members if int(MOSQUITOES) >> i & 1]
        used = set()
        for i in members:
            kind = [j for j in members if CARD_RANK[j] == CARD_RANK[i] and j not in mosquitoes]
            if kind:
                used.add(kind[0])
                moves[i] |= 1 << kind[0]
                cards[kind[0]] = sum(1 << j for j in kind)
        spare = [i for i in members if i not in used]
        assert len(spare) == COLOURS, "a colour's mosquito moves need one spare code per trump"
        for t, code in enumerate(spare):
            cards[code], names[code] = sum(1 << j for j in mosquitoes), t
            for j in mosquitoes:
                moves[j] |= 1 << code
    return np.array(moves, np.uint64), np.array(cards, np.uint64), np.array(names, np.int64)


MOVES, CARDS, NAMES = _move_codes()


def make_context(worlds_per_decision=DEFAULT_WORLDS, seat_policy=(), players=4, exact_tricks=0, weights=""):
    """A search seat's scratch, allocated once per workspace; `seat_policy`: the table's codes (a
    `search` seat weights its worlds by the parameters `weights` names: a search_weights value, ""
    the shipped ones); `exact_tricks`: a `search` seat's exact endgames at `players` seats (0:
    none, compiled without the solver)."""
    z = np.zeros
    meta = z(EXACT_TRICKS + 1, np.int64)
    code = np.full(MAX_PLAYERS, policies.HEURISTIC, np.int64)
    code[: len(seat_policy)] = seat_policy
    params = world_weights.context_params(WEIGHTS, weights, policies.SEARCH in list(seat_policy))
    meta[WORLDS], meta[EXACT_TRICKS] = worlds_per_decision, exact_tricks
    dd = None
    if exact_tricks:
        dd = make_seat_dd(solver_game, players, make_tt(SEARCH_TT_MB), make_state(), make_limited())
    return Context(
        root=make_table(),
        play=make_table(),
        sampler=worlds.make_sampler(),
        drawn=z(worlds.MAX_HOLDERS, np.uint64),
        capacity=z(worlds.MAX_HOLDERS, np.int64),
        allowed=z(worlds.MAX_HOLDERS, np.int64),
        policy=np.full(MAX_PLAYERS, policies.HEURISTIC, np.int64),
        rng=z(1, np.uint64),
        totals=z(64, np.float64),
        mosquitoes=z(MAX_PLAYERS, np.int64),
        naming=z(4, np.int64),
        scores=z(MAX_PLAYERS, np.int64),
        meta=meta,
        code=code,
        hist=z(64, np.int64),
        named=z(64, np.int64),
        mover=z(64, np.int64),
        params=params,
        replay=make_table(),
        stop=np.full(MAX_PLAYERS, policies.SEARCH, np.int64),
        cand=z(MAX_CANDIDATES, np.uint64),
        cand_totals=z(MAX_CANDIDATES),
        one_group=z(64, np.int64),
        dd=dd,
        dd_policy=np.full(MAX_PLAYERS, policies.DD, np.int64),
    )


@flat_kernel
def move_mask(cards):
    """The codes of the moves of `cards` (each mosquito with each trump)."""
    moves = np.uint64(0)
    m = cards
    while m:
        moves |= MOVES[lowest(m)]
        m = drop_lowest(m)
    return moves


@flat_kernel
def observe(ctx, n, seat, tb, discards):
    """Set ctx to what `seat` knows at position `tb` (its own discards in `discards`): the
    position, its hand, and the sampler's holders (the other seats' hands from its left, then
    the dead piles); returns the number of holders."""
    seen = tb.held[seat] | discards[seat]
    for s in range(n):
        seen |= tb.won[s]
    for j in range(tb.at[POS] % n):
        seen |= np.uint64(1) << np.uint64(tb.trick[j])
    h = 0
    for i in range(1, n):
        s = (seat + i) % n
        ctx.capacity[h], ctx.allowed[h] = popcount(tb.held[s]), EVERY_COLOUR & ~tb.voids[s]
        h += 1
    if discard_count(n):
        for _ in range(1, n):
            ctx.capacity[h], ctx.allowed[h] = discard_count(n), EVERY_COLOUR
            h += 1
    ctx.capacity[h], ctx.allowed[h] = UNDEALT, EVERY_COLOUR
    if not worlds.prepare(ctx.sampler, FULL & ~seen, CARD_COLOUR, ctx.capacity, ctx.allowed, h + 1):
        raise AssertionError("no deal of the hidden cards fits the seat's information")
    root = ctx.root
    for s in range(n):
        root.held[s] = tb.held[seat] if s == seat else np.uint64(0)
        root.won[s] = tb.won[s]
        root.tricks[s] = tb.tricks[s]
        root.trick[s] = tb.trick[s]
    for i in range(AT):
        root.at[i] = tb.at[i]
    ctx.meta[SEAT], ctx.meta[PLAYERS] = seat, n
    history(ctx, n, tb)
    return h + 1


@flat_kernel
def history(ctx, n, tb):
    """Copy the cards played at `tb` and the trumps named, and find who played each by replaying
    them on ctx.replay (the hands there need not be true: a card played is only taken out)."""
    rt = ctx.replay
    start(n, rt, ctx.meta[FIRST])
    for i in range(tb.at[POS]):
        ctx.hist[i], ctx.named[i] = tb.log[i], tb.named[i]
        ctx.mover[i] = (rt.at[LEADER] + i % n) % n
        play_on(n, ctx.stop, ctx.rng, rt, None, tb.log[i], tb.named[i])


@flat_kernel
def decide(ctx, n, state, tb, discards, weighted):
    """(card, trump after it) of the search seat to move at position `tb`; `weighted`: it plays
    `search`, whose worlds are weighted (weights.py) and whose last meta[EXACT_TRICKS] tricks are
    solved, not `search-uniform`."""
    ctx.params[0] = 1.0 if weighted else 0.0
    at, held = tb.at, tb.held
    k = at[POS] % n
    seat = (at[LEADER] + k) % n
    moves = move_mask(legal(held[seat], tb.trick[0] if k > 0 else -1))
    if moves & (moves - np.uint64(1)):  # a choice: search from what the seat knows
        observe(ctx, n, seat, tb, discards)
    solve = weighted and popcount(held[seat]) <= ctx.meta[EXACT_TRICKS]
    move = search.search_card(ctx, moves, ctx.meta[WORLDS], state, ctx.totals, solve)
    card = lowest(held[seat] & CARDS[move])
    return card, NAMES[move] if is_mosquito(card) else at[TRUMP]


@flat_kernel
def world(ctx, state):
    """Draw the other seats' hands (and the dead piles, into ctx.drawn) into ctx.root."""
    worlds.draw(ctx.sampler, state, ctx.drawn)
    n, seat = ctx.meta[PLAYERS], ctx.meta[SEAT]
    for i in range(1, n):
        ctx.root.held[(seat + i) % n] = ctx.drawn[i - 1]


@flat_kernel
def playout(ctx, move):
    """The searcher's score when it makes `move` in the drawn world and the heuristic plays on."""
    return finish(ctx, move, ctx.policy, None)


@flat_kernel
def solved_values(ctx, dd, legal, totals, w):
    """Add to totals[m] w times the searcher's deal score when it makes move m in the drawn world
    and every seat then plays double-dummy to the deal's end (the module docstring says why not
    the solver's value alone); `dd`: ctx.dd, on its own so that numba compiles the solver away
    without exact endgames."""
    if dd is None:
        return
    rest = legal
    while rest:
        move = lowest(rest)
        totals[move] += w * finish(ctx, move, ctx.dd_policy, dd)
        rest = drop_lowest(rest)


@flat_kernel
def finish(ctx, move, policy, dd):
    """The searcher's score when it makes `move` in the drawn world, every seat plays on by
    `policy` (dd: the solver's scratch where that is DD, else None), the colours are named as
    the heuristic names them and the deal is scored."""
    n, seat = ctx.meta[PLAYERS], ctx.meta[SEAT]
    root, tb = ctx.root, ctx.play
    for s in range(n):
        tb.held[s] = root.held[s]
        tb.won[s] = root.won[s]
        tb.tricks[s] = root.tricks[s]
        tb.trick[s] = root.trick[s]
    for i in range(AT):
        tb.at[i] = root.at[i]
    card = lowest(root.held[seat] & CARDS[move])
    play_on(n, policy, ctx.rng, tb, dd, card, NAMES[move])
    score_deal(n, ctx.policy, ctx.rng, tb.won, tb.tricks, ctx.mosquitoes, ctx.naming, ctx.scores)
    return ctx.scores[seat]


@flat_kernel
def begin(ctx, leader):
    """A new deal, `leader` to lead its first trick."""
    ctx.meta[FIRST] = leader
