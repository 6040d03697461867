"""Recursive feature elimination with the protocol's own linear model (Guyon et al. 2002).

scikit-learn's ``RFE`` refits ridge regression (``Ridge(alpha=λ)``, the protocol's λ and an
intercept: RLS on the ±1 or real targets) on the surviving features and drops the one of
smallest weight, one per round, down to a single feature; the features in reverse order of
elimination are the order along which the protocol's RLS model is scored
(:func:`.ranking.ranked_path`). With several outputs (one-vs-rest columns) a feature's weight is
the ℓ1 norm of its coefficients over the outputs (``RFE``'s ``importance_getter="auto"``).
Constant columns come last.

Package: scikit-learn (``RFE``, ``Ridge``), written against 1.9.1 (``ranking_`` has kept its
meaning since 0.17).
"""

from __future__ import annotations

import numpy as np

from rlsbench.benchmark.methods import Method
from rlsbench.benchmark.methods.ranking import protocol_flops, ranked_path


def rfe_order(X, y, alpha):
    """Features in reverse order of elimination by RFE on ``Ridge(alpha)``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    alpha : float
        Ridge's λ.

    Returns
    -------
    ndarray of shape (n_features,), int
        ``argsort`` of ``RFE.ranking_`` (1 = the last survivor, 2 = eliminated last, ...).
    """
    if X.shape[1] == 1:  # RFE needs two features to eliminate one
        return np.zeros(1, dtype=np.intp)
    from sklearn.feature_selection import RFE
    from sklearn.linear_model import Ridge

    rfe = RFE(Ridge(alpha=alpha), n_features_to_select=1, step=1).fit(X, y)
    return np.argsort(rfe.ranking_, kind="stable")


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along the first k features of :func:`rfe_order`."""
    return ranked_path(
        "rfe_linear",
        X,
        y,
        k,
        alpha=alpha,
        bias=bias,
        criterion=criterion,
        n_jobs=n_jobs,
        rank=lambda Xv, yv, kv: rfe_order(Xv, yv, alpha),
    )


#: CPU seconds of one run, measured with ``benchmarks/bench_cost_models.py`` (scikit-learn
#: 1.9.1, one thread, a random subset of the columns of the protocol's 10-fold training split):
#: (data, m, n, k, t, seconds), and the committed run's mean fit time per fold on colon-cancer
#: (``results/benchmark/tables/summary.csv``, k = 10); ``tests/benchmark/methods/
#: test_cost_models.py`` holds each estimate within a factor 3.
MEASURED_S = {
    "rfe_linear": (
        ("arcene, 500 random columns", 180, 500, 50, 1, 2.85),
        ("nci9, 500 random columns", 54, 500, 50, 9, 2.17),
        ("arcene, 2000 random columns", 180, 2000, 50, 1, 17.7),
        ("colon-cancer, committed run", 55, 2000, 10, 1, 7.35),
        ("musk, committed run", 428, 166, 10, 1, 0.657),
    ),
}

#: How much faster than the nominal 2 GFLOP/s a ridge fit's Gram matrix (OpenBLAS dgemm, one
#: thread) is formed, as in :mod:`.rfe_fraction`.
GEMM_SPEEDUP = 10.0


def _rfe_flops(m, n, k, t):
    # one ridge fit per round on the s surviving features, s = n … 2: Ridge forms the primal
    # (m s²) or the dual (s m²) Gram matrix, whichever is smaller (a dense product,
    # GEMM_SPEEDUP), and Xᵀy (2 m s t), and RFE and Ridge cost about 4 ms a round (8e6 at the
    # nominal rate: the estimator's clone and checks); then the RLS path along k features.
    # The count before (2 min(m s², s m²) t + 2e5 a round) was 3.7 times the measured time on
    # 2000 of arcene's columns
    s = np.arange(2, n + 1, dtype=np.float64)
    gemm = 2.0 * np.minimum(m * s * s, s * m * m) / GEMM_SPEEDUP
    fits = np.sum(gemm + 2.0 * m * s * t + 8e6)
    return float(fits) + protocol_flops(m, n, k, t)


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="rfe_linear",
    run=run,
    description="Recursive feature elimination on ridge regression (λ of the protocol), "
    "scikit-learn RFE",
    flops=_rfe_flops,
    tags={"package": "scikit-learn (RFE, Ridge)"},
)
