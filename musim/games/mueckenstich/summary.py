"""The end-of-run summary of Mückenstich: each seat position's score and advantage (as for
every game scored per seat, games/seat_run.py) and how often its scoring events happen."""

from musim.analysis.compare import figure
from musim.games import seat_run
from musim.games.summary_lines import INTERVAL_NOTE, MatchSummary, column, list_column, mean_text, rate_text


class DealSummary(seat_run.DealSummary):
    """Adds: deals with a double colour, with a zero colour, and the mosquitoes won a deal."""

    def __init__(self, params):
        super().__init__(params)
        self.COLUMNS = (*self.COLUMNS, "double", "zero", "mosquitoes_won")
        self.doubles = self.zeros = self.mosquitoes = self.mosquitoes_sq = 0

    def add(self, batch):
        super().add(batch)
        self.doubles += batch.num_rows - column(batch, "double").null_count
        self.zeros += batch.num_rows - column(batch, "zero").null_count
        won = list_column(batch, "mosquitoes_won", self.players).sum(axis=1)
        self.mosquitoes += int(won.sum())
        self.mosquitoes_sq += int((won * won).sum())

    def figures(self, batch):
        """Adds, deal by deal: a double colour, a zero colour, the mosquitoes played."""
        out = super().figures(batch)
        out["a double colour named"] = figure(column(batch, "double").is_valid(), rate=True)
        out["a zero colour named"] = figure(column(batch, "zero").is_valid(), rate=True)
        out["mosquitoes played a deal"] = figure(list_column(batch, "mosquitoes_won", self.players).sum(axis=1))
        return out

    def lines(self):
        out = super().lines()
        if self.deals:
            d = self.deals
            out.append(f"a double colour named (a single seat with the fewest tricks): {rate_text(self.doubles, d)}")
            out.append(f"a zero colour named (a single seat with the most mosquitoes): {rate_text(self.zeros, d)}")
            out.append(f"mosquitoes played a deal: {mean_text(d, self.mosquitoes, self.mosquitoes_sq)} {INTERVAL_NOTE}")
        return out


def for_run(params):
    """The summary accumulator of a run with these parameters."""
    if params["mode"] == "matches":
        return MatchSummary(params, seat_run.header, capped=False)  # a match always ends: no `capped`
    return DealSummary(params)
