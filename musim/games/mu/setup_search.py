"""The Mü search player's set-up (docs/players.md "Search"): a `search` chief names its trump
and partner by the same sampling as its cards.

The chief sees its hand and every laid card (public while held); nothing is played yet, so no
seat has shown a void.  Each world deals the other cards again, exactly uniformly
(search_player.know, every card in one group); in each, every candidate contract (each trump
the chief may name, `none` too, with each partner it may name) is played out by the heuristic at
every seat from the chief's lead, and scored for the chief's side as the deal is
(search_player.outcome).  Every candidate meets the same worlds; the one of highest total wins,
the heuristic's own choice (the first candidate) among equals, then the earlier.
"""

from musim.compile.jit import flat_kernel
from musim.games.mu import policies, search_player
from musim.games.mu.rules import fill_contract, fill_tier_masks, nameable_types
from musim.games.mu.search_player import CHIEF, CHIEF_TRUMP, PARTNER, VICE_TRUMP, WORLDS
from musim.play import worlds

ONE_GROUP = 1  # the set-up's worlds: every card in group 0, which every seat may hold


@flat_kernel
def contract(ctx, code, n, chief, vice, vice_trump, laid, trump, partner, state):
    """(trump, partner) the chief names: the heuristic's `trump` and `partner` unless the chief's
    card-play `code` is policies.SEARCH, then the best candidate over ctx's worlds (module doc).
    ctx: the workspace's search context (None: no seat searches), its deal announced."""
    if ctx is None or code != policies.SEARCH:
        return trump, partner
    count = candidates(ctx, n, chief, vice, vice_trump, laid[chief], trump, partner)
    if count == 1:
        return trump, partner
    for s in range(n):
        ctx.void[s], ctx.points[s] = 0, 0
    if not search_player.know(ctx, n, chief, chief, 0, 0, ctx.points, ONE_GROUP, ctx.one_group):
        raise AssertionError("no world is consistent with the chief's information")
    ctx.meta[VICE_TRUMP] = vice_trump
    totals = ctx.cand_totals
    totals[:count] = 0
    for _ in range(ctx.meta[WORLDS]):
        worlds.draw(ctx.sampler, state, ctx.drawn)
        for i in range(count):
            totals[i] += played(ctx, n, chief, ctx.candidates[0, i], vice_trump, ctx.candidates[1, i])
    best = 0
    for i in range(1, count):
        if totals[i] > totals[best]:
            best = i
    return ctx.candidates[0, best], ctx.candidates[1, best]


@flat_kernel
def candidates(ctx, n, chief, vice, vice_trump, chief_laid, trump, partner):
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
            if (p < 0) != (n < 4) or p == chief or p == vice or (t == trump and p == partner):
                continue
            cand[0, count], cand[1, count] = t, p
            count += 1
    return count


@flat_kernel
def played(ctx, n, chief, trump, vice_trump, partner):
    """The chief's side's outcome of the drawn world played by the heuristic under this contract."""
    fill_contract(trump, vice_trump, ctx.klass, ctx.power, ctx.class_mask)
    fill_tier_masks(trump, vice_trump, ctx.tier_mask)
    for s in range(n):
        ctx.on_team[s] = s == chief or s == partner
    ctx.meta[CHIEF], ctx.meta[PARTNER], ctx.meta[CHIEF_TRUMP] = chief, partner, trump
    remaining = search_player.deal_world(ctx, n)
    search_player.play_on(ctx, n, chief, chief, 0, 0, remaining)
    return search_player.outcome(ctx, n, True)
