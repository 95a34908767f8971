"""Game records of Wimmüln (docs/examples/README.md "Wimmüln record"): replay and record.

`replay` walks a record — deal, revealed cards and trump, the dealer's lead, the
estimates, play — asking the kernels of `musim.games.wimmueln.rules`; `record`
re-plays one simulated deal from its seed and writes its record, which `replay`
scores to the same row.
"""

from types import SimpleNamespace

import numpy as np

from musim.core.deck import MU
from musim.engine.seats import seat_policies
from musim.games.wimmueln import policies, rules
from musim.games.wimmueln.simulate import make_workspace, simulate_deals
from musim.io import records
from musim.io.batch import InputError
from musim.play.search_budget import DEFAULT_WORLDS
from musim.play.tricks import NO_TRUMP
from musim.solver.table_size import DEFAULT_MB


def replay(obj):
    """Validate a Wimmüln record and return its result: trump, tricks, tricks_won, card_points, bonus, scores."""
    n, dealer = records.header(obj, "wimmueln", rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    size = int(rules.hand_size(n))
    hands = records.dealt_hands(MU, obj.get("hands"), n, size)
    records.check_colours_deal(MU, hands, n)
    a, b = _revealed(obj.get("revealed"), hands[dealer], dealer)
    trump = int(rules.trump_of(a, b))
    held = list(hands)
    lead = _lead(obj.get("play"), held, dealer, trump, a, b)
    estimates = _estimates(obj.get("estimates"), held, n)
    for s, (up, down) in enumerate(estimates):
        held[s] &= ~(1 << up | 1 << down)
    walk = SimpleNamespace(
        legal=lambda hand, led: rules.legal(hand, led, trump),
        winner=lambda cards, count: rules.trick_winner(cards, count, trump),
        points=rules.points,
        colour=lambda card: MU.colours[rules.CARD_COLOUR[card]],
    )
    count = int(rules.tricks_per_deal(n))
    tricks, tricks_won, won = records.play_tricks(MU, obj["play"], held, n, dealer, count, walk, 1, (lead,))
    card_points = [int(rules.points(np.uint64(w))) for w in won]
    bonus = [
        int(rules.estimate_bonus(tricks_won[s], rules.CARD_RANK[up], rules.CARD_RANK[down]))
        for s, (up, down) in enumerate(estimates)
    ]
    return {
        "trump": None if trump == NO_TRUMP else MU.colours[trump],
        "tricks": tricks,
        "tricks_won": tricks_won,
        "card_points": card_points,
        "bonus": bonus,
        "scores": [p + q for p, q in zip(card_points, bonus)],
    }


def _revealed(revealed, hand, dealer):
    """Card indices of the dealer's two revealed cards, both from the dealer's hand."""
    mask = records.cards_from(MU, revealed, hand, 2, f"revealed (dealer seat {dealer})")
    first = MU.index(revealed[0], mask)
    return first, MU.index(revealed[1], mask & ~(1 << first))


def _lead(play, held, dealer, trump, a, b):
    """The dealer's first card: with a trump the higher revealed card, else any held card."""
    if not isinstance(play, list) or not play:
        raise InputError(f"play: expected a list of cards, got {records.show(play)}")
    where = f"play card 0 (seat {dealer}, trick 0)"
    with records.at(where):
        c = MU.index(play[0], held[dealer])
    if c < 0:
        raise InputError(f"{where}: {play[0]} is not held")
    if trump != NO_TRUMP:
        must = int(rules.first_lead(a, b))
        if MU.text(c) != MU.text(must):
            raise InputError(f"{where}: must be {MU.text(must)}, the higher revealed card (trump {MU.colours[trump]})")
        c = must
    held[dealer] &= ~(1 << c)
    return c


def _estimates(estimates, held, n):
    """(face-up, hidden) card indices each seat sets aside, from its hand after the lead."""
    if not isinstance(estimates, list) or len(estimates) != n:
        raise InputError(f"estimates: expected a list of {n} pairs of cards, got {records.show(estimates)}")
    out = []
    for s, pair in enumerate(estimates):
        mask = records.cards_from(MU, pair, held[s], rules.ESTIMATES, f"estimates[{s}]")
        up = MU.index(pair[0], mask)
        out.append((up, MU.index(pair[1], mask & ~(1 << up))))
    return out


def record(
    players, seed, policy, index, worlds=DEFAULT_WORLDS, tt_mb=DEFAULT_MB, node_limit=0, exact_tricks=0, weights=""
):
    """The game record (docs/examples/README.md) of deal `index` of a run, re-played from its
    seed; worlds, exact_tricks, weights: the run's search budget, exact endgames and world weights. tt_mb, node_limit:
    the run's (a dd card whose search gave up is chosen as the run chose it)."""
    codes = seat_policies(players, policy, policies.NAMES)
    ws = make_workspace(players, codes, tt_mb, worlds, node_limit, exact_tricks, weights)
    row = simulate_deals(players, seed, policy, index, 1, ws)
    n_cards = players * int(rules.tricks_per_deal(players))
    return {
        "game": "wimmueln",
        "players": players,
        "dealer": int(row["dealer"][0]),
        "hands": [MU.format(h) for h in row["hands"][0]],
        "revealed": [MU.text(int(c)) for c in row["revealed"][0]],
        "estimates": [[MU.text(int(c)) for c in pair] for pair in row["estimates"][0]],
        "play": [MU.text(int(c)) for c in ws.log[:n_cards]],
    }
