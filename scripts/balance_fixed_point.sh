#!/usr/bin/env bash
# Regenerate results/balance_fixed_point/: `musim balance --rounds` under each hand-written auction
# model, 3-6 players, 200,000 deals a player count and round, at most 6 rounds (a few minutes a model
# on 2 cores).  The learned bidder's run (results/balance_learned/) is the same line with
# AUCTIONS="learned" OUT=results/balance_learned once `--auction learned` exists.
# Run from the repository root; MUSIM="python -m musim" runs a checkout's own code.
set -e
MUSIM=${MUSIM:-musim}
AUCTIONS=${AUCTIONS:-"cautious bold"}
OUT=${OUT:-results/balance_fixed_point}
for model in $AUCTIONS; do
  $MUSIM balance --players 3,4,5,6 --deals 2e5 --auction "$model" --rounds 6 --alpha 0.5 --seed 2026 \
    --out "$OUT/$model" --overwrite --no-progress
done
