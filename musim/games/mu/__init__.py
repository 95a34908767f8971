"""Mü (docs/rules.md §2): rules kernels, game records, policies, deal simulation and its analyses."""

from musim.core.deck import MU
from musim.engine.errors import SpecError
from musim.games.contract import EXACT_PLAY, Game, Option, lazy
from musim.games.mu.rules import GOAL, MAX_PLAYERS, MIN_PLAYERS

# Bump whenever a rule, policy or kernel change alters any row a run writes (tests/golden keeps
# rows made under this version and fails when they change without a bump).
# 2: double-dummy play keeps the value with the lowest-index card (1: the solver's order)
# 3: deal rows carry score_<i> per seat, as every game's do; options move under params["options"]
RESULT_VERSION = 3


def check_dd_tricks(play, dd_tricks):
    """Playing the last tricks double-dummy means nothing but under exact play."""
    if dd_tricks and play != EXACT_PLAY:
        raise SpecError("--dd-tricks applies only with --play dd")


GAME = Game(
    name="mu",
    title="Mü",
    players=(MIN_PLAYERS, MAX_PLAYERS),
    default_players=4,
    deck=MU,
    result_version=RESULT_VERSION,
    policies=("heuristic", "random", EXACT_PLAY),
    play_help="random/heuristic: every decision of the seat (auction, trumps, partner, cards) by that policy; "
    "dd: heuristic auction, exact double-dummy card play (seconds to hours a deal with 4+ players).",
    options=(
        Option("goal", int, GOAL, "Match goal, with --matches.", range=(1, 100_000), per_deal=False),
        Option("dd_tricks", int, 0, "With --play dd: play only the last N tricks double-dummy (0 = all).", (0, 15)),
    ),
    job=lazy("musim.games.mu.run", "job"),
    make_summary=lazy("musim.games.mu.summary", "for_run"),
    check=lambda spec: check_dd_tricks(spec.play, spec.options["dd_tricks"]),
    warning=lazy("musim.games.mu.cli", "run_warning"),
    estimate=lazy("musim.games.mu.costs", "run_seconds"),
    record=lazy("musim.games.mu.run", "record"),
    replay=lazy("musim.games.mu.record", "replay"),
    solver=lazy("musim.games.mu.solve", "MuSolver"),
    matches=True,
    commands=lazy("musim.games.mu.cli", "commands"),
)
