#!/usr/bin/env bash
# Regenerate the double-dummy results under results/ with fixed seeds (run from the repository root).
# Usage: scripts/regenerate_dd_results.sh [3p 4p 5p 6p hand_model]   (default: all of them, in that order)
# The solver plays full 3-player deals in a fraction of a second and 6-player ones in seconds to
# minutes; at 4 and 5 players a few deals take hours each (docs/history.md), hence the node limit:
# a deal whose solve (or one of the pure-strength view's searches) takes over 10^9 nodes is left
# unresolved (which deals those are depends on --tt-mb too, so keep 2048). Partly heuristic play is
# no stand-in for them (regenerate_dd_tricks_validation.sh).
# Each table is sized to regenerate within 2 hours on a 2-core machine. Worker time of its deals,
# measured in earlier runs that shared the cores (so up to 2x high), about half of it wall time on
# 2 workers: 3 players 189 s on one core; 4 players, 100 deals under --question reach and pure strength
# on 4: 4,394 s (about 37 minutes wall on idle cores, 2026-12-05; 1,000 deals about 10 hours of it,
# the slowest deals the four undecided ones at 660-726 s each);
# 5 players, 1,000 deals under --question reach and pure strength on 5: 7,784 s (4,548 s wall beside
# benchmarks, 2026-12-05); 6 players, 1,000 deals under --question reach
# (one null-window search a deal, about 1.8 s) and pure strength on 20: 6,869 s (3,552 s wall);
# the hand model about 20 minutes on one core.
# --checkpoint keeps every finished deal outside the tree, so a stopped run goes on where it was.
#   results/balance_dd/     team-target balance tables under double-dummy play, 3 players
#   results/balance_dd_4p/  the same at 4 players
#   results/balance_dd_5p/  the same at 5 players
#   results/balance_dd_6p/  the same at 6 players
#   results/hand_model_dd/  the hand-evaluation model fitted to double-dummy values
set -e
CHECKPOINTS="${MUSIM_CHECKPOINTS:-$HOME/.cache/musim/checkpoints}"  # outside the tree: see docs/reproducing.md
table_3p() {
    musim balance --players 3 --deals 1000 --play dd --strength-deals 150 --seed 2026 --workers 1 --tt-mb 256 \
        --out results/balance_dd --overwrite --no-progress
}
table_4p() {
    musim balance --players 4 --deals 100 --play dd --question reach --strength-deals 4 --node-limit 1e9 --seed 2026 --workers 2 \
        --tt-mb 2048 --out results/balance_dd_4p --overwrite --checkpoint "$CHECKPOINTS" --no-progress
}
table_5p() {
    musim balance --players 5 --deals 1000 --play dd --question reach --strength-deals 5 --node-limit 1e9 --seed 2026 --workers 2 \
        --tt-mb 2048 --out results/balance_dd_5p --overwrite --checkpoint "$CHECKPOINTS" --no-progress
}
table_6p() {
    musim balance --players 6 --deals 1000 --play dd --question reach --strength-deals 20 --node-limit 1e9 --seed 2026 \
        --workers 2 --tt-mb 512 --out results/balance_dd_6p --overwrite --checkpoint "$CHECKPOINTS" --no-progress
}
hand_model() {
    python scripts/fit_hand_model.py --play dd --players 3 --deals 600 --workers 1 --out results/hand_model_dd
}
[ $# -gt 0 ] || set -- 3p 4p 5p 6p hand_model
for what in "$@"; do
    case $what in
        3p | 4p | 5p | 6p) "table_$what" ;;
        hand_model) hand_model ;;
        *) echo "usage: $0 [3p|4p|5p|6p|hand_model ...]" >&2; exit 2 ;;
    esac
done
