"""Safarü (docs/rules.md §6): rules kernels, policies, game simulation, records.  Reverse Safarü, the
same game with the method chosen by the seat to the left and the scoring reversed, registers from
this folder too (musim/games/safarue/reverse.py)."""

from musim.core.deck import MU
from musim.games.contract import Game, lazy

# Bump whenever a rule, policy or kernel change alters any row a run writes (both variants).
RESULT_VERSION = 1
PLAY_HELP = "random/heuristic: every decision by that policy (docs/players.md)."

GAME = Game(
    name="safarue",
    title="Safarü",
    players=(2, 4),
    default_players=2,
    deck=MU,
    result_version=RESULT_VERSION,
    policies=("heuristic", "random"),
    play_help=PLAY_HELP,
    job=lazy("musim.games.safarue.run", "job"),
    make_summary=lazy("musim.games.safarue.summary", "for_run"),
    record=lazy("musim.games.safarue.run", "record"),
    replay=lazy("musim.games.safarue.record", "replay"),
    show=lazy("musim.games.safarue.show", "show"),
)
