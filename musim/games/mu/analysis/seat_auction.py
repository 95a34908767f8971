"""One seat's auction model against another on duplicate deals (docs/plans/learned-auction.md §10).

Deal k of a seed is dealt before any seat decides, so the rows `musim run --auction
strong,weak,weak,...` writes can be set beside those of the same seat bidding `weak`: the
difference is the auction model's (and, where the strong seat plays its own cards, its play's),
not the cards'.  musim.play.duplicate.duplicate_advantage rotates the strong seat and gives
the interval; here a seat is a (card play, auction model) pair, played through
`musim.play.duplicate.game_simulate` (the rows `musim run --game mu` writes).
"""

from musim.games.mu.params import BY_PLAY
from musim.play.duplicate import duplicate_advantage, game_simulate

RANDOM = "random"  # a seat that plays and bids at random (`--play random`): no auction model


def seat(model, play="heuristic"):
    """A seat: (its --play, its --auction) of an auction model name played with `play`, or of
    RANDOM (random play, which bids at random)."""
    return (RANDOM, BY_PLAY) if model == RANDOM else (play, model)


def seats_simulate(workers=1, **options):
    """simulate(players, seed, policy, start, count) for duplicate_advantage whose policy is a
    seat (seat()) or a list of one a seat: the scores of `musim run --play P0,P1,... --auction
    A0,A1,...` on `workers` threads, under the run options `options` (targets, ...)."""

    def simulate(players, seed, policy, start, count):
        chosen = policy if isinstance(policy, list) else [policy] * players
        run = game_simulate("mu", workers, auction=",".join(a for _, a in chosen), **options)
        return run(players, seed, ",".join(p for p, _ in chosen), start, count)

    return simulate


def auction_advantage(
    players, seed, count, strong, weak, others=None, play="heuristic", strong_play=None, workers=1, **options
):
    """(mean, half-width of its 95% interval) of the points a seat bidding by the auction model
    `strong` (playing its cards by `strong_play`, default `play`) gains per deal over the same
    seat bidding `weak`, the other seats bidding `others` (default `weak`), every seat in turn,
    on deals 0..count-1 of `seed`.  Models are names of --auction or RANDOM; a seat that is not
    random plays its cards by `play`; `options`: the runs' other options (targets, ...)."""
    others = weak if others is None else others
    simulate = seats_simulate(workers, **options)
    strong_seat = seat(strong, strong_play or play)
    return duplicate_advantage(simulate, players, seed, count, strong_seat, seat(weak, play), seat(others, play))
