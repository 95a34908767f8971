"""The double-dummy solver against brute-force minimax, the golden positions, and its own
principal line."""

import json
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_dd import dd_value

from musim.cli import cli
from musim.core import bits
from musim.core.cards import CARD_TEXT, N_CARDS, type_text
from musim.games.mu.solve import MuSolver
from musim.solver.moves import move_table
from musim.solver.ordering import DEFAULT_ORDER, N_FEATURES
from musim.solver.search import NO_DEADLINE, available, set_owners
from musim.solver.solve import solve, solve_bounds
from musim.solver.stats import S_BUDGET_CUTS, S_GAVE_UP, S_NODES
from musim.solver.tt import make_table

GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.fixture(scope="module")
def solver():
    return MuSolver(make_table(8))


def _compress_reference(x, m):
    out = [x >> i & 1 for i in range(64) if m >> i & 1]
    return sum(b << j for j, b in enumerate(out))


@settings(deadline=None)
@given(x=st.integers(0, 2**64 - 1), m=st.integers(0, 2**64 - 1))
def test_compress_packs_the_bits_at_the_mask(x, m):
    """The table keys number the remaining cards with compress (PEXT where the CPU has it)."""
    assert int(bits.compress(np.uint64(x), np.uint64(m))) == _compress_reference(x, m)


@given(x=st.integers(0, 2**64 - 1), m=st.integers(0, 2**64 - 1))
def test_compress_without_pext(x, m):
    """The loop used where the CPU lacks BMI2 (run in Python, as numba would compile it)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bits, "HAS_PEXT", False)
        assert int(bits.compress.py_func(np.uint64(x), np.uint64(m))) == _compress_reference(x, m)


def random_position(rng, n, tricks, mid_trick):
    """A random Mü position: n hands of `tricks` cards, random trumps and teams, maybe mid-trick."""
    cards = rng.sample(range(N_CARDS), n * tricks)
    hands = [sorted(cards[s * tricks : (s + 1) * tricks]) for s in range(n)]
    kinds = [-1] + list(range(15))
    chief_trump = rng.choice(kinds)
    vice_trump = rng.choice([t for t in range(-1, 15) if t != chief_trump or t == -1])
    seats = list(range(n))
    rng.shuffle(seats)
    chief = seats[0]
    partner = seats[1] if n >= 4 and rng.random() < 0.8 else None
    vice = seats[2] if n >= 4 and rng.random() < 0.7 else None
    if vice is None:
        vice_trump = -1
    leader = rng.randrange(n)
    trick = []
    if mid_trick:
        from reference import legal_cards

        for j in range(rng.randrange(1, n)):
            seat = (leader + j) % n
            c = rng.choice(legal_cards(hands[seat], trick[0] if trick else None, chief_trump, vice_trump))
            hands[seat].remove(c)
            trick.append(c)
    team = {chief} | ({partner} if partner is not None else set())
    obj = {
        "game": "mu",
        "players": n,
        "hands": [[CARD_TEXT[c] for c in h] for h in hands],
        "leader": leader,
        "trick": [CARD_TEXT[c] for c in trick],
        "chief": chief,
        "partner": partner,
        "vice": vice,
        "chief_trump": type_text(chief_trump),
        "vice_trump": None if vice_trump < 0 else type_text(vice_trump),
    }
    return obj, (n, hands, leader, trick, team, chief_trump, vice_trump)


@pytest.mark.parametrize("n, tricks, count", [(3, 4, 600), (4, 3, 600), (5, 2, 600), (6, 2, 600)])
def test_solver_matches_brute_force(solver, n, tricks, count):
    """Values and per-move values agree with plain minimax; every trump kind, mid-trick starts."""
    rng = random.Random(1000 * n + tricks)
    for i in range(count):
        obj, args = random_position(rng, n, tricks, mid_trick=i % 2 == 1)
        value, moves = dd_value(*args)
        got = solver.solve(obj, all_moves=True)
        assert got["value"] == value, obj
        assert got["moves"] == {CARD_TEXT[c]: v for c, v in moves.items()}, obj


@pytest.mark.parametrize("n, tricks", [(3, 4), (4, 3), (5, 3), (6, 2)])
def test_value_does_not_depend_on_the_needs_asked(solver, n, tricks):
    """Asked first for any need, on a fresh table, the search finds the same value: every
    bound and table answer it proves on the way is sound (an unsound one shows as a value
    that moves with the order of the null-window searches, which the brute-force test above
    meets in one order only)."""
    rng = random.Random(77 + n)
    for i in range(120):
        obj, _ = random_position(rng, n, tricks, mid_trick=i % 2 == 1)
        setup, _, leader, trick = solver.load(obj)
        g, st, k = setup.game, solver.st, len(trick)
        value = solve(g, solver.tt, st, leader, k)
        for first in range(1, available(g, st.hands, st.line, k) + 1):
            solver.load(obj)
            assert solve_bounds(g, solver.tt, st, leader, k, first) == (value, value), (obj, first)


@pytest.mark.slow
@pytest.mark.parametrize("n, tricks", [(3, 5), (4, 4), (5, 3), (6, 3)])
def test_solver_matches_brute_force_deeper(solver, n, tricks):
    rng = random.Random(7 * n + tricks)
    for i in range(60):
        obj, args = random_position(rng, n, tricks, mid_trick=i % 2 == 1)
        assert solver.solve(obj)["value"] == dd_value(*args)[0], obj


def test_values_do_not_depend_on_table_size(solver, monkeypatch):
    """A table far too small for the search (every bucket full, entries evicted or moved to
    their second bucket) gives the same values, only slower."""
    monkeypatch.setattr("musim.games.mu.solve.TT_BUCKET", 8)
    tiny = MuSolver(make_table(0.001))
    rng = random.Random(99)
    crowded = 0
    for i in range(40):
        n = 3 + i % 4
        obj, _ = random_position(rng, n, {3: 10, 4: 10, 5: 8, 6: 7}[n], mid_trick=i % 3 == 1)
        assert tiny.solve(obj)["value"] == solver.solve(obj)["value"], obj
        fill = tiny.tt.fill[: tiny.tt.meta[1]]
        full = (fill >> np.uint64(16) == tiny.tt.meta[0]) & (fill & np.uint64(0xFFFF) == 8)
        crowded += np.mean(full) > 0.9
    assert crowded >= 8  # the test must exercise eviction


def test_values_do_not_depend_on_move_budgets(solver):
    """Budgets so small that nearly every move runs out of them (the search unwinds, tries the
    other moves, then resumes the ones that ran out) change no value nor per-move value."""
    tight = MuSolver(make_table(8))
    tight.st.budget[:] = (2, 3, 1)
    rng = random.Random(5)
    for i in range(240):
        n = 3 + i % 4
        obj, args = random_position(rng, n, {3: 4, 4: 3, 5: 2, 6: 2}[n], mid_trick=i % 2 == 1)
        value, moves = dd_value(*args)
        got = tight.solve(obj, all_moves=True)
        assert got["value"] == value, obj
        assert got["moves"] == {CARD_TEXT[c]: v for c, v in moves.items()}, obj
    for i in range(24):  # beyond brute force: against the solver's own budgets
        n = 3 + i % 4
        obj, _ = random_position(rng, n, {3: 9, 4: 8, 5: 7, 6: 6}[n], mid_trick=i % 3 == 1)
        assert tight.solve(obj)["value"] == solver.solve(obj)["value"], obj
    assert tight.st.stats[S_BUDGET_CUTS] > 10_000  # the test must cut searches short


def test_values_do_not_depend_on_the_ordering(solver):
    """Under random weight tables of the move ordering (ordering.py: any order of the moves,
    the table's best move anywhere) every value is the brute-force value: the ordering changes
    nodes only."""
    rng = random.Random(51)
    np_rng = np.random.default_rng(51)
    for i in range(240):
        n = 3 + i % 4
        obj, args = random_position(rng, n, {3: 4, 4: 3, 5: 2, 6: 2}[n], mid_trick=i % 2 == 1)
        setup, _, leader, trick = solver.load(obj)
        order = np_rng.integers(-1000, 1000, DEFAULT_ORDER.shape)
        g = setup.game._replace(order=order)
        assert solve(g, solver.tt, solver.st, leader, len(trick)) == dd_value(*args)[0], (obj, order)


@pytest.mark.slow
def test_move_table_gives_each_move_its_score():
    """moves.move_table's cases and features, scored by the weight table, rank the moves as
    gen_moves listed them (what benchmarks/fit_ordering.py fits to), on random Mü positions."""
    solver = MuSolver(make_table(1))
    rng = random.Random(52)
    cases, feats = np.zeros(64, np.int64), np.zeros((64, N_FEATURES), np.int64)
    ranked = 0
    for i in range(300):
        n = 3 + i % 4
        obj, _ = random_position(rng, n, 6, mid_trick=i % 2 == 1)
        setup, _, leader, trick = solver.load(obj)
        g, st, k = setup.game, solver.st, len(trick)
        set_owners(g, st)
        for j, c in enumerate(st.line[:k]):
            st.owner[c] = (leader + j) % n
        count = move_table(g, st, (leader + k) % n, leader, k, k, -1 if g.namers else g.trump_class, cases, feats)
        scores = (DEFAULT_ORDER[cases[:count]] * feats[:count]).sum(axis=1)
        assert list(scores) == sorted(scores, reverse=True), obj
        ranked += count > 1 and len(set(scores)) > 1
    assert ranked > 200


def test_golden_positions():
    lines = (GOLDEN / "mu-positions.jsonl").read_text().splitlines()
    expected = (GOLDEN / "mu-positions.expected.jsonl").read_text().splitlines()
    res = CliRunner().invoke(cli, ["solve", "--all-moves", "-"], input="\n".join(lines))
    assert res.exit_code == 0, res.output
    got = [json.loads(x) for x in res.output.splitlines()]
    assert got == [json.loads(x) for x in expected]


@pytest.mark.slow  # the only default test of the counting search (--stats), compiled apart: the slow tier
def test_solve_stats_reports_each_position_on_stderr_only():
    """`musim solve --stats` leaves stdout as it was and writes, per position solved (Mü and
    bridge), the counters and time, the counters accounting for every node: no move budget
    acts on positions this small, so each node is settled by exactly one kind."""
    from musim.games.bridge.solve import random_pbn
    from musim.solver.stats import COUNT_NAMES, STAT_NAMES

    mu = (GOLDEN / "mu-positions.jsonl").read_text().splitlines()
    rng = random.Random(3)
    bridge = [json.dumps({"game": "bridge", "pbn": random_pbn(rng, 5), "trump": t, "leader": "W"}) for t in ("NT", "S")]
    lines = mu[:6] + ["{not json"] + bridge + mu[6:]
    bad = 6
    plain = CliRunner().invoke(cli, ["solve", "--all-moves", "-"], input="\n".join(lines))
    res = CliRunner().invoke(cli, ["solve", "--all-moves", "--stats", "-"], input="\n".join(lines))
    assert plain.exit_code == res.exit_code == 1  # the malformed line
    assert plain.stderr == ""
    assert res.stdout == plain.stdout
    records = []
    for line in res.stderr.splitlines():
        prefix, _, body = line.partition(" ")
        assert prefix == "stats", line
        records.append(json.loads(body))
    assert [r["item"] for r in records] == [i for i in range(len(lines)) if i != bad]
    kinds = ("cut_last_trick", "cut_quick", "cut_top_trump", "tt_hits", "cut_first_move", "cut_later_move")
    for r in records:
        assert set(r) == {"item", "seconds", "compile_seconds", *STAT_NAMES, *COUNT_NAMES}
        assert r["seconds"] > 0 and r["searches"] > 0 and r["budget_cuts"] == r["gave_up"] == 0
        assert r["tt_probes"] >= r["tt_hits"]
        assert sum(r[kind] for kind in kinds) + r["all_failed"] == r["nodes"], r
    for name in STAT_NAMES + COUNT_NAMES:
        if name not in ("budget_cuts", "gave_up"):
            assert sum(r[name] for r in records) > 0, name


def test_principal_line_reproduces_the_value(solver):
    """Always playing the first card that keeps the value ends with exactly that many points."""
    from musim.games.mu.solve import parse_position
    from musim.games.mu.solver_layout import MuSolverSetup, to_canon
    from musim.solver.solve import first_keeping_move
    from musim.solver.trick import trick_winner_pos

    rng = random.Random(5)
    for i in range(60):
        n = rng.choice([3, 4, 5, 6])
        obj, _ = random_position(rng, n, 3 if n > 3 else 5, mid_trick=i % 2 == 1)
        value = solver.solve(obj)["value"]
        n, hands, leader, trick, chief, partner, _vice, ct, vt = parse_position(obj)
        setup = MuSolverSetup(n, ct, vt, [chief] + ([partner] if partner >= 0 else []))
        g, st, tt = setup.game, solver.st, solver.tt
        for s in range(n):
            st.hands[s] = to_canon(np.uint64(hands[s]), setup.canon_of)
        k = len(trick)
        for j, c in enumerate(trick):
            st.line[j] = setup.canon_of[c]
        total, v = 0, value
        while any(st.hands[s] for s in range(n)):
            card = first_keeping_move(g, tt, st, leader, k, v, setup.canon_of)
            assert card >= 0
            seat = (leader + k) % n
            st.hands[seat] ^= np.uint64(1) << np.uint64(card)
            st.line[k] = card
            k += 1
            if k == n:
                w = (leader + trick_winner_pos(g, st.line, 0, n, g.trump_class)) % n
                pts = sum(int(g.points[st.line[j]]) for j in range(n))
                if g.team[w]:
                    total += pts
                    v -= pts
                leader, k = w, 0
        assert total == value


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda p: p.update(players=7), "players"),
        (lambda p: p.update(leader=9), "leader"),
        (lambda p: p.update(chief=None), "chief"),
        (lambda p: p.update(partner=p["chief"]), "partner"),
        (lambda p: p.update(chief_trump="X"), "chief_trump"),
        (lambda p: p.update(vice_trump="purple"), "vice_trump"),
        (lambda p: p["hands"][0].append("Q7"), "hands[0]"),
        (lambda p: p["hands"][1].append(p["hands"][0][0]), "hands"),
        (lambda p: p.update(trick=["R7", "R7", "R7", "R7", "R7", "R7"]), "trick"),
        (lambda p: p.update(hands="nope"), "hands"),
    ],
)
def test_solve_cli_rejects_bad_positions(mutate, message):
    line = (GOLDEN / "mu-positions.jsonl").read_text().splitlines()[1]
    good = json.loads(line)
    bad = json.loads(line)
    mutate(bad)
    res = CliRunner().invoke(cli, ["solve", "-"], input=json.dumps(bad) + "\n" + json.dumps(good) + "\n")
    assert res.exit_code == 1
    first, second = [json.loads(x) for x in res.output.splitlines()]
    assert message in first["error"] and "\n" not in first["error"]
    assert "value" in second


def test_solve_cli_usage_errors():
    assert CliRunner().invoke(cli, ["solve", "/no/such/file"]).exit_code == 2
    assert CliRunner().invoke(cli, ["solve", "--tt-mb", "0", "-"], input="").exit_code == 2
    res = CliRunner().invoke(cli, ["solve", "-"], input='{"game": "chess"}\n')
    assert res.exit_code == 1 and "unknown game" in res.output


def test_bridge_position_errors():
    bad = [
        {"game": "bridge", "pbn": "X:...", "trump": "NT", "leader": "N"},
        {"game": "bridge", "pbn": "N:AKQ.. ... ... ...", "trump": "NT", "leader": "N"},
        {"game": "bridge", "pbn": "N:A... .A.. ..A. ...A", "trump": "Z", "leader": "N"},
        {"game": "bridge", "pbn": "N:A... .A.. ..A. ...A", "trump": "NT", "leader": "Q"},
        {"game": "bridge", "pbn": "N:A... A... ..A. ...A", "trump": "NT", "leader": "N"},
    ]
    res = CliRunner().invoke(cli, ["solve", "-"], input="\n".join(json.dumps(b) for b in bad))
    assert res.exit_code == 1
    assert all("error" in json.loads(x) for x in res.output.splitlines())
    ok = CliRunner().invoke(
        cli,
        ["solve", "--all-moves", "-"],
        input='{"game": "bridge", "pbn": "N:A... .A.. ..A. ...A", "trump": "NT", "leader": "N"}',
    )
    assert json.loads(ok.output) == {"value": 1, "moves": {"SA": 1}}


def _class_points(g, hand, k):
    """Points of a seat's cards of class k, cheapest first."""
    return sorted(int(g.points[c]) for c in range(64) if int(hand) >> c & 1 and g.klass[c] == k)


@pytest.mark.parametrize("seed", range(4))
def test_points_shift_matches_cheapest_to_cheapest_matching(seed):
    """A table entry's bounds move by the points lost (gained) when each seat's cards of a class
    are matched cheapest to cheapest; `_shift` reads that off two packed points profiles."""
    from musim.games.mu.solver_layout import MuSolverSetup
    from musim.solver.keys import position_keys
    from musim.solver.search import make_state
    from musim.solver.tt import _shift, new_generation, store

    rng = random.Random(seed)
    tt, st, st2 = make_table(1), make_state(), make_state()
    for _ in range(300):
        n = rng.randrange(3, 7)
        tricks = rng.randrange(1, 60 // n + 1)
        setup = MuSolverSetup(n, rng.randrange(-1, 15), -1, {0})
        g = setup.game
        cards = rng.sample(range(N_CARDS), n * tricks)
        owners = [i // tricks for i in range(n * tricks)]
        # the same class lengths per seat: deal each class's cards to its seats in another order
        moved = list(cards)
        for k in range(6):
            idx = [i for i, c in enumerate(cards) if g.klass[setup.canon_of[c]] == k]
            perm = rng.sample(idx, len(idx))
            for i, j in zip(idx, perm):
                moved[i] = cards[j]
        for state, deal in ((st, cards), (st2, moved)):
            state.hands[:] = 0
            for c, s in zip(deal, owners):
                state.hands[s] |= np.uint64(1) << np.uint64(setup.canon_of[c])
        st.owner[:] = 0
        _, tops = position_keys(g, st, 0, 0, g.trump_class, st.words[0], st.key[0], st.points[0])
        position_keys(g, st2, 0, 0, g.trump_class, st2.words[0], st2.key[0], st2.points[0])
        assert list(st.key[0]) == list(st2.key[0])
        new_generation(tt, 16)
        tt.stamp[:] = 0
        store(tt, st.key[0], tops, 0, 0, st.points[0], st.words[0], np.uint64(0), 0, 0, -1, 0)
        loss = gain = 0
        for s in range(n):
            for k in range(6):
                old, new = _class_points(g, st.hands[s], k), _class_points(g, st2.hands[s], k)
                loss += sum(max(0, a - b) for a, b in zip(old, new))
                gain += sum(max(0, b - a) for a, b in zip(old, new))
        entry = int(np.flatnonzero(tt.stamp)[0])
        for budget in (0, 1, 3, 100):
            assert _shift(tt, entry, st2.points[0], True, budget) == min(loss, budget + 1)
            assert _shift(tt, entry, st2.points[0], False, budget) == min(gain, budget + 1)


@pytest.mark.parametrize("seed", range(4))
def test_points_shift_with_other_top_points_is_the_least_matching_cost(seed):
    """Where an entry's top cards (the top `t` of each class) have other points in a position it
    covers, the bounds move by the least the points may shift: the top cards matched rank to
    rank, each seat's other cards of a class cheapest to cheapest (`_point_shift`)."""
    from musim.games.mu.solver_layout import MuSolverSetup
    from musim.solver.keys import position_keys
    from musim.solver.search import make_state
    from musim.solver.tt import _point_shift, _top_differ, new_generation, store

    rng = random.Random(seed)
    tt, st, st2 = make_table(1), make_state(), make_state()
    checked = 0
    for _ in range(300):
        n = rng.randrange(3, 7)
        tricks = rng.randrange(1, 60 // n + 1)
        setup = MuSolverSetup(n, rng.randrange(-1, 15), -1, {0})
        g = setup.game
        deck = [setup.canon_of[c] for c in rng.sample(range(N_CARDS), n * tricks)]
        owner = {c: i // tricks for i, c in enumerate(deck)}
        # the same cards per seat and class, other cards of each class: the top t of each keep
        # their seats by rank, the rest are dealt again among the class's seats
        moved, mask, at, loss, gain = {}, 0, 0, 0, 0
        pts = [min(int(p), 2) for p in g.points]
        for k in range(6):
            old = sorted(c for c in deck if g.klass[c] == k)
            if not old:
                continue
            new = sorted(rng.sample([c for c in range(64) if g.klass[c] == k], len(old)))
            t = rng.randrange(len(old) + 1)
            low_seats = [owner[c] for c in old[: len(old) - t]]
            rng.shuffle(low_seats)
            for c, s in zip(new, low_seats + [owner[c] for c in old[len(old) - t :]]):
                moved[c] = s
            mask |= ((1 << t) - 1) << (at + len(old) - t)
            at += len(old)
            pairs = [(pts[x], pts[y]) for x, y in zip(old[len(old) - t :], new[len(old) - t :])]
            for s in range(n):
                a = sorted(pts[c] for c in old[: len(old) - t] if owner[c] == s)
                b = sorted(pts[c] for c, o in zip(new[: len(old) - t], low_seats) if o == s)
                pairs += list(zip(a, b))
            loss += sum(max(0, x - y) for x, y in pairs)
            gain += sum(max(0, y - x) for x, y in pairs)
        for state, deal in ((st, owner), (st2, moved)):
            state.hands[:] = 0
            for c, s in deal.items():
                state.hands[s] |= np.uint64(1) << np.uint64(c)
        _, tops = position_keys(g, st, 0, 0, g.trump_class, st.words[0], st.key[0], st.points[0])
        position_keys(g, st2, 0, 0, g.trump_class, st2.words[0], st2.key[0], st2.points[0])
        assert list(st.key[0]) == list(st2.key[0])
        new_generation(tt, 16)
        tt.stamp[:] = 0
        store(tt, st.key[0], tops, 0, 0, st.points[0], st.words[0], np.uint64(mask), 0, 0, -1, 0)
        entry = int(np.flatnonzero(tt.stamp)[0])
        x = _top_differ(tt, entry, st2.words[0])
        for budget in (0, 1, 3, 1000):
            for way, exact in ((True, loss), (False, gain)):
                shift = _point_shift(tt, entry, st2.points[0], st2.words[0], st2.segs, x, way, budget)
                assert shift == exact if exact <= budget else shift > budget
        checked += loss > 0 and gain > 0
    assert checked > 100


@pytest.mark.parametrize("seed", range(3))
def test_settled_trick_owner_is_sound(seed):
    """When the search treats a trick's winning team as settled once the mover plays c (and so
    tries one card of a power-adjacent run whatever its points), every way the later seats
    can follow gives the trick to that team."""
    import itertools

    from musim.games.mu.solver_layout import MuSolverSetup
    from musim.solver.moves import trick_owner_keen
    from musim.solver.search import make_state

    def winner(g, trick):  # position in the trick of its winning card: plain rules
        led = g.klass[trick[0]]
        best = 0
        for j, c in enumerate(trick):
            if g.klass[c] in (led, 5) and g.power[c] > g.power[trick[best]]:
                best = j
        return best

    def legal(g, hand, led):
        follow = [c for c in hand if g.klass[c] == led]
        return follow or hand

    rng = random.Random(seed)
    st = make_state()
    settled = 0
    for _ in range(400):
        n = rng.randrange(3, 7)
        tricks = rng.randrange(1, 4)
        setup = MuSolverSetup(n, rng.randrange(-1, 15), -1, set(rng.sample(range(n), 1 + (n >= 4))))
        g = setup.game
        cards = [setup.canon_of[c] for c in rng.sample(range(N_CARDS), n * tricks)]
        hands = [cards[s * tricks : (s + 1) * tricks] for s in range(n)]
        leader, k = rng.randrange(n), rng.randrange(n)
        trick = []
        for j in range(k):
            s = (leader + j) % n
            c = rng.choice(legal(g, hands[s], g.klass[trick[0]] if trick else None))
            hands[s].remove(c)
            trick.append(c)
        for s in range(n):
            st.hands[s] = sum(np.uint64(1) << np.uint64(c) for c in hands[s]) if hands[s] else 0
        seat = (leader + k) % n
        led = g.klass[trick[0]] if trick else -1
        win_card = trick[winner(g, trick)] if trick else -1
        ws = (leader + winner(g, trick)) % n if trick else -1
        for c in legal(g, hands[seat], led if trick else None):
            keen = trick_owner_keen(g, st, seat, k, c, win_card, ws, led, g.trump_class)
            if keen == 0:
                continue
            settled += 1
            later = [(leader + j) % n for j in range(k + 1, n)]
            lead_class = led if trick else g.klass[c]
            for rest in itertools.product(*(legal(g, hands[s], lead_class) for s in later)):
                full = trick + [c] + list(rest)
                w = (leader + winner(g, full)) % n
                assert g.team[w] == (g.team[seat] if keen > 0 else not g.team[seat])
    assert settled > 100


def test_a_search_past_its_node_limit_gives_up_with_sound_bounds(solver):
    """A node limit (`musim balance --node-limit`) stops the binary search: its bounds bracket
    the exact value, the position is left as it was, the need asked first is decided whenever
    a search finished, and the table stays sound (the same solver, limit lifted, is exact)."""
    rng = random.Random(17)
    limited = MuSolver(make_table(8))
    gave_up = exact = 0
    for i in range(160):
        n = 3 + i % 4
        obj, _ = random_position(rng, n, {3: 8, 4: 7, 5: 6, 6: 5}[n], mid_trick=i % 3 == 1)
        value = solver.solve(obj)["value"]
        setup, _, leader, trick = limited.load(obj)
        st = limited.st
        hands = st.hands.copy()
        avail = int(available(setup.game, st.hands, st.line, len(trick)))
        first = rng.randrange(1, avail + 1)
        st.limit[0] = st.stats[S_NODES] + rng.choice([50, 400, 3000])
        lo, hi = solve_bounds(setup.game, limited.tt, st, leader, len(trick), first)
        st.limit[0] = NO_DEADLINE
        assert lo <= value <= hi and (st.hands == hands).all(), obj
        if lo < hi:
            gave_up += 1
            assert st.stats[S_GAVE_UP] == 1
            if (lo, hi) != (0, avail):  # a search finished: the first one asked `first`
                assert lo >= first or hi < first, obj
        else:
            exact += 1
        assert int(solve(setup.game, limited.tt, st, leader, len(trick))) == value, obj
    assert gave_up > 30 and exact > 30  # both kinds of outcome were exercised


@pytest.mark.parametrize(
    "args, message",
    [
        ((9, [[(r, 0) for r in range(9)]], -1, 0, [0]), "9 seats: the solver takes 2..8"),
        ((4, [[(r, 0) for r in range(13)]] * 5, -1, 0, [0]), "65 cards: the solver takes at most 64"),
        ((4, [[(r, 0)] for r in range(9)], -1, 0, [0]), "9 classes: the solver takes at most 8"),
        ((4, [[(r, 9000) for r in range(4)]], -1, 0, [0]), "the table's bounds hold at most 16000"),
        ((4, [[(0, 0), (1, 1), (2, 5), (3, -5)]], -1, 0, [0]), "class 0 has 4 point values"),
        ((4, [[(r, 0) for r in range(4)]], -1, 0, [4]), "team [4]: expected some of the seats 0..3"),
    ],
)
def test_make_game_checks_its_limits(args, message):
    """A game that does not fit the solver's keys and table is refused when its layout is made,
    with the limit it breaks, never overflowing later."""
    from musim.solver.layout import make_game

    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        make_game(*args)
