"""The columns of Safarü's and Reverse Safarü's run output, each defined once: name, Arrow type,
description.  One row is one game (every round until the stock and the hands are empty)."""

import pyarrow as pa

from musim.core.deck import MU
from musim.engine.parquet import SEAT, Column
from musim.games.safarue.simulate import PARTS
from musim.play.seat_columns import PER_SEAT, SEAT_NUMBER, batch, card_indices, list_array, row_index, row_values

SIDE = "with 4 players the partners opposite share it, each seat showing its side's"

# name, description of each per-seat part (simulate.PARTS order), then the two majority bonuses by variant
_PARTS = (
    ("cards", "Cards each seat caught"),
    ("blue", "Blue cards (unicorns) each seat caught"),
    ("yellow", "Yellow cards (hedgehogs) each seat caught"),
    ("zeros", "The 0 cards (baby animals) each seat caught"),
    ("triangles", "Triangles (card points) on the cards each seat caught"),
)
_BONUSES = {
    False: (
        ("most_blue", f"Points for the most blue cards (+24, split among the tied sides; {SIDE})"),
        ("most_yellow", f"Points for the most yellow cards (-12, split among the tied sides; {SIDE})"),
    ),
    True: (
        ("most_cards", f"Points for the most cards caught (+24, split among the tied sides; {SIDE})"),
        ("most_yellow", f"Points for the most yellow cards (+12, split among the tied sides; {SIDE})"),
    ),
}
_METHODS = (
    ("adding", "Turns each seat caught by adding"),
    ("totalling", "Turns each seat caught by totalling (to 17)"),
    ("pairing", "Turns each seat caught by pairing"),
)
_SCORE = {
    False: "The game's points of seat i, highest wins: the majority bonuses, +1 for each triangle and -5 for each "
    "0 card it caught",
    True: "The game's points of seat i, lowest wins: the majority bonuses and +1 for each triangle it caught",
}


def _columns(reverse):
    """Columns of a game row of one variant."""
    return (
        row_index("game"),
        Column("players", pa.int8(), "Number of players (2..4; 4 play as partners opposite)."),
        Column(
            "dealer",
            pa.int8(),
            f"The first round's dealer, {SEAT_NUMBER}; the seat to its left starts, the dealer moves left each round.",
        ),
        Column("starter", pa.int8(), f"The seat that plays first (left of the dealer), {SEAT_NUMBER}."),
        Column(f"score_{SEAT}", pa.int16(), f"{_SCORE[reverse]} ({SIDE})."),
        *(
            Column(name, pa.list_(pa.int8()), f"{text}, {PER_SEAT}.")
            for name, text in (*_PARTS, *_METHODS, ("released", "Turns each seat released a card"))
        ),
        *(Column(name, pa.list_(pa.int16()), f"{text}, {PER_SEAT}.") for name, text in _BONUSES[reverse]),
        Column("left", pa.int8(), "Cards left on the table at the end (they score nothing)."),
        Column(
            "deck",
            pa.list_(pa.int8()),
            "The 60 cards in dealing order: each round deals 4 cards to each seat one at a time from the seat left "
            f"of its dealer, then the table up to 4 cards, from the front. {card_indices(MU)}",
        ),
    )


DEAL_COLUMNS = _columns(False)
REVERSE_DEAL_COLUMNS = _columns(True)


def deal_batch(out, start, players, reverse=False):
    """Arrow record batch of games start.. from simulate.simulate_deals output."""
    parts = out["parts"]
    lists = {name: parts[:, :, k] for k, (name, _) in enumerate(_PARTS)}
    lists.update({name: out["methods"][:, :, k] for k, (name, _) in enumerate(_METHODS)})
    lists["released"] = out["released"]
    first, second = (name for name, _ in _BONUSES[reverse])
    values = {
        **row_values(out, start, players),
        **{name: list_array(v, pa.list_(pa.int8())) for name, v in lists.items()},
        first: list_array(parts[:, :, PARTS.index("first_bonus")], pa.list_(pa.int16())),
        second: list_array(parts[:, :, PARTS.index("second_bonus")], pa.list_(pa.int16())),
        "left": pa.array(out["left"], type=pa.int8()),
        "deck": list_array(out["deck"], pa.list_(pa.int8())),
    }
    return batch(values, REVERSE_DEAL_COLUMNS if reverse else DEAL_COLUMNS, players)
