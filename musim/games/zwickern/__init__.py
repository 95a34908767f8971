"""Zwickern (docs/rules.md §10): rules kernels, policies, deal and match simulation, records."""

from musim.core.deck import ZWICKERN
from musim.engine.option import Option
from musim.games.contract import Game, lazy
from musim.games.zwickern.points import DEFAULT

# Bump whenever a rule, policy or kernel change alters any row a run writes.
RESULT_VERSION = 1

GAME = Game(
    name="zwickern",
    title="Zwickern",
    players=(2, 4),
    default_players=4,
    deck=ZWICKERN,
    result_version=RESULT_VERSION,
    policies=("heuristic", "random"),
    play_help="random/heuristic: every decision by that policy (docs/players.md).",
    options=(
        Option(
            "victory_points",
            str,
            DEFAULT,
            "The victory points, KEY=POINTS,...: a card (D10), a label in every suit (A, J), joker; "
            "most (most cards), zwick (each Zwick), pile (a pile left costs its builder this times its value).",
        ),
    ),
    job=lazy("musim.games.zwickern.run", "job"),
    make_summary=lazy("musim.games.zwickern.summary", "for_run"),
    check=lazy("musim.games.zwickern.run", "check"),
    record=lazy("musim.games.zwickern.run", "record"),
    replay=lazy("musim.games.zwickern.record", "replay"),
    show=lazy("musim.games.zwickern.show", "show"),
    matches=True,
)
