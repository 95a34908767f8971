"""The end-of-run summary of Calcory: each seat position's cards won and advantage (as for every
game scored per seat, games/seat_run.py), how often each event happens and what ended the games."""

import numpy as np

from musim.games import seat_run
from musim.games.calcory.rules import ENDS
from musim.games.summary_lines import INTERVAL_NOTE, column, rate_text


class DealSummary(seat_run.DealSummary):
    """Adds the mean count a game of each event (all seats together) and the rate of each end."""

    UNIT = "game"
    EVENTS = (
        ("turns", "turns"),
        ("failed", "failed turns"),
        ("thirteens", "thirteens"),
        ("marks_taken", "surviving marks taken"),
    )

    def __init__(self, params):
        super().__init__(params)
        self.COLUMNS = (*self.COLUMNS, "end")
        self.ends = dict.fromkeys(ENDS, 0)

    def add(self, batch):
        super().add(batch)
        ends, counts = np.unique(np.array(column(batch, "end").to_pylist(), dtype=object), return_counts=True)
        for end, k in zip(ends, counts):
            self.ends[end] += int(k)

    def lines(self):
        out = super().lines()
        if self.deals:
            out.append(f"what ended the game {INTERVAL_NOTE}:")
            out += [f"  {end:<22} {rate_text(k, self.deals)}" for end, k in self.ends.items()]
        return out


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    return DealSummary(params)
