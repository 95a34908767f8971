"""Mü (RULES.md §2): rules kernels, game records, policies and deal simulation."""

from functools import partial


def job(spec):
    """The engine's Job for a `musim run --game mu` spec (deals or matches)."""
    from musim.engine.run import Job
    from musim.games.mu import run as mu_run

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
            mu_run.MATCH_SCHEMA,
            partial(mu_run.MatchSummary, spec.players),
        )
    chunk = mu_run.CHUNK_DD_DEALS if spec.play == "dd" else mu_run.CHUNK_DEALS
    return Job(
        chunk,
        partial(mu_run.simulate_deals, spec.players, spec.seed, spec.play, tt_mb=spec.tt_mb, dd_tricks=spec.dd_tricks),
        mu_run.deal_batch,
        mu_run.DEAL_SCHEMA,
        partial(mu_run.DealSummary, spec.players),
        mu_run.DICTIONARY_COLUMNS,
    )
