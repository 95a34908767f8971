"""The weights of a Mückenstich search seat's worlds (`--play search`, docs/players.md "Search").

A world's weight is the likelihood, with that world's hidden cards, of the public actions so far
under the model that made them; the seats' policies are public to the searcher.  The discards
are hidden from the others and the colours are named after the last trick, so what is weighted
is the play: every move another seat made (its card and, for a mosquito, the trump it named)
under the heuristic's move rule, the rule's move (an identical card, the same trump named)
weighing 1 and any other `departure` (musim.play.likelihood.soft_rule, which fitted better than
rule_choice and than a normalised ratio); random seats choose a card and a mosquito's trump
uniformly; search and dd seats are taken as the heuristic.  The deal is replayed from its first card on a
table of its own (ctx.replay), each hand being its hand in the world with the cards it played
since added back, by the deal's own cardplay.play_on one card at a time.  Unweighted
(search-uniform), every world weighs 1.
"""

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest, popcount
from musim.games.mueckenstich import policies
from musim.games.mueckenstich import search as msearch
from musim.games.mueckenstich.cardplay import LEADER, POS, TRUMP, WINNER, play_on, start
from musim.games.mueckenstich.rules import CARD_COLOUR, CARD_RANK, COLOURS, is_mosquito, legal, paid_colours
from musim.play.likelihood import soft_rule

DEPARTURE = 1  # in ctx.params


@flat_kernel(inline="always")
def same_card(a, b):
    """Are a and b the same card to a player (colour, number or mosquito)?"""
    return CARD_COLOUR[a] == CARD_COLOUR[b] and CARD_RANK[a] == CARD_RANK[b] and is_mosquito(a) == is_mosquito(b)


@flat_kernel
def weight(ctx):
    """The drawn world's weight (module docstring); 1.0 unweighted."""
    if ctx.params[0] == 0.0:
        return 1.0
    n, seat = ctx.meta[msearch.PLAYERS], ctx.meta[msearch.SEAT]
    tb, played = ctx.replay, ctx.root.at[POS]
    start(n, tb, ctx.meta[msearch.FIRST])
    for s in range(n):
        tb.held[s] = ctx.root.held[s]
    for pos in range(played):  # every hand as it was dealt, less its discards
        tb.held[ctx.mover[pos]] |= bit(ctx.hist[pos])
    p = 1.0
    r = ctx.params[DEPARTURE]
    for pos in range(played):
        at = tb.at
        k = pos % n
        s = (at[LEADER] + k) % n
        c, named = ctx.hist[pos], ctx.named[pos]
        if s != seat:
            ok = legal(tb.held[s], tb.trick[0] if k > 0 else -1)
            if ctx.code[s] == policies.RANDOM:
                p *= alike(ok, c) / popcount(ok) / (COLOURS if is_mosquito(c) else 1)
            else:
                rc, rt = policies.heuristic_move(
                    ok, tb.held[s], tb.trick, k, n, at[TRUMP], at[WINNER], paid_colours(tb.won[s])
                )
                matched = same_card(c, rc) and (not is_mosquito(c) or rt == named)
                p *= soft_rule(matched, r)
        play_on(n, ctx.stop, ctx.rng, tb, None, c, named)
    return p


@flat_kernel(inline="always")
def alike(cards, c):
    """How many of `cards` are the same card as c."""
    count = 0
    m = cards
    while m:
        count += same_card(lowest(m), c)
        m = drop_lowest(m)
    return count
