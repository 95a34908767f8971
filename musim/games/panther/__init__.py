"""The Last Panther (RULES.md §4): rules kernels, policies, deal simulation, records."""
