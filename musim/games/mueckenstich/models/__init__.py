"""The shipped world weights of Mückenstich's search player (package data: musim/play/world_weights.py)."""
