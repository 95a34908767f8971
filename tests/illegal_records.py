"""Damaged records for the games' illegal-record tests: the one-line error a replay gives, and the
failure to follow that every trick game's replay must name."""

import copy

import pytest

from musim.io.batch import InputError


def replay_error(replay, rec, change=None, **fields):
    """The message of the InputError `replay` raises on a copy of `rec` with `fields` set and then
    `change(copy)` applied; the test fails if it raises none."""
    bad = copy.deepcopy(rec)
    bad.update(fields)
    if change is not None:
        change(bad)
    with pytest.raises(InputError) as info:
        replay(bad)
    return str(info.value)


def check_failure_to_follow(replay, *recs):
    """In the first of `recs` that has one, the first seat that follows the led colour and plays a card
    of another colour in a later trick swaps the two: the replay names the card that fails to follow."""
    for rec in recs:
        res = replay(rec)
        for k, trick in enumerate(res["tricks"]):
            n, led = len(trick["cards"]), trick["cards"][0][0]
            for j in range(1, n):
                s = (trick["leader"] + j) % n
                other = _later_card_of(res, s, k, other_than=led)
                if trick["cards"][j][0] != led or other is None:
                    continue
                i = n * k + j
                bad = list(rec["play"])
                p = bad.index(other, i + 1)
                bad[i], bad[p] = bad[p], bad[i]
                msg = replay_error(replay, rec, play=bad)
                expected = f"play card {i} (seat {s}, trick {k}): {other} fails to follow {led} (holds "
                assert msg.startswith(expected), (msg, expected)
                return
    pytest.fail("no trick found to break")


def _later_card_of(res, seat, k, other_than):
    """A card of another colour than `other_than` that `seat` plays after trick k, or None."""
    for trick in res["tricks"][k + 1 :]:
        j = (seat - trick["leader"]) % len(trick["cards"])
        if trick["cards"][j][0] != other_than:
            return trick["cards"][j]
    return None
