"""Tests of :mod:`rlsbench.studies.fidelity`."""
