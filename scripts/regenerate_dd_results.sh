#!/bin/sh
# Regenerate the double-dummy results under results/ with fixed seeds (run from the repository root).
# The solver plays full 3-player deals in a fraction of a second and 6-player ones in seconds to
# minutes. Tables at 4 and 5 players take many hours, with a few deals of an hour or more each
# (docs/dd_tables.md). Partly heuristic play is no stand-in for them
# (regenerate_dd_tricks_validation.sh).
# They stay apart from regenerate_results.sh: see each summary for how long it took.
# The 6-player run takes its deals from the committed checkpoint (checkpoints/) while the code
# is that of its fingerprint, and recomputes them otherwise: about 1.8 hours of worker time.
#   results/balance_dd/     team-target balance tables under double-dummy play, 3 players
#   results/balance_dd_6p/  the same at 6 players: 100 deals, the pure-strength view on the first 20
#   results/hand_model_dd/  the hand-evaluation model fitted to double-dummy values
set -e
musim balance --players 3 --deals 1000 --play dd --strength-deals 150 --seed 2026 --workers 1 --tt-mb 256 \
    --out results/balance_dd --overwrite --no-progress
musim balance --players 6 --deals 100 --play dd --strength-deals 20 --seed 2026 --workers 2 --tt-mb 512 \
    --out results/balance_dd_6p --overwrite --checkpoint checkpoints --no-progress
python scripts/fit_hand_model.py --play dd --players 3 --deals 600 --workers 1 --out results/hand_model_dd
