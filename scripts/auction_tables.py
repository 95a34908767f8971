"""How far Mü's bids move with the model of bidding: each auction model's bids beside the pure strength.

Per player count, the same deals (one seed) are bid by each auction model of
musim.games.mu.policies.AUCTIONS under heuristic play (`musim run --play heuristic --auction NAME`
writes these very rows): the share of deals at each bid level (an eklat's level is its highest laid
count M), the eklat rate with its 95% Wilson interval, the mean bid with its 95% interval, the
chief's success per level and each role's mean deal score (chief, partner, opponents; an eklat's
provoker and the others), each with its 95% interval. Beside them the pure-strength view of `musim
balance` (musim/games/mu/analysis/balance.py) of the same deals: every seat of each played deal as
chief with its best trump and partner in hindsight and no vice, the highest level it makes under
heuristic card play -- a level per seat, a hindsight upper bound of what a bidder could dare. All of
it under the rulebook's targets (docs/rules.md §2.8).

Writes OUT/summary.md, OUT/models.csv (the headline figures per model), OUT/bids.csv (the
distributions), OUT/success.csv (chief success per level) and OUT/roles.csv (mean score by role),
each file complete or absent.

Usage: python scripts/auction_tables.py [--deals 20000] [--seed 2026] [--players 3 4 5 6] [--out results/auction]
"""

import argparse
import os
import time

import numpy as np
import pandas as pd

from musim.analysis.stats import mean_interval, wilson
from musim.games.mu import rules
from musim.games.mu import simulate as sim
from musim.games.mu.analysis.balance import analyse
from musim.games.mu.params import MuParams
from musim.games.mu.policies import AUCTIONS
from musim.games.mu.run import CHUNK_DEALS, simulate_deal_chunk
from musim.games.mu.target_tables import RULEBOOK

PLAY = "heuristic"
TARGETS = RULEBOOK  # what RULES says: every model bids, and every level is reached, against this table
RULES = "rulebook targets (docs/rules.md §2.8)"
STRENGTH = "pure strength"


def model_deals(players, deals, seed, model):
    """(result vectors, seat scores) of the deals, one row each."""
    params = MuParams(players, PLAY, auction=model, targets=TARGETS)
    chunks = [simulate_deal_chunk(params, seed, s, min(CHUNK_DEALS, deals - s)) for s in range(0, deals, CHUNK_DEALS)]
    return np.concatenate([c.res for c in chunks]), np.concatenate([c.scores[:, :players] for c in chunks])


def role_scores(res, scores):
    """Role name -> each deal's mean score of the seats in that role (deals without one left out)."""
    n = scores.shape[1]
    played = res[:, sim.OUTCOME] == sim.PLAYED
    seat = np.arange(n)[None, :]
    chief, partner, provoker = res[:, sim.CHIEF, None], res[:, sim.PARTNER, None], res[:, sim.PROVOKER, None]
    masks = {
        "chief": played[:, None] & (seat == chief),
        "partner": played[:, None] & (seat == partner),
        "opponent": played[:, None] & (seat != chief) & (seat != partner),
        "provoker": ~played[:, None] & (seat == provoker),
        "other in an eklat": ~played[:, None] & (seat != provoker),
    }
    out = {}
    for role, m in masks.items():
        has = m.any(axis=1)
        out[role] = (scores * m).sum(axis=1)[has] / m.sum(axis=1)[has]
    return out


def success_rows(common, model, res, levels):
    """Chief success per level of the played deals, with its 95% Wilson interval."""
    played = res[:, sim.OUTCOME] == sim.PLAYED
    bids, made = res[played, sim.BID], res[played, sim.SUCCESS] == 1
    rows = []
    for b in levels[1:]:
        k, m = int(made[bids == b].sum()), int((bids == b).sum())
        low, high = wilson(k, m)
        rows.append(
            common
            | {"model": model, "level": int(b), "played": m, "made": k}
            | {"p_made": k / m if m else np.nan, "low": float(low), "high": float(high)}
        )
    return rows


def role_rows(common, model, res, scores):
    """Mean deal score of each role with its 95% interval (over the deals that have the role)."""
    rows = []
    for role, x in role_scores(res, scores).items():
        mean, low, high = mean_interval(x) if len(x) else (np.nan,) * 3
        rows.append(common | {"model": model, "role": role, "deals": len(x), "mean": mean, "low": low, "high": high})
    return rows


def tables(players, deals, seed, workers):
    """(headline rows, distribution rows, success rows, role rows) of one player count."""
    levels = np.arange(rules.hand_size(players) + 1)
    heads, dist, success, roles = [], [], [], []
    common = {"players": players, "play": PLAY, "rules": RULES, "seed": seed}
    for model in AUCTIONS:
        res, scores = model_deals(players, deals, seed, model)
        bids, eklat = res[:, sim.BID], res[:, sim.OUTCOME] == sim.EKLAT
        success += success_rows(common, model, res, levels)
        roles += role_rows(common, model, res, scores)
        low, high = wilson(int(eklat.sum()), deals)
        mean, mlow, mhigh = mean_interval(bids)
        heads.append(
            common
            | {"model": model, "unit": "deals", "count": deals, "eklats": int(eklat.sum()), "eklat_rate": eklat.mean()}
            | {"eklat_low": float(low), "eklat_high": float(high), "mean_level": mean}
            | {"mean_low": mlow, "mean_high": mhigh}
        )
        counts = np.bincount(bids, minlength=len(levels))
        ek = np.bincount(bids[eklat], minlength=len(levels))
        for b in levels:
            dist.append(
                common
                | {"model": model, "unit": "deals", "level": int(b), "count": int(counts[b]), "eklats": int(ek[b])}
                | {"share": counts[b] / deals}
            )
    bal = analyse(MuParams(players, PLAY, targets=TARGETS), deals, seed, workers=workers)
    seats = int(bal.strength.chiefs.sum())
    heads.append(
        common
        | {"model": STRENGTH, "unit": "seats", "count": seats, "eklats": 0, "eklat_rate": np.nan}
        | {"eklat_low": np.nan, "eklat_high": np.nan, "mean_level": bal.facts["strength_mean"]}
        | {"mean_low": np.nan, "mean_high": np.nan, "balance_played_deals": bal.facts["played"]}
    )
    for row in bal.strength.itertuples():
        dist.append(
            common
            | {"model": STRENGTH, "unit": "seats", "level": int(row.level), "count": int(row.chiefs), "eklats": 0}
            | {"share": row.share}
        )
    return heads, dist, success, roles


def outcome_lines(success, roles, n):
    """The chief's success per level and the mean score by role of each model at n players."""
    s, r = pd.DataFrame(success), pd.DataFrame(roles)
    s, r = s[s.players == n], r[r.players == n]
    lines = [
        "| level | " + " | ".join(f"{m} made [95%]" for m in AUCTIONS) + " |",
        "| --- |" + " --- |" * len(AUCTIONS),
    ]
    for level, part in s.groupby("level"):
        if part["played"].sum() == 0:
            continue
        cells = [
            f"{x.p_made:.1%} [{x.low:.1%}, {x.high:.1%}] ({x.played:,})" if x.played else "-"
            for x in part.set_index("model").loc[list(AUCTIONS)].itertuples()
        ]
        lines.append(f"| {level} | " + " | ".join(cells) + " |")
    lines += ["", "| role | " + " | ".join(f"{m} mean score [95%]" for m in AUCTIONS) + " |"]
    lines.append("| --- |" + " --- |" * len(AUCTIONS))
    for role, part in r.groupby("role", sort=False):
        cells = [
            f"{x.mean:+.2f} [{x.low:+.2f}, {x.high:+.2f}] ({x.deals:,})" if x.deals else "-"
            for x in part.set_index("model").loc[list(AUCTIONS)].itertuples()
        ]
        lines.append(f"| {role} | " + " | ".join(cells) + " |")
    return lines + [""]


def markdown(heads, dist, success, roles, command, seconds):
    models = [*AUCTIONS, STRENGTH]
    lines = [
        "# Bids under each auction model, beside the pure strength",
        "",
        f"Written by `{command}` in {seconds:.0f} s. {__doc__.split(chr(10) + chr(10))[1]}",
        "",
        "Play: heuristic trumps, partner and card play for every model; rules: the rulebook's "
        "targets. A level's share counts deals for the auction models (an eklat at its M) and seats "
        "for the pure strength; `models.csv` and `bids.csv` hold every figure.",
        "",
    ]
    h = pd.DataFrame(heads)
    d = pd.DataFrame(dist)
    for n, part in h.groupby("players"):
        lines += [f"## {n} players", "", "| model | eklat rate [95%] | mean level [95%] |", "| --- | --- | --- |"]
        for r in part.itertuples():
            if r.model == STRENGTH:
                lines.append(f"| {STRENGTH} ({r.count:,} seats) | - | {r.mean_level:.2f} |")
            else:
                lines.append(
                    f"| {r.model} ({r.count:,} deals) | {r.eklat_rate:.2%} [{r.eklat_low:.2%}, {r.eklat_high:.2%}] "
                    f"| {r.mean_level:.2f} [{r.mean_low:.2f}, {r.mean_high:.2f}] |"
                )
        lines += ["", "| level | " + " | ".join(models) + " |", "| --- |" + " --- |" * len(models)]
        dn = d[d.players == n]
        for level in sorted(dn.level.unique()):
            cells = []
            for m in models:
                r = dn[(dn.model == m) & (dn.level == level)]
                count = int(r["count"].iloc[0]) if len(r) else 0
                eklats = int(r["eklats"].iloc[0]) if len(r) else 0
                share = float(r["share"].iloc[0]) if len(r) else 0.0
                plural = "" if eklats == 1 else "s"
                cells.append(
                    f"{share:.1%} ({count:,}{f', {eklats:,} eklat{plural}' if eklats else ''})" if count else "-"
                )
            lines.append(f"| {level} | " + " | ".join(cells) + " |")
        lines.append("")
        lines += outcome_lines(success, roles, n)
    return "\n".join(lines)


def write(path, text):
    """Write `path` whole or not at all."""
    tmp = f"{path}.partial"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="results/auction")
    a = ap.parse_args()
    if a.deals < 1 or not all(rules.MIN_PLAYERS <= n <= rules.MAX_PLAYERS for n in a.players):
        ap.error("--deals must be positive and --players within 3..6")
    started = time.perf_counter()
    heads, dist, success, roles = [], [], [], []
    for n in a.players:
        h, d, s, r = tables(n, a.deals, a.seed, a.workers)
        heads, dist, success, roles = heads + h, dist + d, success + s, roles + r
    os.makedirs(a.out, exist_ok=True)
    players = " ".join(map(str, a.players))
    command = f"python scripts/auction_tables.py --deals {a.deals} --seed {a.seed} --players {players} --out {a.out}"
    write(os.path.join(a.out, "models.csv"), pd.DataFrame(heads).to_csv(index=False))
    write(os.path.join(a.out, "bids.csv"), pd.DataFrame(dist).to_csv(index=False))
    write(os.path.join(a.out, "success.csv"), pd.DataFrame(success).to_csv(index=False))
    write(os.path.join(a.out, "roles.csv"), pd.DataFrame(roles).to_csv(index=False))
    seconds = time.perf_counter() - started
    write(os.path.join(a.out, "summary.md"), markdown(heads, dist, success, roles, command, seconds))


if __name__ == "__main__":
    main()
