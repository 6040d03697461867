"""Hyperparameters as in Sun & Yao (sec. 4): σ² fixed; λ = σ²α, width r and k_max by 5-fold CV.

The CV runs on a random subset of (at most) 1000 examples. For the forward method every
(r, λ, k_max) on the grid is scored (the factor rank is p = k_max, so each k_max is its own fit);
for the RVMs only r is searched (α and σ² are what they optimize).
"""

from __future__ import annotations

import itertools

import numpy as np
from sklearn.model_selection import KFold

from rlsbench.numerics.marglik.models import ForwardMarglikRegressor, RVMRegressor
from rlsbench.numerics.marglik.rvm import BudgetExceeded


def cv_subset(n_samples, size, seed):
    """Indices of the CV subset: ``size`` examples drawn without replacement (all if fewer).

    Parameters
    ----------
    n_samples, size, seed : int

    Returns
    -------
    ndarray of shape (min(size, n_samples),), int
    """
    rng = np.random.default_rng(seed)
    return np.sort(rng.permutation(n_samples)[: min(size, n_samples)])


def _folds(n, n_splits, seed):
    return list(KFold(n_splits=n_splits, shuffle=True, random_state=seed).split(np.arange(n)))


def cv_forward(X, y, widths, lams, k_maxs, *, sigma2=1.0, n_splits=5, seed=0, progress=None):
    """Grid search of (r, λ, k_max) for :class:`ForwardMarglikRegressor` by K-fold CV.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    widths, lams, k_maxs : sequences
        Grids of r, λ and k_max (k_max is capped at the fold's training size; grid values that
        every fold caps to the same sizes are fitted once and share their row's ``cv_mse``).
    sigma2 : float, default=1.0
    n_splits : int, default=5
    seed : int, default=0
    progress : callable, optional
        Called as ``progress(detail)`` after each grid point (a long search's log).

    Returns
    -------
    best : dict
        ``width``, ``lam``, ``k_max``, ``cv_mse`` of the lowest mean validation MSE (ties: first
        on the grid in the given order), and ``at_grid_edge`` (:func:`grid_edges`; k_max is
        not flagged once it reaches the smallest training fold).
    rows : list of dict
        One per grid point: ``width``, ``lam``, ``k_max``, ``cv_mse``.
    """
    folds = _folds(len(y), n_splits, seed)
    rows, fitted = [], {}
    for width, lam, k_max in itertools.product(widths, lams, k_maxs):
        ks = tuple(int(min(k_max, len(train))) for train, _ in folds)
        key = (width, lam, ks)
        if key not in fitted:
            errors = []
            for (train, val), k in zip(folds, ks):
                model = ForwardMarglikRegressor(width=width, lam=lam, k_max=k, sigma2=sigma2)
                model.fit(X[train], y[train])
                errors.append(np.mean((model.predict(X[val]) - y[val]) ** 2))
            fitted[key] = float(np.mean(errors))
        rows.append(
            {"width": float(width), "lam": float(lam), "k_max": int(k_max), "cv_mse": fitted[key]}
        )
        if progress is not None:
            progress(f"r={width:g}, λ={lam:g}, k_max={k_max}: CV MSE {fitted[key]:.4g}")
    best = dict(min(rows, key=lambda r: r["cv_mse"]))
    best["at_grid_edge"] = grid_edges(
        best,
        {"width": widths, "lam": lams, "k_max": k_maxs},
        k_cap=min(len(train) for train, _ in folds),
    )
    return best, rows


def grid_edges(best, grids, *, k_cap=None):
    """The hyperparameters whose CV choice lies on the boundary of its grid.

    A choice at the boundary means the optimum may lie outside the grid. ``k_max`` at the top
    of its grid is not flagged when it reaches ``k_cap`` (every basis vector is then allowed,
    so the grid cannot be widened upwards).

    Parameters
    ----------
    best : dict
        The chosen point, e.g. ``{"width": 8.0, "lam": 0.001, "k_max": 200}``.
    grids : dict
        ``{name: sequence}`` of the searched values of each key of ``best`` that was searched.
    k_cap : int or None
        The smallest training-fold size (the largest k_max that can take effect).

    Returns
    -------
    list of str
        E.g. ``["lam=0.001 (lowest of 5)"]``; empty if every choice is interior (or its grid
        has a single value).
    """
    edges = []
    for name, grid in grids.items():
        values = sorted(set(float(v) for v in grid))
        if len(values) < 2:
            continue
        value = float(best[name])
        if name == "k_max" and k_cap is not None and value >= k_cap:
            continue
        if value == values[0]:
            edges.append(f"{name}={best[name]:g} (lowest of {len(values)})")
        elif value == values[-1]:
            edges.append(f"{name}={best[name]:g} (highest of {len(values)})")
    return edges


def cv_rvm(
    X,
    y,
    widths,
    *,
    method,
    sigma2=None,
    n_splits=5,
    seed=0,
    max_iter=2000,
    tol=1e-6,
    flop_budget=None,
    progress=None,
):
    """Grid search of the width r for :class:`RVMRegressor` by K-fold CV.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    widths : sequence of float
    method : {"tipping2001", "fast"}
    sigma2 : float or None
        Fixed noise variance, or None to re-estimate it.
    n_splits, seed, max_iter, tol : see :class:`RVMRegressor`
    flop_budget : float or None
        Estimated floating-point operations per fit (see :class:`RVMRegressor`); a grid point
        whose fit would exceed it gets ``cv_mse = inf`` (a count, so the same on any machine).
    progress : callable, optional
        Called as ``progress(detail)`` after each width (a long search's log).

    Returns
    -------
    best : dict
        ``width``, ``cv_mse`` and ``at_grid_edge`` (:func:`grid_edges`).
    rows : list of dict
    """
    folds = _folds(len(y), n_splits, seed)
    rows = []
    for width in widths:
        errors = []
        for train, val in folds:
            model = RVMRegressor(
                width=width,
                method=method,
                sigma2=sigma2,
                max_iter=max_iter,
                tol=tol,
                flop_budget=flop_budget,
            )
            try:
                model.fit(X[train], y[train])
            except BudgetExceeded:
                errors.append(np.inf)
                break
            errors.append(np.mean((model.predict(X[val]) - y[val]) ** 2))
        rows.append({"width": float(width), "cv_mse": float(np.mean(errors))})
        if progress is not None:
            progress(f"r={width:g}: CV MSE {rows[-1]['cv_mse']:.4g}")
    best = dict(min(rows, key=lambda r: r["cv_mse"]))
    best["at_grid_edge"] = grid_edges(best, {"width": widths})
    return best, rows
