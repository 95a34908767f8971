"""The weights of a Wimmüln search seat's worlds (`--play search`, docs/players.md "Search").

A world's weight is the likelihood, with that world's hidden cards, of every other seat's
public actions so far under the model that made them; the seats' policies are public to the
searcher.  Weighted: each other seat's estimates (its face-up card, public, and its face-down
card, drawn in the world) under the heuristic's estimate rule (policies.choose_estimates): each
ordered pair of its hand cards weighs estimate_decay to the power of the distance of its numbers
from the rule's pair (estimate_choice; the fit preferred it to rule_choice, whose one matching
pair in some hundred makes a few worlds take all the weight); the dealer's free lead (no trump)
under the heuristic's lead rule, and every card another seat played under the heuristic card
rule, the rule's card (colour and number) weighing 1 and any other `departure`
(musim.play.likelihood.soft_rule, which fitted better than rule_choice and than a normalised
ratio).  Random seats
choose uniformly (their estimates and free lead weigh the same in every world); search and dd
seats are taken as the heuristic.  Each seat's hand at each past decision is its hand in the
world with the cards it played since added back.  Unweighted (search-uniform), every world
weighs 1.
"""

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest, popcount
from musim.games.wimmueln import policies
from musim.games.wimmueln import search as wsearch
from musim.games.wimmueln.rules import CARD_COLOUR, CARD_RANK, beats, legal, tricks_per_deal
from musim.play.likelihood import soft_rule
from musim.play.tricks import highest_ranked

ESTIMATE_DECAY, DEPARTURE = 1, 2  # in ctx.params


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
    n, t_now, k_now = m[wsearch.N], m[wsearch.TRICK], m[wsearch.K]
    for s in range(n):
        ctx.rheld[s], ctx.rwon[s] = ctx.held[s], 0
    for i in range(t_now * n + k_now):  # every hand as it was dealt, less its estimates
        ctx.rheld[(ctx.leads[i // n] + i % n) % n] |= bit(ctx.hist[i])
    return setup_likelihood(ctx) * play_likelihood(ctx)


@flat_kernel
def setup_likelihood(ctx):
    """The likelihood of the other seats' estimates and of the dealer's free lead."""
    m = ctx.meta
    n, seat, dealer, trump = m[wsearch.N], m[wsearch.SEAT], m[wsearch.DEALER], m[wsearch.TRUMP]
    lead = ctx.hist[0]
    p = 1.0
    for s in range(n):
        if s == seat or ctx.code[s] == policies.RANDOM:
            continue
        up, down = ctx.estimates[s, 0], ctx.estimates[s, 1]
        hand = ctx.rheld[s] | bit(up) | bit(down)
        if s == dealer and trump < 0:
            ruled = highest_ranked(hand, CARD_RANK)
            p *= soft_rule(same_card(lead, ruled), ctx.params[DEPARTURE])
        extra = 0
        if s == dealer:
            hand ^= bit(lead)
            extra = policies.strength(lead, trump)
        ru, rd = policies.choose_estimates(
            policies.HEURISTIC,
            hand,
            trump,
            extra,
            tricks_per_deal(n),
            ctx.rng,
            ctx.kind_card,
            ctx.kind_rank,
            ctx.kind_strength,
        )
        p *= estimate_choice(hand, up, down, ru, rd, ctx.params[ESTIMATE_DECAY])
    return p


@flat_kernel
def estimate_choice(hand, up, down, ru, rd, q):
    """P(up, down) of a seat whose rule sets aside (ru, rd) from `hand`: each ordered pair of
    hand cards weighs q to the power of its numbers' distance from the rule's pair (q = 1:
    uniform), normalised over the pairs."""
    a_sum, b_sum, ab_sum = 0.0, 0.0, 0.0
    m = hand
    while m:
        c = lowest(m)
        m = drop_lowest(m)
        a, b = q ** abs(CARD_RANK[c] - CARD_RANK[ru]), q ** abs(CARD_RANK[c] - CARD_RANK[rd])
        a_sum, b_sum, ab_sum = a_sum + a, b_sum + b, ab_sum + a * b
    return q ** (abs(CARD_RANK[up] - CARD_RANK[ru]) + abs(CARD_RANK[down] - CARD_RANK[rd])) / (a_sum * b_sum - ab_sum)


@flat_kernel
def play_likelihood(ctx):
    """The likelihood of the cards the other seats played (but the dealer's lead), each hand
    replayed from its deal (ctx.rheld) to the decision."""
    m = ctx.meta
    n, seat, trump, t_now, k_now = m[wsearch.N], m[wsearch.SEAT], m[wsearch.TRUMP], m[wsearch.TRICK], m[wsearch.K]
    count = tricks_per_deal(n)
    r = ctx.params[DEPARTURE]
    p = 1.0
    for t in range(t_now + 1):
        leader, wp = ctx.leads[t], 0
        cards = n if t < t_now else k_now
        for k in range(cards):
            s = (leader + k) % n
            c = ctx.hist[t * n + k]
            if s != seat and (t > 0 or k > 0):
                ok = legal(ctx.rheld[s], ctx.rtrick[0] if k > 0 else -1, trump)
                if ctx.code[s] == policies.RANDOM:
                    p /= popcount(ok)
                else:
                    up, down = CARD_RANK[ctx.estimates[s, 0]], CARD_RANK[ctx.estimates[s, 1]]
                    win = policies.wants_to_win(ctx.rwon[s], count - t, up, down)
                    ruled = policies.heuristic_card(ok, ctx.rtrick, k, wp, trump, win)
                    p *= soft_rule(same_card(c, ruled), r)
            ctx.rheld[s] ^= bit(c)
            ctx.rtrick[k] = c
            if k > 0 and beats(c, ctx.rtrick[wp], trump):
                wp = k
        if cards == n:
            ctx.rwon[(leader + wp) % n] += 1
    return p
