#!/bin/sh
# Regenerate the double-dummy results under results/ with fixed seeds (run from the repository root).
# The solver plays full 3-player deals in a fraction of a second and 6-player ones in seconds to
# minutes. At 4 and 5 players a few deals take hours each (docs/dd_tables.md), hence the node
# limit. Partly heuristic play is no stand-in for them (regenerate_dd_tricks_validation.sh).
# They stay apart from regenerate_results.sh: see each summary for how long it took.
# The 4-, 5- and 6-player runs take their deals from the committed checkpoint (checkpoints/) while
# the code is that of its fingerprint, and recompute them otherwise: about 8.5, 3.4 and 1.8 hours
# of worker time. The 4- and 5-player runs leave a deal whose solve (or one of the pure-strength
# view's searches) takes over 10^9 nodes unresolved (--node-limit; which deals those are depends on
# --tt-mb too, so keep 2048).
#   results/balance_dd/     team-target balance tables under double-dummy play, 3 players
#   results/balance_dd_4p/  the same at 4 players: 100 deals, the pure-strength view on the first 7
#   results/balance_dd_5p/  the same at 5 players: 100 deals, the pure-strength view on the first 10
#   results/balance_dd_6p/  the same at 6 players: 100 deals, the pure-strength view on the first 20
#   results/hand_model_dd/  the hand-evaluation model fitted to double-dummy values
set -e
musim balance --players 3 --deals 1000 --play dd --strength-deals 150 --seed 2026 --workers 1 --tt-mb 256 \
    --out results/balance_dd --overwrite --no-progress
musim balance --players 4 --deals 100 --play dd --strength-deals 7 --node-limit 1e9 --seed 2026 --workers 2 \
    --tt-mb 2048 --out results/balance_dd_4p --overwrite --checkpoint checkpoints --no-progress
musim balance --players 5 --deals 100 --play dd --strength-deals 10 --node-limit 1e9 --seed 2026 --workers 2 \
    --tt-mb 2048 --out results/balance_dd_5p --overwrite --checkpoint checkpoints --no-progress
musim balance --players 6 --deals 100 --play dd --strength-deals 20 --seed 2026 --workers 2 --tt-mb 512 \
    --out results/balance_dd_6p --overwrite --checkpoint checkpoints --no-progress
python scripts/fit_hand_model.py --play dd --players 3 --deals 600 --workers 1 --out results/hand_model_dd
