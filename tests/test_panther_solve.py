"""`musim solve --game panther`: the solver against a plain minimax on small endings, and its
position errors."""

import json
import random
from functools import cache

import numpy as np
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.core.deck import MU
from musim.games.panther.rules import deck
from musim.games.panther.solve import PantherSolver
from musim.solver.tt import make_table


def card_points(text):
    """docs/rules.md §4: yellow +5, red -10, a black 7 -50, other cards 0."""
    return -50 if text == "K7" else {"Y": 5, "R": -10}.get(text[0], 0)


def legal(hand, led):
    follow = [c for c in hand if led is not None and c[0] == led[0]]
    return follow or list(hand)


def winner(trick):
    """Position of the winning card: highest number of the led colour, the first of equals."""
    best = 0
    for j, c in enumerate(trick):
        if c[0] == trick[0][0] and int(c[1:]) > int(trick[best][1:]):
            best = j
    return best


def brute_force(n, hands, leader, trick, seat):
    """(value, {card: value after it}) for `seat` against all the others, by minimax."""

    @cache
    def value(hands, leader, trick):
        mover = (leader + len(trick)) % n
        if not hands[mover]:
            return 0
        options = [after(hands, leader, trick, c) for c in set(legal(hands[mover], trick[0] if trick else None))]
        return max(options) if mover == seat else min(options)

    def after(hands, leader, trick, c):
        mover = (leader + len(trick)) % n
        rest = list(hands[mover])
        rest.remove(c)
        hands = hands[:mover] + (tuple(rest),) + hands[mover + 1 :]
        trick = trick + (c,)
        if len(trick) < n:
            return value(hands, leader, trick)
        w = (leader + winner(trick)) % n
        pts = sum(card_points(x) for x in trick) + (50 if not any(hands) else 0)
        return (pts if w == seat else 0) + value(hands, w, ())

    start = tuple(tuple(sorted(h)) for h in hands)
    mover = (leader + len(trick)) % n
    moves = {c: after(start, leader, tuple(trick), c) for c in set(legal(start[mover], trick[0] if trick else None))}
    return value(start, leader, tuple(trick)), moves


def random_ending(rng, n, tricks):
    """A position: n hands of `tricks` cards from the n-player deck, maybe part of a trick played."""
    cards = rng.sample(MU.format(int(deck(n))), n * tricks)
    hands = [cards[s * tricks : (s + 1) * tricks] for s in range(n)]
    leader = rng.randrange(n)
    trick = []
    for j in range(rng.randrange(n) if rng.random() < 0.5 else 0):
        mover = (leader + j) % n
        c = rng.choice(legal(hands[mover], trick[0] if trick else None))
        hands[mover].remove(c)
        trick.append(c)
    obj = {"game": "panther", "players": n, "hands": hands, "leader": leader, "trick": trick, "seat": rng.randrange(n)}
    return obj


@pytest.fixture(scope="module")
def solver():
    return PantherSolver(make_table(8))


@pytest.mark.parametrize(
    "n, tricks, count", [(3, 4, 300), (4, 3, 300), (5, 3, 200), (6, 2, 300), (7, 2, 300), (8, 2, 300)]
)
def test_solver_matches_brute_force(solver, n, tricks, count):
    """Values and per-card values agree with plain minimax: signed points, the last trick's 50,
    one seat against all the others, up to 8 seats."""
    rng = random.Random(100 * n + tricks)
    for _ in range(count):
        obj = random_ending(rng, n, tricks)
        value, moves = brute_force(n, obj["hands"], obj["leader"], obj["trick"], obj["seat"])
        got = solver.solve(obj, all_moves=True)
        assert got == {"value": value, "moves": dict(sorted(moves.items(), key=lambda m: MU.kinds[m[0]]))}, obj


def test_a_lone_last_trick_scores_its_cards_and_50():
    """Y5 led, nobody can follow: its seat takes every card and the 50; the others take nothing."""
    obj = {"game": "panther", "players": 3, "hands": [["Y5"], ["R9"], ["K7"]], "leader": 0, "trick": []}
    solver = PantherSolver(make_table(1))
    assert [solver.solve(obj | {"seat": s})["value"] for s in range(3)] == [50 + 5 - 10 - 50, 0, 0]


GOOD = {"game": "panther", "players": 3, "hands": [["Y5"], ["R9"], ["K7"]], "leader": 0, "trick": [], "seat": 0}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"players": 9}, "players: expected 3..8"),
        ({"seat": 3}, "seat: expected a seat 0..2"),
        ({"leader": None}, "leader: expected a seat 0..2"),
        ({"hands": [["Y5"], ["R9"]]}, "hands: expected a list of 3 hands"),
        ({"hands": [["Y5"], ["R1"], ["K7"]]}, "hands[1] (the 3-player deck): card R1 appears more often"),
        ({"hands": [["Y5", "Y6"], ["R9"], ["K7"]]}, "hands: sizes [2, 1, 1] do not fit"),
        ({"hands": [["Y5"], ["R9", "G3"], ["K7", "K8"]], "leader": 1, "trick": ["R8"]}, "hands: sizes"),
        ({"hands": [["Y5"], ["R9"], ["K7"]], "trick": ["Y5"]}, "trick[0] (the 3-player deck): card Y5 appears"),
        (
            {"hands": [["Y5", "Y6"], ["R9"], ["R4"]], "leader": 1, "trick": ["R8", "K3"]},
            "trick[1]: K3 does not follow R8",
        ),
        ({"hands": [[], [], []]}, "hands: no cards left to play"),
    ],
)
def test_bad_positions_get_one_line_errors(change, message):
    result = CliRunner().invoke(cli, ["solve", "-"], input=json.dumps(GOOD | change))
    assert result.exit_code != 0
    assert message in result.output, result.output
    assert "Traceback" not in result.output


def test_solve_cli_all_moves():
    obj = {"game": "panther", "players": 3, "hands": [["Y5", "R9"], ["R3", "Y8"], ["K7", "G4"]], "leader": 0}
    args = ["solve", "--game", "panther", "--all-moves", "-"]
    result = CliRunner().invoke(cli, args, input=json.dumps(obj | {"seat": 0}))
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)
    want = brute_force(3, obj["hands"], 0, [], 0)
    assert got["value"] == want[0] and got["moves"] == want[1]


@pytest.mark.parametrize("n, tricks", [(3, 3), (5, 2), (8, 2)])
def test_dd_card_keeps_the_movers_value(n, tricks):
    """`--play dd`'s card: of the mover's cards that keep its own value against all the others,
    the one of lowest card index."""
    from musim.games.panther.ddplay import dd_card
    from musim.games.panther.rules import legal as rule_legal
    from musim.games.panther.solve import solver_game
    from musim.games.seat_solve import parse_position, worker_dd

    dd = worker_dd(solver_game, n, 8)
    rng = random.Random(n)
    for _ in range(40):
        obj = random_ending(rng, n, tricks)
        leader, trick = obj["leader"], obj["trick"]
        mover = (leader + len(trick)) % n
        value, moves = brute_force(n, obj["hands"], leader, trick, mover)
        _, hands, _, cards, _, _ = parse_position(obj, (3, 8), deck, rule_legal)
        held = np.array(hands, np.uint64)
        line = np.array(cards + [0] * (8 - len(cards)), np.int64)
        card = int(dd_card(dd, n, mover, held, line, len(trick), leader))
        keeping = [i for i in range(MU.n_cards) if int(held[mover]) >> i & 1 and moves.get(MU.text(i)) == value]
        assert card == min(keeping), obj
