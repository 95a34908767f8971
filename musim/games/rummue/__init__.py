"""Rummü (docs/rules.md §5): meld rules and the meld search as kernels, policies, deals and matches,
records."""

from musim.core.deck import MU
from musim.engine.errors import SpecError
from musim.engine.option import Option
from musim.games.contract import Game, lazy

# Bump whenever a rule, policy or kernel change alters any row a run writes.
RESULT_VERSION = 2
PLAY_HELP = "random/heuristic: every decision by that policy (docs/players.md)."


def check(spec):
    """Teams only with 4 or 6 players."""
    if spec.options["teams"] and spec.players not in (4, 6):
        raise SpecError(f"--teams: partners opposite need 4 or 6 players, not {spec.players}")


GAME = Game(
    name="rummue",
    title="Rummü",
    players=(3, 6),
    default_players=4,
    deck=MU,
    result_version=RESULT_VERSION,
    policies=("heuristic", "random"),
    play_help=PLAY_HELP,
    options=(
        Option(
            "teams",
            bool,
            False,
            "With 4 or 6 players, partners opposite score together (a match then goes to 500).",
        ),
    ),
    job=lazy("musim.games.rummue.run", "job"),
    make_summary=lazy("musim.games.rummue.summary", "for_run"),
    check=check,
    record=lazy("musim.games.rummue.run", "record"),
    replay=lazy("musim.games.rummue.record", "replay"),
    show=lazy("musim.games.rummue.show", "show"),
    matches=True,
)
