"""Tests of :mod:`rlsbench.studies.scaling`."""
