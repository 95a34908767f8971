"""`musim solve --game mueckenstich` and `--play dd`: the solver against a plain minimax on small
endings (a trump that mosquitoes change, also in the middle of a trick, and the later of equal
cards winning), its position errors, and exact play."""

import json
import random
from functools import cache

import numpy as np
import pytest
from click.testing import CliRunner
from reference_mueckenstich import COLOURS, is_mosquito, legal, text, winner

from musim.cli import cli
from musim.core.deck import MUECKENSTICH as DECK
from musim.games.mueckenstich.solve import MueckenstichSolver
from musim.games.seat_solve import load_position
from musim.solver.moves import move_table
from musim.solver.ordering import DEFAULT_ORDER, F_NAMED_TAKES, N_FEATURES
from musim.solver.search import set_owners
from musim.solver.tt import make_table


def moves_of(hand, led):
    """(card, trump named or None) of every legal move: a mosquito names each colour."""
    out = []
    for c in sorted(set(legal(hand, led))):
        out += [(c, t) for t in range(4)] if is_mosquito(c) else [(c, None)]
    return out


def brute_force(n, hands, leader, trick, trump, seat):
    """(value, {move text: value after it}): the tricks `seat` wins from here by minimax, every
    other seat minimising.  Cards are deck indices (identical copies are distinct indices, which
    the minimax does not mind)."""

    @cache
    def value(hands, leader, trick, trump):
        mover = (leader + len(trick)) % n
        if not hands[mover]:
            return 0
        options = [after(hands, leader, trick, trump, m) for m in moves_of(hands[mover], trick[0] if trick else None)]
        return max(options) if mover == seat else min(options)

    def after(hands, leader, trick, trump, move):
        c, named = move
        mover = (leader + len(trick)) % n
        hands = hands[:mover] + (tuple(x for x in hands[mover] if x != c),) + hands[mover + 1 :]
        trick = trick + (c,)
        trump = trump if named is None else named
        if len(trick) < n:
            return value(hands, leader, trick, trump)
        w = (leader + winner(list(trick), trump)) % n
        return (w == seat) + value(hands, w, (), trump)

    start = tuple(tuple(sorted(h)) for h in hands)
    mover = (leader + len(trick)) % n
    moves = {}
    for m in moves_of(start[mover], trick[0] if trick else None):
        moves[text(m[0]) + ("" if m[1] is None else ":" + COLOURS[m[1]])] = after(start, leader, tuple(trick), trump, m)
    return value(start, leader, tuple(trick), trump), moves


def random_ending(rng, n, tricks, mosquitoes=True):
    """A position: n hands of `tricks` cards (many mosquitoes and 12s among them), a random trump or
    none, maybe part of a trick played (its mosquitoes naming random colours, the last one's the
    trump).  Returns (position object, hands and trick as deck indices, the trump)."""
    pool = list(range(DECK.n_cards))
    rng.shuffle(pool)
    # bias towards the cards the rules treat specially: mosquitoes and the two 12s
    special = [c for c in pool if is_mosquito(c) or text(c).endswith("12")] if mosquitoes else []
    plain = [c for c in pool if c not in special and not (is_mosquito(c) and not mosquitoes)]
    cards = (special[: rng.randrange(len(special) + 1)] if special else []) + plain
    cards = rng.sample(cards[: max(n * tricks, len(cards) // 3)], n * tricks)
    hands = [cards[s * tricks : (s + 1) * tricks] for s in range(n)]
    leader = rng.randrange(n)
    trump = rng.choice([None, 0, 1, 2, 3])
    trick, played = [], []
    for j in range(rng.randrange(n) if rng.random() < 0.6 else 0):
        mover = (leader + j) % n
        c = rng.choice(legal(hands[mover], trick[0] if trick else None))
        hands[mover].remove(c)
        trick.append(c)
        if is_mosquito(c):
            trump = rng.randrange(4)
            played.append(text(c) + ":" + COLOURS[trump])
        else:
            played.append(text(c))
    obj = {
        "game": "mueckenstich",
        "players": n,
        "hands": [[text(c) for c in h] for h in hands],
        "leader": leader,
        "trick": played,
        "trump": None if trump is None else COLOURS[trump],
        "seat": rng.randrange(n),
    }
    return obj, hands, trick, trump


@pytest.fixture(scope="module")
def solver():
    return MueckenstichSolver(make_table(8))


@pytest.mark.parametrize("n, tricks, count", [(3, 4, 60), (3, 3, 300), (4, 3, 250), (5, 2, 300), (6, 2, 300)])
def test_solver_matches_brute_force(solver, n, tricks, count):
    """Values and per-move values (every mosquito with each trump it may name) agree with plain
    minimax: tricks won, one seat against all the others, the trump changed by each mosquito."""
    rng = random.Random(1000 * n + tricks)
    for _ in range(count):
        obj, hands, trick, trump = random_ending(rng, n, tricks)
        value, moves = brute_force(n, hands, obj["leader"], trick, trump, obj["seat"])
        got = solver.solve(obj, all_moves=True)
        assert got["value"] == value, obj
        assert got["moves"] == moves, obj


@pytest.mark.slow
def test_move_table_scores_each_named_trump(solver):
    """moves.move_table's cases and features, with the class each mosquito's move names
    (F_NAMED_TAKES), scored by the weight table, rank the moves as gen_moves listed them (what
    benchmarks/fit_ordering.py fits to), on random endings, tricks in progress among them."""
    rng = random.Random(53)
    st = solver.st
    cases, feats = np.zeros(64, np.int64), np.zeros((64, N_FEATURES), np.int64)
    named = 0
    for i in range(300):
        obj, *_ = random_ending(rng, 3 + i % 4, 3)
        g, canon, hands, leader, trick, _ = solver.layout(obj)
        k = len(trick)
        load_position(canon, g.n, np.array(hands, np.uint64), np.array(trick + [0], np.int64), k, st)
        set_owners(g, st)
        for j, c in enumerate(st.line[:k]):
            st.owner[c] = (leader + j) % g.n
        count = move_table(g, st, (leader + k) % g.n, leader, k, k, solver.trump(obj), cases, feats)
        scores = (DEFAULT_ORDER[cases[:count]] * feats[:count]).sum(axis=1)
        assert list(scores) == sorted(scores, reverse=True), obj
        named += np.count_nonzero(feats[:count, F_NAMED_TAKES])
    assert named > 100


def test_a_mosquito_decides_the_trick_in_progress(solver):
    """Y12 led, seat 1's only card the green mosquito: naming G takes the trick, any other
    colour leaves it to the Y12."""
    obj = {"game": "mueckenstich", "players": 3, "hands": [[], ["GM"], ["Y1"]], "leader": 0, "trick": ["Y12"]}
    obj |= {"trump": None, "seat": 1}
    got = solver.solve(obj, all_moves=True)
    assert got == {"value": 1, "moves": {"GM:R": 0, "GM:Y": 0, "GM:G": 1, "GM:B": 0}}


def test_the_later_of_equal_cards_wins(solver):
    """Two 12s of the led colour: the later takes the trick; so does the later of two mosquitoes,
    whatever trump it names (the third seat must follow with a low red)."""
    obj = {"game": "mueckenstich", "players": 3, "hands": [[], ["R12"], ["Y3"]], "leader": 0, "trick": ["R12"]}
    assert solver.solve(obj | {"trump": None, "seat": 1})["value"] == 1
    obj = {"game": "mueckenstich", "players": 3, "hands": [[], ["RM"], ["R1"]], "leader": 0, "trick": ["RM:B"]}
    assert solver.solve(obj | {"trump": "B", "seat": 1}, all_moves=True)["moves"] == {
        "RM:R": 1,
        "RM:Y": 1,
        "RM:G": 1,
        "RM:B": 1,
    }


GOOD = {"game": "mueckenstich", "players": 3, "hands": [["R5"], ["Y9"], ["GM"]], "leader": 0, "trick": [], "seat": 0}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"players": 7}, "players: expected 3..6"),
        ({"seat": 3}, "seat: expected a seat 0..2"),
        ({"trump": "K"}, "trump: expected one of R Y G B or null"),
        (
            {"hands": [[], [], ["GM"]], "trick": ["R5", "YM:G"], "trump": "B", "leader": 0},
            "trump: B contradicts the trick's last mosquito, which named G",
        ),
        ({"hands": [[], ["Y9"], ["GM"]], "trick": ["RM"], "leader": 0}, "trick[0]: RM: a mosquito names the trump"),
        ({"hands": [[], ["Y9"], ["GM"]], "trick": ["R5:G"], "leader": 0}, "trick[0]: R5:G: only a mosquito"),
        ({"hands": [["R5"], ["R13"], ["GM"]]}, "hands[1] (the 3-player deck): unknown card 'R13'"),
        ({"hands": [["RM", "RM", "RM", "RM"], ["Y9"], ["GM"]]}, "card RM appears more often than available"),
        ({"hands": [["R5", "R6"], ["Y9"], ["GM"]]}, "hands: sizes [2, 1, 1] do not fit"),
        ({"hands": [[], ["R9"], ["GM"]], "trick": ["R5", "Y9"], "leader": 0}, "trick[1]: Y9 does not follow R5"),
    ],
)
def test_bad_positions_get_one_line_errors(change, message):
    result = CliRunner().invoke(cli, ["solve", "-"], input=json.dumps(GOOD | change))
    assert result.exit_code != 0
    assert message in result.output, result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_solve_cli_all_moves_lists_each_trump():
    obj = {"game": "mueckenstich", "players": 3, "hands": [["R5", "YM"], ["R3", "Y8"], ["G7", "G4"]], "leader": 0}
    obj |= {"trump": "G", "seat": 0}
    result = CliRunner().invoke(cli, ["solve", "--all-moves", "-"], input=json.dumps(obj))
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)
    hands = [[DECK.index(t, DECK.full) for t in h] for h in obj["hands"]]
    hands[0][1] = DECK.index("YM", DECK.full)
    want = brute_force(3, hands, 0, [], 2, 0)
    assert got == {"value": want[0], "moves": want[1]}
    assert set(got["moves"]) == {"R5", "YM:R", "YM:Y", "YM:G", "YM:B"}


@pytest.mark.parametrize("n, tricks", [(3, 3), (4, 2), (6, 2)])
def test_dd_move_keeps_the_movers_value(n, tricks):
    """`--play dd`'s move: of the mover's moves that keep its own value against all the others,
    the first by card index, a mosquito naming the first colour that keeps it."""
    from musim.games.mueckenstich.ddplay import dd_move
    from musim.games.mueckenstich.solve import solver_game
    from musim.games.seat_solve import worker_dd

    dd = worker_dd(solver_game, n, 8)
    rng = random.Random(n)
    for _ in range(40):
        obj, hands, trick, trump = random_ending(rng, n, tricks)
        leader = obj["leader"]
        mover = (leader + len(trick)) % n
        value, moves = brute_force(n, hands, leader, trick, trump, mover)
        held = np.array([sum(1 << c for c in h) for h in hands], np.uint64)
        line = np.array(trick + [0] * (8 - len(trick)), np.int64)
        t = -1 if trump is None else trump
        card, named = dd_move(dd, n, mover, held, line, len(trick), leader, t)
        keeping = [m for m in moves_of(hands[mover], trick[0] if trick else None) if moves[move_key(m)] == value]
        first = keeping[0]
        assert (int(card), int(named)) == (first[0], t if first[1] is None else first[1]), obj


def move_key(move):
    c, named = move
    return text(c) + ("" if named is None else ":" + COLOURS[named])


@pytest.mark.slow
def test_play_dd_rows_are_deterministic_by_seed():
    """Two runs of a deal with a `--play dd` seat and one seed write the same row (a solve per card
    of that seat: minutes)."""
    from musim.games.mueckenstich.simulate import simulate_deals

    play = ["dd"] + ["heuristic"] * 5
    a = simulate_deals(6, 5, play, 0, 1, tt_mb=16)
    b = simulate_deals(6, 5, play, 0, 1, tt_mb=16)
    for key in a:
        assert np.array_equal(a[key], b[key]), key
    assert a["tricks"].sum() == 10
