"""What every game builds on: cards as bits in a uint64 (cards, bits), the decks and their
notation (deck), shuffling and dealing (deal), and the random streams keyed by (seed, deal) (rng)."""
