"""`--node-limit N` of double-dummy play, one definition for every game with dd play (parsed
and keyed alike: engine/option.py whole_count, Option.table_sized), kept free of numba so
that a game's GAME imports it cheaply."""

from musim.engine.errors import SpecError
from musim.engine.option import Option, whole_count
from musim.engine.seats import plays_exactly
from musim.play import search_budget

NAME = "node_limit"


def option(help):
    """The game's --node-limit, saying in `help` what a search past the limit leaves."""
    return Option(
        NAME,
        int,
        0,
        help + " Give N >= 1; the default 0 sets no limit.",
        range=(0, 10**12),
        omit_default=True,
        parse=whole_count,
        example=10**6,
        table_sized=True,
    )


# The games whose dd play solves each card afresh (seat_solve.py): every search of a card's choice.
PER_CARD = option(
    "With --play dd (at some seats) and --deals: each search of a dd card's choice takes at most N nodes "
    "(1e6 is fine; a few million a second); a card whose search gives up is chosen by the bounds its moves' "
    "searches proved (docs/players.md), and the row's dd_cards_limited counts such cards."
)


def limited(spec):
    """The node limit of a spec's run (0: none)."""
    return spec.options.get(NAME, 0)


def check(spec):
    """A node limit bounds dd cards' searches, whose count deal rows carry: dd play at some seat, deals."""
    if limited(spec) and (not plays_exactly(spec.play) or spec.mode != "deals"):
        raise SpecError("--node-limit applies only with --deals and --play dd (at some seat)")


def check_seat_game(spec):
    """The checks of a game with dd and search play solving each card (seat_solve.py): its
    --search-worlds and its --node-limit."""
    search_budget.check(spec)
    check(spec)
