"""The shipped world weights of The Last Panther's search player (package data: musim/play/world_weights.py)."""
