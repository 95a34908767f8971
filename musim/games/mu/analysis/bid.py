"""`musim bid`: how strong is this hand?  Success rate and score for every bid and chief trump.

The holder is the chief (seat 0 here; only seats relative to the chief matter,
and the chief leads the first trick).  The unseen cards are dealt at random to
the other seats; for each sample and each trump the holder could name (a type
it holds, or `none`), the deal is played once without a vice (what a bid of 1
implies: nobody else can have laid a card) and once with one (higher bids).
The vice, public laid cards and partner follow contracts.bid_samples.  Team
points do not depend on the bid, so every bid level is scored from the same
plays: made = team points >= target, and the chief's deal score.

Under `--question reach` (double-dummy play only) a play is not solved for its points: a
null-window search asks whether the team reaches a bid's target, from the lowest bid the
play is scored for up to the first missed.  The success rates are the same; the scores and
team points, which need the points, are left empty.
"""

from functools import partial

import numpy as np

from musim.analysis.stats import mean_interval, samples_for_margin, wilson
from musim.core.cards import COLOURS, N_CARDS, CardError, deck_for, hand_mask, type_text
from musim.engine.engines import ordered
from musim.engine.local import chunk_starts
from musim.engine.progress import slices
from musim.games.mu import rules
from musim.games.mu import targets as variant
from musim.games.mu.analysis import contracts
from musim.games.mu.ddplay import QUESTIONS, worker_ddplay
from musim.games.mu.run import PLAY_POLICIES
from musim.games.mu.simulate import make_workspace
from musim.io.batch import InputError

DEFAULT_SAMPLES = samples_for_margin(0.03)  # 1068: a +-3 point 95% interval at worst
MAX_SAMPLES = 200_000  # every sample's plays and scores are kept: about 50 bytes per (trump, bid) each
CHUNK = 64
CHUNK_DD = 1  # a double-dummy sample takes milliseconds to minutes: progress sample by sample


def parse_hand(text, players):
    """Mask of a hand written as card texts separated by spaces or commas; InputError if wrong."""
    cards = text.replace(",", " ").split()
    size = rules.hand_size(players)
    if len(cards) != size:
        raise InputError(f"--hand: {len(cards)} cards, a {players}-player hand holds {size}")
    try:
        mask = hand_mask(cards)
    except CardError as exc:
        raise InputError(f"--hand: {exc}") from None
    return mask, cards


def three_player_deck(mask):
    """The 36-card deck of a 3-player deal holding `mask`: R Y G unless the hand needs others."""
    held = [c for c in range(len(COLOURS)) if int(mask) >> (12 * c) & 0xFFF]
    if len(held) > 3:
        raise InputError(f"--hand: cards of {len(held)} colours; a 3-player deck has 3")
    colours = held + [c for c in range(len(COLOURS)) if c not in held][: 3 - len(held)]
    return deck_for(3, sorted(colours))


VICE_MODELS = {"strongest": contracts.VICE_STRONGEST, "none": contracts.VICE_NONE, "auction": contracts.VICE_AUCTION}


def _seat(value, name, players):
    if not 0 <= value < players:
        raise InputError(f"{name}: seat {value} does not exist with {players} players (0..{players - 1})")
    return value


def _bid_chunk(
    players,
    mask,
    seat,
    dealer,
    rest,
    seed,
    trumps,
    play,
    model,
    hindsight,
    reach,
    bids,
    variants,
    tt_mb,
    targets,
    start,
    count,
):
    """(team points, chief's points) of samples start.. (a task: module-level, so that Dask can
    ship it; contracts.bid_samples)."""
    team = np.zeros((count, len(trumps), variants), np.int64)
    chief_points = np.zeros_like(team)
    ws = make_workspace(players, worker_ddplay(tt_mb) if play == "dd" else None, targets=targets)
    for first, stop in slices(count):  # the progress bar moves within the chunk
        contracts.bid_samples(
            players,
            np.uint64(mask),
            seat,
            dealer,
            rest.copy(),
            seed,
            start + first,
            stop - first,
            trumps,
            PLAY_POLICIES[play][1],
            model,
            hindsight,
            reach,
            bids,
            team[first:stop],
            chief_points[first:stop],
            ws,
        )
    return team, chief_points


def bid_strength(
    players,
    hand_text,
    samples=DEFAULT_SAMPLES,
    seed=0,
    play="heuristic",
    vice="strongest",
    hindsight=False,
    workers=1,
    tt_mb=64,
    seat=0,
    dealer=0,
    tick=lambda k: None,
    started=lambda plays: None,
    question="value",
    engine="local",
    scheduler=None,
    targets=None,
):
    """One dict per (bid, chief trump): p_made with its 95% interval, expected chief score with
    its interval, mean team points, how many samples allowed that trump (with a vice that
    named it, the chief cannot), and the question asked of each play: "value" (its points) or,
    under double-dummy play, "reach" (whether the team reaches each bid's target; score and
    team points NaN).  started(plays) is called once the request is valid, before any sample
    runs, with the plays a sample costs (its trumps and contract variants); tick(k) reports k
    more samples done.  `targets`: the target table (targets.py) the bids are made and scored
    against (None: the rulebook's)."""
    if question not in QUESTIONS:
        raise InputError(f"--question {question!r}: one of {', '.join(QUESTIONS)}")
    if question == "reach" and play != "dd":
        raise InputError("--question reach applies only with --play dd")
    mask, _ = parse_hand(hand_text, players)
    seat, dealer = _seat(seat, "--seat", players), _seat(dealer, "--dealer", players)
    deck = three_player_deck(mask) if players == 3 else deck_for(players)
    rest = np.array([c for c in range(N_CARDS) if int(deck) >> c & 1 and not int(mask) >> c & 1], np.int64)
    types = np.zeros(17, np.int64)
    trumps = types[: contracts.hand_types(np.uint64(mask), types)].copy()
    levels = rules.hand_size(players)
    model = VICE_MODELS[vice]
    if model == contracts.VICE_AUCTION:
        column = np.arange(levels)
    elif model == contracts.VICE_NONE or players == 3:
        column = np.zeros(levels, np.int64)
    else:
        column = np.minimum(np.arange(levels), 1)
    variants = column.max() + 1
    bids = np.array([[b[0] + 1, b[-1] + 1] for b in (np.flatnonzero(column == v) for v in range(variants))])
    reach = question == "reach"
    targets = variant.table() if targets is None else targets
    team = np.zeros((samples, len(trumps), variants), np.int64)
    chief_points = np.zeros_like(team)
    started(len(trumps) * int(variants))

    deal = (players, mask, seat, dealer, rest, seed)
    compute = partial(_bid_chunk, *deal, trumps, play, model, hindsight, reach, bids, variants, tt_mb, targets)
    chunks = list(chunk_starts(samples, CHUNK_DD if play == "dd" else CHUNK))
    for (start, count), (t, c) in zip(chunks, ordered(compute, chunks, workers, tick, engine, scheduler)):
        team[start : start + count], chief_points[start : start + count] = t, c
    made = np.zeros((samples, len(trumps), levels), np.bool_)
    score = np.zeros((samples, len(trumps), levels), np.int64)
    if reach:  # team holds the highest bid each play reaches
        made[:] = team[:, :, column] >= np.arange(1, levels + 1)
    else:
        contracts.score_bids(players, trumps, column, team, chief_points, made, score, targets)
    valid = team[:, :, column] >= 0  # (samples, trumps, levels)
    used = valid.sum(axis=0)
    lo, hi = wilson(made.sum(axis=0), used)
    rows = []
    for b in range(1, levels + 1):
        for j, t in enumerate(trumps):
            ok = valid[:, j, b - 1]
            valued = ok.any() and not reach
            mean, mlo, mhi = mean_interval(score[ok, j, b - 1]) if valued else (np.nan,) * 3
            rows.append(
                {
                    "bid": b,
                    "chief_trump": type_text(t),
                    "target": int(targets[players, b]),
                    "p_made": float(made[ok, j, b - 1].mean()) if ok.any() else float("nan"),
                    "p_made_low": float(lo[j, b - 1]),
                    "p_made_high": float(hi[j, b - 1]),
                    "expected_score": float(mean),
                    "expected_score_low": float(mlo),
                    "expected_score_high": float(mhi),
                    "mean_team_points": float(team[ok, j, column[b - 1]].mean()) if valued else float("nan"),
                    "samples": int(used[j, b - 1]),
                    "question": question,
                }
            )
    return rows


def best_row(rows):
    """The (bid, trump) of highest expected chief score (ties: the lower bid, then earlier trump)."""
    return max((r for r in rows if r["samples"]), key=lambda r: (r["expected_score"], -r["bid"]))


def format_table(rows, players, samples):
    """A readable matrix: one line per chief trump, p_made (%) and expected score per bid level,
    levels shown while some trump still makes them at least 1% of the time; best choice starred.
    Under the reach question p_made alone, and no best choice (it needs the scores)."""
    reach = rows[0]["question"] == "reach"
    best = None if reach else best_row(rows)
    shown = [
        b for b in sorted({r["bid"] for r in rows}) if b == 1 or any(r["p_made"] >= 0.01 for r in rows if r["bid"] == b)
    ]
    trumps = list(dict.fromkeys(r["chief_trump"] for r in rows))
    cell = {(r["bid"], r["chief_trump"]): r for r in rows}
    width = 8 if reach else 13
    head = "trump " + "".join(f"{'bid ' + str(b):>{width}}" for b in shown)
    what = "chance to make the target (%)" + ("" if reach else " / expected chief score")
    lines = [f"{players} players, {samples} samples: {what}", head, "-" * len(head)]
    for t in trumps:
        parts = []
        for b in shown:
            r = cell[(b, t)]
            if reach:
                parts.append(f"{r['p_made'] * 100:5.1f}")
            else:
                parts.append(f"{r['p_made'] * 100:5.1f}/{r['expected_score']:6.1f}{'*' if r is best else ' '}")
        lines.append(f"{t:<6}" + "".join(f"{p:>{width}}" for p in parts))
    if reach:
        lines.append("question reach: whether the team reaches each target alone (--question value: scores, best bid)")
    else:
        lines.append(
            f"best: bid {best['bid']} with trump {best['chief_trump']}: makes it "
            f"{best['p_made']:.1%} (95% {best['p_made_low']:.1%}..{best['p_made_high']:.1%}), "
            f"expected score {best['expected_score']:.1f}"
        )
    return "\n".join(lines)
