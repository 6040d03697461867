"""Recursive feature elimination that drops a fraction of the survivors per round (Guyon et al.
2002), then one feature at a time from k down.

As :mod:`.rfe` (``rfe_linear``, kept as it is), ridge regression (``Ridge(alpha=λ)``, the
protocol's λ and an intercept) is refitted on the surviving features and the ones of smallest
weight are dropped, a feature's weight being the ℓ1 norm of its coefficients over the outputs.
``rfe_linear`` drops one feature per round, n − 1 ridge fits: on 10⁴ features that is hours.
Guyon et al. eliminated chunks on their 2000- and 7129-gene sets (half of the survivors per
round, down to the last few); here each round drops :data:`STEP_FRACTION` of the survivors
(at least one) until ``k`` are left, then one at a time, so the order of the first ``k`` comes
from single eliminations as in ``rfe_linear`` and a run takes about
``log(n / k) / -log(1 - STEP_FRACTION) + k`` fits (101 for n = 10⁴, k = 50). Features
in reverse order of elimination, those of one round by decreasing weight, are the order along
which the protocol's RLS model is scored (:func:`.ranking.ranked_path`); constant columns come
last.

Package: scikit-learn (``Ridge``).

References
----------
I. Guyon, J. Weston, S. Barnhill and V. Vapnik. Gene selection for cancer classification using
support vector machines. Machine Learning 46:389–422, 2002.
"""

from __future__ import annotations

import numpy as np

from rlsbench.benchmark.methods import Method
from rlsbench.benchmark.methods.ranking import ranked_path
from rlsbench.lazy import lazy_module

sklm = lazy_module("sklearn.linear_model")

#: Fraction of the surviving features dropped per round while more than k survive.
STEP_FRACTION = 0.1


def elimination_sizes(n, k, fraction=STEP_FRACTION):
    """Numbers of surviving features at each ridge fit: n, then ``fraction`` fewer (at least
    one fewer) per round down to ``k``, then one fewer per round down to 2.

    Returns
    -------
    list of int
    """
    sizes = []
    s = n
    while s > 1:
        sizes.append(s)
        s -= min(max(1, int(fraction * s)), s - k) if s > k else 1
    return sizes


def rfe_fraction_order(X, y, k, alpha, fraction=STEP_FRACTION):
    """Features in reverse order of elimination (the module docstring).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    k : int
        Below k survivors, one feature is dropped per round.
    alpha : float
        Ridge's λ.
    fraction : float
        Fraction of the survivors dropped per round above k (:data:`STEP_FRACTION`); a
        fraction that rounds to zero drops one per round, as ``rfe_linear``.

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    surviving = np.arange(X.shape[1])
    dropped = []  # the rounds' eliminated features, least weight first
    sizes = elimination_sizes(X.shape[1], k, fraction)
    for s, after in zip(sizes, [*sizes[1:], 1], strict=False):  # no round at n = 1
        coef = sklm.Ridge(alpha=alpha).fit(X[:, surviving], y).coef_
        weight = np.abs(coef).sum(axis=0) if coef.ndim == 2 else np.abs(coef)
        worst = np.argsort(weight, kind="stable")[: s - after]
        dropped.append(surviving[worst])
        surviving = np.delete(surviving, worst)
    return np.concatenate([surviving, *(batch[::-1] for batch in reversed(dropped))])


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along the first k features of :func:`rfe_fraction_order`."""
    return ranked_path(
        "rfe_fraction",
        X,
        y,
        k,
        alpha=alpha,
        bias=bias,
        criterion=criterion,
        n_jobs=n_jobs,
        rank=lambda Xv, yv, kv: rfe_fraction_order(Xv, yv, kv, alpha),
    )


#: How much faster than the protocol's nominal 2 GFLOP/s a ridge fit's dense matrix products
#: (OpenBLAS dgemm, one thread) run: the cost model counts their operations divided by it.
GEMM_SPEEDUP = 10.0


def _flops(m, n, k, t):
    # one ridge fit per round on its s survivors: Ridge forms the primal (m s²) or the dual
    # (s m²) Gram matrix, whichever is smaller (dense products, GEMM_SPEEDUP), forms Xᵀy
    # (2 m s t) and pays about 2 ms of fixed cost (scikit-learn's checks); then the RLS path
    # along k features. Measured with scikit-learn 1.9.1, one thread, k = 50: 0.7 s on
    # arcene's training split (180 x 10000, 101 fits), 8.8 s on BASEHOCK's (1793 x 4862, 94
    # fits), 0.6 s on Isolet's (1404 x 617, 26 classes, 74 fits), against 0.5, 13 and 0.7 s
    # estimated at the protocol's 2 GFLOP/s
    s = np.asarray(elimination_sizes(n, k), dtype=np.float64)
    gemm = 2.0 * np.minimum(m * s * s, s * m * m) / GEMM_SPEEDUP
    fits = np.sum(gemm + 2.0 * m * s * t + 4e6)
    return float(fits) + 4.0 * k * k * m * t


#: CPU seconds of one run, measured with ``benchmarks/bench_cost_models.py`` (one thread, the
#: protocol's 10-fold training split of each set): (data, m, n, k, t, seconds);
#: ``tests/benchmark/methods/test_cost_models.py`` holds each estimate within a factor 3.
MEASURED_S = {
    "rfe_fraction": (
        ("arcene", 180, 10000, 50, 1, 0.636),
        ("nci9", 54, 9712, 50, 9, 0.383),
        ("TOX_171", 153, 5748, 50, 4, 0.471),
        ("Prostate_GE", 91, 5966, 50, 1, 0.314),
        ("GLIOMA", 45, 4434, 50, 4, 0.25),
    ),
}


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="rfe_fraction",
    run=run,
    description=f"Recursive feature elimination on ridge regression, {STEP_FRACTION:.0%} of "
    "the survivors per round down to k, then one at a time (Guyon et al. 2002)",
    flops=_flops,
    tags={"package": "scikit-learn (Ridge)", "label": "RFE (10 %)"},
)
