"""Brute-force double-dummy value of small Mü positions: plain minimax over every legal card,
memoised on the exact position, with the rules of tests/reference.py.  Slow and obvious."""

from functools import cache

from reference import legal_cards, points, trick_winner


def dd_value(n, hands, leader, trick, team, chief_trump, vice_trump):
    """Points the team takes from all cards not in completed tricks, both sides perfect."""

    @cache
    def value(hands, leader, trick):
        seat = (leader + len(trick)) % n
        if not hands[seat]:
            return 0
        led = trick[0] if trick else None
        options = []
        for c in set(legal_cards(hands[seat], led, chief_trump, vice_trump)):
            options.append(after(hands, leader, trick, seat, c))
        return max(options) if seat in team else min(options)

    def after(hands, leader, trick, seat, c):
        rest = list(hands[seat])
        rest.remove(c)
        new_hands = hands[:seat] + (tuple(rest),) + hands[seat + 1 :]
        new_trick = trick + (c,)
        if len(new_trick) < n:
            return value(new_hands, leader, new_trick)
        winner = (leader + trick_winner(list(new_trick), chief_trump, vice_trump)) % n
        pts = sum(points(x) for x in new_trick)
        return (pts if winner in team else 0) + value(new_hands, winner, ())

    start = tuple(tuple(sorted(h)) for h in hands)
    seat = (leader + len(trick)) % n
    moves = {
        c: after(start, leader, tuple(trick), seat, c)
        for c in set(legal_cards(list(start[seat]), trick[0] if trick else None, chief_trump, vice_trump))
    }
    return value(start, leader, tuple(trick)), moves
