"""Tests of :mod:`rlsbench.numerics`: the solvers, arrays in and arrays out."""
