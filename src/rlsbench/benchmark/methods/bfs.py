"""Backward feature elimination with λ per candidate set (Buteneers et al., Section 3.1).

The eigen variant in the main protocol; on a K-fold task (Buteneers et al.'s tables) both
variants, ``tags["kfold"]`` (:mod:`rlsbench.benchmark.methods.kfold`).
"""

from __future__ import annotations

import functools

from rlsbench.benchmark.methods import Method, as_float64, int_seed
from rlsbench.benchmark.methods.kfold import run_selection
from rlsbench.numerics.ridgecv.ffs_bfs import run_for_protocol


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Path of BFS (features in reverse order of removal); ``alpha``/``criterion`` ignored."""
    X, y = as_float64(X, "X", "bfs"), as_float64(y, "y", "bfs")
    return run_for_protocol(X, y, k=k, bias=bias, seed=int_seed(seed), direction="backward")


method = Method(
    name="bfs",
    run=run,
    description=(
        "Buteneers et al. backward elimination, 10-fold CV λ per candidate set "
        "(eigen + Sherman-Morrison)"
    ),
    own_alpha=True,
    # Section 3.1: covariances O(N²M), then BFS runs down from N to 1 feature; step at size s
    # costs O(R K s³) (Sherman-Morrison limit for s candidates and R λ): Σ_s 2RK s³ of matrix
    # products, R = 50, K = 10
    flops=lambda m, n, k, t: (
        2.0 * m * n * n + sum(1000.0 * s**3 * t + 90.0 * s**3 for s in range(1, n + 1))
    ),
    # a zero column leaves the cross-validation error as it is: scored like the others
    # on a K-fold task (Buteneers et al.'s tables): options variant ("eigen", "covariance")
    # and step_budget, :func:`rlsbench.benchmark.methods.kfold.run_selection`
    tags={
        "constant_columns": "scored",
        "kfold": functools.partial(run_selection, direction="backward"),
    },
    memory_bytes=lambda m, n, k: 8 * (m * n + 4 * 10 * (n + 1) ** 2 + 3 * 50 * n * n),
)
