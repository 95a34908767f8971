"""Game records of Mückenstich (docs/examples/README.md "Mückenstich record"): replay and record.

`replay` walks a record — deal, discards, play (a mosquito written with the trump it names,
`RM:G`), the colours named at scoring — asking the kernels of
`musim.games.mueckenstich.rules` every rule question; `record` re-plays one simulated deal
from its seed and writes its record, which `replay` scores to the same row.
"""

import numpy as np

from musim.core.deck import MUECKENSTICH as DECK
from musim.engine.seats import seat_policies
from musim.games.mueckenstich import policies, rules
from musim.games.mueckenstich.simulate import make_workspace, simulate_deals
from musim.io import records
from musim.io.batch import InputError
from musim.play.search_budget import DEFAULT_WORLDS
from musim.play.tricks import NO_TRUMP
from musim.solver.table_size import DEFAULT_MB


def replay(obj):
    """Validate a Mückenstich record and return its result: tricks (with trump_after),
    tricks_won, mosquitoes (won, per seat), double, zero, scores."""
    n, dealer = records.header(obj, "mueckenstich", rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    hands = records.dealt_hands(DECK, obj.get("hands"), n, int(rules.hand_size(n)))
    discards = _discards(obj.get("discards"), hands, n)
    held = [h & ~d for h, d in zip(hands, discards)]
    tricks, won = _play(obj.get("play"), held, n, (dealer + 1) % n)
    tricks_won = [sum(t["winner"] == s for t in tricks) for s in range(n)]
    mosquitoes = [int(rules.mosquitoes_won(np.uint64(w))) for w in won]
    double = _named(obj, "double", tricks_won, n, False, "the fewest tricks", None)
    zero = _named(obj, "zero", mosquitoes, n, True, "the most mosquitoes", double)
    colour = {None: -1, **{c: i for i, c in enumerate(DECK.colours)}}
    scores = [int(rules.score(np.uint64(w), colour[double], colour[zero])) for w in won]
    return {
        "tricks": tricks,
        "tricks_won": tricks_won,
        "mosquitoes": mosquitoes,
        "double": double,
        "zero": zero,
        "scores": scores,
    }


def _discards(discards, hands, n):
    """Masks of the cards each seat lays aside: discard_count(n) cards of its dealt hand."""
    if not isinstance(discards, list) or len(discards) != n:
        raise InputError(f"discards: expected a list of {n} lists of cards, got {records.show(discards)}")
    k = int(rules.discard_count(n))
    return [records.cards_from(DECK, d, hands[s], k, f"discards[{s}]") for s, d in enumerate(discards)]


def _move(text, hand, where):
    """(card index, trump named or -1) of one `play` entry, the card taken from `hand`."""
    card, _, named = text.partition(":") if isinstance(text, str) else (text, "", "")
    with records.at(where):
        c = DECK.index(card, hand)
    if c < 0:
        raise InputError(f"{where}: {card} is not held")
    if not rules.is_mosquito(c):
        if named or text != card:
            raise InputError(f"{where}: {text}: only a mosquito names a trump")
        return c, -1
    if named not in DECK.colours or not named:
        raise InputError(f"{where}: {text}: a mosquito names the trump, one of {' '.join(DECK.colours)} ({card}:G)")
    return c, DECK.colours.index(named)


def _play(play, held, n, leader):
    """Walk every trick of `play` from `leader`; returns (tricks, won cards per seat)."""
    count = int(rules.tricks_per_deal(n))
    if not isinstance(play, list):
        raise InputError(f"play: expected a list of cards, got {records.show(play)}")
    if len(play) != n * count:
        raise InputError(f"play: {len(play)} cards, expected {n * count}")
    won = [0] * n
    tricks = []
    cards = np.empty(n, np.int64)
    trump = NO_TRUMP
    for k in range(count):
        for j in range(n):
            seat, i = (leader + j) % n, k * n + j
            where = f"play card {i} (seat {seat}, trick {k})"
            c, named = _move(play[i], held[seat], where)
            led = int(cards[0]) if j else -1
            if not int(rules.legal(np.uint64(held[seat]), led)) >> c & 1:
                colour = DECK.colours[rules.CARD_COLOUR[led]]
                follow = " ".join(t for t in DECK.format(held[seat]) if t.startswith(colour))
                raise InputError(f"{where}: {play[i]} fails to follow {colour} (holds {follow})")
            held[seat] &= ~(1 << c)
            cards[j] = c
            trump = int(rules.trump_after(c, named, trump))
        winner = (leader + int(rules.trick_winner(cards, n, trump))) % n
        for c in cards:
            won[winner] |= 1 << int(c)
        tricks.append(
            {
                "leader": leader,
                "cards": play[k * n : (k + 1) * n],
                "winner": winner,
                "trump_after": None if trump == NO_TRUMP else DECK.colours[trump],
            }
        )
        leader = winner
    return tricks, won


def _named(obj, key, values, n, most, what, taken):
    """The colour letter (or None) under `key`: required from the single seat with `what`, else absent."""
    seat = int(rules.single_seat(np.array(values, np.int64), n, most))
    value = obj.get(key)
    if seat < 0:
        if value is not None:
            raise InputError(f"{key}: no single seat has {what} ({values}): no colour, got {records.show(value)}")
        return None
    if value not in DECK.colours or not isinstance(value, str) or not value:
        colours = " ".join(DECK.colours)
        raise InputError(f"{key}: seat {seat} has {what} and names a colour ({colours}), got {records.show(value)}")
    if value == taken:
        raise InputError(f"{key}: {value} is already the double colour; seat {seat} names another")
    return value


def record(
    players, seed, policy, index, worlds=DEFAULT_WORLDS, tt_mb=DEFAULT_MB, node_limit=0, exact_tricks=0, weights=""
):
    """The game record (docs/examples/README.md) of deal `index` of a run, re-played from its seed
    (`worlds`, `exact_tricks`, `weights`: the run's search budget, exact endgames and world
    weights). tt_mb, node_limit: the run's (a dd card whose search gave up is chosen as the run
    chose it)."""
    codes = seat_policies(players, policy, policies.NAMES)
    ws = make_workspace(players, codes, tt_mb, worlds, node_limit, exact_tricks, weights)
    row = simulate_deals(players, seed, policy, index, 1, ws)
    n_cards = players * int(rules.tricks_per_deal(players))
    double, zero = int(row["naming"][0, 0]), int(row["naming"][0, 2])
    return {
        "game": "mueckenstich",
        "players": players,
        "dealer": int(row["dealer"][0]),
        "hands": [DECK.format(h) for h in row["hands"][0]],
        "discards": [DECK.format(d) for d in row["discards"][0]],
        "play": [rules.move_text(int(c), int(t)) for c, t in zip(ws.log[:n_cards], ws.named[:n_cards])],
        "double": None if double < 0 else DECK.colours[double],
        "zero": None if zero < 0 else DECK.colours[zero],
    }
