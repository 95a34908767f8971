"""Records of The Last Panther, Wimmüln and Mückenstich through the batch reader (docs/examples/README.md "Batches"):
JSON in, one JSON line out, and any damage to a record gives a one-line error, never a traceback."""

import copy
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musim.core.cards import CardError
from musim.games.mueckenstich import record as mueckenstich
from musim.games.panther import record as panther
from musim.games.wimmueln import record as wimmueln
from musim.io.batch import InputError, run_batch

GAMES = {"panther": (panther, 5), "wimmueln": (wimmueln, 4), "mueckenstich": (mueckenstich, 4)}
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 70),
    st.sampled_from(["R7", "K7", "Y2", "G9", "B0", "RM", "RM:G", "R12:Y", "R", "", "none"]),
    st.lists(st.sampled_from(["R7", "K7", "Y2", "G9", "B0", "X1", 3]), max_size=4),
)


@pytest.mark.parametrize("game", GAMES)
def test_records_go_through_the_batch_reader(game):
    module, n = GAMES[game]
    recs = [module.record(n, 1, "heuristic", i) for i in range(3)]
    bad = copy.deepcopy(recs[0])
    bad["play"] = bad["play"][::-1]
    out = io.StringIO()
    ok = run_batch("\n".join(json.dumps(r) for r in [*recs, bad]), module.replay, out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert not ok and len(lines) == 4
    assert [line["scores"] for line in lines[:3]] == [module.replay(r)["scores"] for r in recs]
    assert set(lines[3]) == {"error"} and "\n" not in lines[3]["error"]


@settings(max_examples=300, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), data=st.data())
def test_a_damaged_record_gives_an_input_error(game, data):
    """Replace one field, one hand, one card or one list of a valid record by junk."""
    module, n = GAMES[game]
    rec = module.record(n, data.draw(st.integers(0, 3)), "random", data.draw(st.integers(0, 5)))
    key = data.draw(st.sampled_from(sorted(rec)))
    junk = data.draw(JUNK)
    if isinstance(rec[key], list) and rec[key] and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(rec[key]) - 1))
        item = rec[key][i]
        if isinstance(item, list) and item and data.draw(st.booleans()):
            item[data.draw(st.integers(0, len(item) - 1))] = junk
        else:
            rec[key][i] = junk
    else:
        rec[key] = junk
    try:
        result = module.replay(rec)
    except (InputError, CardError) as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert set(result) >= {"tricks", "tricks_won", "scores"}
