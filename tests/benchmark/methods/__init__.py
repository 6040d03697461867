"""Tests of :mod:`rlsbench.benchmark.methods`: the ``rlsbench.methods`` plugins."""
