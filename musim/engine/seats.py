"""The seats' policies of a run's --play text: one policy name for every seat, or one a seat.

Every layer reads it (the engine checks a spec, the games turn it into their kernels' codes,
the CLI sizes a run), so it sits here, below the engine, importing nothing of musim.
"""

import numpy as np

EXACT_PLAY = "dd"  # the policy name of exact double-dummy play; needs a solver
SEARCH = "search"  # the policy name of the search player (musim/play/search.py)
UNIFORM = "search-uniform"  # the first search player: uniform worlds, heuristic playouts, nothing else
SEARCH_PLAYER_VERSION = 3  # 3: weighted worlds; 2: exact endgames, Mü's trumps and partner searched (1: search-uniform)


def plays_exactly(play):
    """Does some seat of a run's --play (one policy, or one a seat joined by commas) play exactly?"""
    return EXACT_PLAY in play.split(",")


def play_key(play):
    """What a run's key holds for its --play text: with a `search` seat, the text and the search
    player's version (rows of another search player are never resumed as its own); without one,
    `search-uniform` keyed as `search`, the name it had, so its keys are those its rows had."""
    names = play.split(",")
    if SEARCH in names:
        return {"play": play, "search_player": SEARCH_PLAYER_VERSION}
    return {"play": ",".join(SEARCH if p == UNIFORM else p for p in names)}


def seat_names(players, policy, names, what=("policy", "policies")):
    """The policy name of each seat: `policy` is one name for every seat, a list of names one a
    seat, or their text joined by commas (`--play random,heuristic,heuristic,heuristic`, seats
    in the order of the rows).  ValueError (one line, naming the fault) if it is none of these;
    `what`: a name and names in its words (Mü's --auction: auction model, auction models)."""
    text = isinstance(policy, str)
    chosen = [p.strip() for p in policy.split(",")] if text else list(policy)
    chosen = chosen * players if text and len(chosen) == 1 else chosen  # a list is one a seat
    if len(chosen) != players:
        raise ValueError(f"expected one {what[0]} or {players} (one a seat), got {len(chosen)} in {policy!r}")
    unknown = [p for p in chosen if p not in names]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not one of the {what[1]} ({', '.join(names)})")
    return chosen


def play_text(players, policy, names):
    """The run's --play text: the one name when every seat plays it (so a run's key and name
    stay those of a single policy), else the names of the seats joined by commas."""
    chosen = seat_names(players, policy, names)
    return chosen[0] if len(set(chosen)) == 1 else ",".join(chosen)


def seat_policies(players, policy, names):
    """int64 policy code per seat (seat_names) of names {name: code}."""
    return np.array([names[p] for p in seat_names(players, policy, names)], np.int64)
