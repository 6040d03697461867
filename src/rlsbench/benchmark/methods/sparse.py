"""Sparse-regression baselines: the order in which features enter a Lasso path, an elastic-net
path, or orthogonal matching pursuit.

Each orders the features on the training split by the step at which its coefficient first
leaves zero along the method's own path (scikit-learn computes the path), then the protocol's
RLS model is scored along the first ``k`` of that order (:func:`.ranking.ranked_path`). The
paths are fitted on centred targets without intercept: the protocol's X is standardised
(centred), so this is the path with an intercept. Features the path never reaches (LARS and
OMP stop at the rank of X; a λ grid ends) follow by decreasing squared correlation with the
targets (:func:`.ranking.correlation_scores`); constant columns come last.

Package: scikit-learn (``lars_path``, ``enet_path``, ``orthogonal_mp``), written against
1.9.1; these functions and their outputs have kept their form since 1.0 (``alphas=`` as an
int, used here, since 1.7).
"""

from __future__ import annotations

import warnings

import numpy as np

from rlsbench.benchmark.methods import Method
from rlsbench.benchmark.methods.kfold import KFoldFit, KFoldTask
from rlsbench.benchmark.methods.ranking import (
    centered_targets,
    complete,
    correlation_scores,
    ranked_path,
)
from rlsbench.lazy import lazy_module

# imported at the first selection, not when the workflow reads its methods
sklm = lazy_module("sklearn.linear_model")
sklearn_exceptions = lazy_module("sklearn.exceptions")

#: Length of the λ grid of the coordinate-descent paths (scikit-learn's default, from
#: ``eps * λ_max`` to ``λ_max``).
N_ALPHAS = 100

#: Mixing of the elastic net's penalty, ``l1_ratio`` (scikit-learn's default; 1 is the Lasso).
L1_RATIO = 0.5


def entry_order(coefs):
    """Features in the order their coefficients first leave zero along a path.

    Parameters
    ----------
    coefs : ndarray of shape (n_features, n_steps) or (t, n_features, n_steps)
        Coefficients along the path (scikit-learn's layout); with several outputs a feature
        is in the model when any of its t coefficients is non-zero.

    Returns
    -------
    ndarray of shape (p,), int
        The p features that ever leave zero, by first step; features entering at the same
        step by decreasing coefficient norm there, then by index.
    """
    norms = np.sqrt((coefs**2).sum(axis=0)) if coefs.ndim == 3 else np.abs(coefs)
    active = norms > 0
    entered = np.flatnonzero(active.any(axis=1))
    first = active[entered].argmax(axis=1)
    size_then = norms[entered, first]
    return entered[np.lexsort((entered, -size_then, first))]


def lasso_order(X, y, k):
    """Lasso entry order: LARS with the Lasso modification (``lars_path(method="lasso")``) for
    one output; for several (one-vs-rest columns) the multi-task Lasso path (an ℓ2,1 penalty
    on each feature's row of coefficients) on a grid of :data:`N_ALPHAS` λ.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    k : int
        LARS stops once k features have entered (or at the end of its path).

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    Y = centered_targets(y)
    if Y.shape[1] > 1:
        return _enet_order(X, Y, l1_ratio=1.0)
    max_iter = k
    while True:
        # a step of the Lasso modification can drop a feature, so k steps may hold fewer
        # than k entries: double the steps until k have entered or the path ends
        with warnings.catch_warnings():
            # collinear columns: LARS' note
            warnings.simplefilter("ignore", sklearn_exceptions.ConvergenceWarning)
            alphas, _, coefs = sklm.lars_path(X, Y[:, 0], method="lasso", max_iter=max_iter)
        order = entry_order(coefs)
        if order.size >= k or alphas.size - 1 < max_iter:
            return complete(order, correlation_scores(X, Y))
        max_iter *= 2


def _enet_order(X, Y, *, l1_ratio):
    with warnings.catch_warnings():
        # the last λ of a grid on m < n
        warnings.simplefilter("ignore", sklearn_exceptions.ConvergenceWarning)
        _, coefs, _ = sklm.enet_path(
            X, Y if Y.shape[1] > 1 else Y[:, 0], l1_ratio=l1_ratio, alphas=N_ALPHAS
        )
    return complete(entry_order(coefs), correlation_scores(X, Y))


def enet_order(X, y, k):
    """Elastic-net entry order along scikit-learn's coordinate-descent ``enet_path``
    (``l1_ratio`` = :data:`L1_RATIO`, a grid of :data:`N_ALPHAS` λ; multi-task for several
    outputs).

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    return _enet_order(X, centered_targets(y), l1_ratio=L1_RATIO)


def omp_order(X, y, k):
    """Orthogonal matching pursuit's support order (scikit-learn's ``orthogonal_mp`` with
    ``return_path=True``, k atoms).

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    Y = centered_targets(y)
    with warnings.catch_warnings():
        # OMP stops early when the residual is orthogonal to what is left (collinear columns):
        # the completion below orders the rest
        warnings.simplefilter("ignore", RuntimeWarning)
        coefs = sklm.orthogonal_mp(X, Y[:, 0], n_nonzero_coefs=min(k, X.shape[1]), return_path=True)
    coefs = coefs.reshape(X.shape[1], -1)
    return complete(entry_order(coefs), correlation_scores(X, Y))


def _runner(name, rank):
    def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
        return ranked_path(
            name, X, y, k, alpha=alpha, bias=bias, criterion=criterion, n_jobs=n_jobs, rank=rank
        )

    run.__doc__ = f"RLS path along the first k features of :func:`{rank.__name__}`."
    return run


def lasso_kfold(task: KFoldTask, *, path: str = "lasso", stop="cv") -> KFoldFit:
    """LARS on a K-fold task (Buteneers et al.'s LARS column), no intercept: the task's X
    carries its own constant column.

    The default is the Lasso with its penalty chosen by the task's folds
    (:class:`sklearn.linear_model.LassoLarsCV`,
    :func:`~rlsbench.numerics.ridgecv.baselines.fit_lars`).
    Any other choice runs the path of ``path`` on all rows and stops it by ``stop``
    (:func:`~rlsbench.numerics.ridgecv.baselines.fit_lars_path`). The fixed cost is one
    full-data path of ``path`` on the free columns.

    Parameters
    ----------
    task : KFoldTask
    path : {"lasso", "lar"}
        LARS with the Lasso modification, or plain least angle regression (Efron et al. 2004).
    stop : "cv", "end" or int
        The number of steps (``"lar"``; the penalty for ``"lasso"``) with the lowest validation
        error on the task's folds, the whole path, or a fixed number of steps.

    Returns
    -------
    KFoldFit
        ``cv_sse`` is the validation error at the chosen step (None for LassoLarsCV, which
        keeps no error on the task's grid); ``extra["n_steps"]``: the steps of the path taken
        (not for LassoLarsCV).

    Raises
    ------
    ValueError
        A bad ``path`` or ``stop``; the message names the method and the option.
    """
    from rlsbench.benchmark.timing import Stopwatch
    from rlsbench.numerics.ridgecv.baselines import (
        LARS_PATHS,
        LARS_STOPS,
        fit_lars,
        fit_lars_path,
        lars_path_time,
    )

    if path not in LARS_PATHS:
        raise ValueError(
            f"method 'lasso_path': option path must be one of {LARS_PATHS}, got {path!r}"
        )
    steps = isinstance(stop, (int, np.integer)) and not isinstance(stop, bool) and stop >= 1
    if not steps and stop not in LARS_STOPS:
        raise ValueError(
            f"method 'lasso_path': option stop must be one of {LARS_STOPS} or a number of "
            f"steps >= 1, got {stop!r}"
        )
    t_fixed = lars_path_time(task.X[:, task.free], task.y, method=path)
    if path == "lasso" and stop == "cv":
        with Stopwatch() as clock:
            model = fit_lars(task.X, task.y, task.folds)
        sel = np.flatnonzero(model.coef_)
        return KFoldFit(t_fixed, clock.wall_s, sel, float(model.alpha_), None, model.coef_[sel])
    with Stopwatch() as clock:
        model = fit_lars_path(task.X, task.y, task.folds, method=path, stop=stop)
    sel = np.flatnonzero(model.coef)
    cv_sse = None if model.cv_sse is None else float(model.cv_sse[model.n_steps])
    return KFoldFit(
        t_fixed,
        clock.wall_s,
        sel,
        model.alpha,
        cv_sse,
        model.coef[sel],
        extra={"n_steps": model.n_steps},
    )


def _cd_path_flops(m, n, k, t):
    # coordinate descent: about 10 sweeps of 2mn per λ of the grid, warm-started
    return N_ALPHAS * 10 * 2.0 * m * n * t + 4.0 * k * k * m * t


# One entry point each in pyproject.toml ([project.entry-points."rlsbench.methods"]).
lasso_path = Method(
    name="lasso_path",
    run=_runner("lasso_path", lasso_order),
    description="Lasso entry order (LARS-lasso; multi-task Lasso path for several outputs), "
    "scikit-learn",
    # LARS: one correlation pass (2mn) and a Cholesky update per step; the multi-task case
    # runs the coordinate-descent grid
    flops=lambda m, n, k, t: (
        _cd_path_flops(m, n, k, t) if t > 1 else 2.0 * 2 * k * m * n + 4.0 * k * k * m
    ),
    # on a K-fold task (Buteneers et al.'s LARS column): the Lasso at a K-fold penalty
    tags={"package": "scikit-learn (lars_path, enet_path)", "kfold": lasso_kfold},
)
enet_path = Method(
    name="enet_path",
    run=_runner("enet_path", enet_order),
    description=f"Elastic-net entry order (l1_ratio={L1_RATIO}, {N_ALPHAS} λ), scikit-learn",
    flops=_cd_path_flops,
    tags={"package": "scikit-learn (enet_path)"},
)
omp = Method(
    name="omp",
    run=_runner("omp", omp_order),
    description="Orthogonal matching pursuit support order, scikit-learn orthogonal_mp",
    tasks=("binary", "regression"),
    flops=lambda m, n, k, t: 2.0 * k * m * n + 4.0 * k * k * m,
    tags={"package": "scikit-learn (orthogonal_mp)"},
)
