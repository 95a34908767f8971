"""Whole Mü deals and matches as numba kernels: deal, auction, trumps, partner, play, score.

`play_deal` runs one deal with the given policies and writes its result into a Deal of
arrays (laid out by DEAL).  Runs of deals and matches go through musim.play.drivers (deal k of
a run draws from its own counter-based stream, so the rows never depend on how a run is
split), releasing the GIL so worker threads run chunks in parallel.  Scratch arrays travel
in a `Workspace` named tuple, allocated once per chunk.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, popcount
from musim.core.cards import DECK, DECK_3P, N_CARDS
from musim.core.deal import deal_cards
from musim.engine.seats import seat_policies
from musim.games.mu import ddplay, policies, search_player, setup_search, trick_step, world_weights
from musim.games.mu.learned import bidder
from musim.games.mu.params import BY_PLAY, weights_row
from musim.games.mu.rules import (
    MAX_PLAYERS,
    TRUMP,
    auction_over,
    auction_result,
    eklat_scores,
    fill_contract,
    fill_tier_masks,
    lay_turn,
    rulebook_targets,
    score_played,
    top_other,
)
from musim.play import drivers
from musim.play.drivers import SEATS
from musim.play.search_budget import DEFAULT_EXACT_TRICKS, DEFAULT_WORLDS
from musim.solver.choice import cards_limited
from musim.solver.table_size import DEFAULT_MB

# Columns of the per-deal integer result vector.
# DD_VALUE: the solved value (-1: none; ddplay.UNRESOLVED: not known, the solve having given up
# at the node limit or asked the reach question alone; the cards were then played by the
# heuristic, and DD_LOW..DD_HIGH bound the team's points of the deal under double-dummy play).
(
    OUTCOME,
    CHIEF,
    VICE,
    PARTNER,
    BID,
    CHIEF_TRUMP,
    VICE_TRUMP,
    TARGET,
    TEAM_POINTS,
    SUCCESS,
    SHORTFALL,
    BONUS,
    PROVOKER,
    AUCTION_TURNS,
    DD_VALUE,
    DD_LOW,
    DD_HIGH,
) = range(17)
N_RESULTS = 17
PLAYED, EKLAT = 0, 1
MAX_TURNS = 64 * MAX_PLAYERS  # every turn lays a card or passes; n passes end it

BID_POLICY, PLAY_POLICY = range(2)  # a run's policy codes (the drivers' seat_policy): auction, card play, by seat

Workspace = namedtuple(
    "Workspace",
    "cards held counts last_lay tied on_team trick klass power class_mask tier_mask plan_type plan_bid "
    "est auction_log play_log rng goal deal dd targets search plan_est learned ties",
)
Deal = namedtuple("Deal", "res scores card_points hands laid dd_limited")  # one deal's results
DEAL = Deal(  # their columns (musim.play.drivers.deal_arrays): the result vector (OUTCOME..DD_HIGH); per
    # seat scores, card points, hands and cards laid in the auction (uint64 masks); the cards of
    # seats playing dd among others chosen by bounds past the node limit (solver/choice.py cards_limited)
    res=(np.int64, (N_RESULTS,)),
    scores=(np.int64, (SEATS,)),
    card_points=(np.int64, (SEATS,)),
    hands=(np.uint64, (SEATS,)),
    laid=(np.uint64, (SEATS,)),
    dd_limited=(np.int64, ()),
)


def run_policy(bid_policy, play_policy):
    """A run's policy codes, the drivers' seat_policy: policy[BID_POLICY, s] is seat s's auction
    (and trump and partner) code, policy[PLAY_POLICY, s] its card-play code; each given as one
    code for every seat or as one a seat."""
    policy = np.zeros((2, MAX_PLAYERS), np.int64)
    for row, codes in ((BID_POLICY, bid_policy), (PLAY_POLICY, play_policy)):
        codes = np.atleast_1d(codes)
        policy[row] = codes if codes.size == 1 else np.pad(codes, (0, MAX_PLAYERS - codes.size))
    return policy


def seat_codes(players, play):
    """(auction codes, card-play codes), one a seat, of a --play text (one policy name for every
    seat or one a seat: musim.play.duplicate.seat_names)."""
    codes = seat_policies(players, play, policies.NAMES)
    return codes[:, BID_POLICY], codes[:, PLAY_POLICY]


def simulate_deals(
    players,
    seed,
    policy,
    start,
    count,
    ws=None,
    tt_mb=DEFAULT_MB,
    worlds=DEFAULT_WORLDS,
    exact_tricks=DEFAULT_EXACT_TRICKS,
):
    """Deals start..start+count-1 of a run as a dict of arrays, one row per deal, as the other games'
    simulate_deals give them (musim.play.duplicate): dealer, and DEAL's columns (res: the result
    vector OUTCOME..DD_HIGH; scores, card_points, hands, laid per seat); `policy`: one name or one
    a seat (seat_codes); `worlds`, `exact_tricks`: the search seats' budget and exact endgames
    (search_player.py)."""
    bid, play = seat_codes(players, policy)
    if ws is None:
        dd = ddplay.worker_ddplay(tt_mb) if policies.DD in play else None
        ws = make_workspace(players, dd, worlds=search_worlds(play, worlds), exact_tricks=exact(play, exact_tricks))
    return drivers.simulate_layout_deals(DEAL, players, run_policy(bid, play), seed, start, count, ws)


def policy_codes(params):
    """(auction codes, card-play codes), one a seat, of a MuParams: each seat's --auction model
    (one for every seat, or one a seat; BY_PLAY: the auction the seat's policy implies) bids for
    it, but a random seat always bids at random (params.check refuses a model named at one)."""
    bid, card = seat_codes(params.players, params.play)
    models = [b if a == BY_PLAY else policies.AUCTIONS[a] for a, b in zip(params.auction_seats, bid, strict=True)]
    return np.where(bid == policies.RANDOM, policies.RANDOM, np.array(models, np.int64)), card


def workspace_of(params, question="value"):
    """One thread's scratch for a MuParams (make_workspace): its target table, the search's budget
    where a seat searches, and the solver where a seat plays dd, its start solves answering
    `question` (a deal's rows ask params.question; the analyses' replays ask the value, putting
    the reach question by null-window searches of their own: analysis/samplers.py)."""
    card = policy_codes(params)[1]
    dd = None
    if policies.DD in card:
        dd = ddplay.worker_ddplay(params.tt_mb, params.dd_tricks, params.node_limit, question)
    worlds = search_worlds(card, params.worlds)
    exact_tricks = exact(card, params.exact_tricks)
    weights = params.search_weights_row
    return make_workspace(params.players, dd, params.goal, params.table, worlds, params.learned, exact_tricks, weights)


Match = namedtuple("Match", "chief_counts eklats")
MATCH = Match(chief_counts=(np.int64, (SEATS,)), eklats=(np.int64, ()))  # a match's own columns (drivers)


def deck_cards(players):
    """Scratch for the deck's card indices: 0..59, or 0..35 (R, Y, G: the default) with 3 players."""
    return np.arange(36 if players == 3 else N_CARDS, dtype=np.int64)


def search_worlds(play_codes, worlds):
    """The workspace's search budget for these card-play codes: `worlds`, or 0 when no seat searches."""
    codes = np.atleast_1d(play_codes)
    return worlds if policies.SEARCH in codes or policies.SEARCH_UNIFORM in codes else 0


def exact(play_codes, tricks):
    """The workspace's exact endgames for these card-play codes: `tricks`, or 0 when no seat
    plays `search` (search-uniform has none)."""
    return tricks if policies.SEARCH in np.atleast_1d(play_codes) else 0


def make_workspace(players, dd=None, goal=0, targets=None, worlds=0, learned=None, exact_tricks=0, weights=None):
    """Scratch arrays for one thread's deals; `dd` = solver scratch for double-dummy play
    (ddplay.make_ddplay), or None: the kernels are then compiled without the solver; `goal`: the
    total that ends a match; deal: one deal's results in a match; `targets`: the target table
    every kernel reads, [n, bid] (default the rulebook's; a variant: target_tables.py); `worlds`: the
    search seats' budget (search_worlds), 0 compiling the kernels without the search; `learned`:
    the learned bidder's LearnedModel (learned/), None compiling the auction without it;
    `exact_tricks`: a `search` seat's exact endgames (search_player.make_search); `weights`: the
    parameters of its weighted worlds (params.weights_row: a run's row; None the shipped ones)."""
    z = np.zeros
    ws = Workspace(
        cards=deck_cards(players),
        held=z(MAX_PLAYERS, np.uint64),
        counts=z(MAX_PLAYERS, np.int64),
        last_lay=z(MAX_PLAYERS, np.int64),
        tied=z(MAX_PLAYERS, np.int64),
        on_team=z(MAX_PLAYERS, np.bool_),
        trick=z(MAX_PLAYERS, np.int64),
        klass=z(N_CARDS, np.int64),
        power=z(N_CARDS, np.int64),
        class_mask=z(TRUMP + 1, np.uint64),
        tier_mask=z(4, np.uint64),
        plan_type=z(MAX_PLAYERS, np.int64),
        plan_bid=z(MAX_PLAYERS, np.int64),
        est=z(15, np.float64),
        auction_log=z(MAX_TURNS, np.uint64),
        play_log=z(N_CARDS, np.int64),
        rng=z(1, np.uint64),
        goal=np.full(1, goal, np.int64),
        deal=drivers.deal_arrays(DEAL, MAX_PLAYERS),
        dd=dd,
        targets=rulebook_targets() if targets is None else targets,
        search=None,
        plan_est=z((MAX_PLAYERS, 3), np.float64),
        learned=learned,
        ties=z(MAX_PLAYERS, np.int64),
    )
    if not worlds:
        return ws
    weights = weights_row("", players) if weights is None else weights
    return ws._replace(search=search_player.make_search(worlds, ws, weights, exact_tricks))


@flat_kernel
def run_auction(n, dealer, bid_policy, state, laid, ws):
    """Play the auction to its end (n consecutive passes); returns the number of turns.
    Heuristic players follow the plans in ws.plan_type and ws.plan_bid."""
    start_auction(n, bid_policy, laid, ws, ws.learned)
    return auction_from(n, dealer, 0, 0, bid_policy, state, laid, ws, ws.learned)


@flat_kernel
def start_auction(n, bid_policy, laid, ws, learned):
    """Nothing laid yet; the learned seats' estimates (learned.bidder.plan_learned) when a model
    is given (`learned`, ws.learned on its own: numba prunes the bidder away when it is None)."""
    for s in range(n):
        laid[s] = 0
        ws.counts[s] = 0
        ws.last_lay[s] = -1
        ws.ties[s] = 0
    if learned is not None:
        bidder.plan_learned(bid_policy, n, ws.held, ws.plan_type, ws.plan_est, ws.est)


@flat_kernel
def auction_from(n, seat, passes, turn, bid_policy, state, laid, ws, learned):
    """Play the auction on from any position (`seat` to move after `passes` consecutive passes
    and `turn` turns, laid cards in `laid`, ws.counts and ws.last_lay) to its end; returns the
    number of turns."""
    while not auction_over(passes, n):
        passes, turn, seat = auction_step(n, seat, passes, turn, bid_policy, state, laid, ws, learned)
    return turn


@flat_kernel(inline="always")
def auction_step(n, seat, passes, turn, bid_policy, state, laid, ws, learned):
    """`seat`'s turn by its auction code; returns (passes, turn, seat) after it."""
    code = policies.seat_code(bid_policy, seat)
    if learned is not None:
        if code == policies.LEARNED:
            lay = bidder.learned_lay(n, seat, ws.held, laid, ws.counts, ws.last_lay, passes, ws, learned)
            return lay_cards(n, seat, lay, passes, turn, laid, ws)
    lay = policies.choose_lay(code, n, seat, ws.held, laid, ws.counts, ws.plan_type, ws.plan_bid, state)
    return lay_cards(n, seat, lay, passes, turn, laid, ws)


@flat_kernel(inline="always")
def lay_cards(n, seat, lay, passes, turn, laid, ws):
    """`seat` lays `lay` (0: passes) on turn `turn`; returns (passes, turn, seat) after it."""
    ws.auction_log[turn] = lay
    return lay_turn(n, seat, lay, passes, turn, laid, ws.counts, ws.last_lay, ws.ties)


@flat_kernel
def play_tricks(n, chief, chief_trump, vice_trump, play_policy, state, card_points, ws, dd, search):
    """Play every trick: the chief leads first, each trick's winner leads the next.

    With the DD policy at every seat the last dd.meta[TRICKS] tricks (0: all) are played by the
    double-dummy solver (ddplay.py), the rest by the heuristic; where the solver leaves the
    value unknown (the node limit, or the reach question) by the heuristic too.  With DD at
    some seats only, each card of theirs is a solve of its own (ddplay.dd_seat_card).  `dd` is
    ws.dd, passed on its own so that numba prunes the solver away when it is None; `search` is
    ws.search likewise: a search seat's cards are searched (search_player.py), which notes the voids
    every seat shows."""
    held, trick, on_team, log = ws.held, ws.trick, ws.on_team, ws.play_log
    klass, power, class_mask = ws.klass, ws.power, ws.class_mask
    remaining = np.uint64(0)
    for s in range(n):
        card_points[s] = 0
        remaining |= held[s]
    leader = chief
    pos = 0
    active = False  # double-dummy play of the whole table under way
    whole = policies.every_seat(play_policy, n, policies.DD)  # one solve of the whole table (else per dd card)
    if dd is not None:
        ddplay.dd_reset(dd)
    if search is not None:
        search_player.begin(search, n, chief, chief_trump, vice_trump, play_policy)
    tricks = popcount(held[0])
    for t in range(tricks):
        if dd is not None:
            if whole and not active and not ddplay.dd_unsolved(dd) and ddplay.dd_starts_at(dd, tricks - t):
                taken = 0
                for s in range(n):
                    taken += card_points[s] if on_team[s] else 0
                ddplay.dd_start(n, chief_trump, vice_trump, held, on_team, leader, taken, dd, klass, power, class_mask)
                active = not ddplay.dd_unsolved(dd)
        winner_pos, winner, seat = 0, leader, leader
        for k in range(n):
            card = -1
            if dd is not None:
                if active:
                    card = ddplay.dd_card(n, dd, seat, leader, k)
                elif not whole and policies.seat_code(play_policy, seat) == policies.DD:
                    card = ddplay.dd_seat_card(
                        n, chief_trump, vice_trump, held, on_team, trick, k, leader, dd, klass, power, class_mask
                    )
            code = policies.seat_code(play_policy, seat)
            if search is not None and card < 0 and policies.searching(code):
                exact = code == policies.SEARCH
                card = search_player.seat_card(search, n, seat, leader, k, winner_pos, card_points, state, exact)
            if card < 0:
                card = trick_step.choose(
                    code, n, seat, k, winner, winner_pos, held, remaining, trick, on_team, ws, state
                )
            if search is not None and k > 0:
                search_player.note(search, seat, card, trick[0])
            winner_pos = trick_step.lay(seat, card, k, winner_pos, held, trick, klass, power)
            if winner_pos == k:
                winner = seat
            remaining ^= bit(card)
            log[pos] = card
            pos += 1
            seat = seat + 1 if seat + 1 < n else 0
        pts = trick_step.points(n, trick)
        card_points[winner] += pts
        if dd is not None:
            if active:
                ddplay.dd_trick_done(dd, on_team[winner], pts)
        leader = winner


@flat_kernel
def play_contract(n, chief, partner, chief_trump, vice_trump, play_policy, state, card_points, ws):
    """Play the cards of ws.held under a fixed contract; returns the team's points.

    The analyses (bid strength, balance) call this directly to replay one deal
    under many contracts."""
    set_team(n, chief, partner, ws)
    fill_contract(chief_trump, vice_trump, ws.klass, ws.power, ws.class_mask)
    fill_tier_masks(chief_trump, vice_trump, ws.tier_mask)
    play_tricks(n, chief, chief_trump, vice_trump, play_policy, state, card_points, ws, ws.dd, ws.search)
    return card_points[chief] + (card_points[partner] if partner >= 0 else 0)


@flat_kernel(inline="always")
def set_team(n, chief, partner, ws):
    for s in range(MAX_PLAYERS):
        ws.on_team[s] = s < n and (s == chief or s == partner)


@flat_kernel
def contract_value(n, chief, partner, chief_trump, vice_trump, ws):
    """The team's points under double-dummy play of ws.held (what play_contract gives with the
    DD policy), from one solve of the starting position, without playing the cards.  Needs ws.dd."""
    set_team(n, chief, partner, ws)
    dd = ws.dd
    ddplay.dd_start(n, chief_trump, vice_trump, ws.held, ws.on_team, chief, 0, dd, ws.klass, ws.power, ws.class_mask)
    return ddplay.dd_start_value(dd)


@flat_kernel
def contract_rank_above(n, chief, partner, chief_trump, vice_trump, best, top, ws):
    """max(best, the highest bid up to `top` whose target the team reaches under double-dummy
    play of ws.held: achieved_rank of what play_contract gives with the DD policy), without
    playing the cards or solving for the team's points: one null-window search per level from
    best + 1 up to the first missed (one search alone where best + 1 == top), so a contract
    weaker than `best` costs one search that fails far from its value, which is cheap.  Needs
    ws.dd.  A search past the node limit stops the climb and sets dd.meta[GAVE_UP]: whether
    the contract reaches more is unknown."""
    set_team(n, chief, partner, ws)
    dd = ws.dd
    ddplay.dd_setup(n, chief_trump, vice_trump, ws.held, ws.on_team, dd, ws.klass, ws.power, ws.class_mask)
    while best < top and ddplay.dd_reaches(n, dd, chief, ws.targets[n, best + 1]):
        best += 1
    return best


@flat_kernel
def play_deal(n, dealer, policy, state, out, ws):
    """Deal and play one complete deal into `out` (a Deal of arrays); `policy`: codes by
    BID_POLICY and PLAY_POLICY, one a seat (run_policy): each decision is its seat's."""
    bid_policy = policy[BID_POLICY]
    hands, laid, res = out.hands, out.laid, out.res
    deal_cards(n, DECK_3P if n == 3 else DECK, ws.cards, state, hands)
    for s in range(n):
        ws.held[s] = hands[s]
    res[:] = -1
    policies.plan_auction(bid_policy, n, ws.held, ws.plan_type, ws.plan_bid, ws.est, ws.targets)
    res[AUCTION_TURNS] = run_auction(n, dealer, bid_policy, state, laid, ws)
    search_player.heard(ws.search, n, dealer, res[AUCTION_TURNS], bid_policy)
    finish_deal(n, policy, state, out, ws)


@flat_kernel
def finish_deal(n, policy, state, out, ws):
    """Finish a deal whose auction has ended (laid cards in out.laid, ws.counts, ws.last_lay; the
    hands in ws.held): eklat, or trumps, partner, play and score, into `out`; `policy` as
    play_deal's.  The self-play training (learned/selfplay.py) finishes deals from positions of its own."""
    bid_policy, play_policy = policy[BID_POLICY], policy[PLAY_POLICY]
    laid, res, scores, card_points = out.laid, out.res, out.scores, out.card_points
    chief, vice, provoker, _ = auction_result(laid, ws.counts, ws.last_lay, n, ws.tied)
    if chief < 0:
        res[OUTCOME] = EKLAT
        res[PROVOKER] = provoker
        res[BID] = top_other(ws.counts, n, -1)
        eklat_scores(ws.counts, n, provoker, scores)
        card_points[:n] = 0
        out.dd_limited[0] = 0
        return
    bid = ws.counts[chief]
    search_player.announce(ws.search, n, laid, bid)
    vice_trump = -1
    if vice >= 0:
        vice_trump = policies.choose_trump(
            policies.seat_code(bid_policy, vice), n, ws.held[vice], laid[vice], -1, False, ws.est, state
        )
        vice_code = policies.seat_code(play_policy, vice)
        vice_trump = setup_search.vice_trump(ws.search, vice_code, n, chief, vice, laid, vice_trump, state)
        search_player.named(ws.search, world_weights.VICE_NAMED, vice, vice_trump)
    chief_code = policies.seat_code(bid_policy, chief)
    chief_trump = policies.choose_trump(chief_code, n, ws.held[chief], laid[chief], vice_trump, True, ws.est, state)
    partner = -1
    if n >= 4:
        partner = policies.choose_partner(chief_code, n, chief, vice, laid, chief_trump, state)
    chief_trump, partner = setup_search.contract(
        ws.search, policies.seat_code(play_policy, chief), n, chief, vice, vice_trump, laid, chief_trump, partner, state
    )
    search_player.named(ws.search, world_weights.CONTRACT, vice, vice_trump)
    ddplay.dd_ask_first(ws.dd, ws.targets[n, bid])
    play_contract(n, chief, partner, chief_trump, vice_trump, play_policy, state, card_points, ws)
    out.dd_limited[0] = cards_limited(ws.dd)
    search_player.forget(ws.search)  # a replay of the analyses (play_contract alone) knows no laid cards nor bid
    ddplay.dd_ask_first(ws.dd, 0)
    res[DD_VALUE] = ddplay.dd_start_value(ws.dd)
    res[DD_LOW], res[DD_HIGH] = ddplay.dd_start_bounds(ws.dd)
    team, made, short, bon = score_played(n, bid, chief, partner, chief_trump, card_points, scores, ws.targets)
    res[OUTCOME] = PLAYED
    res[CHIEF] = chief
    res[VICE] = vice
    res[PARTNER] = partner
    res[BID] = bid
    res[CHIEF_TRUMP] = chief_trump
    res[VICE_TRUMP] = vice_trump
    res[TARGET] = ws.targets[n, bid]
    res[TEAM_POINTS] = team
    res[SUCCESS] = made
    res[SHORTFALL] = short
    res[BONUS] = bon


@flat_kernel
def goal_reached(n, total, ws):
    """A match ends when a total reaches the goal (docs/rules.md §2 "Match")."""
    return total >= ws.goal[0]


@flat_kernel
def tally(n, out, own, i):
    """Count a match's deal: an eklat, or a contract played by its chief."""
    if out.res[OUTCOME] == EKLAT:
        own.eklats[i, 0] += 1
    else:
        own.chief_counts[i, out.res[CHIEF]] += 1


drivers.register(Workspace, play=play_deal, reached=goal_reached, tally=tally)
