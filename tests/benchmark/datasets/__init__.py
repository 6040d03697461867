"""Tests of :mod:`rlsbench.benchmark.datasets`: registry, download, integrity, prepare, and
their rules."""
