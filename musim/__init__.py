"""musim: Monte Carlo simulator and double-dummy solver for the Mü & More card games."""

__version__ = "0.1.0"

from musim import _cache

_cache.configure()
