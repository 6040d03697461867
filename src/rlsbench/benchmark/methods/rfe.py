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
from rlsbench.benchmark.methods.ranking import ranked_path


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


def _rfe_flops(m, n, k, t):
    # one ridge fit per round on the s surviving features, s = n … 2: Ridge solves the primal
    # (m s²) or the dual (s m²), whichever is smaller, plus the interpreter cost of a fit
    # (protocol.FIT_OVERHEAD_FLOPS); then the RLS path along k features
    s = np.arange(2, n + 1, dtype=np.float64)
    fits = np.sum(2.0 * np.minimum(m * s * s, s * m * m) * t + 2e5)
    return float(fits) + 4.0 * k * k * m * t


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="rfe_linear",
    run=run,
    description="Recursive feature elimination on ridge regression (λ of the protocol), "
    "scikit-learn RFE",
    flops=_rfe_flops,
    tags={"package": "scikit-learn (RFE, Ridge)"},
)
