"""The shipped model files of Mü (package data): the learned auction (learned/model_file.py) and the
search player's world weights (musim/play/world_weights.py)."""
