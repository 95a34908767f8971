"""Mü (RULES.md §2): rules kernels, game records, policies and deal simulation."""

from functools import partial

# Bump whenever a rule, policy or kernel change alters any row a run writes (tests/golden keeps
# rows made under this version and fails when they change without a bump).
RESULT_VERSION = 2  # 2: double-dummy play keeps the value with the lowest-index card (1: the solver's order)


def make_summary(params):
    """The end-of-run summary accumulator of a run with these parameters (its RunSpec fields)."""
    from musim.games.mu.summary import for_run

    return for_run(params)


def job(spec):
    """The engine's Job for a `musim run --game mu` spec (deals or matches)."""
    from musim.engine.run import Job
    from musim.games.mu import run as mu_run
    from musim.games.mu.columns import MATCH_SCHEMA, deal_schema

    if spec.mode == "matches":
        return Job(
            mu_run.CHUNK_MATCHES,
            partial(
                mu_run.simulate_match_chunk,
                spec.players,
                spec.seed,
                spec.play,
                spec.goal,
                tt_mb=spec.tt_mb,
                dd_tricks=spec.dd_tricks,
            ),
            mu_run.match_batch,
            MATCH_SCHEMA,
        )
    chunk = mu_run.CHUNK_DD_DEALS if spec.play == "dd" else mu_run.CHUNK_DEALS
    return Job(
        chunk,
        partial(mu_run.simulate_deals, spec.players, spec.seed, spec.play, tt_mb=spec.tt_mb, dd_tricks=spec.dd_tricks),
        mu_run.deal_batch,
        deal_schema(spec.play == "dd"),
        mu_run.DICTIONARY_COLUMNS,
    )
