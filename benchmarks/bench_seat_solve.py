"""Exact solve time of full deals of the trick games scored per seat (issue 40's figure): The Last
Panther, Wimmüln and Mückenstich, each player count, a few deals each.

Deal i of a set is deal i of `musim run --game GAME --players N --seed S` under the heuristic
(its record, `musim record`): the position is the first trick's, every card still in hand —
Panther after the pass, Wimmüln after the estimates are set aside and its first card (the forced
or heuristic lead) is played, Mückenstich after the discards with no trump yet — solved for
seat 0 against all the others, as `musim solve` does (a new table generation per deal), with a
node limit: past it a deal is unresolved.  Per set it prints the count, the unresolved, and the
median and max of nodes and time (unresolved deals at their limit: `>` marks a lower bound).
Node counts do not depend on the machine or its load; times do.

Usage: python benchmarks/bench_seat_solve.py [--games panther,wimmueln,mueckenstich] [--deals 3]
       [--node-limit 2e7] [--seed 1] [--tt-mb 256] [--csv PATH]
"""

import argparse
import csv
import statistics
import time

from musim.engine.spec import RunSpec
from musim.games import get_game
from musim.solver.stats import S_GAVE_UP, S_NODES, clear_stats
from musim.solver.tt import make_table

GAMES = ("panther", "wimmueln", "mueckenstich")


def panther_position(rec, replayed):
    n = rec["players"]
    hands = [list(h) for h in rec["hands"]]
    for s in range(n):
        for c in rec["passed"][s]:
            hands[s].remove(c)
            hands[(s + 1) % n].append(c)
    return {"hands": hands, "leader": replayed["tricks"][0]["leader"], "trick": []}


def wimmueln_position(rec, replayed):
    first = replayed["tricks"][0]
    leader, lead = first["leader"], first["cards"][0]
    hands = [[c for c in h] for h in rec["hands"]]
    for s, (up, down) in enumerate(rec["estimates"]):
        hands[s].remove(up)
        hands[s].remove(down)
    hands[leader].remove(lead)
    return {"hands": hands, "leader": leader, "trick": [lead], "trump": replayed["trump"], "tricks": 0}


def mueckenstich_position(rec, replayed):
    hands = [[c for c in h] for h in rec["hands"]]
    for s, cards in enumerate(rec["discards"]):
        for c in cards:
            hands[s].remove(c)
    return {"hands": hands, "leader": replayed["tricks"][0]["leader"], "trick": [], "trump": None}


POSITIONS = {"panther": panther_position, "wimmueln": wimmueln_position, "mueckenstich": mueckenstich_position}


def deal_position(game, players, seed, index):
    """The full-deal position of deal `index` of a heuristic run, for seat 0."""
    options = {o.name: o.default for o in game.options}
    spec = RunSpec(game.name, "deals", index + 1, players, "heuristic", seed, options=options)
    rec = game.record(spec, index)
    replayed = game.replay(rec)
    obj = {"game": game.name, "players": players, "seat": 0} | POSITIONS[game.name](rec, replayed)
    if game.name == "wimmueln":
        obj["estimates"] = rec["estimates"][0]
    return obj


def run_set(game, players, args, tt, writer):
    solver = game.solver(tt)
    rows = []
    for i in range(args.deals):
        obj = deal_position(game, players, args.seed, i)
        clear_stats(solver.st)  # the node limit counts from 0
        start = time.perf_counter()
        value = solver.solve(obj, node_limit=int(args.node_limit))["value"]
        seconds = time.perf_counter() - start
        nodes = int(solver.st.stats[S_NODES])
        gave_up = bool(solver.st.stats[S_GAVE_UP])
        rows.append((nodes, seconds, gave_up))
        if writer:
            writer.writerow([game.name, players, args.seed, i, "" if gave_up else value, nodes, round(seconds, 4)])
    return rows


def figure(values, unresolved):
    return (">" if unresolved else "") + (f"{values:,.0f}" if isinstance(values, int) else f"{values:.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--node-limit", type=float, default=2e7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tt-mb", type=int, default=256)
    ap.add_argument("--players", default="", help="comma-separated player counts (default: each game's all)")
    ap.add_argument("--csv", default=None)
    args = ap.parse_args()
    args.node_limit = int(args.node_limit)
    with open(args.csv or "/dev/null", "w", newline="") as out:
        writer = csv.writer(out) if args.csv else None
        if writer:
            writer.writerow(["game", "players", "seed", "deal", "value", "nodes", "seconds"])
        report(args, make_table(args.tt_mb), writer)


def report(args, tt, writer):
    """Solve each set and print its line."""
    print(f"{'game':14} {'n':>2} {'deals':>5} {'unres':>5} {'nodes median':>14} {'max':>14} {'s median':>9} {'max':>9}")
    for name in args.games.split(","):
        game = get_game(name)
        low, high = game.players
        counts = [int(p) for p in args.players.split(",")] if args.players else range(low, high + 1)
        for n in counts:
            if not game.players[0] <= n <= game.players[1]:
                continue
            rows = run_set(game, n, args, tt, writer)
            unres = sum(r[2] for r in rows)
            nodes = sorted(r[0] for r in rows)
            secs = sorted(r[1] for r in rows)
            med_unres = unres * 2 > len(rows)
            print(
                f"{name:14} {n:>2} {len(rows):>5} {unres:>5} {figure(int(statistics.median(nodes)), med_unres):>14} "
                f"{figure(nodes[-1], unres > 0):>14} {figure(statistics.median(secs), med_unres):>9} "
                f"{figure(secs[-1], unres > 0):>9}",
                flush=True,
            )


if __name__ == "__main__":
    main()
