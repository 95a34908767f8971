"""Generic statistics helpers for analyses: intervals, sample sizes."""
