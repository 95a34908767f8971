"""`musim compile`: fill the kernel cache ahead of use, game by game, through the game contract.

Each step plays one deal (and one match, where the game plays matches) of one policy in this
process, as `musim run` would, or solves a game's example positions as `musim solve` would, so
that it compiles exactly the kernels those commands load.  Nothing here names a game: the
steps come from the registry (musim/games/__init__.py) and each Game's policies and solver.
"""

import dataclasses
import json
from functools import partial
from pathlib import Path

from musim.engine.seats import EXACT_PLAY
from musim.play.search_budget import SEARCH, UNIFORM

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"  # in a clone: the positions to solve
SEED = 1
NODE_LIMIT = 10**5  # exact play's searches stopped early: a full deal of some games takes hours, and the
# limit is a number the kernels read as they run, so they compile alike (play/node_limit.py)


@dataclasses.dataclass
class Step:
    label: str  # what it compiles, for a person: "mu: dd, deals"
    run: object  # () -> None


def steps(games, solver=False, search=False):
    """The Steps that compile `games`' kernels: their plain policies, exact play and `musim
    solve` with `solver`, the search player with `search`."""
    found = []
    for game in games:
        for play in game.policies:
            if (play == EXACT_PLAY and not solver) or (play == SEARCH and not search) or play == UNIFORM:
                continue  # search-uniform plays through the search's kernels
            modes = ("deals", "matches") if game.matches and play not in (EXACT_PLAY, SEARCH) else ("deals",)
            found += [Step(f"{game.name}: {play}, {mode}", _runner(game, play, mode)) for mode in modes]
        if solver and game.solver is not None:
            positions = example_positions(game.name)
            if positions:
                found.append(Step(f"{game.name}: solve", partial(_solve, game, positions)))
    return found


def _runner(game, play, mode):
    """() -> None: one item of `mode` played by `play` at the game's fewest seats, as `musim run`
    plays it (exact play under a node limit where the game has one)."""
    from musim.engine.spec import RunSpec, checked
    from musim.play import node_limit

    limited = play == EXACT_PLAY and any(o.name == node_limit.NAME for o in game.options)
    options = {node_limit.NAME: NODE_LIMIT} if limited else {}

    def run():
        spec = RunSpec(game.name, mode, 1, game.players[0], play, seed=SEED, workers=1, options=dict(options))
        job = checked(spec).job(spec)
        job.to_batch(job.simulate(0, 1))

    return run


def example_positions(name, folder=EXAMPLES):
    """The first position of game `name` in the example files (docs/examples/*-positions.jsonl;
    a position without "game" is the default game's), as a list; [] if there is none."""
    from musim.games import DEFAULT_GAME

    for path in sorted(folder.glob("*-positions.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and json.loads(line).get("game", DEFAULT_GAME) == name:
                return [json.loads(line)]
    return []


def _solve(game, positions):
    """Solve `positions` as `musim solve` does, with and without --all-moves."""
    from musim.solver.tt import make_table

    adapter = game.solver(make_table(16), counting=False)
    for position in positions:
        for all_moves in (False, True):
            adapter.solve(position, all_moves=all_moves, node_limit=0)
