"""PNG plots of the balance tables (matplotlib, headless).  Each states what its figures rest
on (the auction model) in a footnote and in the PNG's Description."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def _save(fig, path, note):
    """Lay out and write `fig` with `note` as its footnote and the PNG's Description."""
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.text(0.01, 0.01, note, fontsize=7, color="0.3")
    fig.savefig(path, dpi=120, metadata={"Description": note})
    plt.close(fig)


def success_by_bid(table, path, min_deals, note, name="rulebook"):
    """Chief's success rate with 95% intervals by bid level, one line per player count; `name`:
    whose targets the run played (the rulebook's, or a variant's)."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for n, t in table.groupby("players"):
        t = t[t.deals >= min_deals]
        ax.errorbar(
            t.bid,
            t.p_made,
            yerr=[t.p_made - t.p_made_low, t.p_made_high - t.p_made],
            marker="o",
            capsize=3,
            label=f"{n} players",
        )
    ax.set(
        xlabel="bid (cards laid)",
        ylabel=f"P(team reaches the {name} target)",
        ylim=(0, 1.02),
        title=f"Chief's success rate by bid (levels with >= {min_deals} deals)",
    )
    ax.grid(alpha=0.3)
    ax.legend()
    _save(fig, path, note)


def _target_lines(table, proposals, path, title, note, name="rulebook"):
    """The targets run (`name`: rulebook or variant) by bid level, a colour per player count, and
    beside them each proposal (label, column of `table`) in its own line style."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    styles = ["--o", ":s", "-.^", "--v"]
    for i, (n, t) in enumerate(table.groupby("players")):
        colour = f"C{i}"
        ax.plot(t.bid, t.target, "-", color=colour, label=f"{n} players: {name}")
        for k, (label, column) in enumerate(proposals):
            if t[column].notna().any():
                style = styles[k % len(styles)]
                ax.plot(t.bid, t[column], style, color=colour, markersize=3, label=f"{n} players: {label}")
    ax.set(xlabel="bid (cards laid)", ylabel="team target (points)", title=title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7 if len(proposals) == 1 else 6, ncol=2)
    _save(fig, path, note)


# how each basis of a proposed target is drawn: marker, filled, error bar (fixed_point.BASES)
BASIS_STYLE = {"measured": ("o", True, True), "too few deals": ("s", True, True), "extrapolated": ("o", False, False)}


def _proposal(ax, t, colour):
    """One player count's proposed targets: a dashed line through them, then each basis its own
    marker, an extrapolated target hollow and without an interval, the others with their 95% one."""
    ax.plot(t.bid, t.proposed_target, "--", color=colour, linewidth=0.8)
    for basis, (marker, filled, bars) in BASIS_STYLE.items():
        b = t[t.basis == basis]
        if b.empty:
            continue
        face = colour if filled else "white"
        yerr = [b.proposed_target - b.proposed_low, b.proposed_high - b.proposed_target] if bars else None
        ax.errorbar(b.bid, b.proposed_target, yerr=yerr, fmt=marker, color=colour, mfc=face, ms=4, capsize=2)


def targets(table, path, note, name="rulebook"):
    """The targets run (`name`: rulebook or variant, solid) and those proposed (dashed) by bid level,
    a colour per player count; filled markers with 95% intervals where measured (squares: too few
    deals), hollow ones where extrapolated."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, (n, t) in enumerate(table.groupby("players")):
        ax.plot(t.bid, t.target, "-", color=f"C{i}", label=f"{n} players: {name}")
        if t.proposed_target.notna().all():
            _proposal(ax, t, f"C{i}")
    for basis, (marker, filled, _) in BASIS_STYLE.items():
        ax.plot([], [], marker, color="0.3", mfc="0.3" if filled else "white", label=f"proposed: {basis}")
    ax.set(xlabel="bid (cards laid)", ylabel="team target (points)", title=f"{name.capitalize()} vs proposed targets")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    _save(fig, path, note)


def rounds(trace, path, note):
    """The fixed-point loop's tables round by round (trace: fixed_point.csv's rows), a panel per
    player count: each round's targets, darker as the rounds go on, the last one bold."""
    counts = sorted(trace.players.unique())
    fig, axes = plt.subplots(1, len(counts), figsize=(3.8 * len(counts), 4), squeeze=False)
    for ax, n in zip(axes[0], counts):
        t = trace[trace.players == n]
        last = t["round"].max()
        for k, r in t.groupby("round"):
            shade = plt.cm.viridis(0.9 * (1 - (k - 1) / max(last - 1, 1)))
            ax.plot(r.bid, r.target, "-o", color=shade, ms=2, lw=2 if k == last else 0.8, label=f"round {k}")
        ax.set(title=f"{n} players", xlabel="bid", ylabel="team target (points)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    _save(fig, path, note)


def team_points(samples, path, min_deals, reach, note):
    """Distribution of the chief's team points by bid level, one panel per player count.
    samples: {players: (bids, team points)}; reach: only the reach question was asked (no points)."""
    fig, axes = plt.subplots(1, len(samples), figsize=(3.6 * len(samples), 4), squeeze=False)
    for ax, (n, (bids, team)) in zip(axes[0], sorted(samples.items())):
        levels = [b for b in sorted(set(bids.tolist())) if (bids == b).sum() >= min_deals]
        if levels:
            ax.boxplot([team[bids == b] for b in levels], tick_labels=[str(b) for b in levels], showfliers=False)
        else:
            text = "not computed (--question reach)" if reach else f"no level with {min_deals} deals"
            ax.text(0.5, 0.5, text, ha="center", transform=ax.transAxes)
        ax.set(title=f"{n} players", xlabel="bid", ylabel="team points")
        ax.grid(alpha=0.3)
    _save(fig, path, note)


def strength(strength_table, path, note):
    """Share of (deal, seat) pairs by the highest level that seat could make as chief."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for n, t in strength_table.groupby("players"):
        ax.plot(t.level, t.share, marker="o", label=f"{n} players")
    ax.set(
        xlabel="highest makeable level (best trump and partner, no vice)",
        ylabel="share of seats",
        title="Pure strength of a seat as chief",
    )
    ax.grid(alpha=0.3)
    if ax.lines:
        ax.legend()
    else:
        ax.text(0.5, 0.5, "not computed (--strength-deals 0)", ha="center", transform=ax.transAxes)
    _save(fig, path, note)


def agreement(table, models, path, note, name="rulebook"):
    """The targets run (`name`: rulebook or variant) and each auction model's proposed targets
    (table: balance.agreement)."""
    proposals = [(m, f"proposed_{m}") for m in models]
    title = "Proposed targets by auction model"
    _target_lines(table, proposals, path, title, f"auction models: {', '.join(models)}; targets: {name}; {note}", name)
