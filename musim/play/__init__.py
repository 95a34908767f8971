"""What the games share to play deals: trick kernels (tricks), partnerships (sides), the run and
match drivers every game registers with (drivers), the per-seat row columns (seat_columns), and
duplicate comparisons of policies on the same deals (duplicate)."""
