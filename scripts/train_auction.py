"""Train the learned auction by self-play and write its model file and report.

Regenerates the shipped model musim/games/mu/models/auction_learned_v2.npz (byte for byte for
the same arguments: one thread, deals in order) and its report (rounds.csv, training.md) in
--out; each round's weights are kept in --cache, outside the repository, so a stopped training
resumes.  musim/games/mu/learned/train.py says what a round does.  With --best-response, trains a
best response to a frozen model instead (no checkpoints), writes it to --model and measures it on
--eval-deals fresh deals (--eval-seed): exploitability.csv and .md in --out (learned/best_response.py).

Usage: python scripts/train_auction.py --seed 2026 [--rounds 6] [--deals 400000] [--out results/learned_auction]
       python scripts/train_auction.py --seed 1 --rounds 2 --deals 3000 --eval-deals 500 --out T --model T/m.npz
       python scripts/train_auction.py --best-response v2 --seed 7 --rounds 3 --deals 1000000 --model /tmp/br.npz
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: the same sums and solve, the same bytes
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import hashlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's musim, whatever is installed

from musim import __version__  # noqa: E402
from musim.games.mu.learned import best_response, model_file, train  # noqa: E402
from musim.games.mu.learned.model_file import CURRENT, MODELS, SHIPPED  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--deals", type=int, default=400_000, help="self-play deals per player count a round")
    ap.add_argument("--eval-deals", type=int, default=20_000, help="deals of each round's figures")
    ap.add_argument("--explore", type=float, default=0.15, help="the learner's uniform exploration")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "learned_auction")
    ap.add_argument("--model", type=Path, help=f"the model file written (default the shipped {SHIPPED[CURRENT]})")
    ap.add_argument("--cache", type=Path, help="round checkpoints (default ~/.cache/musim/learned/<arguments, code>)")
    ap.add_argument(
        "--best-response", metavar="MODEL", help="train a best response to this frozen model (v2 or a .npz)"
    )
    ap.add_argument("--eval-seed", type=int, default=4242, help="the best response's measuring deals")
    a = ap.parse_args()
    if a.rounds < 1 or a.deals < 1 or a.eval_deals < 2 or not 0 <= a.explore <= 1:
        sys.exit("train_auction: --rounds, --deals >= 1, --eval-deals >= 2, --explore in 0..1")
    command = (
        f"python scripts/train_auction.py --seed {a.seed} --rounds {a.rounds} --deals {a.deals} "
        f"--eval-deals {a.eval_deals} --explore {a.explore:g}"
    )
    if a.best_response:
        respond(a, command)
    else:
        population(a, command)


def population(a, command):
    """The learned auction's training (train.py) and its model file and report."""
    a.model = a.model or MODELS / SHIPPED[CURRENT]
    tag = f"seed{a.seed}-r{a.rounds}-d{a.deals}-e{a.eval_deals}-x{a.explore:g}-{source_digest()}"
    cache = a.cache or Path.home() / ".cache" / "musim" / "learned" / tag
    started = time.perf_counter()
    weights, rows = train.train(a.seed, a.rounds, a.deals, a.eval_deals, a.explore, cache, say=say)
    meta = {
        "name": "learned",
        "version": int(CURRENT[1:]),
        "seed": a.seed,
        "rounds": a.rounds,
        "deals_per_round": a.deals,
    }
    meta |= {"eval_deals": a.eval_deals, "explore": a.explore, "command": command, "musim_version": __version__}
    a.model.parent.mkdir(parents=True, exist_ok=True)
    model_id = train.save_model(a.model, weights, meta)
    train.write_report(a.out, rows, meta | {"model_id": model_id})
    say(f"wrote {a.model} ({model_id}) and {a.out} in {time.perf_counter() - started:.0f} s")


def respond(a, command):
    """A best response to --best-response, its model file and exploitability report (best_response.py)."""
    if a.model is None or a.model.resolve() == (MODELS / SHIPPED[CURRENT]).resolve():
        sys.exit("train_auction: --best-response needs --model, a file other than the shipped model")
    try:
        frozen_id, frozen = model_file.resolve(a.best_response)
    except model_file.ModelError as exc:
        sys.exit(f"train_auction: {exc}")
    started = time.perf_counter()
    stack, training = best_response.train_best_response(a.seed, frozen.weights[0], a.rounds, a.deals, a.explore, say)
    meta = {"name": "best_response", "version": 0, "best_response_to": frozen_id, "seed": a.seed, "rounds": a.rounds}
    meta |= {"deals_per_round": a.deals, "explore": a.explore, "musim_version": __version__}
    a.model.parent.mkdir(parents=True, exist_ok=True)
    model_id = train.save_model(a.model, stack[-1], meta)
    rows = best_response.exploitability(a.eval_seed, stack, a.eval_deals, say=say)
    command += f" --best-response {a.best_response} --eval-seed {a.eval_seed} --model {a.model}"
    meta |= {"command": command, "frozen": frozen_id, "deals": a.deals, "eval_deals": a.eval_deals}
    meta |= {"eval_seed": a.eval_seed, "model": a.model.name, "model_id": model_id}
    best_response.write_report(a.out, rows, training, meta | {"minutes": (time.perf_counter() - started) / 60})
    say(f"wrote {a.model} ({model_id}) and {a.out} in {time.perf_counter() - started:.0f} s")


def source_digest():
    """8 hex of the learned package's sources and the hand model: a checkpoint of other code is not taken."""
    h = hashlib.sha256()
    for path in sorted((ROOT / "musim" / "games" / "mu" / "learned").glob("*.py")):
        h.update(path.read_bytes())
    h.update((ROOT / "musim" / "games" / "mu" / "hand_table.py").read_bytes())
    return h.hexdigest()[:8]


def say(text):
    print(text, flush=True)


if __name__ == "__main__":
    main()
