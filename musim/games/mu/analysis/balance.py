"""`musim balance`: is the team-target table fair?  Per player count and bid level.

Deals are those of `musim run --deals N --seed S --players n --play P --auction A` (the
same rows), so every figure can be traced to a Parquet row.  For each played
deal we take the bid, the team points and every seat's score; the chief's
score for a lower bid is the same deal rescored (team points do not depend on
the bid).  The "pure strength" view replays each deal with every seat as
chief, every trump it could name and every partner, without a vice, and keeps
the highest level whose target that seat can reach.  With `--dd-tricks N` both play the
first tricks by the heuristic and only the last N double-dummy, as `musim run` does.

Under `--node-limit N` (whole-deal double-dummy play) a deal whose start solve takes more than
N nodes is unresolved: its success counts where the search decided it (the target is asked
first), the success-rate interval spans both outcomes of those it did not, and the team-point
and score columns cover the resolved deals alone (`unresolved` says how many are left out);
in the pure-strength view a seat whose search gave up is left out likewise.  Which deals
those are depends on --tt-mb as well as the seed (a larger table needs fewer nodes).

Under `--question reach` (double-dummy play) a deal's start solve asks only whether the
chief's team reaches its target: one null-window search (ddplay.py), not the several a value
needs nor those of playing the cards out.  The success rates are those of `--question value`;
team points, scores and proposed targets, which need the value, are left empty, and under a
node limit a deal is unresolved when that one search gave up.  The pure-strength view asks
null-window questions under both (samplers.strength), so it is the same.

Proposed targets (criterion "fair step", fixed_point.py and docs/players.md): at each level the
chiefs who bid it score on average the same contract result as the same deals rescored one level
lower, with each target's 95% interval (a bootstrap over the level's deals, fixed seed) and its
basis (measured, too few deals, extrapolated); the table is strictly rising, so no level is
dominated.  The table in force is judged by the same criterion (`delta`, `fair`).
"""

import contextlib
import time
from collections import namedtuple
from functools import partial

import numpy as np
import pandas as pd

from musim.analysis.stats import mean_interval, wilson
from musim.engine.checkpoint import Checkpoint, key_folder
from musim.engine.engines import ordered
from musim.engine.key import result_key
from musim.engine.local import chunk_starts
from musim.engine.lock import DirectoryLock
from musim.engine.parquet import ensure_writable_dir
from musim.engine.progress import slices
from musim.engine.seats import play_key
from musim.games.mu import rules, target_tables
from musim.games.mu import simulate as sim
from musim.games.mu.analysis import fixed_point, samplers
from musim.games.mu.ddplay import UNRESOLVED
from musim.games.mu.params import DEFAULT_AUCTION, WEIGHTS, learned_model
from musim.games.mu.policies import NAMES
from musim.games.mu.run import deals_per_chunk, simulate_deal_chunk
from musim.games.mu.target_tables import RULEBOOK
from musim.play import world_weights
from musim.play.search_budget import DEFAULT_EXACT_TRICKS, DEFAULT_WORLDS
from musim.solver.version import node_count_params

MIN_DEALS_FOR_FIT = fixed_point.MIN_DEALS
MAX_BALANCE_DEALS = 2_000_000  # per player count: every row is kept in memory (about 500 bytes each)
STRENGTH_CHUNK = 256
STRENGTH_CHUNK_DD = 1  # seconds to minutes a deal: both workers busy to the end, progress deal by deal
JOBS = ("balance-deals", "balance-strength")


def checkpoint_key(job, params, seed):
    """The result key (engine/key.py) of a balance job's chunks (one of JOBS) under `params` (a
    MuParams) and `seed`: the deal count is not in it (a chunk is named by its range), nor is
    the table size but under a node limit, where it decides which deals are unresolved.  The
    reach question is in the deals' key (the value's key is the one it had before there was a
    choice, so that saved deals stay valid), not in the pure-strength view's: its rows are the
    same under both questions.  An auction model other than the default is in both (it decides
    the deals, and so which are played and replayed); the default's keys are those it had
    before there was a choice.  A variant's targets (compact text, target_tables.py) are in both, the
    rulebook's in neither (saved deals stay valid); so is a search budget other than the default,
    the learned auction's model id where a seat bids by it (another model bids other deals), and
    the world weights' id where a seat plays `search` (other weights play other cards)."""
    p = params
    key = dict(job=job, players=p.players, seed=seed, play=p.play, dd_tricks=p.dd_tricks, node_limit=p.node_limit)
    if p.node_limit:
        key |= node_count_params(p.tt_mb)
    if p.question != "value" and job == "balance-deals":
        key["question"] = p.question
    if p.auction_model != DEFAULT_AUCTION:
        key["auction"] = p.auction_model
    if p.targets != RULEBOOK:
        key["targets"] = p.targets
    if p.worlds != DEFAULT_WORLDS:
        key["search_worlds"] = p.worlds
    if p.bids_learned:
        key["learned_model"] = learned_model(p.learned_model)[0]
    key |= play_key(p.play)
    if p.exact_tricks != DEFAULT_EXACT_TRICKS:
        key["search_exact_tricks"] = p.exact_tricks
    if weights := world_weights.ident_of(p.play, p.search_weights, WEIGHTS):
        key["search_weights"] = weights
    return result_key("mu", key)


def checkpoint_folders(root, params, seed):
    """The folders under the checkpoint `root` that analyse(params, _, seed) writes, one per job."""
    return [key_folder(root, checkpoint_key(job, params, seed)) for job in JOBS]


def lock_checkpoints(root, runs, seed):
    """The locks of every folder under the checkpoint `root` that the balance `runs` (their
    MuParams: a player count and auction model each) write, taken all or none (engine/lock.py:
    one writer a folder; EngineError naming the folder held), as an ExitStack that releases them;
    an empty one without a checkpoint."""
    with contextlib.ExitStack() as taking:
        for params in runs if root is not None else ():
            for folder in checkpoint_folders(root, params, seed):
                ensure_writable_dir(folder, root, "--checkpoint")
                taking.enter_context(DirectoryLock(folder, "--checkpoint"))
        return taking.pop_all()


def _checkpointed(compute, checkpoint, start, count, *args):
    """compute(start, count, *args)'s dict of arrays for this chunk, with the worker seconds it
    took ("seconds") and whether the checkpoint held it ("held"), read from the checkpoint if it
    holds it, else computed and saved there (on the worker, as soon as it is done)."""
    got = checkpoint.load(start, count) if checkpoint else None
    if got is None:
        started = time.perf_counter()
        got = compute(start, count, *args)
        got["seconds"] = np.float64(time.perf_counter() - started)
        if checkpoint:
            checkpoint.save(start, count, got)
        return got | {"held": False}
    return got | {"held": True}


def _chunks(compute, chunks, checkpoint, times, run):
    """The checkpointed results of compute on each chunk, in order, on the engine `run` gives
    (run(fn, chunks) -> results); appends (seconds, held) to times, so that a run's summary
    can say what its deals cost in all."""
    for got in run(partial(_checkpointed, compute, checkpoint), chunks):
        times.append((float(got["seconds"]), bool(got["held"])))
        yield got


def _deal_arrays(params, seed, start, count):
    """The arrays of deals start.. of the run (a task: module-level, so that Dask can ship it)."""
    ch = simulate_deal_chunk(params, seed, start, count)
    return {f: getattr(ch, f) for f in ("res", "scores", "card_points", "hands")}


def _collect(params, seed, deals, checkpoint, times, run):
    compute = partial(_deal_arrays, params, seed)
    parts = list(_chunks(compute, chunk_starts(deals, deals_per_chunk(params.play)), checkpoint, times, run))
    cat = lambda name: np.concatenate([p[name] for p in parts])
    n = params.players
    return cat("res"), cat("scores")[:, :n], cat("card_points")[:, :n], cat("hands")


def _strength_arrays(params, start, count, hands):
    """The pure-strength view of `hands` (a chunk of the played deals' hands), as {"best": ...}:
    its searches ask the reach question themselves (samplers.strength), the solver the value."""
    best = np.zeros((count, params.players), np.int64)
    ws = sim.workspace_of(params)
    for first, stop in slices(count):  # the progress bar moves within the chunk
        samplers.strength(params.players, hands[first:stop], NAMES[params.play][1], best[first:stop], ws)
    return {"best": best}


def _strength(params, hands, checkpoint, times, run):
    size = STRENGTH_CHUNK_DD if params.play == "dd" else STRENGTH_CHUNK
    chunks = ((s, c, hands[s : s + c]) for s, c in chunk_starts(len(hands), size))
    parts = [got["best"] for got in _chunks(partial(_strength_arrays, params), chunks, checkpoint, times, run)]
    return np.concatenate(parts) if parts else np.zeros((0, params.players), np.int64)


def _rescored(players, res, card_points, targets):
    """score[i, b-1]: the chief's score of played deal i had the bid been b (same play), against
    the target table `targets`."""
    levels = rules.hand_size(players)
    score = np.zeros((len(res), levels), np.int64)
    rows = np.arange(len(res))
    chief_pts = card_points[rows, res[:, sim.CHIEF]]
    team = res[:, sim.TEAM_POINTS]
    for t in np.unique(res[:, sim.CHIEF_TRUMP]):
        sel = res[:, sim.CHIEF_TRUMP] == t
        k = int(sel.sum())
        made = np.zeros((k, 1, levels), np.bool_)
        sc = np.zeros((k, 1, levels), np.int64)
        samplers.score_bids(
            players,
            np.array([t], np.int64),
            np.zeros(levels, np.int64),
            team[sel, None, None].copy(),
            chief_pts[sel, None, None].copy(),
            made,
            sc,
            targets,
        )
        score[sel] = sc[:, 0]
    return score


Balance = namedtuple("Balance", "table strength facts bids team hist")


def _outcomes(r):
    """(exact, made, decided) per played deal: whether its value is known (not under the reach
    question), whether the team reached the target (as far as known), and whether that is
    known (always, but under a node limit, for a deal whose searches did not decide it)."""
    exact = r[:, sim.DD_VALUE] != UNRESOLVED
    low_made = r[:, sim.DD_LOW] >= r[:, sim.TARGET]
    high_missed = r[:, sim.DD_HIGH] < r[:, sim.TARGET]
    made = np.where(exact, r[:, sim.SUCCESS] == 1, low_made)
    return exact, made, exact | low_made | high_missed


Played = namedtuple("Played", "all made decided answered exact scores card_points bids team p_star hist")
Played.__doc__ = """The played deals of a balance run: all (their result vectors), made, decided and
answered (_outcomes); exact: the result vectors of those of known value, with their scores, card
points, bids and team points; the overall success rate p_star; hist: the histogram of the exact
deals by bid, trump kind and team points the criterion reads (fixed_point.histogram; None under
the reach question, which solves no team points)."""


def _played(params, res, scores, card_points):
    """The Played of a run's deals (res, scores, card_points: every deal's, eklats included)."""
    played = res[:, sim.OUTCOME] == sim.PLAYED
    r_all = res[played]
    exact, made, decided = _outcomes(r_all)
    answered = decided if params.question == "reach" else exact  # unresolved: the question asked was not answered
    r = r_all[exact]
    bids, team = r[:, sim.BID], r[:, sim.TEAM_POINTS]
    p_star = float(made[decided].mean()) if decided.any() else float("nan")
    hist = None if params.question == "reach" else _histogram(params.players, r)
    return Played(
        all=r_all,
        made=made,
        decided=decided,
        answered=answered,
        exact=r,
        scores=scores[played][exact],
        card_points=card_points[played][exact],
        bids=bids,
        team=team,
        p_star=p_star,
        hist=hist,
    )


def _histogram(players, r):
    """fixed_point.histogram of the result vectors r (exact deals) by bid, the chief trump's bonus
    steps (rules.trump_extra) and team points."""
    trumps = r[:, sim.CHIEF_TRUMP]
    kinds = np.zeros(len(r), np.int64)
    for t in np.unique(trumps):
        kinds[trumps == t] = rules.trump_extra(t)
    levels, points = rules.hand_size(players), target_tables.points_in_play(players)
    return fixed_point.histogram(levels, points, r[:, sim.BID], kinds, r[:, sim.TEAM_POINTS])


def criterion_columns(hist, table, seed):
    """The criterion's columns of the per-bid table (fixed_point.py) for the histogram `hist` of a
    run under `table` (targets of bids 1..): the table in force judged (delta, its interval, the
    fair target's interval, fair) and the proposal (proposed_target, its interval, basis); NaN
    where there are no team points (hist None) or no proposal."""
    levels = len(table)
    empty = pd.DataFrame({"bid": range(1, levels + 1)})
    judged = empty if hist is None else fixed_point.judged_in_force(hist, table, seed).drop(columns="deals")
    proposal = None if hist is None else fixed_point.propose(hist, table, seed)
    nan = [float("nan")] * levels
    out = empty.merge(judged, on="bid", how="left")
    for c in ("basis", "delta", "delta_low", "delta_high", "root", "root_low", "root_high", "floor", "fair"):
        if c not in out:
            out[c] = nan
    out["proposed_target"] = proposal.targets if proposal else nan
    out["proposed_low"] = proposal.low if proposal else nan
    out["proposed_high"] = proposal.high if proposal else nan
    out = out.rename(columns={"root": "fair_target", "root_low": "fair_low", "root_high": "fair_high"})
    return out, proposal


def _level_table(params, d, rescored, criterion):
    """The per-bid table (module doc) of the Played `d`; rescored: _rescored of its exact deals;
    criterion: the criterion's columns (criterion_columns), added after the scores."""
    n, r, sc = params.players, d.exact, d.scores
    seats = np.arange(n)
    chief_mask = seats == r[:, sim.CHIEF, None]
    partner_mask = seats == r[:, sim.PARTNER, None]
    opp_mask = ~chief_mask & ~partner_mask
    mean_or_nan = lambda x: float(x.mean()) if x.size else float("nan")
    rows = []
    for b in range(1, rules.hand_size(n) + 1):
        level = d.all[:, sim.BID] == b
        k, known = int(level.sum()), int((level & d.decided).sum())
        hits, open_ = int((level & d.made).sum()), k - known
        # the interval spans both outcomes of the deals whose success is unknown
        lo, hi = wilson(hits, k)[0], wilson(hits + open_, k)[1]
        sel = d.bids == b
        tp = d.team[sel]
        q = np.percentile(tp, [25, 50, 75]) if tp.size else [np.nan] * 3
        s = sc[sel]
        rows.append(
            {
                "players": n,
                "bid": b,
                "deals": k,
                "share": k / max(len(d.all), 1),
                "p_made": hits / known if known else float("nan"),
                "p_made_low": float(lo),
                "p_made_high": float(hi),
                "target": int(params.table[n, b]),
                "unresolved": int((level & ~d.answered).sum()),
                "undecided": open_,
                "team_mean": mean_or_nan(tp),
                "team_q25": float(q[0]),
                "team_median": float(q[1]),
                "team_q75": float(q[2]),
                "chief_score": mean_or_nan(s[chief_mask[sel]]),
                "partner_score": mean_or_nan(s[partner_mask[sel]]) if n >= 4 else float("nan"),
                "opponent_score": mean_or_nan(s[opp_mask[sel]]),
                "chief_score_one_less": mean_or_nan(rescored[sel, b - 2]) if b >= 2 else float("nan"),
                "question": params.question,
            }
        )
    return pd.concat([pd.DataFrame(rows), criterion.drop(columns="bid")], axis=1)


def _strength_table(players, best):
    """The pure-strength distribution of the seats' best levels `best` (unresolved ones left out;
    no rows where the view was skipped)."""
    known = best[best != samplers.UNRESOLVED_RANK]
    levels = np.arange(0, rules.hand_size(players) + 1)
    counts = np.bincount(known, minlength=len(levels))
    table = pd.DataFrame({"players": players, "level": levels, "chiefs": counts, "share": counts / max(known.size, 1)})
    return table if best.size else table[:0]


def _facts(params, deals, d, best, times, proposal, table):
    """The run's facts: counts of deals, eklats and unresolved ones, p*, the proposal's slope and
    whether the table in force is fair (fixed_point.is_fair; None: not judged), means, and the
    worker seconds its chunks took (those a checkpoint held apart)."""
    known = best[best != samplers.UNRESOLVED_RANK]
    chief = d.scores[np.arange(params.players) == d.exact[:, sim.CHIEF, None]]
    return {
        "players": params.players,
        "auction": params.auction_model,
        "deals": deals,
        "played": len(d.all),
        "eklats": deals - len(d.all),
        "unresolved": int((~d.answered).sum()),
        "undecided": int((~d.decided).sum()),
        "node_limit": params.node_limit,
        "question": params.question,
        "targets": params.targets,
        "p_star": d.p_star,
        "proposed": proposal is not None,
        "slope": proposal.slope if proposal else float("nan"),
        "fair": fixed_point.is_fair(table),
        "chief_score_mean": mean_interval(chief)[0] if len(d.exact) else float("nan"),
        "strength_mean": float(known.mean()) if known.size else float("nan"),
        "strength_deals": len(best),
        "strength_unresolved": int(best.size - known.size),
        "worker_seconds": sum(t for t, _ in times),
        "held_seconds": sum(t for t, held in times if held),
    }


def analyse(
    params,
    deals,
    seed,
    *,
    workers=1,
    tick=lambda k: None,
    strength_deals=None,
    checkpoint=None,
    engine="local",
    scheduler=None,
):
    """A Balance of `deals` deals under `params` (a MuParams, as `musim run` plays them): the
    per-bid table and the pure-strength distribution (DataFrames), a dict of facts, and each
    played deal's bid and team points.  The pure-strength view replays the first
    `strength_deals` played deals (default: all; 0: none): it solves every seat, trump and
    partner of a deal, so under double-dummy play it costs far more per deal than the table.
    checkpoint: a directory that keeps every finished chunk and supplies those a stopped run
    already finished (engine/checkpoint.py).  workers, tick, engine, scheduler: how and where the
    chunks run (engine/engines.py); the figures do not depend on them.  Under play "search" the
    pure-strength replays count the side's card points."""
    keep = lambda job: None if checkpoint is None else Checkpoint(checkpoint, checkpoint_key(job, params, seed))
    times = []
    run = lambda fn, chunks: ordered(fn, chunks, workers, tick, engine, scheduler)
    res, scores, card_points, hands = _collect(params, seed, deals, keep("balance-deals"), times, run)
    d = _played(params, res, scores, card_points)
    n = params.players
    criterion, proposal = criterion_columns(d.hist, params.table[n, 1 : rules.hand_size(n) + 1], seed)
    table = _level_table(params, d, _rescored(n, d.exact, d.card_points, params.table), criterion)
    played_hands = hands[res[:, sim.OUTCOME] == sim.PLAYED][:strength_deals]
    best = _strength(params, played_hands, keep("balance-strength"), times, run)
    tick(min(deals, deals if strength_deals is None else strength_deals) - len(best))  # eklats: nothing to replay
    strength = _strength_table(params.players, best)
    return Balance(table, strength, _facts(params, deals, d, best, times, proposal, table), d.bids, d.team, d.hist)


def agreement(by_model):
    """Per player count and bid level, the target the deals were played under (the rulebook's or
    a variant's, the same for every model) and the target each auction model's deals propose
    (`proposed_<model>`), side by side, and whether they agree: every model proposes the same
    target (not where one proposes none).  by_model: {model: [Balance, ...]}."""
    keys = ["players", "bid", "target"]
    columns = [f"proposed_{name}" for name in by_model]
    table = pd.concat(
        [
            pd.concat([r.table for r in results]).set_index(keys)["proposed_target"].rename(column)
            for column, results in zip(columns, by_model.values())
        ],
        axis=1,
    ).reset_index()
    table["agree"] = table[columns].notna().all(axis=1) & (table[columns].nunique(axis=1) == 1)
    return table
