"""Wimmüln (docs/rules.md §3): rules kernels, policies, deal simulation, records."""

from functools import partial

from musim.core.deck import MU
from musim.engine.seats import EXACT_PLAY
from musim.games.contract import Game, lazy
from musim.play import node_limit, search_budget, world_weights

# the parameters of a `search` seat's weighted worlds (weights.py), kept free of numba here
WEIGHTS = world_weights.Weights("wimmueln", ("estimate_decay", "departure"))

# Bump whenever a rule, policy or kernel change alters any row a run writes.
RESULT_VERSION = 1

GAME = Game(
    name="wimmueln",
    title="Wimmüln",
    players=(3, 6),
    default_players=4,
    deck=MU,
    result_version=RESULT_VERSION,
    policies=("heuristic", "random", EXACT_PLAY, search_budget.SEARCH, search_budget.UNIFORM),
    play_help=(
        "random/heuristic: every decision by that policy; dd: heuristic lead and estimates, every card "
        "double-dummy for the mover's own seat (a solve per card: slow; docs/players.md); search: "
        "heuristic free lead, its estimates and every card the best for its own score over --search-worlds "
        "deals of the cards it cannot see, weighted by how likely they make the others' estimates and "
        "cards (--search-weights), each played out by the heuristic, the last --search-exact-tricks "
        "tricks solved (docs/players.md); search-uniform: the first search player, uniform worlds, no "
        "exact endgames."
    ),
    options=(search_budget.WORLDS, search_budget.EXACT_TRICKS, world_weights.OPTION, node_limit.PER_CARD),
    check=partial(world_weights.check_seat_game, WEIGHTS),
    job=lazy("musim.games.wimmueln.run", "job"),
    make_summary=lazy("musim.games.wimmueln.summary", "for_run"),
    record=lazy("musim.games.wimmueln.run", "record"),
    replay=lazy("musim.games.wimmueln.record", "replay"),
    show=lazy("musim.games.wimmueln.show", "show"),
    matches=True,
    solver=lazy("musim.games.wimmueln.solve", "WimmuelnSolver"),
)
