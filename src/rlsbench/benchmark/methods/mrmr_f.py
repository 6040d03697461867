"""mRMR with F-statistic relevance and correlation redundancy: the FCQ scheme, vectorised.

Relevance is each feature's F statistic with the targets (:func:`.filters.f_test_scores`:
ANOVA F between the classes for one-vs-rest columns, the univariate regression's F otherwise);
redundancy is the mean absolute Pearson correlation with the features already selected. The
first feature maximises the relevance; each next one maximises the quotient
``F(x_j) / mean over selected s of |corr(x_j, x_s)|`` (the FCQ criterion of Ding and Peng
2005 for continuous features, the variant Zhao et al. 2019 recommend), the redundancy floored at
:data:`REDUNDANCY_FLOOR` so that a feature uncorrelated with every pick is not divided by zero.
Ties by index. The correlations with each new pick are one
matrix-vector product with the standardised columns, added to a running sum, so the order of
k features costs O(kmn), like greedy RLS, where :data:`.filters.mrmr` (the MID criterion on
nearest-neighbour mutual information, kept as its own method) needs k·n mutual-information
estimates.

The protocol's RLS model is scored along the first ``k`` (:func:`.ranking.ranked_path`);
constant columns come last.

Package: scikit-learn (``f_classif``, ``f_regression``, through :mod:`.filters`).

References
----------
C. Ding and H. Peng. Minimum redundancy feature selection from microarray gene expression data.
Journal of Bioinformatics and Computational Biology 3(2):185–205, 2005.

Z. Zhao, R. Anand and M. Wang. Maximum relevance and minimum redundancy feature selection
methods for a marketing machine learning platform. IEEE DSAA 2019, 442–452.
"""

from __future__ import annotations

import numpy as np

from rlsbench.benchmark.methods import Method
from rlsbench.benchmark.methods.filters import f_test_scores
from rlsbench.benchmark.methods.ranking import ranked_path

#: Smallest mean absolute correlation the quotient divides by.
REDUNDANCY_FLOOR = 1e-3


def mrmr_f_order(X, y, k):
    """The first ``k`` features by the FCQ criterion (the module docstring).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        No constant column (:func:`.ranking.ranked_path` removes them).
    y : ndarray of shape (n_samples,) or (n_samples, t)
    k : int

    Returns
    -------
    ndarray of shape (min(k, n_features),), int
    """
    m, n = X.shape
    relevance = np.nan_to_num(f_test_scores(X, y), nan=0.0, posinf=np.finfo(np.float64).max)
    # unit-norm centred columns: their inner products are the Pearson correlations
    Z = X - X.mean(axis=0)
    Z /= np.linalg.norm(Z, axis=0)
    redundancy = np.zeros(n)
    chosen = np.zeros(n, dtype=bool)
    order = np.empty(min(k, n), dtype=np.intp)
    for step in range(order.size):
        if step == 0:
            score = relevance.copy()
        else:
            score = relevance / np.maximum(redundancy / step, REDUNDANCY_FLOOR)
        score[chosen] = -np.inf
        best = int(np.argmax(score))
        order[step] = best
        chosen[best] = True
        if step + 1 < order.size:
            redundancy += np.abs(Z.T @ Z[:, best])
    return order


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along the first k features of :func:`mrmr_f_order`."""
    return ranked_path(
        "mrmr_f",
        X,
        y,
        k,
        alpha=alpha,
        bias=bias,
        criterion=criterion,
        n_jobs=n_jobs,
        rank=mrmr_f_order,
    )


def _flops(m, n, k, t):
    # the F statistics and the standardised copy (a few passes of m n), per pick one
    # correlation product and its absolute value (4 m n: memory-bound passes over X), then the
    # RLS path along k features. Measured with NumPy's OpenBLAS, one thread, k = 50: 0.18 s on
    # arcene's training split (180 x 10000), 0.5 s on BASEHOCK's (1793 x 4862), against 0.19
    # and 0.9 s estimated at the protocol's 2 GFLOP/s
    return 8.0 * m * n + 4.0 * k * m * n + 4.0 * k * k * m * t


#: CPU seconds of one run, measured with ``benchmarks/bench_cost_models.py`` (one thread, the
#: protocol's 10-fold training split of each set): (data, m, n, k, t, seconds);
#: ``tests/benchmark/methods/test_cost_models.py`` holds each estimate within a factor 3.
MEASURED_S = {
    "mrmr_f": (
        ("arcene", 180, 10000, 50, 1, 0.229),
        ("nci9", 54, 9712, 50, 9, 0.06),
        ("TOX_171", 153, 5748, 50, 4, 0.0874),
        ("Prostate_GE", 91, 5966, 50, 1, 0.0439),
        ("GLIOMA", 45, 4434, 50, 4, 0.0318),
    ),
}


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="mrmr_f",
    run=run,
    description="mRMR, FCQ criterion (F-statistic relevance / mean |Pearson| redundancy; "
    "Ding & Peng 2005), O(kmn)",
    flops=_flops,
    tags={"package": "scikit-learn (f_classif, f_regression)", "label": "mRMR (F/corr)"},
)
