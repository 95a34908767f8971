"""The learned auction (`--auction learned`, docs/players.md): a value model over what a seat
sees of an auction turn (features.py), evaluated inside the numba auction loop (bidder.py), fitted
by self-play (selfplay.py, fit.py, train.py) and shipped as a versioned .npz (model_file.py)."""

from collections import namedtuple

# weights float32 [models, 4, features.N_WEIGHTS] (per player count 3..6); model_of int64 [6]: the
# model each seat bids by (all 0 in runs; the population's members in training)
LearnedModel = namedtuple("LearnedModel", "weights model_of")
