"""The version of the search's node counts, apart from the search so that keys can name it
without loading numba.

Values and double-dummy card choices never depend on how the search orders its moves or what its
table holds; the nodes a search takes do, and under a node limit they decide which deals give up
and what their rows hold.  So the keys of rows made under a node limit carry SEARCH_VERSION
(node_count_params: engine/run.py run_key, the balance checkpoints), and a change to the search that changes node
counts bumps it: saved rows of another search are then not taken as this one's.
"""

SEARCH_VERSION = 2  # 2: table entries of 74.5 bytes


def node_count_params(tt_mb):
    """What the key of rows made under a node limit holds beside the limit: which deals give up
    depends on the table's size and on the search."""
    return {"tt_mb": tt_mb, "search": SEARCH_VERSION}
