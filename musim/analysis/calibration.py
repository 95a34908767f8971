"""Calibration of sampled worlds: the predicted chance that a seat holds a card against how
often it does (results/search/calibration.csv and .png, docs/players.md "Search").

Each prediction is one (observer, other seat, hidden card) at one decision of a held-out deal:
`p` the weighted share of the observer's worlds in which that seat holds the card, `held`
whether it does.  Predictions are grouped by game, players, worlds (`uniform` or `weighted`)
and trick, and binned by p; a well calibrated sampler has each bin's observed rate within its
interval of the bin's mean prediction.
"""

import numpy as np
import pandas as pd

from musim.analysis.stats import wilson

BINS = np.linspace(0.0, 1.0, 11)
KEYS = ["game", "players", "worlds", "trick"]
COLUMNS = [*KEYS, "bin_low", "bin_high", "predictions", "predicted", "observed", "observed_low", "observed_high"]


def long_form(game, players, trick, held, p):
    """The predictions of one (game, players) as the functions below read them: `trick`, `held`
    one a prediction, `p` {worlds kind: its predictions, aligned with them}."""
    parts = [pd.DataFrame({"worlds": kind, "trick": trick, "p": values, "held": held}) for kind, values in p.items()]
    return pd.concat(parts, ignore_index=True).assign(game=game, players=players)


def calibration_table(predictions):
    """The binned table of a DataFrame with KEYS, `p` and `held` columns (COLUMNS, one row a
    non-empty bin)."""
    frame = predictions.assign(bin=np.clip(np.digitize(predictions["p"], BINS) - 1, 0, len(BINS) - 2))
    grouped = frame.groupby([*KEYS, "bin"], sort=True)
    table = grouped.agg(predictions=("p", "size"), predicted=("p", "mean"), hits=("held", "sum")).reset_index()
    table["observed"] = table["hits"] / table["predictions"]
    table["observed_low"], table["observed_high"] = wilson(table["hits"], table["predictions"])
    table["bin_low"], table["bin_high"] = BINS[table["bin"]], BINS[table["bin"] + 1]
    return table[COLUMNS]


def brier(predictions):
    """Mean squared error of the predictions, per KEYS group without the trick (lower is better)."""
    err = (predictions["p"] - predictions["held"].astype(float)) ** 2
    return predictions.assign(err=err).groupby(KEYS[:-1])["err"].mean().rename("brier").reset_index()


def log_score(p, held):
    """Mean log likelihood of what happened (higher is better), p clipped away from 0 and 1."""
    q = np.clip(np.where(held, p, 1.0 - p), 1e-9, 1.0)
    return np.log(q).mean(axis=-1)


def scores(predictions):
    """brier's table with the log score of each group beside it."""
    table = brier(predictions)
    groups = predictions.groupby(KEYS[:-1], sort=True)
    table["log_score"] = [log_score(g["p"].to_numpy(), g["held"].to_numpy()) for _, g in groups]
    return table


def plot_calibration(table, path, tricks=(1, 4, 8)):
    """Reliability curves, observed against predicted, one panel a (game, players), a line for
    each worlds kind at a few tricks, with the diagonal of perfect calibration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = table[["game", "players"]].drop_duplicates().to_numpy().tolist()
    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 4), squeeze=False)
    for ax, (game, players) in zip(axes[0], panels, strict=True):
        mine = table[(table["game"] == game) & (table["players"] == players)]
        ax.plot([0, 1], [0, 1], color="grey", lw=0.8)
        for (worlds, trick), part in mine[mine["trick"].isin(tricks)].groupby(["worlds", "trick"]):
            style = "-" if worlds == "weighted" else "--"
            ax.errorbar(
                part["predicted"],
                part["observed"],
                yerr=[part["observed"] - part["observed_low"], part["observed_high"] - part["observed"]],
                ls=style,
                marker="o",
                ms=3,
                label=f"{worlds}, trick {trick}",
            )
        ax.set(title=f"{game}, {players} players", xlabel="predicted chance of holding", ylabel="observed")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
