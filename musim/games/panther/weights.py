"""The weights of a Last Panther search seat's worlds (`--play search`, docs/players.md "Search").

A world's weight is the likelihood, with that world's hidden cards, of the public actions so far
under the model that made them; the seats' policies are public to the searcher.  Weighted: every
card another seat played, under the heuristic card rule, the rule's card (colour and number)
weighing 1 and any other `departure` (musim.play.likelihood.soft_rule), each
seat's hand at each past decision being its hand in the world with the cards it played since
added back; random seats choose uniformly, search and dd seats are taken as the heuristic.  The
passes are face down, seen only by their receiver: the searcher weighs the one it received from
its right neighbour R, a heuristic seat passing its most dangerous cards (policies.choose_pass).
Its exact likelihood needs what R received, which no world says, so it is a soft constraint: R
kept no card more dangerous than the least dangerous it passed but its guard, so each card of R's
hand in the world (with the cards it played) more dangerous than that, beyond the ones it may
have received and its guard, weighs pass_departure.  Unweighted (search-uniform), every world
weighs 1.
"""

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest, popcount
from musim.games.panther import policies
from musim.games.panther import search as psearch
from musim.games.panther.rules import CARD_COLOUR, CARD_RANK, beats, legal, pass_count
from musim.play.likelihood import soft_rule

PASS_DEPARTURE, DEPARTURE = 1, 2  # in ctx.params
SAFE_DANGER = 100  # policies.danger: a red card or black 7 is at least this dangerous, any other card less


@flat_kernel(inline="always")
def same_card(a, b):
    """Are a and b the same card to a player (colour and number)?"""
    return CARD_COLOUR[a] == CARD_COLOUR[b] and CARD_RANK[a] == CARD_RANK[b]


@flat_kernel
def weight(ctx):
    """The drawn world's weight (module docstring); 1.0 unweighted."""
    if ctx.params[0] == 0.0:
        return 1.0
    m = ctx.meta
    n = m[psearch.N]
    for s in range(n):
        ctx.rheld[s] = ctx.base[s]
    for pos in range(m[psearch.POS]):  # every hand as it was after the pass
        ctx.rheld[(ctx.leads[pos // n] + pos % n) % n] |= bit(ctx.hist[pos])
    return pass_likelihood(ctx) * play_likelihood(ctx)


@flat_kernel
def pass_likelihood(ctx):
    """The soft likelihood of what the right neighbour passed (module docstring)."""
    n, seat = ctx.meta[psearch.N], ctx.meta[psearch.SEAT]
    right = seat - 1 if seat > 0 else n - 1
    if ctx.code[right] == policies.RANDOM:
        return 1.0
    least = 1 << 20
    m = ctx.got[0]
    while m:
        least = min(least, policies.danger(lowest(m)))
        m = drop_lowest(m)
    above = 0
    m = ctx.rheld[right]
    while m:
        above += policies.danger(lowest(m)) > least
        m = drop_lowest(m)
    excess = above - pass_count(n) - (1 if least < SAFE_DANGER else 0)
    return ctx.params[PASS_DEPARTURE] ** excess if excess > 0 else 1.0


@flat_kernel
def play_likelihood(ctx):
    """The likelihood of the cards the other seats played, each hand replayed from the pass
    (ctx.rheld) to the decision."""
    m = ctx.meta
    n, seat = m[psearch.N], m[psearch.SEAT]
    r = ctx.params[DEPARTURE]
    p = 1.0
    wp = 0
    for pos in range(m[psearch.POS]):
        t, k = pos // n, pos % n
        s = (ctx.leads[t] + k) % n
        c = ctx.hist[pos]
        if k == 0:
            wp = 0
        if s != seat:
            ok = legal(ctx.rheld[s], ctx.rtrick[0] if k > 0 else -1)
            if ctx.code[s] == policies.RANDOM:
                p /= popcount(ok)
            else:
                ruled = policies.heuristic_card(ok, ctx.rheld[s], ctx.rtrick, k, k == n - 1, wp)
                p *= soft_rule(same_card(c, ruled), r)
        ctx.rheld[s] ^= bit(c)
        ctx.rtrick[k] = c
        if k > 0 and beats(c, ctx.rtrick[wp]):
            wp = k
    return p
