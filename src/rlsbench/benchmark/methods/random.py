"""Random selection, the greedy RLS paper's sanity baseline (Section 4.2)."""

from __future__ import annotations

from rlsbench.benchmark.methods import Method
from rlsbench.benchmark.methods.ranking import protocol_flops
from rlsbench.lazy import lazy_module

#: loaded when a selection runs, not when the workflow reads the method (numba comes with it)
selection = lazy_module("rlsbench.numerics.selection")


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along ``k`` features drawn at random with ``seed``."""
    return selection.random_selection(X, y, k, alpha, bias=bias, criterion=criterion, seed=seed)


method = Method(
    name="random",
    run=run,
    description="k features drawn uniformly at random (seeded), RLS path along them",
    randomized=True,
    # one RLS path along the k drawn features, O(k²m) per output, after the input checks
    # every run pays (measured: ranking.protocol_flops)
    flops=protocol_flops,
)
