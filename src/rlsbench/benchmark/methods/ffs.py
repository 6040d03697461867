"""Forward feature selection with λ per candidate set (Buteneers et al., Section 3.2).

The eigen variant in the main protocol; on a K-fold task (Buteneers et al.'s tables) both
variants, ``tags["kfold"]`` (:mod:`rlsbench.benchmark.methods.kfold`).
"""

from __future__ import annotations

import functools

from rlsbench.benchmark.methods import Method, as_float64, int_seed
from rlsbench.benchmark.methods.kfold import run_selection
from rlsbench.numerics.ridgecv.ffs_bfs import run_for_protocol


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Path of FFS; ``alpha`` and ``criterion`` are ignored (own 10-fold squared-error λ search)."""
    X, y = as_float64(X, "X", "ffs"), as_float64(y, "y", "ffs")
    return run_for_protocol(X, y, k=k, bias=bias, seed=int_seed(seed), direction="forward")


#: CPU seconds of one run, measured with ``benchmarks/bench_cost_models.py`` (one thread, the
#: protocol's 10-fold training split of each set, 200 random columns): (data, m, n, k, t, seconds);
#: ``tests/benchmark/methods/test_cost_models.py`` holds each estimate within a factor 3.
MEASURED_S = {
    "ffs": (
        ("arcene, 200 random columns", 180, 200, 20, 1, 0.558),
        ("nci9, 200 random columns", 54, 200, 20, 9, 1.85),
    ),
}


method = Method(
    name="ffs",
    run=run,
    description=(
        "Buteneers et al. forward selection, 10-fold CV λ per candidate set (eigen + rank-2 update)"
    ),
    own_alpha=True,
    # Section 3.2: covariances O(N²M), then per step s one eigendecomposition per fold and
    # R·K·(N−s) rank-2 updates of O(s²): Σ_s (9K s³ + 2RK(N−s)s²),
    # with R = 50, K = 10 (t outputs)
    flops=lambda m, n, k, t: (
        2.0 * m * n * n + sum(90.0 * s**3 + 1000.0 * (n - s) * s * s * t for s in range(k))
    ),
    # a zero column leaves the cross-validation error as it is: scored like the others
    # on a K-fold task (Buteneers et al.'s tables): options variant ("eigen", "covariance")
    # and step_budget, :func:`rlsbench.benchmark.methods.kfold.run_selection`
    tags={
        "constant_columns": "scored",
        "kfold": functools.partial(run_selection, direction="forward"),
    },
    # 4 fold matrices (K, N, N) plus R×N×N work arrays
    memory_bytes=lambda m, n, k: 8 * (m * n + 4 * 10 * (n + 1) ** 2 + 3 * 50 * n * n),
)
