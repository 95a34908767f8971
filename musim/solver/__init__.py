"""Exact double-dummy search for trick-taking games (Mü, bridge) on a canonical card layout."""
