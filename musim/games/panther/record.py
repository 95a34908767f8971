"""Game records of The Last Panther (docs/examples/README.md "The Last Panther record"): replay and record.

`replay` walks a record — deal, simultaneous pass, play — asking the kernels of
`musim.games.panther.rules` every rule question; `record` re-plays one simulated
deal from its seed and writes its record, which `replay` scores to the same row.
"""

from types import SimpleNamespace

import numpy as np

from musim.core.deck import MU
from musim.engine.seats import seat_policies
from musim.games.panther import policies, rules
from musim.games.panther.simulate import make_workspace, simulate_deals
from musim.io import records
from musim.io.batch import InputError
from musim.play.search_budget import DEFAULT_WORLDS
from musim.solver.table_size import DEFAULT_MB

RULES = SimpleNamespace(
    legal=rules.legal,
    winner=rules.trick_winner,
    points=rules.points,
    colour=lambda card: MU.colours[rules.CARD_COLOUR[card]],
)


def replay(obj):
    """Validate a Panther record and return its result: tricks, tricks_won, scores, last_trick."""
    n, dealer = records.header(obj, "panther", rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    size = int(rules.hand_size(n))
    hands = records.dealt_hands(MU, obj.get("hands"), n, size)
    records.check_deck(MU, hands, int(rules.deck(n)), f"the {n}-player deck")
    passed = _passes(obj.get("passed"), hands, n)
    held = [(hands[s] & ~passed[s]) | passed[s - 1] for s in range(n)]
    tricks, tricks_won, won = records.play_tricks(MU, obj.get("play"), held, n, (dealer + 1) % n, size, RULES)
    last = tricks[-1]["winner"]
    scores = [int(rules.points(np.uint64(w))) + (rules.LAST_TRICK if s == last else 0) for s, w in enumerate(won)]
    return {"tricks": tricks, "tricks_won": tricks_won, "scores": scores, "last_trick": last}


def _passes(passed, hands, n):
    """Masks of the cards each seat passes: pass_count(n) cards of its dealt hand."""
    if not isinstance(passed, list) or len(passed) != n:
        raise InputError(f"passed: expected a list of {n} lists of cards, got {records.show(passed)}")
    k = int(rules.pass_count(n))
    return [records.cards_from(MU, p, hands[s], k, f"passed[{s}]") for s, p in enumerate(passed)]


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
    n_cards = players * int(rules.hand_size(players))
    return {
        "game": "panther",
        "players": players,
        "dealer": int(row["dealer"][0]),
        "hands": [MU.format(h) for h in row["hands"][0]],
        "passed": [MU.format(p) for p in row["passed"][0]],
        "play": [MU.text(int(c)) for c in ws.log[:n_cards]],
    }
