"""Tests of :mod:`rlsbench.studies`: one folder per study package."""
