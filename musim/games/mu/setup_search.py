"""The Mü search player's set-up (docs/players.md "Search"): a `search` seat names its trump
as vice, and its trump and partner as chief, by the same sampling as its cards.

The seat sees its hand and every laid card (public while held); nothing is played yet, so no
seat has shown a void.  Each world deals the other cards again, exactly uniformly
(search_player.know, every card in one group); in each, every candidate is played out by the
heuristic at every seat from the chief's lead and scored for the seat's side as the deal is
(search_player.outcome).  The chief's candidates are the contracts it may name (each trump of
its laid types, `none` too, with each partner it may name); the vice's, the trumps it may
name, the chief then naming its trump and partner as the heuristic does with its hand of the
world.  Every candidate meets the same worlds, each counted with its weight (world_weights.py:
the auction, and the vice's trump for the chief); the one of highest total wins, the
heuristic's own choice (the first candidate) among equals, then the earlier.
"""

from musim.compile.jit import flat_kernel
from musim.games.mu import policies, search_player, world_weights
from musim.games.mu.rules import fill_contract, fill_tier_masks, nameable_types
from musim.games.mu.search_player import CHIEF, CHIEF_TRUMP, PARTNER, VICE_TRUMP, WORLDS
from musim.play import search, worlds

ONE_GROUP = 1  # the set-up's worlds: every card in group 0, which every seat may hold


@flat_kernel
def contract(ctx, code, n, chief, vice, vice_trump, laid, trump, partner, state):
    """(trump, partner) the chief names: the heuristic's `trump` and `partner` unless the chief's
    card-play `code` is policies.SEARCH, then the best candidate over ctx's worlds (module doc).
    ctx: the workspace's search context (None: no seat searches), its deal announced."""
    if ctx is None or code != policies.SEARCH:
        return trump, partner
    count = contracts(ctx, n, chief, vice, vice_trump, laid[chief], trump, partner)
    if count == 1:
        return trump, partner
    know_setup(ctx, n, chief)
    cand, totals = ctx.candidates, ctx.cand_totals
    for _ in range(ctx.meta[WORLDS]):
        worlds.draw(ctx.sampler, state, ctx.drawn)
        w = search_player.weight(ctx)
        for i in range(count):
            totals[i] += w * played(ctx, n, chief, cand[0, i], vice_trump, cand[1, i], True)
    best = search.best_candidate(totals, count)
    return cand[0, best], cand[1, best]


@flat_kernel
def vice_trump(ctx, code, n, chief, vice, laid, trump, state):
    """The trump the vice names: the heuristic's `trump` unless the vice's card-play `code` is
    policies.SEARCH, then the best over ctx's worlds (module doc); ctx as contract's."""
    if ctx is None or code != policies.SEARCH:
        return trump
    cand, totals = ctx.candidates, ctx.cand_totals
    cand[0, 0], count = trump, 1
    allowed = nameable_types(laid[vice], -1)
    for t in range(15):
        if allowed >> t & 1 and t != trump:
            cand[0, count], count = t, count + 1
    if count == 1:
        return trump
    know_setup(ctx, n, vice)
    for _ in range(ctx.meta[WORLDS]):
        worlds.draw(ctx.sampler, state, ctx.drawn)
        w = search_player.weight(ctx)
        for i in range(count):
            search_player.deal_world(ctx, n)
            chief_trump = policies.choose_trump(
                policies.HEURISTIC, n, ctx.hands[chief], laid[chief], cand[0, i], True, ctx.est, state
            )
            partner = -1
            if n >= 4:
                partner = policies.choose_partner(policies.HEURISTIC, n, chief, vice, laid, chief_trump, state)
            totals[i] += w * played(ctx, n, chief, chief_trump, cand[0, i], partner, False)
    return cand[0, search.best_candidate(totals, count)]


@flat_kernel
def contracts(ctx, n, chief, vice, vice_trump, chief_laid, trump, partner):
    """Fill ctx.candidates with the contracts the chief may name, (trump, partner) by column, the
    heuristic's (trump, partner) first; returns how many."""
    cand = ctx.candidates
    cand[0, 0], cand[1, 0] = trump, partner
    count = 1
    allowed = nameable_types(chief_laid, vice_trump)
    for t in range(-1, 15):
        if t >= 0 and not allowed >> t & 1:
            continue
        for p in range(-1, n):
            if (p < 0) != (n < 4) or p == chief or (p >= 0 and p == vice) or (t == trump and p == partner):
                continue
            cand[0, count], cand[1, count] = t, p
            count += 1
    return count


@flat_kernel
def know_setup(ctx, n, seat):
    """The worlds of `seat` before the first card (no void, no points), every total cleared,
    weighted by the auction (and the vice's trump, once named: world_weights.py)."""
    for s in range(n):
        ctx.void[s], ctx.points[s] = 0, 0
    ctx.cand_totals[:] = 0
    if not search_player.know(ctx, n, seat, seat, 0, 0, ctx.points, ONE_GROUP, ctx.one_group):
        raise AssertionError("no world is consistent with the searching seat's information")
    world_weights.prepare(ctx, ctx.weighing, n, seat, True)


@flat_kernel
def played(ctx, n, chief, trump, vice_trump, partner, side):
    """The outcome for `side` (True: the chief's, False: the others') of the drawn world played
    by the heuristic under this contract."""
    fill_contract(trump, vice_trump, ctx.klass, ctx.power, ctx.class_mask)
    fill_tier_masks(trump, vice_trump, ctx.tier_mask)
    for s in range(n):
        ctx.on_team[s] = s == chief or s == partner
    ctx.meta[CHIEF], ctx.meta[PARTNER] = chief, partner
    ctx.meta[CHIEF_TRUMP], ctx.meta[VICE_TRUMP] = trump, vice_trump
    remaining = search_player.deal_world(ctx, n)
    search_player.play_on(ctx, n, chief, chief, 0, 0, remaining)
    return search_player.outcome(ctx, n, side)
