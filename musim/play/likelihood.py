"""Likelihoods of public actions for weighted worlds (docs/players.md "Search").

A world's weight is the product, over the public actions seen so far, of the chance that the
model which made each action makes it with that world's hidden cards.  Rule-based models
choose with certainty, which would reject every world where a rule points elsewhere, so each
choice is softened with a parameter fitted on simulated deals (each game's fit script):
"""

import numpy as np

from musim.compile.jit import flat_kernel


@flat_kernel(inline="always")
def rule_choice(chosen, ruled, options, eps):
    """P(chosen) for a rule that picks `ruled` with probability 1-eps and each of the other
    options-1 legal choices with eps/(options-1); 1 where there is no choice."""
    if options <= 1:
        return 1.0
    return 1.0 - eps if chosen == ruled else eps / (options - 1)


@flat_kernel(inline="always")
def soft_rule(matched, r):
    """The weight of a rule-based choice in a world: 1 if it is the rule's there, r (0 < r <= 1)
    if not.  A tempered rejection, not normalised over the options: normalised (rule_choice, or
    the rule's choice against r for each other option), a world where the chooser had more
    options weighs less even where it followed the rule, which the fits found worse."""
    return 1.0 if matched else r


@flat_kernel
def softmax_choice(q, count, chosen, tau):
    """P(chosen) under a softmax of the action values q[0:count] at temperature tau (> 0)."""
    top = q[0]
    for i in range(1, count):
        top = max(top, q[i])
    total = 0.0
    for i in range(count):
        total += np.exp((q[i] - top) / tau)
    return np.exp((q[chosen] - top) / tau) / total
