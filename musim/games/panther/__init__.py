"""The Last Panther (docs/rules.md §4): rules kernels, policies, deal simulation, records."""

from functools import partial

from musim.core.deck import MU
from musim.engine.seats import EXACT_PLAY
from musim.games.contract import Game, lazy
from musim.play import node_limit, search_budget, world_weights

# the parameters of a `search` seat's weighted worlds (weights.py), kept free of numba here
WEIGHTS = world_weights.Weights("panther", ("pass_departure", "departure"))

# Bump whenever a rule, policy or kernel change alters any row a run writes.
RESULT_VERSION = 2  # 2: the black_sevens column

GAME = Game(
    name="panther",
    title="The Last Panther",
    players=(3, 8),
    default_players=4,
    deck=MU,
    result_version=RESULT_VERSION,
    policies=("heuristic", "random", EXACT_PLAY, search_budget.SEARCH, search_budget.UNIFORM),
    play_help=(
        "random/heuristic: every decision by that policy; dd: heuristic passes, every card double-dummy "
        "for the mover's own seat (a solve per card: slow with few players; docs/players.md); search: "
        "its pass and every card by the best own deal score over --search-worlds deals of the hidden "
        "cards, weighted by how likely they make the others' cards and pass (--search-weights), each played "
        "out by the heuristic, the last --search-exact-tricks tricks solved (docs/players.md); "
        "search-uniform: the first search player, uniform worlds, no exact endgames."
    ),
    options=(search_budget.WORLDS, search_budget.EXACT_TRICKS, world_weights.OPTION, node_limit.PER_CARD),
    check=partial(world_weights.check_seat_game, WEIGHTS),
    job=lazy("musim.games.panther.run", "job"),
    make_summary=lazy("musim.games.panther.summary", "for_run"),
    record=lazy("musim.games.panther.run", "record"),
    replay=lazy("musim.games.panther.record", "replay"),
    show=lazy("musim.games.panther.show", "show"),
    matches=True,
    solver=lazy("musim.games.panther.solve", "PantherSolver"),
)
