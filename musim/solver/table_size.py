"""The default transposition-table size, apart from tt.py so that the CLI can show it without loading numba."""

# 4- and 5-player searches that run for minutes need the room (docs: the double-dummy solver)
DEFAULT_MB = 512
