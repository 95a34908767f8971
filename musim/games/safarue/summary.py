"""The end-of-run summary of Safarü and Reverse Safarü: each seat position's score and advantage
(as for every game scored per seat, games/seat_run.py) and how often each scoring event happens."""

from musim.games import seat_run
from musim.games.summary_lines import INTERVAL_NOTE, list_column, mean_text

EVENTS = (
    ("adding", "catches by adding"),
    ("totalling", "catches by totalling"),
    ("pairing", "catches by pairing"),
    ("released", "releases"),
    ("zeros", "0 cards caught"),
    ("yellow", "yellow cards caught"),
    ("blue", "blue cards caught"),
)


class DealSummary(seat_run.DealSummary):
    """Adds the mean count a game of each scoring event (all seats together) and the cards left on the table."""

    UNIT = "game"

    def __init__(self, params):
        super().__init__(params)
        self.COLUMNS = (*self.COLUMNS, *(name for name, _ in EVENTS))
        self.sums = {name: [0, 0] for name, _ in EVENTS}

    def add(self, batch):
        super().add(batch)
        for name, _ in EVENTS:
            per_game = list_column(batch, name, self.players).sum(axis=1)
            self.sums[name][0] += int(per_game.sum())
            self.sums[name][1] += int((per_game * per_game).sum())

    def lines(self):
        out = super().lines()
        if self.deals:
            out.append(f"a game, all seats together {INTERVAL_NOTE}:")
            for name, text in EVENTS:
                total, total_sq = self.sums[name]
                out.append(f"  {text:<22} {mean_text(self.deals, total, total_sq)}")
        return out


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    return DealSummary(params)
