"""`musim solve --game wimmueln`: the solver against a plain minimax on small endings (the
estimate bonus on the tricks won in all), and its position errors."""

import json
import random
from functools import cache

import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.core.deck import MU
from musim.games.wimmueln.solve import WimmuelnSolver
from musim.solver.tt import make_table

COLOURS = "RYGBK"


def card_points(text):
    """Mü's card points, as the deck gives them."""
    return int(MU.card_points[MU.kinds[text][0]])


def bonus(won, up, down):
    """docs/rules.md §3: the lower estimate 5, the higher 10, doubled if face up; both equal and matched 25."""
    if up == down:
        return 25 if won == up else 0
    if won == min(up, down):
        return 10 if up < down else 5
    if won == max(up, down):
        return 20 if up > down else 10
    return 0


def legal(hand, led):
    follow = [c for c in hand if led is not None and c[0] == led[0]]
    return follow or list(hand)


def winner(trick, trump):
    """Highest trump, else highest of the led colour; the first of equals."""

    def key(c):
        return (2 if c[0] == trump else 1 if c[0] == trick[0][0] else 0, int(c[1:]))

    best = 0
    for j, c in enumerate(trick):
        if key(c)[0] > 0 and key(c) > key(trick[best]):
            best = j
    return best


def brute_force(obj):
    """(value, {card: value after it}) for `seat` against all the others, by minimax."""
    n, seat, trump = obj["players"], obj["seat"], obj["trump"]
    up, down = (int(t[1:]) for t in obj["estimates"])

    @cache
    def value(hands, leader, trick, won):
        mover = (leader + len(trick)) % n
        if not hands[mover]:
            return bonus(won, up, down)
        options = [after(hands, leader, trick, won, c) for c in set(legal(hands[mover], trick[0] if trick else None))]
        return max(options) if mover == seat else min(options)

    def after(hands, leader, trick, won, c):
        mover = (leader + len(trick)) % n
        rest = list(hands[mover])
        rest.remove(c)
        hands = hands[:mover] + (tuple(rest),) + hands[mover + 1 :]
        trick = trick + (c,)
        if len(trick) < n:
            return value(hands, leader, trick, won)
        w = (leader + winner(trick, trump)) % n
        if w != seat:
            return value(hands, w, (), won)
        return sum(card_points(x) for x in trick) + value(hands, w, (), won + 1)

    start = tuple(tuple(sorted(h)) for h in obj["hands"])
    leader, trick, won = obj["leader"], tuple(obj["trick"]), obj["tricks"]
    mover = (leader + len(trick)) % n
    moves = {c: after(start, leader, trick, won, c) for c in set(legal(start[mover], trick[0] if trick else None))}
    return value(start, leader, trick, won), moves


def random_ending(rng, n, tricks):
    cards = rng.sample(MU.format(MU.full), n * tricks + 2)
    hands = [cards[s * tricks : (s + 1) * tricks] for s in range(n)]
    leader = rng.randrange(n)
    trick = []
    for j in range(rng.randrange(n) if rng.random() < 0.5 else 0):
        mover = (leader + j) % n
        c = rng.choice(legal(hands[mover], trick[0] if trick else None))
        hands[mover].remove(c)
        trick.append(c)
    return {
        "game": "wimmueln",
        "players": n,
        "hands": hands,
        "leader": leader,
        "trick": trick,
        "trump": rng.choice([None, *COLOURS]),
        "seat": rng.randrange(n),
        "tricks": rng.randrange(4),
        "estimates": cards[-2:] if rng.random() < 0.7 else [f"R{rng.randrange(1, 6)}", f"Y{rng.randrange(1, 6)}"],
    }


@pytest.fixture(scope="module")
def solver():
    return WimmuelnSolver(make_table(8))


@pytest.mark.parametrize(
    "n, tricks, count", [(3, 4, 400), (4, 3, 400), (5, 3, 200), (6, 2, 300), (4, 1, 300), (6, 1, 300)]
)
def test_solver_matches_brute_force(solver, n, tricks, count):
    """Values and per-card values agree with plain minimax, the estimate bonus paid on the
    tricks won in all (those before the position included)."""
    rng = random.Random(10 * n + tricks)
    for _ in range(count):
        obj = random_ending(rng, n, tricks)
        if set(obj["estimates"]) & ({c for h in obj["hands"] for c in h} | set(obj["trick"])):
            continue
        value, moves = brute_force(obj)
        got = solver.solve(obj, all_moves=True)
        assert got == {"value": value, "moves": dict(sorted(moves.items(), key=lambda m: MU.kinds[m[0]]))}, obj


GOOD = {
    "game": "wimmueln",
    "players": 3,
    "hands": [["Y5"], ["R9"], ["K7"]],
    "leader": 0,
    "trick": [],
    "trump": "R",
    "seat": 1,
    "tricks": 0,
    "estimates": ["G1", "B0"],
}


def test_a_last_trick_pays_the_estimate_bonus():
    """R9 trumps Y5: seat 1 takes the trick, matching its higher estimate, face up (20), and the cards;
    seat 0 matches its hidden lower estimate 0 (5) with no trick."""
    solver = WimmuelnSolver(make_table(1))
    assert solver.solve(GOOD) == {"value": 20 + sum(map(card_points, ["Y5", "R9", "K7"]))}
    assert solver.solve(GOOD | {"seat": 0}) == {"value": 5}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"trump": "X"}, "trump: expected one of R Y G B K or null"),
        ({"tricks": -1}, "tricks: expected 0.."),
        ({"tricks": None}, "tricks: expected 0.."),
        ({"estimates": ["G1"]}, "estimates: expected 2 cards"),
        ({"estimates": ["Y5", "G1"]}, "estimates: card Y5 appears more often"),
        ({"estimates": None}, "estimates: expected a list of cards"),
    ],
)
def test_bad_positions_get_one_line_errors(change, message):
    result = CliRunner().invoke(cli, ["solve", "-"], input=json.dumps(GOOD | change))
    assert result.exit_code != 0
    assert message in result.output, result.output


@pytest.mark.parametrize("n, tricks", [(3, 3), (4, 2), (6, 2)])
def test_dd_card_keeps_the_movers_value(n, tricks):
    """`--play dd`'s card: of the mover's cards that keep its own value (card points and
    estimate bonus) against all the others, the one of lowest card index."""
    import numpy as np

    from musim.games.seat_solve import parse_position
    from musim.games.wimmueln.ddplay import dd_card, worker_dd
    from musim.games.wimmueln.rules import legal as rule_legal

    dd = worker_dd(n, 8)
    rng = random.Random(n)
    for _ in range(40):
        obj = random_ending(rng, n, tricks)
        if set(obj["estimates"]) & ({c for h in obj["hands"] for c in h} | set(obj["trick"])):
            continue
        leader, trick = obj["leader"], obj["trick"]
        mover = (leader + len(trick)) % n
        obj["seat"] = mover
        value, moves = brute_force(obj)
        trump = -1 if obj["trump"] is None else COLOURS.index(obj["trump"])
        _, hands, _, cards, _, _ = parse_position(
            obj, (3, 6), lambda n: MU.full, lambda h, led, t=trump: rule_legal(h, led, t)
        )
        held = np.array(hands, np.uint64)
        line = np.array(cards + [0] * (6 - len(cards)), np.int64)
        up, down = (int(t[1:]) for t in obj["estimates"])
        card = int(dd_card(dd, n, mover, held, line, len(cards), leader, trump, obj["tricks"], up, down))
        keeping = [i for i in range(MU.n_cards) if int(held[mover]) >> i & 1 and moves.get(MU.text(i)) == value]
        assert card == min(keeping), obj


def test_the_last_trick_mid_way_pays_the_bonus_once():
    """A position inside the last trick: the bonus bounds the value, and is paid once (found on a
    dd run: the bound counted it twice and the search went past the last trick)."""
    obj = GOOD | {
        "players": 6,
        "hands": [["Y9"], ["Y1"], ["R7"], ["G3"], [], ["R8"]],
        "leader": 4,
        "trick": ["B5"],
        "trump": "G",
        "seat": 5,
        "estimates": ["R0", "K1"],
    }
    assert WimmuelnSolver(make_table(1)).solve(obj, all_moves=True) == {"value": 10, "moves": {"R8": 10}}
    assert brute_force(obj)[0] == 10
