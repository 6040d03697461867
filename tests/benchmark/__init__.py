"""Tests of :mod:`rlsbench.benchmark`: the benchmark library (protocol, statistics, tables,
figures, views, parts, estimators)."""
