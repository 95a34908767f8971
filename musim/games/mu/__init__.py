"""Mü (RULES.md §2): rules kernels, game records, policies and deal simulation."""
