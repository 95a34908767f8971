"""Wimmüln (RULES.md §3): rules kernels, policies, deal simulation, records."""
