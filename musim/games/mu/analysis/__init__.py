"""Mü's own analyses: bid strength (`musim bid`), the balance of the target table (`musim balance`),
the contracts both replay, and the hand-model fit."""
