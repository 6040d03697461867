"""Tests of :mod:`rlsbench.studies.main`."""
