"""The fields of a frame of the search's explicit stack (SearchState.frames, one row per ply
searched from the root).

F_LEADER, F_K, F_NEED, F_AVAIL, F_LEAST: the position (the trick's leader, the cards played
to it, the points the maximising team still needs, the most and the least it can still take:
the positive and the negative points left, but for layout.SolverGame's count_bonus); F_WON: the
tricks the maximising side has won since the search's root position (count_bonus); F_SEAT: the seat to move;
F_COUNT, F_IDX: how many moves it has and the one being searched; F_NODES: the node count
on entering (a table entry's work); F_BOUND: the best bound over its failed moves; F_TOPS:
the top owners of its table key (keys.position_keys); F_DEADLINE, F_MOVE_DEADLINE: the
frame's deadline (a node count) and its current move's; F_PHASE: its budget phase
(moves.budget_next); F_TRUMP: the trump in force as its mover plays (a namer card may change it:
layout.SolverGame.namers).
"""

(
    F_LEADER,
    F_K,
    F_NEED,
    F_AVAIL,
    F_SEAT,
    F_COUNT,
    F_IDX,
    F_NODES,
    F_BOUND,
    F_TOPS,
    F_DEADLINE,
    F_MOVE_DEADLINE,
    F_PHASE,
    F_LEAST,
    F_WON,
    F_TRUMP,
) = range(16)
FRAME_FIELDS = 16
