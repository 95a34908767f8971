"""The columns of Zwickern's run output, each defined once: name, Arrow type, description.
One deal row is one deal (every round until the stock and the hands are empty); a match row
is n deals."""

import pyarrow as pa

from musim.core.deck import ZWICKERN
from musim.engine.parquet import SEAT, Column
from musim.games.zwickern.rules import PARTS
from musim.play import seat_columns
from musim.play.drivers import MATCH_DEAL_CAP
from musim.play.seat_columns import PER_SEAT, SEAT_NUMBER, batch, card_indices, list_array, row_index, row_values

SIDE = "with 4 players the partners opposite (seats 0 and 2, 1 and 3) share it"

_PARTS = {
    "cards": "Cards each seat won (bought, with the cards it bought with)",
    "card_points": "Victory points of the cards each seat won",
    "most_cards": f"Points for the most cards won (+3 by default; nobody on a tie; {SIDE}, both seats showing it)",
    "zwicks": "Zwicks each seat made (buys that cleared the table)",
    "zwick_points": "Points for each seat's Zwicks (+1 a Zwick by default)",
    "pile_penalty": "Points each seat lost for the piles it built that were left on the table at the end "
    "(minus each pile's value)",
    "buys": "Turns each seat bought",
    "builds": "Turns each seat built a pile",
    "lays": "Turns each seat laid its card to the table",
    "piles_left": "Piles each seat built that were left on the table at the end",
}

DEAL_COLUMNS = (
    row_index(),
    Column("players", pa.int8(), "Number of players (2..4; 4 play as partners opposite)."),
    Column("dealer", pa.int8(), f"The dealer, {SEAT_NUMBER}; it deals every round of the deal."),
    Column("starter", pa.int8(), f"The seat that plays first in every round (left of the dealer), {SEAT_NUMBER}."),
    Column(
        f"score_{SEAT}",
        pa.int16(),
        "The deal's points of seat i: card_points + zwick_points + pile_penalty + most_cards "
        f"({SIDE}: each seat shows its side's total).",
    ),
    *(Column(name, pa.list_(pa.int16()), f"{text}, {PER_SEAT}.") for name, text in _PARTS.items()),
    Column("left", pa.int8(), "Cards left on the table at the end, loose or in piles (nobody wins them)."),
    Column("piles", pa.int8(), "Piles left on the table at the end (each costs its builder its value)."),
    Column(
        "deck",
        pa.list_(pa.int8()),
        "The 55 cards in dealing order: 4 cards to each seat one at a time from the seat left of the dealer, 4 to "
        f"the table, then 4 more each for every later round, as far as the stock allows. {card_indices(ZWICKERN)}",
    ),
)

MATCH_COLUMNS = tuple(  # a match always ends by the rules: no `capped` column
    c for c in seat_columns.match_columns("n deals for n players (2..4)", MATCH_DEAL_CAP) if c.name != "capped"
)


def deal_batch(out, start, players):
    """Arrow record batch of deals start.. from simulate.simulate_deals output."""
    values = {
        **row_values(out, start, players),
        **{name: list_array(out["parts"][:, :, PARTS.index(name)], pa.list_(pa.int16())) for name in _PARTS},
        "left": pa.array(out["left"], type=pa.int8()),
        "piles": pa.array(out["piles"], type=pa.int8()),
        "deck": list_array(out["deck"], pa.list_(pa.int8())),
    }
    return batch(values, DEAL_COLUMNS, players)


def match_batch(out, start, players):
    """Arrow record batch of matches start.. from simulate.simulate_matches output."""
    return seat_columns.match_batch(out, start, players, MATCH_COLUMNS)
