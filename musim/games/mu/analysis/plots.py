"""PNG plots of the balance tables (matplotlib, headless)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def success_by_bid(table, path, min_deals, name="rulebook"):
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
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def targets(table, path, name="rulebook"):
    """The targets run (`name`: rulebook or variant) and those proposed by bid level, per player count."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, (n, t) in enumerate(table.groupby("players")):
        colour = f"C{i}"
        ax.plot(t.bid, t.target, "-", color=colour, label=f"{n} players: {name}")
        if t.proposed_target.notna().any():
            ax.plot(t.bid, t.proposed_target, "--o", color=colour, markersize=3, label=f"{n} players: proposed")
    ax.set(xlabel="bid (cards laid)", ylabel="team target (points)", title=f"{name.capitalize()} vs proposed targets")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def team_points(samples, path, min_deals, reach=False):
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
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def strength(strength_table, path):
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
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
