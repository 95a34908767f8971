"""musim: Monte Carlo simulator and double-dummy solver for the Mü & More card games."""

__version__ = "0.1.0"

from musim.compile import cache as _cache

_cache.configure()

__all__ = ["read_run"]


def __getattr__(name):
    """`musim.read_run`, imported on first use: `import musim` stays free of pandas."""
    if name == "read_run":
        from musim.engine.read import read_run

        return read_run
    raise AttributeError(f"module 'musim' has no attribute {name!r}")
