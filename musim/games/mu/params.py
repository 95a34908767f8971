"""The options one Mü play runs under, as one checked object (docs/mu-options.md).

`musim run`, `musim record`, `musim bid` and `musim balance` each build a MuParams once (from a
run's spec, or from their command line) and hand it down whole: the rules that options obey
together are checked here alone, and the kernels get the arrays they need from it (the target
table here; the seats' policy codes and one thread's scratch: simulate.policy_codes and
simulate.workspace_of).  Frozen, so that a chunk shipped to a worker (threads, Dask) plays under
exactly the options its run was checked with.  Free of numba (the kernels import it), so that
declaring the game stays cheap.
"""

import dataclasses
from functools import cached_property

import numpy as np

from musim.engine.errors import SpecError
from musim.engine.seats import EXACT_PLAY, play_text, plays_exactly, seat_names
from musim.games.mu.rules import GOAL, MAX_PLAYERS, MIN_PLAYERS
from musim.games.mu.target_tables import RULEBOOK, TargetsError, from_text, table_of
from musim.play import world_weights
from musim.play.search_budget import DEFAULT_EXACT_TRICKS, DEFAULT_WORLDS, check_exact, check_worlds
from musim.solver.table_size import DEFAULT_MB

# --auction: the default, what --play implies (random bidding under random play, the cautious
# auction otherwise), then the names of policies.AUCTIONS (kept equal by tests/test_auction.py)
BY_PLAY = "play"
AUCTION_NAMES = (BY_PLAY, "cautious", "bold", "learned")
LEARNED = "learned"  # the auction model a learned_model names (learned/model_file.py)
DEFAULT_AUCTION = "cautious"  # the model BY_PLAY means under heuristic, dd and search play
QUESTIONS = ("value", "reach")  # what a start solve answers: the exact value, or whether the team reaches a target
# `musim bid --vice`, the default first: the vice and laid cards of the --auction model's auction (so that
# made, score and best bid rest on one model), of the strongest other hand, or none (analysis/bid.py)
VICES = ("auction", "strongest", "none")
# the parameters of a `search` seat's weighted worlds (world_weights.py), a row a player count
WEIGHTS = world_weights.Weights(
    "mu",
    ("tau", "eps_auction", "eps_setup", "eps_play"),  # the columns mu/world_weights.py's TAU..EPS_PLAY
    bounds=((0.0, np.inf), (0.0, 1.0), (0.0, 1.0), (0.0, 1.0)),
    players=(MIN_PLAYERS, MAX_PLAYERS),
)


@dataclasses.dataclass(frozen=True)
class MuParams:
    """What decides a Mü play's rows besides the seed (docs/mu-options.md): `play` is a --play text
    (one policy, or one a seat joined by commas); `auction` likewise a name of AUCTION_NAMES or one a
    seat (a list naming one model for every seat is kept as that name: the run's key); `targets` the
    table's compact text (target_tables.py, `rulebook` by default); `worlds` a search seat's budget,
    `exact_tricks` the tricks a `search` seat solves exactly (search_budget.EXACT_TRICKS);
    `tt_mb` the solver's table per worker; `goal` the total that ends a match; `learned_model` the
    learned auction's model (learned/model_file.resolve: "" the shipped one), with `learned` only;
    `search_weights` the parameters of a `search` seat's weighted worlds (musim/play/world_weights.py)."""

    players: int
    play: str = "heuristic"
    auction: str = BY_PLAY
    targets: str = RULEBOOK
    dd_tricks: int = 0
    node_limit: int = 0
    question: str = "value"
    worlds: int = DEFAULT_WORLDS
    exact_tricks: int = DEFAULT_EXACT_TRICKS
    tt_mb: int = DEFAULT_MB
    goal: int = GOAL
    learned_model: str = ""
    search_weights: str = ""

    def __post_init__(self):
        check(self)
        object.__setattr__(self, "auction", play_text(self.players, self.auction, AUCTION_NAMES))

    @classmethod
    def of_spec(cls, spec):
        """The parameters of a `musim run --game mu` spec, its options checked and completed
        (engine/spec.py checked; `targets` already read into its text, target_tables.check)."""
        o = spec.options
        return cls(
            players=spec.players,
            play=spec.play,
            auction=o["auction"],
            targets=o["targets"],
            dd_tricks=o["dd_tricks"],
            node_limit=o["node_limit"],
            worlds=o["search_worlds"],
            exact_tricks=o["search_exact_tricks"],
            tt_mb=spec.tt_mb,
            goal=o["goal"],
            learned_model=o["learned_model"],
            search_weights=o["search_weights"],
        )

    def replace(self, **changes):
        """A copy with `changes`, checked again."""
        return dataclasses.replace(self, **changes)

    @property
    def auction_model(self):
        """The auction model the seats bid by (auction_model)."""
        return auction_model(self.play, self.auction)

    @property
    def auction_seats(self):
        """The --auction name of each seat (BY_PLAY: the auction its --play implies)."""
        return _seats(self.players, self.auction)

    @cached_property
    def table(self):
        """The int64 target table [n, bid] every kernel reads (target_tables.table)."""
        return table_of(self.targets)

    @property
    def bids_learned(self):
        """Does a seat bid by the learned auction?"""
        return LEARNED in self.auction.split(",")

    @cached_property
    def learned(self):
        """The learned auction's LearnedModel when a seat bids by it, else None (kernels compile
        without the learned bidder then)."""
        return learned_model(self.learned_model)[1] if self.bids_learned else None

    @property
    def search_weights_row(self):
        """The weighted worlds' parameters at this player count."""
        return weights_row(self.search_weights, self.players)


def weights_row(name, players):
    """The parameters of a search_weights value (world_weights.resolve, loaded once) at `players`."""
    return WEIGHTS.row(world_weights.resolve(WEIGHTS, name)[1], players)


def learned_model(name):
    """(id, LearnedModel) of a learned_model option (learned/model_file.resolve), loaded once."""
    from musim.games.mu.learned.model_file import resolve

    return resolve(name)


def auction_model(play, auction):
    """The name of the auction model a run bids by: `random` under random play, else the
    --auction model (DEFAULT_AUCTION for BY_PLAY); with one model a seat, each seat's joined by
    commas (a seat left to its --play: `random` if it plays random, else DEFAULT_AUCTION)."""
    if play == "random":
        return "random"
    if "," not in auction:
        return DEFAULT_AUCTION if auction == BY_PLAY else auction
    models = auction.split(",")
    return ",".join(_seat_model(p, a) for p, a in zip(_seats(len(models), play), models, strict=True))


def _seat_model(play, auction):
    if auction != BY_PLAY:
        return auction
    return "random" if play == "random" else DEFAULT_AUCTION


def _seats(players, text):
    """The seats' names of a checked --play or --auction text (one name, or one a seat)."""
    names = [x.strip() for x in text.split(",")]
    return names * players if len(names) == 1 else names


def check(p):
    """Options that do not go together (SpecError naming the flag): --dd-tricks, --node-limit
    and --question reach without dd play (the node limit also not with --dd-tricks), --search-worlds
    without a search seat, --auction under random play (check_auction); players, auction, question
    and target table within their range."""
    if not MIN_PLAYERS <= p.players <= MAX_PLAYERS:
        raise SpecError(f"--players: {p.players} is not in {MIN_PLAYERS}..{MAX_PLAYERS}")
    if p.dd_tricks and p.play != EXACT_PLAY:
        raise SpecError("--dd-tricks applies only with --play dd")
    if p.node_limit and (not plays_exactly(p.play) or p.dd_tricks):
        raise SpecError("--node-limit applies only with --play dd and no --dd-tricks")
    check_worlds(p.play, p.worlds)
    check_exact(p.play, p.exact_tricks)
    check_auction(p.players, p.play, p.auction)
    if p.learned_model and not p.bids_learned:
        raise SpecError("--learned-model applies only with --auction learned")
    if p.bids_learned:
        learned_model(p.learned_model)  # a ModelError (a SpecError) names what is wrong with it
    world_weights.ident_of(p.play, p.search_weights, WEIGHTS)  # a SpecError names what is wrong
    if p.question not in QUESTIONS:
        raise SpecError(f"--question {p.question!r}: one of {', '.join(QUESTIONS)}")
    if p.question == "reach" and p.play != EXACT_PLAY:
        raise SpecError("--question reach applies only with --play dd")
    try:
        from_text(p.targets)
    except TargetsError as exc:
        raise SpecError(f"--targets {exc}") from None


def check_auction(players, play, auction):
    """--auction: one name of AUCTION_NAMES or one a seat; a model, not BY_PLAY, only where a seat
    does not play random (it bids at random), and with one model a seat, at none that does
    (SpecError naming the fault)."""
    try:
        models = seat_names(players, auction, AUCTION_NAMES, ("auction model", "auction models"))
    except ValueError as exc:
        raise SpecError(f"--auction: {exc}") from None
    plays = _seats(players, play)
    if set(plays) == {"random"} and set(models) != {BY_PLAY}:
        raise SpecError("--auction applies only with --play heuristic, dd or search (random play bids at random)")
    if len(set(models)) > 1:
        bad = [s for s in range(players) if plays[s] == "random" and models[s] != BY_PLAY]
        if bad:
            s = bad[0]
            raise SpecError(
                f"--auction: seat {s} plays random, so it bids at random: {models[s]!r} there must be {BY_PLAY!r}"
            )
