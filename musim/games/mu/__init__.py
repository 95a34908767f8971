"""Mü (docs/rules.md §2): rules kernels, game records, policies, deal simulation and its analyses."""

from musim.core.deck import MU
from musim.engine.errors import SpecError
from musim.engine.option import Option
from musim.engine.seats import EXACT_PLAY
from musim.games.contract import Game, lazy
from musim.games.mu import target_tables
from musim.games.mu.params import AUCTION_NAMES, BY_PLAY, WEIGHTS, MuParams, auction_model, learned_model
from musim.games.mu.rules import GOAL, MAX_PLAYERS, MIN_PLAYERS
from musim.games.mu.target_tables import RULEBOOK
from musim.play import node_limit, search_budget
from musim.play.world_weights import OPTION as SEARCH_WEIGHTS  # by name: this package's world_weights is its own
from musim.play.world_weights import check_spec

# Bump whenever a rule, policy or kernel change alters any row a run writes (tests/golden keeps
# rows made under this version and fails when they change without a bump).
# 2: double-dummy play keeps the value with the lowest-index card (1: the solver's order)
# 3: deal rows carry score_<i> per seat, as every game's do; options move under params["options"]
RESULT_VERSION = 3


def check(spec):
    """GAME.check: --targets read into the run's table (target_tables.check), then the options
    that do not go together (params.check), --auction made the one model when every seat names
    it (its key and name), a learned auction's model named by its id (`v2@sha8`, so that the key
    names it), and a `search` seat's world weights likewise (musim/play/world_weights.py); a node
    limit bounds searches that deal rows account for (match rows have no such columns)."""
    target_tables.check(spec)
    params = MuParams.of_spec(spec)
    spec.options["auction"] = params.auction  # a list of one model is that model
    if params.bids_learned:
        spec.options["learned_model"] = learned_model(params.learned_model)[0]
    check_spec(spec, WEIGHTS)
    if spec.options["node_limit"] and spec.mode != "deals":
        raise SpecError("--node-limit applies only with --deals")


GAME = Game(
    name="mu",
    title="Mü",
    players=(MIN_PLAYERS, MAX_PLAYERS),
    default_players=4,
    deck=MU,
    result_version=RESULT_VERSION,
    policies=("heuristic", "random", EXACT_PLAY, search_budget.SEARCH, search_budget.UNIFORM),
    play_help="random/heuristic: every decision of the seat (auction, trumps, partner, cards) by that policy; "
    "dd: heuristic auction (--auction), exact double-dummy card play (seconds to hours a deal with 4+ players); "
    "search: heuristic auction, the chief's trump and partner and the cards by search over the deals of the hidden "
    "cards (--search-worlds, --search-exact-tricks); search-uniform: the first search player, cards only.",
    options=(
        Option("goal", int, GOAL, "Match goal, with --matches.", range=(1, 100_000), per_deal=False),
        Option("dd_tricks", int, 0, "With --play dd: play only the last N tricks double-dummy (0 = all).", (0, 15)),
        Option(
            "auction",
            str,
            BY_PLAY,
            f"Auction model (docs/players.md), one for every seat or one a seat in the rows' order "
            f"(bold,cautious,cautious,cautious), as --play: {', '.join(AUCTION_NAMES[1:])}, or {BY_PLAY}: what "
            "--play implies (cautious under heuristic, dd and search play, random under random play, which "
            f"takes no model: a seat that plays random takes {BY_PLAY}).",
            omit_default=True,
        ),
        Option(
            "targets",
            str,
            RULEBOOK,
            "A rule variant: the team targets of a CSV FILE with the columns players,bid,target, every bid of the "
            "run's player count (docs/rules.md §2.11); or the table's text a run's resume command gives.",
            omit_default=True,
            named_by_digest=True,
        ),
        Option(
            "learned_model",
            str,
            "",
            "With --auction learned: its model, v2 (shipped; the run's key names it v2@<digest>) "
            "or a model file (.npz).",
            omit_default=True,
        ),
        search_budget.WORLDS,
        search_budget.EXACT_TRICKS,
        SEARCH_WEIGHTS,
        node_limit.option(
            "With --play dd at every seat: a deal whose solve takes more than N nodes (1e7 and 2.5e5 are fine; "
            "about 3 million a second) is left unresolved: its row carries the bounds the solve proved (dd_low, "
            "dd_high) and its cards are played by the heuristic.\n\n"
            "With dd at some seats only: each search of a dd card's choice takes at most N nodes; a card whose "
            "search gives up is chosen by the bounds its moves' searches proved (docs/players.md), and the row's "
            "dd_cards_limited counts such cards."
        ),
    ),
    job=lazy("musim.games.mu.run", "job"),
    make_summary=lazy("musim.games.mu.summary", "for_run"),
    check=check,
    models=lambda spec: {
        "auction": auction_model(spec.play, spec.options["auction"]),
        **({"learned_model": spec.options["learned_model"]} if spec.options["learned_model"] else {}),
        **({SEARCH_WEIGHTS.name: spec.options[SEARCH_WEIGHTS.name]} if spec.options[SEARCH_WEIGHTS.name] else {}),
    },
    warning=lazy("musim.games.mu.cli", "run_warning"),
    estimate=lazy("musim.games.mu.estimates", "run_seconds"),
    record=lazy("musim.games.mu.run", "record"),
    replay=lazy("musim.games.mu.record", "replay"),
    show=lazy("musim.games.mu.show", "show"),
    solver=lazy("musim.games.mu.solve", "MuSolver"),
    matches=True,
    commands=lazy("musim.games.mu.cli", "commands"),
)
