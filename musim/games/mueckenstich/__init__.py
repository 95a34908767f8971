"""Mückenstich (docs/rules.md §8): rules kernels, policies, deal simulation, records."""

from functools import partial

from musim.core.deck import MUECKENSTICH
from musim.engine.seats import EXACT_PLAY
from musim.games.contract import Game, lazy
from musim.play import node_limit, search_budget, world_weights

# the parameters of a `search` seat's weighted worlds (weights.py), kept free of numba here
WEIGHTS = world_weights.Weights("mueckenstich", ("departure",))

# Bump whenever a rule, policy or kernel change alters any row a run writes.
RESULT_VERSION = 1

GAME = Game(
    name="mueckenstich",
    title="Mückenstich",
    players=(3, 6),
    default_players=4,
    deck=MUECKENSTICH,
    result_version=RESULT_VERSION,
    policies=("heuristic", "random", EXACT_PLAY, search_budget.SEARCH, search_budget.UNIFORM),
    play_help=(
        "random/heuristic: every decision by that policy; dd: heuristic discards and scoring colours, every "
        "card (and trump named) double-dummy for the mover's own seat (a solve per card; docs/players.md); "
        "search: heuristic scoring colours, its discards and every card (and trump named) the best for its own "
        "score over --search-worlds deals of the cards it cannot see, weighted by how likely they make the others' "
        "cards (--search-weights), played out by the heuristic, in the last --search-exact-tricks tricks by "
        "double-dummy play to the end (docs/players.md); search-uniform: the first search player, uniform worlds, "
        "no exact endgames."
    ),
    options=(search_budget.WORLDS, search_budget.EXACT_TRICKS, world_weights.OPTION, node_limit.PER_CARD),
    check=partial(world_weights.check_seat_game, WEIGHTS),
    job=lazy("musim.games.mueckenstich.run", "job"),
    make_summary=lazy("musim.games.mueckenstich.summary", "for_run"),
    record=lazy("musim.games.mueckenstich.run", "record"),
    replay=lazy("musim.games.mueckenstich.record", "replay"),
    show=lazy("musim.games.mueckenstich.show", "show"),
    matches=True,
    solver=lazy("musim.games.mueckenstich.solve", "MueckenstichSolver"),
)
