"""The shipped world weights of Wimmüln's search player (package data: musim/play/world_weights.py)."""
