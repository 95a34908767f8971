"""Bridge: a solver-only game, there to check the double-dummy solver against DDS
(docs/examples/README.md "Bridge position").  It has no policies, so `musim run` refuses it."""

from musim.games.contract import Game, lazy

GAME = Game(
    name="bridge",
    title="Bridge (double-dummy positions only)",
    players=(4, 4),
    default_players=4,
    deck=None,  # positions in PBN: no musim deck
    result_version=1,
    solver=lazy("musim.games.bridge.solve", "BridgeSolver"),
)
