"""Calcory (docs/rules.md §7): rules as a state machine of kernels, policies with memory, game
simulation, records."""

from musim.core.deck import MU
from musim.engine.option import Option
from musim.games.contract import Game, lazy

# Bump whenever a rule, policy or kernel change alters any row a run writes.
# 2: the heuristic takes a remembered sure 13 and never ends the game behind when it may play on
RESULT_VERSION = 2
PLAY_HELP = "random/heuristic: every decision by that policy (docs/players.md)."

GAME = Game(
    name="calcory",
    title="Calcory",
    players=(2, 4),
    default_players=2,
    deck=MU,
    result_version=RESULT_VERSION,
    policies=("heuristic", "random"),
    play_help=PLAY_HELP,
    options=(
        Option(
            "memory",
            float,
            1.0,
            "The chance a player remembers the place of a card it saw face up (1 perfect memory, 0 none).",
            range=(0.0, 1.0),
        ),
    ),
    job=lazy("musim.games.calcory.run", "job"),
    make_summary=lazy("musim.games.calcory.summary", "for_run"),
    record=lazy("musim.games.calcory.run", "record"),
    replay=lazy("musim.games.calcory.record", "replay"),
    show=lazy("musim.games.calcory.show", "show"),
)
