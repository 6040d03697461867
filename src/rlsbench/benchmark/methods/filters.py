"""Univariate and information-theoretic filters: the F-test, mutual information, and mRMR.

Each orders the features on the training split by a score that ignores the protocol's model,
then the protocol's RLS model is scored along the first ``k`` of that order
(:func:`.ranking.ranked_path`); constant columns come last. Targets: the class labels behind the
±1 columns (their argmax; a single ±1 column is its own labels) for classification, the real
values for regression (:func:`.ranking.class_labels`).

Package: scikit-learn (``f_classif``, ``f_regression``, ``mutual_info_classif``,
``mutual_info_regression``), written against 1.9.1 (these functions have kept their form since
0.24). mRMR is implemented here on scikit-learn's mutual-information estimators rather than
taken from ``mrmr-selection`` (0.2.8): that package pulls in polars, category-encoders, jinja2
and tqdm, and its relevance and redundancy are the F statistic and Pearson correlation (FCQ),
not the mutual information of Peng et al. (2005)'s MID criterion.
"""

from __future__ import annotations

import numpy as np

from rlsbench.benchmark.methods import Method, int_seed
from rlsbench.benchmark.methods.ranking import class_labels, protocol_flops, ranked_path
from rlsbench.lazy import lazy_module

# imported at the first selection, not when the workflow reads its methods
skfs = lazy_module("sklearn.feature_selection")


def f_test_scores(X, y):
    """F statistics of the features: ANOVA F between the classes for one-vs-rest columns,
    the F statistic of the univariate regression otherwise.

    For a single ±1 column the two are equal (the two-sample F is (m − 2) r² / (1 − r²), r the
    point-biserial correlation), so ``f_regression`` serves both binary and regression targets.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)

    Returns
    -------
    ndarray of shape (n_features,)
    """
    if y.ndim == 2 and y.shape[1] > 1:
        return skfs.f_classif(X, np.argmax(y, axis=1))[0]
    return skfs.f_regression(X, y.ravel())[0]


def f_test_order(X, y, k):
    """Features by decreasing F statistic (:func:`f_test_scores`), ties by index.

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    return np.argsort(-f_test_scores(X, y), kind="stable")


def mutual_info_scores(X, y, seed):
    """Mutual information of each feature with the targets (scikit-learn's k-nearest-neighbour
    estimators, 3 neighbours): with the class labels (:func:`.ranking.class_labels`), else with
    the real targets.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    seed : int
        Seed of the estimators' small noise on continuous variables (ties).

    Returns
    -------
    ndarray of shape (n_features,)
    """
    labels = class_labels(y)
    if labels is not None:
        return skfs.mutual_info_classif(X, labels, random_state=seed)
    return skfs.mutual_info_regression(X, y.ravel(), random_state=seed)


def mrmr_order(X, y, k, seed):
    """Minimum redundancy maximum relevance, MID form (Peng, Long and Ding 2005, eq. 6–8).

    Greedy: the first feature maximises the relevance I(x_j; y); each next one maximises
    ``I(x_j; y) − mean over selected s of I(x_j; x_s)``, ties by index. The mutual
    informations are scikit-learn's k-nearest-neighbour estimates (continuous features).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    k : int
        Features to order; the other features are not ranked.
    seed : int

    Returns
    -------
    ndarray of shape (min(k, n_features),), int

    References
    ----------
    H. Peng, F. Long and C. Ding. Feature selection based on mutual information: criteria of
    max-dependency, max-relevance, and min-redundancy. IEEE TPAMI 27(8):1226–1238, 2005.
    """
    n = X.shape[1]
    relevance = mutual_info_scores(X, y, seed)
    redundancy = np.zeros(n)
    chosen = np.zeros(n, dtype=bool)
    order = []
    for step in range(min(k, n)):
        score = relevance - (redundancy / step if step else 0.0)
        score[chosen] = -np.inf
        best = int(np.argmax(score))
        order.append(best)
        chosen[best] = True
        rest = np.flatnonzero(~chosen)
        if step + 1 < min(k, n) and rest.size:
            redundancy[rest] += skfs.mutual_info_regression(
                X[:, rest], X[:, best], random_state=seed
            )
    return np.asarray(order, dtype=np.intp)


def _f_test_run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along the first k features by F statistic (:func:`f_test_order`)."""
    return ranked_path(
        "f_test",
        X,
        y,
        k,
        alpha=alpha,
        bias=bias,
        criterion=criterion,
        n_jobs=n_jobs,
        rank=f_test_order,
    )


def _mutual_info_run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along the first k features by mutual information (:func:`mutual_info_scores`)."""
    seed = int_seed(seed)
    return ranked_path(
        "mutual_info",
        X,
        y,
        k,
        alpha=alpha,
        bias=bias,
        criterion=criterion,
        n_jobs=n_jobs,
        rank=lambda Xv, yv, kv: np.argsort(-mutual_info_scores(Xv, yv, seed), kind="stable"),
    )


def _mrmr_run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along mRMR's k features (:func:`mrmr_order`)."""
    seed = int_seed(seed)
    return ranked_path(
        "mrmr",
        X,
        y,
        k,
        alpha=alpha,
        bias=bias,
        criterion=criterion,
        n_jobs=n_jobs,
        rank=lambda Xv, yv, kv: mrmr_order(Xv, yv, kv, seed),
    )


def _knn_mi_flops(m):
    # one k-nearest-neighbour mutual information estimate: KD-tree builds and m queries plus
    # a fixed cost; measured with scikit-learn 1.9.1, one thread: 3.8, 7.0 and 15.4 ms per
    # feature at m = 100, 500, 2000, i.e. about (6e6 + 1200 m log2 m) flops at 2 GFLOP/s
    return 6e6 + 1200.0 * m * np.log2(max(m, 2))


def _knn_mi_classif_flops(m, t):
    # the same estimate against class labels (mutual_info_classif): a neighbour search within
    # each class on top, about 1 ms plus 1.1 ms per class at the nominal rate (measured, one
    # thread: 6.1 ms per feature on arcene's split, m = 180, 2 classes; 13.8 ms on nci9's,
    # m = 54, 9 classes). One output (t = 1) is counted as two classes: a regression target
    # costs less
    classes = t if t > 1 else 2
    return _knn_mi_flops(m) + 2e6 + 2.2e6 * classes


#: CPU seconds of one run, measured with ``benchmarks/bench_cost_models.py`` (scikit-learn
#: 1.9.1, one thread, the protocol's 10-fold training split of each set, k = 50): (data, m, n,
#: k, t, seconds); ``tests/benchmark/methods/test_cost_models.py`` holds each estimate within
#: a factor 3.
MEASURED_S = {
    "f_test": (
        ("arcene", 180, 10000, 50, 1, 0.0586),
        ("nci9", 54, 9712, 50, 9, 0.0373),
        ("TOX_171", 153, 5748, 50, 4, 0.0350),
        ("Prostate_GE", 91, 5966, 50, 1, 0.0289),
        ("GLIOMA", 45, 4434, 50, 4, 0.0176),
    ),
    "mutual_info": (
        ("arcene", 180, 10000, 50, 1, 61.2),
        ("nci9", 54, 9712, 50, 9, 134.0),
    ),
    "mrmr": (
        ("arcene, 500 random columns", 180, 500, 10, 1, 26.0),
        ("nci9, 500 random columns", 54, 500, 10, 9, 25.2),
    ),
}


# One entry point each in pyproject.toml ([project.entry-points."rlsbench.methods"]).
f_test = Method(
    name="f_test",
    run=_f_test_run,
    description="Univariate F-test filter (f_classif / f_regression), scikit-learn",
    # the F statistics (scikit-learn centres a copy of X and scales it: about 40 m n at the
    # nominal rate), then the run's checks and RLS path
    flops=lambda m, n, k, t: 40.0 * m * n + protocol_flops(m, n, k, t),
    tags={"package": "scikit-learn (f_classif, f_regression)"},
)
mutual_info = Method(
    name="mutual_info",
    run=_mutual_info_run,
    description="Univariate mutual-information filter (k-NN estimate), scikit-learn",
    flops=lambda m, n, k, t: n * _knn_mi_classif_flops(m, t) + protocol_flops(m, n, k, t),
    tags={"package": "scikit-learn (mutual_info_classif, mutual_info_regression)"},
)
mrmr = Method(
    name="mrmr",
    run=_mrmr_run,
    description="mRMR, MID criterion (Peng et al. 2005) on scikit-learn's MI estimates",
    # relevance of every feature (against the targets), then the redundancy of the rest
    # against each pick (feature against feature: the regression estimator)
    flops=lambda m, n, k, t: (
        n * _knn_mi_classif_flops(m, t) + k * n * _knn_mi_flops(m) + protocol_flops(m, n, k, t)
    ),
    tags={"package": "scikit-learn (mutual_info_classif, mutual_info_regression)"},
)
