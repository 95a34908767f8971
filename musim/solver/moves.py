"""Move generation, ordering and budgets: which of the mover's cards to search, in what order
(each move's case and features, and the weights that score them, in ordering.py).

Moves are generated once per group of interchangeable cards (same class, same points,
and equal power or no card of another seat, nor the trick's winning card so far, with a
power from the lower's to the higher's, ends included; once no later seat can change
which team takes the trick, of any points: the mover's dearest card into its own team's
trick, its cheapest into the other's, dominates the rest) and tried in a promising
order: the table's best move, then leads whose replies make the smallest tree (few
opponents' cards in the class), cheap winners (a lead only if no other seat holds a
higher card of its class and no opponent void in it holds a trump), partner's tricks
smeared with points (also one a later teammate can surely take, and none that a later
opponent can surely take from the team), low discards.  A card that names the trump
(layout.SolverGame.namers) is never grouped with one that does not, and its group becomes one
move per class it may name (classes without a card left, in hand or trick, count as one), each
ordered by the trick's winner under that trump.  A move tried first that runs
long early in the deal gives way for a while to the others, each on a small budget of
nodes: one of them may settle the node at a fraction of its cost (`budget_next`).
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import drop_lowest, lowest, popcount
from musim.solver.frame import F_BOUND, F_COUNT, F_DEADLINE, F_IDX, F_MOVE_DEADLINE, F_NEED, F_PHASE, F_SEAT
from musim.solver.layout import MAX_CLASSES
from musim.solver.ordering import F_TABLE, case_score, move_case, named_takes
from musim.solver.stats import C_SMALL_CARD, S_NODES, tally
from musim.solver.trick import beats, is_namer, legal_cards, playable_top, remaining, span, trick_winner_pos

# A frame whose mover holds BUDGET_CARDS cards or more gives its first move BUDGET_FIRST
# nodes; if they run out, each other move gets BUDGET_OTHER, and then those that ran out
# get the rest (budget_next; docs/solver.md gives what the budgets save and what other
# budgets did)
BUDGET_CARDS = 6
BUDGET_FIRST = 1 << 16
BUDGET_OTHER = 1 << 10
PLAIN, FIRST, OTHERS, REST = range(4)  # budget phases
FAILED, RAN_OUT = range(1, 3)  # a budgeted move's status, once tried (written each time: the
# array is shared by every frame at that ply, so an old RAN_OUT must not linger)


@flat_kernel
def trick_owner_keen(g, st, seat, k, c, win_card, ws, led_class, trump):
    """Once `seat` plays c to the trick (k cards played, the best of them win_card, by seat
    ws; c not a namer), is the team that wins it settled, whatever the seats after it hold?
    Then +1 if it is seat's team, -1 if not (else 0): of the cards grouped with c (gen_moves)
    the mover then plays the one of most (fewest) points, as the same trick goes to the same
    team either way and the cards it keeps are equivalent later on.  Not while a later seat
    holds a namer: it may change the trump."""
    top, w = c, seat
    if k > 0:
        led = led_class
        if not beats(g, c, win_card, trump):
            top, w = win_card, ws
    else:
        led = g.klass[c]
    s = seat
    for _ in range(k + 1, g.n):
        s = s + 1 if s + 1 < g.n else 0
        if st.hands[s] & g.namers:
            return 0
        if g.team[s] == g.team[w]:
            continue
        y = playable_top(g, st, s, led, trump)
        if y >= 0 and beats(g, y, top, trump):
            return 0
    return 1 if g.team[w] == g.team[seat] else -1


@flat_kernel(inline="always")
def side_takes_later(g, st, seat, k, win_card, led_class, side, trump):
    """Does a seat of team `side` still to play the trick after `seat` (k cards played, the
    best win_card) hold a card that takes it whatever the other team's seats from `seat` on
    put on it?  (It may still choose not to: this orders moves, it settles nothing.)"""
    n = g.n
    s = seat
    for _ in range(k + 1, n):
        s = s + 1 if s + 1 < n else 0
        if g.team[s] != side:
            continue
        x = playable_top(g, st, s, led_class, trump)
        if x < 0 or not beats(g, x, win_card, trump):
            continue
        safe = True
        o = seat
        for _ in range(k, n):
            if g.team[o] != side:
                y = playable_top(g, st, o, led_class, trump)
                if y >= 0 and not beats(g, x, y, trump):  # an equal power played first wins
                    safe = False
                    break
            o = o + 1 if o + 1 < n else 0
        if safe:
            return True
    return False


@flat_kernel(inline="always")
def same_run(g, lo, hi, others):
    """Do the mover's cards lo < hi of one class win and lose alike: equal power, or no card of
    `others` with a power from lo's to hi's?"""
    return g.klass[lo] == g.klass[hi] and (g.power[lo] == g.power[hi] or not (others & span(g.eq_lo[lo], g.eq_hi[hi])))


@flat_kernel(inline="always")
def insert_move(st, ply, count, c, named, score, group):
    """Put move (c, named) with its order score and group into st's sorted list for ply (descending
    score) of `count` moves."""
    i = count
    while i > 0 and st.scores[ply, i - 1] < score:
        st.moves[ply, i] = st.moves[ply, i - 1]
        st.names[ply, i] = st.names[ply, i - 1]
        st.scores[ply, i] = st.scores[ply, i - 1]
        st.groups[ply, i] = st.groups[ply, i - 1]
        i -= 1
    st.moves[ply, i] = c
    st.names[ply, i] = named
    st.scores[ply, i] = score
    st.groups[ply, i] = group


@flat_kernel(inline="always")
def live_classes(g, st, t0, ply):
    """The classes with a card still held or played to the current trick line[t0: ply] (bits)."""
    cards = remaining(g, st)
    for j in range(t0, ply):
        cards |= np.uint64(1) << np.uint64(st.line[j])
    live = 0
    for kk in range(MAX_CLASSES):
        if cards & g.class_mask[kk]:
            live |= 1 << kk
    return live


@flat_kernel(inline="always")
def add_named_moves(g, st, seat, k, ply, c, case, live, count):
    """Add namer card c's moves, one per class it may name (of the classes with no card left,
    the first only: naming any of them decides the same), each scored as c's `case` with c's
    features (st.feat) and the class's F_NAMED_TAKES; returns the new count."""
    dead_done = False
    for t in range(MAX_CLASSES):
        if not g.class_mask[t]:
            continue
        if not (live >> t) & 1:
            if dead_done:
                continue
            dead_done = True
        named_takes(g, st, seat, k, ply, c, t, st.feat)
        insert_move(st, ply, count, c, t, case_score(g.order, case, st.feat), np.uint64(1) << np.uint64(c))
        count += 1
    return count


@flat_kernel(inline="always")
def trick_outlook(g, st, seat, leader, k, ply, trump):
    """What the mover's choice rests on: (legal cards, the led class, the trick's winning card
    and its seat, the cards that may part two of the mover's, the points on the trick, whether
    the mover's team holds the trick or a later teammate can surely take it, whether a later
    opponent can surely take it from the team, and leading: the classes in which an opponent
    is void and holds a trump)."""
    n = g.n
    hands, line = st.hands, st.line
    t0 = ply - k  # the current trick is line[t0: ply]
    hand = hands[seat]
    legal = legal_cards(g, hand, line, t0, k)
    led_class = g.klass[line[t0]] if k > 0 else -1
    win_card = -1
    others = remaining(g, st) & ~hand
    win_pos = 0
    trick_pts = 0
    if k > 0:
        win_pos = trick_winner_pos(g, line, t0, k, trump)
        win_card = line[t0 + win_pos]
        # of the trick's cards only the winning one can part two of the mover's: the rest
        # lose to it whatever the mover plays, and leave with the trick
        others |= np.uint64(1) << np.uint64(win_card)
        for j in range(t0, ply):
            trick_pts += g.points[line[j]]
    ws = leader + win_pos
    if ws >= n:
        ws -= n
    # the mover's team has the trick, or a later teammate can surely take it: points onto it,
    # unless a later opponent can surely take it from the mover's team: then cheap cards
    mine = g.team[seat]
    mate_winning = k > 0 and (g.team[ws] == mine or side_takes_later(g, st, seat, k, win_card, led_class, mine, trump))
    lost = k > 0 and g.team[ws] == mine and side_takes_later(g, st, seat, k, win_card, led_class, 1 - mine, trump)
    ruffed = 0
    if k == 0 and trump >= 0:
        tmask = g.class_mask[trump]
        for s in range(n):
            if g.team[s] != g.team[seat] and hands[s] & tmask:
                for kk in range(MAX_CLASSES):
                    if kk != trump and not (hands[s] & g.class_mask[kk]):
                        ruffed |= 1 << kk
    return legal, led_class, win_card, ws, others, trick_pts, mate_winning, lost, ruffed


@flat_kernel(inline="always")
def score_move(g, st, seat, k, c, keen, outlook, trump, table_best):
    """Move c's order score under the game's weights (ordering.py), table_best: the table's best
    move is c; st.feat holds its features."""
    win_card, others, trick_pts = outlook[2], outlook[4], outlook[5]
    mate_winning, lost, ruffed = outlook[6], outlook[7], outlook[8]
    beats_now = k > 0 and beats(g, c, win_card, trump)
    x = st.feat
    case = move_case(g, st, seat, k, c, keen, lost, mate_winning, beats_now, trick_pts, others, ruffed, x)
    x[F_TABLE] = table_best
    return case_score(g.order, case, x), case


@flat_kernel(inline="always")
def gen_moves(g, st, seat, leader, k, ply, tt_best, trump):
    """Fill st.moves[ply] (and st.names[ply], the class a namer names) with one move per group of
    interchangeable legal cards, best first; `trump`: the trump in force."""
    outlook = trick_outlook(g, st, seat, leader, k, ply, trump)
    legal, led_class, win_card, ws, others = outlook[0], outlook[1], outlook[2], outlook[3], outlook[4]
    live = live_classes(g, st, ply - k, ply) if legal & g.namers else 0
    count = 0
    prev = -1
    rep = -1
    keen = 0  # the group's points preference: +1 the most, -1 the fewest, 0 equal points only
    m = legal
    while m:
        c = lowest(m)
        m = drop_lowest(m)
        namer = is_namer(g, c)
        if (
            prev >= 0
            and namer == is_namer(g, prev)
            and (keen != 0 or g.points[c] == g.points[prev])
            and same_run(g, prev, c, others)
        ):
            prev = c
            for i in range(count):  # c is tried as its group's representative (a namer's: each name)
                if st.moves[ply, i] == rep:
                    st.groups[ply, i] |= np.uint64(1) << np.uint64(c)
                    if keen * (g.points[c] - g.points[rep]) > 0:
                        st.moves[ply, i] = c
                        rep = c
                    if not namer:
                        break
            continue
        prev = c
        rep = c
        keen = 0 if namer else trick_owner_keen(g, st, seat, k, c, win_card, ws, led_class, trump)
        score, case = score_move(g, st, seat, k, c, keen, outlook, trump, c == tt_best)
        if namer:
            count = add_named_moves(g, st, seat, k, ply, c, case, live, count)
        else:
            insert_move(st, ply, count, c, -1, score, np.uint64(1) << np.uint64(c))
            count += 1
    return count


@flat_kernel
def next_move(g, st, p, ply):
    """Advance frame p to the next move worth trying once its moves so far have all failed
    (st.scores[ply] then holds each tried move's bound); returns whether there is one.

    Swap a tried card t for an untried card c of the same class, both below the lowest
    card of their class that the proofs so far relied on (st.rel[p]), neither a namer (whose
    move changes the trump, which no comparison records): no comparison those
    proofs made changes, the same seats win the same tricks, and only the points of t and
    c change hands, so c's bound is t's moved by their difference.  If that still fails,
    c is not searched (DDS's "one small card per suit", here with points)."""
    fr = st.frames
    maximiser = g.team[fr[p, F_SEAT]]
    need = fr[p, F_NEED]
    i = fr[p, F_IDX] + 1
    count = fr[p, F_COUNT]
    while i < count:
        c = st.moves[ply, i]
        k = g.klass[c]
        r = st.rel[p] & g.class_mask[k]
        low = g.power[lowest(r)] if r else 1 << 30
        if g.power[c] >= low or is_namer(g, c):
            break
        skip = False
        for j in range(i):
            t = st.moves[ply, j]
            if g.klass[t] != k or g.power[t] >= low or is_namer(g, t):
                continue
            diff = abs(g.points[t] - g.points[c])
            bound = st.scores[ply, j] + diff if maximiser else st.scores[ply, j] - diff
            if (bound < need) if maximiser else (bound >= need):
                st.scores[ply, i] = bound
                fr[p, F_BOUND] = max(fr[p, F_BOUND], bound) if maximiser else min(fr[p, F_BOUND], bound)
                tally(st.counts, C_SMALL_CARD)
                skip = True
                break
        if not skip:
            break
        i += 1
    fr[p, F_IDX] = i
    return i < count


@flat_kernel(inline="always")
def start_budget(st, d):
    """Set up frame d's moves to be searched: budgeted if the mover holds BUDGET_CARDS
    cards or more and has a choice."""
    fr = st.frames
    fr[d, F_IDX] = 0
    fr[d, F_MOVE_DEADLINE] = fr[d, F_DEADLINE]
    fr[d, F_PHASE] = PLAIN
    if popcount(st.hands[fr[d, F_SEAT]]) >= st.budget[0] and fr[d, F_COUNT] > 1:
        fr[d, F_PHASE] = FIRST
        fr[d, F_MOVE_DEADLINE] = min(fr[d, F_DEADLINE], st.stats[S_NODES] + st.budget[1])


@flat_kernel
def budget_next(st, p, ply):
    """Advance budgeted frame p (at ply) to its next move once the current one has failed or
    run out of budget; returns whether there is one.

    The first move has BUDGET_FIRST nodes.  Where it is wrong, and a later move is the one
    that settles the node, that later move is often far cheaper (in the first trick of a
    5-player auction deal, the failed first moves took 3 times the nodes of the moves that
    then succeeded).  So once the first move runs out, each other move gets BUDGET_OTHER
    nodes, and only then do the moves that ran out get all they need.  What a cut-short
    search proved on the way stays in the table, so resuming it redoes little.  (Raising
    the budgets round by round instead, 8 times each, searched more nodes than no budgets
    at all.)"""
    fr = st.frames
    count = fr[p, F_COUNT]
    i = fr[p, F_IDX] + 1
    if fr[p, F_PHASE] == FIRST:
        fr[p, F_PHASE] = OTHERS
    if fr[p, F_PHASE] == OTHERS:  # each move gets its status as it is tried, in order
        if i < count:
            fr[p, F_IDX] = i
            fr[p, F_MOVE_DEADLINE] = min(fr[p, F_DEADLINE], st.stats[S_NODES] + st.budget[2])
            return True
        fr[p, F_PHASE] = REST
        fr[p, F_MOVE_DEADLINE] = fr[p, F_DEADLINE]
        i = 0
    while i < count and st.status[ply, i] != RAN_OUT:
        i += 1
    fr[p, F_IDX] = i
    return i < count


@flat_kernel
def move_table(g, st, seat, leader, k, ply, trump, cases, feats):
    """The moves gen_moves makes of a position (st.moves[ply], in order, no table move), each
    one's case into cases[i] and features into feats[i] as it was scored (the features of its
    group's first card, and of the class a namer's move names): what an ordering is fitted to
    (benchmarks/fit_ordering.py)."""
    count = gen_moves(g, st, seat, leader, k, ply, -1, trump)
    outlook = trick_outlook(g, st, seat, leader, k, ply, trump)
    win_card, ws, led_class = outlook[2], outlook[3], outlook[1]
    for i in range(count):
        c = lowest(st.groups[ply, i])
        keen = 0 if is_namer(g, c) else trick_owner_keen(g, st, seat, k, c, win_card, ws, led_class, trump)
        cases[i] = score_move(g, st, seat, k, c, keen, outlook, trump, False)[1]
        if st.names[ply, i] >= 0:
            named_takes(g, st, seat, k, ply, c, st.names[ply, i], st.feat)
        for f in range(st.feat.shape[0]):
            feats[i, f] = st.feat[f]
    return count
