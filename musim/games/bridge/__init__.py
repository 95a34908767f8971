"""Bridge: a solver-only game, to check the double-dummy solver against DDS."""
