#!/bin/sh
# Regenerate everything under results/ with fixed seeds (run from the repository root).
#   results/hand_model/  the hand-evaluation model (also rewrites musim/games/mu/hand_table.py)
#   results/balance/     the team-target balance tables and plots
#   results/seat_games/  every game's seat advantage and scoring events per player count
#   results/auction/     each auction model's bids and eklats beside the pure strength
#   results/balance_auction/  targets proposed under each auction model, side by side
#   results/balance_round2/   each model's proposal measured again (one round of --targets)
#   results/balance_fixed_point/  the fair-step fixed-point loop (--rounds 6) under each model
#   results/head_to_head/  each game's heuristic against random, and exact play against the heuristic
#   results/search/      the search player against the heuristic, and Mü's success rates by model of play
set -e
python scripts/fit_hand_model.py --deals 20000 --seed 2026
musim balance --players 3,4,5,6 --deals 2e4 --play heuristic --seed 2026 --out results/balance --overwrite --no-progress
python scripts/seat_tables.py --rows 100000 --seed 2026
python scripts/auction_tables.py --deals 20000 --seed 2026 --out results/auction
musim balance --players 3,4,5,6 --deals 2e4 --auction cautious,bold --seed 2026 --out results/balance_auction --overwrite --no-progress
for model in cautious bold; do
  musim balance --players 3,4,5,6 --deals 2e4 --auction $model --targets results/balance_auction/$model/proposed_targets.csv \
    --seed 2026 --out results/balance_round2/$model --overwrite --no-progress
done
scripts/balance_fixed_point.sh
python scripts/head_to_head.py --deals 20000 --seed 2026
python scripts/search_tables.py --seed 2026
