"""Reverse Safarü (docs/rules.md §6): Safarü's kernels with the reverse flag set, registered as `reverse-safarue`."""

from musim.core.deck import MU
from musim.games.contract import Game, lazy
from musim.games.safarue import PLAY_HELP, RESULT_VERSION

GAME = Game(
    name="reverse-safarue",
    title="Reverse Safarü",
    players=(2, 4),
    default_players=2,
    deck=MU,
    result_version=RESULT_VERSION,
    policies=("heuristic", "random"),
    play_help=PLAY_HELP + " In Reverse Safarü the seat to the mover's left names the method by its own policy.",
    job=lazy("musim.games.safarue.run", "reverse_job"),
    make_summary=lazy("musim.games.safarue.summary", "for_reverse"),
    record=lazy("musim.games.safarue.run", "reverse_record"),
    replay=lazy("musim.games.safarue.record", "replay"),
    show=lazy("musim.games.safarue.show", "show"),
)
