"""One card of a Mü trick, shared by the deal kernel (simulate.play_tricks) and the search
player's playouts (search_player.py): the policy's choice from a seat's own view, and laying the card.
One implementation of each, so that a playout plays exactly as a deal does."""

from musim.compile.jit import flat_kernel
from musim.core.bits import bit
from musim.core.cards import CARD_POINTS
from musim.games.mu import policies
from musim.games.mu.rules import beats, legal_moves


@flat_kernel(inline="always")
def choose(code, n, seat, k, winner, winner_pos, held, remaining, trick, on_team, ws, state):
    """The card `seat` plays by policy `code` as the trick's k-th card (0: it leads), `winner` at
    winner_pos winning so far: it sees its hand and the cards not yet played (`remaining`).
    `ws`: anything with the contract's arrays (klass, power, class_mask, tier_mask)."""
    klass, class_mask = ws.klass, ws.class_mask
    return policies.choose_card(
        code,
        legal_moves(held[seat], trick[0] if k > 0 else -1, klass, class_mask),
        held[seat],
        remaining & ~held[seat],
        trick,
        k,
        k == n - 1,
        winner_pos,
        on_team[winner] == on_team[seat],
        on_team[seat],
        klass,
        ws.power,
        class_mask,
        ws.tier_mask,
        state,
    )


@flat_kernel(inline="always")
def lay(seat, card, k, winner_pos, held, trick, klass, power):
    """`seat` plays `card` as the trick's k-th card; returns the winning position after it."""
    held[seat] ^= bit(card)
    trick[k] = card
    if k > 0 and beats(card, trick[winner_pos], klass, power):
        return k
    return winner_pos


@flat_kernel(inline="always")
def points(n, trick):
    """The card points of a complete trick."""
    pts = 0
    for k in range(n):
        pts += CARD_POINTS[trick[k]]
    return pts
