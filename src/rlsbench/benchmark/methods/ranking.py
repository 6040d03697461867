"""What the baseline methods (``sparse``, ``filters``, ``rfe``, ``stability``, ``abess``)
share: the constant-column rule, the completion of a partial order, the class labels behind ±1
columns, the RLS path along the order the protocol scores, and the path of one RLS model per
subset for a method whose subsets are not nested (:func:`subsets_path`).

Each ranker orders the non-constant columns of the training split; the constant ones (which
change no linear model and which no ranker can score: a zero correlation, a 0/0 F statistic, a
lasso coefficient that never leaves zero) come after them, as the plugin contract asks
(:mod:`rlsbench.benchmark.methods`). The protocol's RLS model is then fitted along the first
``k`` features of the order with :func:`rlsbench.numerics.selection.ridge_path` (λ = the
protocol's ``alpha``), as for the Ramona et al. rankers.
"""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.methods import as_float64, check_k


def prepare(name, X, y, k):
    """X and y as float64 after the plugin checks, and the mask of non-constant columns.

    Parameters
    ----------
    name : str
        The method's name, for error messages.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or (n_samples, t)
    k : int

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,) or (n_samples, t), float64
    varying : ndarray of shape (n_features,), bool
        False for the constant columns.
    """
    X = as_float64(X, "X", name)
    y = as_float64(y, "y", name)
    # the rankers order the columns they are given whatever k is: without this, k beyond
    # n_features would give a short path instead of the contract's error
    check_k(name, k, X.shape[1])
    varying = ~np.all(X == X[:1], axis=0)
    return X, y, varying


def centered_targets(y):
    """y minus its mean, as (n_samples, t): the protocol's X is centred (standardised), so a
    path without intercept on centred targets is the path with one."""
    Y = y.reshape(y.shape[0], -1)
    return Y - Y.mean(axis=0)


def class_labels(y):
    """Class labels behind the targets, or None for real-valued ones.

    One-vs-rest ±1 columns (shape (n, t)) give the index of the +1 column (their argmax); a
    single column with at most two distinct values (the ±1 of a binary task) is its own
    labels. Anything else is a regression target.
    """
    if y.ndim == 2 and y.shape[1] > 1:
        return np.argmax(y, axis=1)
    values = np.unique(y)
    return y.ravel() if values.size <= 2 else None


def correlation_scores(X, y):
    """Sum over outputs of the squared inner product of each centred column with the centred
    targets: the order in which features would join a path that starts at zero weights (the
    smallest λ at which a lasso coefficient leaves zero is proportional to it).

    Returns
    -------
    ndarray of shape (n_features,)
    """
    Y = centered_targets(y)
    return ((X - X.mean(axis=0)).T @ Y) ** 2 @ np.ones(Y.shape[1])


def complete(order, scores):
    """``order`` followed by the columns it lacks, by decreasing ``scores`` (stable).

    A path that stops early (LARS or OMP at the rank of X, a grid that ends before every
    coefficient leaves zero) orders only some columns; the rest come after them in the order
    of ``scores``.

    Parameters
    ----------
    order : array-like of int, shape (p,)
    scores : ndarray of shape (n_features,)

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    order = np.asarray(order, dtype=np.intp)
    rest = np.setdiff1d(np.arange(scores.size), order)
    rest = rest[np.argsort(-scores[rest], kind="stable")]
    return np.concatenate([order, rest])


#: CPU seconds of one run of ``random``, whose ranking costs nothing (see
#: :func:`protocol_flops`): (data, m, n, k, t, seconds).
MEASURED_S = {
    "random": (
        ("arcene", 180, 10000, 50, 1, 0.0267),
        ("nci9", 54, 9712, 50, 9, 0.0145),
        ("TOX_171", 153, 5748, 50, 4, 0.0211),
        ("Prostate_GE", 91, 5966, 50, 1, 0.0198),
        ("GLIOMA", 45, 4434, 50, 4, 0.0105),
    ),
}

#: Fixed operations of one selection run at the protocol's nominal 2 GFLOP/s (about 5 ms:
#: threadpoolctl's context, the RLS path's set-up, the path object and its checks).
RUN_OVERHEAD_FLOPS = 1e7


def protocol_flops(m, n, k, t):
    """Operations every method's run pays beyond its own ranking, for the cost models: the
    input checks (a finite scan, the constant-column mask, ``max |x|``: about 20 m n at the
    nominal rate, memory-bound passes over X), :data:`RUN_OVERHEAD_FLOPS`, and the RLS path
    along k features (4 k² m per output).

    Measured with ``benchmarks/bench_cost_models.py`` (``random``, whose ranking costs nothing,
    one thread, k = 50): 0.027 s on arcene's training split (180 x 10000), 0.015 s on nci9's
    (54 x 9712, 9 classes), 0.021 s on TOX_171's (153 x 5748, 4 classes), 0.020 s on
    Prostate_GE's (91 x 5966), 0.011 s on GLIOMA's (45 x 4434, 4 classes), against 0.024,
    0.011, 0.017, 0.011 and 0.008 s estimated at 2 GFLOP/s.

    Parameters
    ----------
    m, n, k, t : int
        Training examples, features, features selected, outputs.

    Returns
    -------
    float
    """
    return 20.0 * m * n + RUN_OVERHEAD_FLOPS + 4.0 * k * k * m * t


def ranked_path(name, X, y, k, *, alpha, bias, criterion, n_jobs, rank, info=None):
    """The RLS path along the first ``k`` features of ``rank``'s order, constant columns last.

    Parameters
    ----------
    name : str
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or (n_samples, t)
    k : int
    alpha, bias, criterion
        Those of the protocol (the module docstring of :mod:`rlsbench.benchmark.methods`).
    n_jobs : int
        BLAS threads the ranker may use.
    rank : callable
        ``rank(X, y, k) -> order``: X holds only the non-constant columns (at least one);
        ``order`` holds at least ``min(k, X.shape[1])`` distinct column indices of it, best
        first.
    info : dict, optional
        Extras for ``SelectionPath.info``.

    Returns
    -------
    SelectionPath
        ``info["order"]`` holds the ranked columns (original indices).
    """
    from rlsbench.numerics.selection import ridge_path

    X, y, varying = prepare(name, X, y, k)
    columns = np.flatnonzero(varying)
    ranked = np.empty(0, dtype=np.intp)
    if columns.size:
        with threadpool_limits(limits=max(int(n_jobs or 1), 1)):
            ranked = columns[np.asarray(rank(X[:, columns], y, k), dtype=np.intp)]
        if ranked.size < min(k, columns.size) or np.unique(ranked).size != ranked.size:
            raise RuntimeError(
                f"method {name!r}: the ranker ordered {ranked.tolist()}, not "
                f"{min(k, columns.size)} distinct columns"
            )
    order = np.concatenate([ranked, np.flatnonzero(~varying)])
    path = ridge_path(X, y, order[:k], alpha, bias=bias, criterion=criterion)
    path.info.update({"order": order.tolist(), **(info or {})})
    return path


def subsets_path(X, y, subsets, *, alpha, bias, criterion, constant=None):
    """The path of a method whose subsets are not nested: one RLS model per subset.

    Every subset is ordered by the smallest step whose subset holds the feature (then the
    constant columns after the others, then by index), so that the last one is ``selected``
    and each row of ``coef_path`` follows its subset (:class:`SelectionPath` ``subsets``).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    subsets : sequence of k array-likes of int
        Entry s holds the s + 1 features of step s, in any order.
    alpha, bias, criterion
        Those of the protocol; λ = ``alpha`` at every step.
    constant : ndarray of shape (n_features,), bool, optional
        Constant columns, ordered after the others of their step.

    Returns
    -------
    SelectionPath
        ``criterion`` and ``loo_mse`` of each step are those of its own model;
        ``info["first_size"]`` holds the smallest step size (s + 1) whose subset holds each
        feature of ``selected``.
    """
    from rlsbench.numerics.path import SelectionPath
    from rlsbench.numerics.selection import subset_models

    k, n = len(subsets), X.shape[1]
    subsets = [np.asarray(sub, dtype=np.intp) for sub in subsets]
    constant = np.zeros(n, dtype=bool) if constant is None else constant
    first_size = np.full(n, k + 1)
    for size, sub in enumerate(subsets, start=1):
        first_size[sub] = np.minimum(first_size[sub], size)
    rank = np.lexsort((np.arange(n), constant, first_size))
    position = np.empty_like(rank)
    position[rank] = np.arange(n)
    subsets = [sub[np.argsort(position[sub])] for sub in subsets]

    t = y.shape[1] if y.ndim == 2 else None
    coef_path = np.zeros((k, k) if t is None else (k, k, t))
    intercept_path = np.zeros(k if t is None else (k, t))
    crit = np.empty(k)
    loo_mse = np.empty(k)
    models = subset_models(X, y, subsets, alpha, bias=bias, criterion=criterion)
    for s, (coef, intercept, criterion_s, mse) in enumerate(models):
        coef_path[s, : s + 1] = coef
        intercept_path[s] = intercept
        crit[s], loo_mse[s] = criterion_s, mse
    return SelectionPath(
        selected=subsets[-1],
        criterion=crit,
        loo_mse=loo_mse,
        coef_path=coef_path,
        intercept_path=intercept_path,
        alphas=np.full(k, float(alpha)),
        info={"first_size": first_size[subsets[-1]].tolist()},
        subsets=tuple(subsets),
    )
