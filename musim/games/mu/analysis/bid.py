"""`musim bid`: how strong is this hand?  Success rate and score for every bid and chief trump.

The holder is the chief (seat 0 here; only seats relative to the chief matter,
and the chief leads the first trick).  The unseen cards are dealt at random to
the other seats; for each sample and each trump the holder could name (a type
it holds, or `none`), the deal is played once without a vice (what a bid of 1
implies: nobody else can have laid a card) and once with one (higher bids).
The vice, public laid cards and partner follow samplers.bid_samples.  Team
points do not depend on the bid, so every bid level is scored from the same
plays: made = team points >= target, and the chief's deal score.

Under `--question reach` (double-dummy play only) a play is not solved for its points: a
null-window search asks whether the team reaches a bid's target, from the lowest bid the
play is scored for up to the first missed.  The success rates are the same; the scores and
team points, which need the points, are left empty.
"""

import math
from collections import namedtuple
from functools import partial

import numpy as np

from musim.analysis.stats import mean_interval, samples_for_margin, wilson
from musim.core.cards import COLOURS, N_CARDS, CardError, deck_for, hand_mask, type_text
from musim.engine.engines import ordered
from musim.engine.local import chunk_starts
from musim.engine.progress import slices
from musim.games.mu import rules
from musim.games.mu.analysis import samplers
from musim.games.mu.params import VICES
from musim.games.mu.policies import AUCTIONS, NAMES
from musim.games.mu.simulate import workspace_of
from musim.io.batch import InputError

DEFAULT_SAMPLES = samples_for_margin(0.03)  # 1068: a +-3 point 95% interval at worst
MAX_SAMPLES = 200_000  # every sample's plays and scores are kept: about 50 bytes per (trump, bid) each
CHUNK = 64
MIN_SHOWN = 0.01  # the text table leaves out levels made less often than this under every trump
SHOWN_TRUMPS = 3  # trumps in the text table (the best)
MADE_WIDTH, SCORE_WIDTH = 16, 11  # a text cell: "100.0 [100-100] " and "+123.4±12.3", 97 columns in all
CHUNK_DD = 1  # a double-dummy sample takes milliseconds to minutes: progress sample by sample
DEFAULT_VICE = VICES[0]
WON = 0.5  # a best bid the holder ends chief in less often than this is said to be (format_table)


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


VICE_MODELS = {"strongest": samplers.VICE_STRONGEST, "none": samplers.VICE_NONE, "auction": samplers.VICE_AUCTION}


def _seat(value, name, players):
    if not 0 <= value < players:
        raise InputError(f"{name}: seat {value} does not exist with {players} players (0..{players - 1})")
    return value


Sampling = namedtuple("Sampling", "mask seat dealer rest seed trumps vice hindsight column bids")
Sampling.__doc__ = """What every sample of a `musim bid` request shares: the hand's mask, the holder's
and the dealer's seats, the unseen cards (rest), the seed, the chief trumps to try, the vice model
(a VICE_MODELS code) and whether the partner is chosen in hindsight; column[b-1]: the contract
variant bid b is scored from, whose bids are bids[v] (first, last)."""


def _sampling(params, hand_text, seed, vice, hindsight, seat, dealer):
    """The Sampling of a request (InputError if the hand or a seat is wrong)."""
    n = params.players
    mask, _ = parse_hand(hand_text, n)
    seat, dealer = _seat(seat, "--seat", n), _seat(dealer, "--dealer", n)
    deck = three_player_deck(mask) if n == 3 else deck_for(n)
    rest = np.array([c for c in range(N_CARDS) if int(deck) >> c & 1 and not int(mask) >> c & 1], np.int64)
    types = np.zeros(17, np.int64)
    trumps = types[: samplers.hand_types(np.uint64(mask), types)].copy()
    levels = rules.hand_size(n)
    model = VICE_MODELS[vice]
    if model == samplers.VICE_AUCTION:
        column = np.arange(levels)
    elif model == samplers.VICE_NONE or n == 3:
        column = np.zeros(levels, np.int64)
    else:
        column = np.minimum(np.arange(levels), 1)
    bids = np.array([[b[0] + 1, b[-1] + 1] for b in (np.flatnonzero(column == v) for v in range(column.max() + 1))])
    return Sampling(
        mask=mask,
        seat=seat,
        dealer=dealer,
        rest=rest,
        seed=seed,
        trumps=trumps,
        vice=model,
        hindsight=hindsight,
        column=column,
        bids=bids,
    )


def _bid_chunk(params, s, start, count):
    """The plays of samples start.. (a task: module-level, so that Dask can ship it): (team
    points, chief's points) of the fixed contracts (samplers.bid_samples), and (how the auction
    ended, the holder's score) of each committed bid (samplers.auction_samples).  `s`: the Sampling."""
    reach = params.question == "reach"
    team = np.zeros((count, len(s.trumps), len(s.bids)), np.int64)
    chief_points = np.zeros_like(team)
    end = np.zeros((count, len(s.trumps), len(s.column)), np.int64)
    score = np.zeros_like(end)
    play_policy, auction = NAMES[params.play][1], AUCTIONS[params.auction_model]
    ws = workspace_of(params)
    for first, stop in slices(count):  # the progress bar moves within the chunk
        rows = slice(first, stop)
        common = dict(n=params.players, hand=np.uint64(s.mask), seat=s.seat, dealer=s.dealer, seed=s.seed)
        common |= dict(start=start + first, count=stop - first, trumps=s.trumps, play_policy=play_policy, ws=ws)
        common |= dict(auction=auction, hindsight=s.hindsight)
        samplers.bid_samples(
            rest=s.rest.copy(),
            vice_model=s.vice,
            reach=reach,
            bids=s.bids,
            team=team[rows],
            chief_points=chief_points[rows],
            **common,
        )
        samplers.auction_samples(rest=s.rest.copy(), play=not reach, end=end[rows], score=score[rows], **common)
    return team, chief_points, end, score


def _plays(params, s, samples, run):
    """(team, chief_points, end, committed) of every sample (_bid_chunk), the chunks run by
    run(fn, chunks) in order."""
    team = np.zeros((samples, len(s.trumps), len(s.bids)), np.int64)
    chief_points = np.zeros_like(team)
    end = np.zeros((samples, len(s.trumps), len(s.column)), np.int64)
    committed = np.zeros_like(end)
    chunks = list(chunk_starts(samples, CHUNK_DD if params.play == "dd" else CHUNK))
    for (start, count), got in zip(chunks, run(partial(_bid_chunk, params, s), chunks)):
        rows = slice(start, start + count)
        team[rows], chief_points[rows], end[rows], committed[rows] = got
    return team, chief_points, end, committed


def _made(params, s, team, chief_points):
    """(made, score)[sample, trump, bid-1]: whether the play makes each bid, and the chief's deal
    score (under the reach question team holds the highest bid each play reaches: no scores)."""
    shape = (len(team), len(s.trumps), len(s.column))
    made, score = np.zeros(shape, np.bool_), np.zeros(shape, np.int64)
    if params.question == "reach":
        made[:] = team[:, :, s.column] >= np.arange(1, len(s.column) + 1)
    else:
        samplers.score_bids(params.players, s.trumps, s.column, team, chief_points, made, score, params.table)
    return made, score


def bid_strength(
    params,
    hand_text,
    samples=DEFAULT_SAMPLES,
    seed=0,
    *,
    vice=DEFAULT_VICE,
    hindsight=False,
    seat=0,
    dealer=0,
    workers=1,
    tick=lambda k: None,
    started=lambda plays: None,
    engine="local",
    scheduler=None,
):
    """One dict per (bid, chief trump) (module doc) of a hand under `params` (a MuParams: the
    players, the card play, the auction model the others bid by, the target table the bids are
    made and scored against, the question, the search budget, whose seats count their side's card
    points, a contract's play serving every bid: search_player.py): p_made with its 95% interval
    and the chief's score with its interval (the fixed contracts of the `vice` model), mean team
    points, how many samples allowed that trump (with a vice that named it, the chief cannot);
    how the auction against the model ends when the holder commits to the bid (p_chief,
    p_outbid, p_eklat) and the holder's expected deal score then, with its interval.  Under the
    reach question (double-dummy play) each play asks only whether the team reaches each bid's
    target: scores and team points NaN.  started(plays) is called once the request is valid,
    before any sample runs, with the plays a sample costs; tick(k) reports k more samples done;
    workers, engine, scheduler: where the chunks run (engine/engines.py)."""
    s = _sampling(params, hand_text, seed, vice, hindsight, seat, dealer)
    reach = params.question == "reach"
    started(len(s.trumps) * (len(s.bids) + (0 if reach else len(s.column))))
    run = lambda fn, chunks: ordered(fn, chunks, workers, tick, engine, scheduler)
    team, chief_points, end, committed = _plays(params, s, samples, run)
    made, score = _made(params, s, team, chief_points)
    valid = team[:, :, s.column] >= 0  # (samples, trumps, levels)
    used = valid.sum(axis=0)
    lo, hi = wilson(made.sum(axis=0), used)
    nan3 = (float("nan"),) * 3
    rows = []
    for b in range(1, len(s.column) + 1):
        for j, t in enumerate(s.trumps):
            ok = valid[:, j, b - 1]
            valued = ok.any() and not reach
            mean, mlo, mhi = mean_interval(score[ok, j, b - 1]) if valued else nan3
            ends = end[:, j, b - 1]
            expected = nan3 if reach else mean_interval(committed[:, j, b - 1])
            rows.append(
                {
                    "bid": b,
                    "chief_trump": type_text(t),
                    "target": int(params.table[params.players, b]),
                    "p_made": float(made[ok, j, b - 1].mean()) if ok.any() else float("nan"),
                    "p_made_low": float(lo[j, b - 1]),
                    "p_made_high": float(hi[j, b - 1]),
                    "chief_score": float(mean),
                    "chief_score_low": float(mlo),
                    "chief_score_high": float(mhi),
                    "mean_team_points": float(team[ok, j, s.column[b - 1]].mean()) if valued else float("nan"),
                    "samples": int(used[j, b - 1]),
                    "auction": params.auction_model,
                    "play": params.play,
                    "vice": vice,
                    "partner": "hindsight" if hindsight else "public",
                    "p_chief": float((ends == samplers.AS_CHIEF).mean()),
                    "p_outbid": float((ends == samplers.OUTBID).mean()),
                    "p_eklat": float((ends == samplers.EKLAT).mean()),
                    "expected_score": float(expected[0]),
                    "expected_score_low": float(expected[1]),
                    "expected_score_high": float(expected[2]),
                    "question": params.question,
                }
            )
    return rows


def level_ranges(levels):
    """'1, 5..10' for [1, 5, 6, 7, 8, 9, 10]: runs of consecutive levels."""
    runs = []
    for b in levels:
        if runs and b == runs[-1][1] + 1:
            runs[-1][1] = b
        else:
            runs.append([b, b])
    return ", ".join(str(a) if a == z else f"{a}..{z}" for a, z in runs)


def best_row(rows, won=0.0):
    """The best bid: the (bid, trump) of highest expected score for the holder committed to it
    against the auction model (ties: the lower bid, then the earlier trump), among those it ends
    chief in at least `won` of the time; None if there is none, or under the reach question (no
    scores)."""
    scored = [r for r in rows if r["expected_score"] == r["expected_score"] and r["p_chief"] >= won]
    return max(scored, key=lambda r: (r["expected_score"], -r["bid"]), default=None)


def _rank(r):
    """A row's standing when choosing the trumps shown: its expected score, or under the reach
    question (no scores) its success rate."""
    value = r["p_made"] if r["question"] == "reach" else r["expected_score"]
    return value if value == value else -math.inf


def shown_levels(rows):
    """The bid levels some trump makes at least MIN_SHOWN of the time (the text table's rows)."""
    return sorted({r["bid"] for r in rows if r["p_made"] >= MIN_SHOWN})


def shown_trumps(rows):
    """The SHOWN_TRUMPS trumps of best bids (highest expected score at any level), best first."""
    best = {}
    for r in rows:
        best[r["chief_trump"]] = max(best.get(r["chief_trump"], -math.inf), _rank(r))
    return sorted(best, key=lambda t: -best[t])[:SHOWN_TRUMPS]


def _made_cell(r):
    """p_made in % with its 95% interval, the ends rounded outwards."""
    if r["samples"] == 0:
        return "never allowed"
    lo, hi = math.floor(r["p_made_low"] * 100), math.ceil(r["p_made_high"] * 100)
    return f"{r['p_made'] * 100:5.1f} [{lo}-{hi}]"


def _score_cell(r):
    """The expected score with the half-width of its 95% interval."""
    half = r["expected_score_high"] - r["expected_score"]
    return f"{r['expected_score']:+6.1f}" + (f"±{half:.1f}" if half == half else "")


def format_table(rows, players, samples, targets="rulebook"):
    """The text of `musim bid`, within WIDTH columns: first the targets (`targets`: rulebook, or the
    name of the variant's file) and card play, the auction model, vice and partner the figures rest
    on; a row per bid level some trump makes at least 1% of the time, a column per trump of the
    best three; each cell the chance to make the target as chief (%, 95% interval) and the
    holder's expected score committed to that bid (± its 95% interval); then the best bid."""
    reach = rows[0]["question"] == "reach"
    trumps = shown_trumps(rows)
    levels = shown_levels(rows)
    cell = {(r["bid"], r["chief_trump"]): r for r in rows}
    all_trumps = list(dict.fromkeys(r["chief_trump"] for r in rows))
    r0 = rows[0]
    width = MADE_WIDTH if reach else MADE_WIDTH + SCORE_WIDTH
    lines = [
        f"{players} players, {samples:,} samples, targets: {targets}, card play: {r0['play']} at every seat",
        _model_line(r0),
        "made: chance the team reaches the target as chief, % [95% interval]",
    ]
    if not reach:
        lines.append("score: the holder's expected deal score committed to the bid (± 95%)")
    head = "bid tgt" + "".join(f" | {t:<{width}}" for t in trumps)
    sub = "       " + "".join(f" | {'made':<{MADE_WIDTH}}{'' if reach else 'score':<{SCORE_WIDTH}}" for _ in trumps)
    lines += [head.rstrip(), sub.rstrip(), "-" * len(head)]
    for b in levels:
        parts = []
        for t in trumps:
            r = cell[(b, t)]
            parts.append(f"{_made_cell(r):<{MADE_WIDTH}}" + ("" if reach else _score_cell(r)))
        row = f"{b:>3} {cell[(b, trumps[0])]['target']:>3}" + "".join(f" | {p:<{width}}" for p in parts)
        lines.append(row.rstrip())
    left = [b for b in sorted({r["bid"] for r in rows}) if b not in levels]
    if left:
        lines.append(f"left out: bid {level_ranges(left)}, made under 1% with every trump")
    if len(all_trumps) > len(trumps):
        what = "success rate" if reach else "expected score"
        lines.append(f"shown: {len(trumps)} of {len(all_trumps)} trumps, those of best {what}")
    if left or len(all_trumps) > len(trumps):
        lines.append("(--json or --csv: every bid and trump)")
    return "\n".join(lines + _best_lines(rows))


def _model_line(r):
    """Which auction model each figure rests on: the others bid by it; `made` takes its vice and
    laid cards under --vice auction, else the vice model named."""
    made = "made, score and best bid" if r["vice"] == "auction" else "score and best bid"
    vice = "" if r["vice"] == "auction" else f"; made: vice {r['vice']}"
    return f"{made}: the others bid by auction model {r['auction']}{vice}; partner: {r['partner']}"


def _bid_text(r):
    low, high = r["expected_score_low"], r["expected_score_high"]
    score = f"expected score {r['expected_score']:+.1f} (95% {low:+.1f}..{high:+.1f})"
    return f"{r['bid']} with trump {r['chief_trump']}, {score}"


def _best_lines(rows):
    """The best bid and how its auctions end; one the holder wins (ends chief in) less than WON of
    the time says so, beside the best of those it wins."""
    best = best_row(rows)
    if best is None:
        return ["question reach: whether the team reaches each target alone (--question value: scores, best bid)"]
    lost = best["p_chief"] < WON
    lines = [
        f"best bid: {_bid_text(best)}" + (f", won under {WON:.0%}" if lost else ""),
        f"  it ends chief {best['p_chief']:.0%}, outbid {best['p_outbid']:.0%}, eklat {best['p_eklat']:.0%}; "
        f"made as chief {best['p_made']:.1%} ({best['p_made_low']:.1%}..{best['p_made_high']:.1%})",
    ]
    if lost:
        won = best_row(rows, WON)
        lines.append(
            f"  best bid won {WON:.0%}+: {_bid_text(won)}, chief {won['p_chief']:.0%}"
            if won
            else f"  no bid wins {WON:.0%} of its auctions: the hand does best leaving the contract to the others"
        )
    return lines
