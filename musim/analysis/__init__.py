"""Analyses built on the Mü kernels: bid strength, balance tables, the hand-model fit."""
