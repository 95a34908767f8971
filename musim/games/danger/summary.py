"""The end-of-run summary of Danger: each seat position's total and advantage (as for every game
scored per seat, games/seat_run.py), how often each scoring event happens, and how often a
round ended without a fourth row closed."""

import numpy as np

from musim.analysis.compare import figure
from musim.games import seat_run
from musim.games.danger.rules import COLOUR_NAMES
from musim.games.summary_lines import INTERVAL_NOTE, numpy_column, rate_text

ROUND_ENDS = (("rounds_exhausted", "no card left to take"), ("rounds_capped", "500 turns played"))


class DealSummary(seat_run.DealSummary):
    """Adds the mean count a game of each scoring event (all seats together) and the rate of rounds
    that ended otherwise than by a fourth row."""

    UNIT = "game"
    EVENTS = (
        *((f"secured_{c.lower()}", f"{c} rows secured") for c in COLOUR_NAMES),
        *((f"blocked_{c.lower()}", f"{c} rows blocked") for c in COLOUR_NAMES),
        ("lowest", "lowest in a colour"),
        ("taken", "discards taken"),
        ("discards", "cards discarded"),
        ("turns", "turns"),
    )

    def __init__(self, params):
        super().__init__(params)
        self.COLUMNS = (*self.COLUMNS, *(name for name, _ in ROUND_ENDS))
        self.rounds = params.get("options", {}).get("rounds", 5)
        self.ends = dict.fromkeys((name for name, _ in ROUND_ENDS), 0)

    def add(self, batch):
        super().add(batch)
        for name in self.ends:
            self.ends[name] += int(numpy_column(batch, name).astype(np.int64).sum())

    def figures(self, batch):
        """Adds, game by game: the share of its rounds that ended each other way."""
        out = super().figures(batch)
        for name, text in ROUND_ENDS:
            out[f"share of rounds: {text}"] = figure(numpy_column(batch, name).astype(np.int64) / self.rounds)
        return out

    def lines(self):
        out = super().lines()
        if self.deals:
            rounds = self.deals * self.rounds
            out.append(f"rounds that ended without a fourth row closed {INTERVAL_NOTE}:")
            out += [f"  {text:<22} {rate_text(self.ends[name], rounds)}" for name, text in ROUND_ENDS]
        return out


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    return DealSummary(params)
