"""Tests of :mod:`rlsbench.studies.sunyao`."""
