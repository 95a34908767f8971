#!/bin/sh
# Regenerate the double-dummy results under results/ with fixed seeds (run from the repository root).
# Three players only: the one player count whose full deals the solver plays in seconds
# (issue 3); on one core the balance takes 15 minutes and the fit 51 minutes, so they
# stay apart from regenerate_results.sh.
#   results/balance_dd/    team-target balance tables under double-dummy play
#   results/hand_model_dd/ the hand-evaluation model fitted to double-dummy values
set -e
musim balance --players 3 --deals 1000 --play dd --strength-deals 150 --seed 2026 --workers 1 --tt-mb 256 \
    --out results/balance_dd --overwrite --no-progress
python scripts/fit_hand_model.py --play dd --players 3 --deals 600 --workers 1 --out results/hand_model_dd
