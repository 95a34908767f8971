"""Sides of the games played in partnerships, where partners sit opposite (docs/rules.md §5, §6 and
§10: Rummü with 4 or 6 players, Safarü and Zwickern with 4): one kernel, so that every game agrees on who is whose
partner."""

from musim.compile.jit import flat_kernel


@flat_kernel(inline="always")
def side(n, teams, seat):
    """The seat's side: the seat itself, or with teams the pair of partners opposite (seat mod n/2:
    with 4 players seats 0 and 2 are side 0, with 6 seats 0 and 3)."""
    return seat % (n // 2) if teams else seat
