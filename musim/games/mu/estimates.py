"""What Mü's work costs, measured on the project's machine (x86_64, 2 cores, beside other jobs;
docs/performance.md "Estimates", `python benchmarks/bench_estimates.py calibrate` and
`dd-sample`): the estimates of `musim run`, `bid` and `balance` (musim.engine.progress), and the
per-deal times that the warning before whole-deal exact play at 4-6 players quotes."""

from musim.engine.progress import duration_text, estimate_seconds
from musim.engine.seats import plays_exactly
from musim.play.search_budget import SEARCH, UNIFORM, WORLDS, searches

# seconds one worker takes per item: ("deal", players, play) a `musim run` row (the kernel and
# its Arrow batch); ("table", players, play) a `musim balance` deal; ("strength", players, play)
# its pure-strength replay of a deal; ("bid", players, play) one play of a `musim bid` sample
# (a trump and a contract variant) with the default vice and partner models: measured under
# --vice strongest, the heuristic's scaled by what a play takes under --vice auction, the default
# since issue 60, against strongest in one process (200 samples, best of 3: 0.85, 0.74, 0.76, 0.78
# at 3-6 players)
COSTS = {  # 2026-12-04
    ("deal", 3, "heuristic"): 3.3e-06,
    ("table", 3, "heuristic"): 2.2e-06,
    ("deal", 3, "random"): 1.7e-06,
    ("table", 3, "random"): 1.26e-06,
    ("deal", 3, "dd"): 0.11,
    ("table", 3, "dd"): 0.113,
    ("strength", 3, "heuristic"): 4.38e-05,
    ("bid", 3, "heuristic"): 3.9e-06,
    ("bid", 3, "dd"): 0.204,
    ("deal", 4, "heuristic"): 4.07e-06,
    ("table", 4, "heuristic"): 3.66e-06,
    ("deal", 4, "random"): 2.13e-06,
    ("table", 4, "random"): 1.87e-06,
    ("strength", 4, "heuristic"): 0.000365,
    ("bid", 4, "heuristic"): 3.13e-06,
    ("deal", 5, "heuristic"): 4.01e-06,
    ("table", 5, "heuristic"): 3.69e-06,
    ("deal", 5, "random"): 2.23e-06,
    ("table", 5, "random"): 2.06e-06,
    ("strength", 5, "heuristic"): 0.00055,
    ("bid", 5, "heuristic"): 3.05e-06,
    ("deal", 6, "heuristic"): 3.97e-06,
    ("table", 6, "heuristic"): 3.72e-06,
    ("deal", 6, "random"): 2.22e-06,
    ("table", 6, "random"): 2.02e-06,
    ("strength", 6, "heuristic"): 0.00073,
    ("bid", 6, "heuristic"): 3.02e-06,
}
# players -> seconds one search seat's card decisions add to a `musim run` deal, per world of its
# budget (one search seat among heuristic ones at 128 worlds, 400 deals of seed 1, load about 4;
# the cost grows with the worlds in proportion: `python benchmarks/bench_search.py`), 2026-12-05
SEARCH_WORLD_SECONDS = {3: 3.4e-05, 4: 1.58e-04, 5: 6.4e-05, 6: 6.0e-05}
STARTUP_S = 1.6  # starting Python and loading the compiled kernels from the cache
REPORT_S = 1.0  # `musim balance`'s tables and plots
# Whole-deal exact play at 4-6 players (docs/performance.md "Estimates and progress" has each
# figure's source): players -> (median, 90th percentile, mean, share of deals past 10^9 nodes), the
# seconds of one worker, eklats included.  Most are floors (samples stopped at a node limit), so
# the warning says "or more"; the run's time is projected from the mean, which the slow deals make.
DD_DEAL_SECONDS = {
    4: (14.2, 500.0, 230.0, 0.18),  # value table of seed 2026: 22,968 s for 100 deals, 18 stopped at 10^9 nodes
    5: (3.8, 67.0, 63.0, 0.07),  # value table of seed 2026: 6,253 s for 100 deals, 7 stopped at 10^9 nodes
    6: (3.3, 22.3, 18.0, 0.01),  # 100 deals in 902 s on 2 workers; 1 in 1,000 past 10^9 nodes under reach
}
PAST_LIMIT_S = 500  # 10^9 nodes take 500-750 s; without a node limit some such deals take hours


def run_seconds(spec):
    """GAME.estimate: the seconds `musim run` of `spec` should take, or None (matches, and
    exact play but at 3 players: not measured, or too heavy-tailed to say)."""
    if spec.mode != "deals" or spec.options["dd_tricks"]:
        return None
    key, costs = ("deal", spec.players, spec.play), COSTS
    if searches(spec.play) and not plays_exactly(spec.play):
        costs = {key: search_deal_seconds(spec.players, spec.play, spec.options[WORLDS.name])}
    return estimate_seconds([(key, spec.count)], spec.workers, costs, STARTUP_S)


def search_deal_seconds(players, play, worlds):
    """A `musim run` deal's seconds with search seats (`play`: one policy, or one a seat) at a
    budget of `worlds`: the heuristic's deal and each search seat's decisions."""
    names = play.split(",") * (players if "," not in play else 1)
    seats = names.count(SEARCH) + names.count(UNIFORM)
    return COSTS[("deal", players, "heuristic")] + seats * worlds * SEARCH_WORLD_SECONDS[players]


def balance_seconds(counts, deals, strength_deals, play, dd_tricks, workers):
    """The seconds `musim balance` should take (every strength replay counted: eklats have
    none), or None."""
    if dd_tricks:
        return None
    work = [(("table", n, play), deals) for n in counts] + [(("strength", n, play), strength_deals) for n in counts]
    return estimate_seconds(work, workers, COSTS, STARTUP_S + REPORT_S)


def bid_seconds(players, samples, plays, play, workers):
    """The seconds `musim bid` of `samples` samples of `plays` plays each should take, or None."""
    return estimate_seconds([(("bid", players, play), samples * plays)], workers, COSTS, STARTUP_S)


def dd_text(players, items, workers, noun="deals"):
    """What the measured per-deal times of whole-deal exact play at `players` imply for `items`
    such deals at each player count on `workers` workers: the median, the 90th percentile and
    the share of deals past 10^9 nodes (the tail that takes hours), and the run's time at the
    mean, all floors of what was measured."""
    figures = [DD_DEAL_SECONDS[n] for n in players]
    seconds = sum(items * mean for _, _, mean, _ in figures) / workers
    medians, p90s, means, past = (", ".join(_figure(f[i] * (100 if i == 3 else 1)) for f in figures) for i in range(4))
    at = f"{players[0]}-player deal" if len(players) == 1 else ", ".join(map(str, players)) + "-player deal"
    return (
        f"half of the {at}s measured took {medians} s or more, a tenth {p90s} s or more, and {past} in 100 "
        f"pass 10^9 nodes ({PAST_LIMIT_S} s or more each, some hours; docs/performance.md): "
        f"{items:,} {noun}{' each' if len(players) > 1 else ''} on {workers} worker(s) ~ {duration_text(seconds)} "
        f"or more (the mean deal {means} s or more)"
    )


def _figure(value):
    """A measured figure as a person reads it: 3.8, 14, 230."""
    return f"{value:.0f}" if value >= 10 else f"{value:.2g}"
