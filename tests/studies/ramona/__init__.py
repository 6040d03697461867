"""Tests of :mod:`rlsbench.studies.ramona`."""
