"""Danger (docs/rules.md §9): rules as a state machine of kernels on a deck of two words, policies,
game simulation, records."""

from musim.core.deck import DANGER
from musim.engine.option import Option
from musim.games.contract import Game, lazy

# Bump whenever a rule, policy or kernel change alters any row a run writes.
# 2: the heuristic breaks ties between rows uniformly (it took the first colour: R, Y, G, B)
RESULT_VERSION = 2
PLAY_HELP = "random/heuristic: every decision by that policy (docs/players.md)."

GAME = Game(
    name="danger",
    title="Danger",
    players=(3, 5),
    default_players=4,
    deck=DANGER,
    result_version=RESULT_VERSION,
    policies=("heuristic", "random"),
    play_help=PLAY_HELP,
    options=(
        Option("copies", int, 3, "Copies of each single-colour card (R Y G B x 1..9).", range=(1, 3)),
        Option(
            "multicolour",
            int,
            3,
            "Two-colour cards: one of each value 1..N for each of the 6 colour pairs (0: none).",
            range=(0, 3),
        ),
        Option("rounds", int, 5, "Rounds a game.", range=(1, 20)),
    ),
    job=lazy("musim.games.danger.run", "job"),
    make_summary=lazy("musim.games.danger.summary", "for_run"),
    record=lazy("musim.games.danger.run", "record"),
    replay=lazy("musim.games.danger.record", "replay"),
    show=lazy("musim.games.danger.show", "show"),
)
