"""The experiments of Buteneers et al., Section 5 (Tables 3-6): every method on one task.

A task is a training and a test matrix of read-out features (fixed-size LS-SVM or ELM
features) with targets; :func:`run_task` times and evaluates the methods of the tables and
returns one tidy row per method:

``t_fixed``  cost shared by all λ values (fold covariances; LARS: the full-data LAR path),
``t_opt``    time to choose λ (and the feature set), ``pct_removed``, test ``error``.

:func:`timing_point` measures how the optimisation time grows with M and N (the claim that
covariance/eigen cost does not depend on M once the covariances are computed).
"""

from __future__ import annotations

import numpy as np

from rlsbench.benchmark.timing import Stopwatch
from rlsbench.numerics.ridgecv.baselines import fit_lars, lars_path_time, lars_ranking, op_lr, op_rr
from rlsbench.numerics.ridgecv.ffs_bfs import backward_selection, forward_selection, refit
from rlsbench.numerics.ridgecv.kfold_lambda import (
    fold_statistics,
    lambda_grid,
    make_folds,
    ridge_weights,
    search_lambda,
)

#: Column order of Tables 3-5.
TABLE_METHODS = (
    "rr_naive",
    "rr_covariance",
    "rr_eigen",
    "ffs_covariance",
    "ffs_eigen",
    "bfs_covariance",
    "bfs_eigen",
    "lars",
    "op_lr",
    "op_rr",
)


def test_error(task: str, y_test, decision) -> float:
    """Misclassification in % (classification) or normalized RMSE ×10 (regression).

    NRMSE = RMSE / std(y_test), the paper's "normalized root mean squared error".
    """
    y_test = np.asarray(y_test, dtype=np.float64)
    decision = np.asarray(decision, dtype=np.float64)
    if task == "classification":
        return float(100.0 * np.mean(np.where(decision >= 0, 1.0, -1.0) != y_test))
    return float(10.0 * np.sqrt(np.mean((decision - y_test) ** 2)) / np.std(y_test))


def run_task(
    X_train,
    y_train,
    X_test,
    y_test,
    *,
    task: str,
    methods=TABLE_METHODS,
    n_folds: int,
    n_lambdas: int,
    seed: int,
    fixed=(),
    max_seconds=None,
    log=None,
) -> list[dict]:
    """Every method of the tables on one train/test split.

    Parameters
    ----------
    X_train : ndarray of shape (M, N)
        Read-out features of the training rows (including a constant column if wanted).
    y_train : ndarray of shape (M,)
        ±1 (classification) or standardized real targets (regression).
    X_test : ndarray of shape (M_test, N)
    y_test : ndarray of shape (M_test,)
        In the same units as ``y_train``.
    task : {"classification", "regression"}
    methods : sequence of str
        Subset of :data:`TABLE_METHODS`.
    n_folds, n_lambdas : int
        K and R.
    seed : int
        Fold assignment seed.
    fixed : sequence of int
        Columns FFS/BFS never add/remove (the constant column).
    max_seconds : float, optional
        Budget of each covariance-variant FFS/BFS run (they are R·N/… times slower); a cut run
        is reported with ``timed_out`` and its time as a lower bound.
    log : callable, optional
        ``log(str)`` progress messages.

    Returns
    -------
    list of dict
        One row per method (see module docstring); also ``alpha``, ``cv_mse``, ``n_selected``,
        ``cond`` (condition number of the training covariance), ``timed_out``.
    """
    unknown = set(methods) - set(TABLE_METHODS)
    if unknown:
        raise ValueError(f"unknown methods {sorted(unknown)}; known: {TABLE_METHODS}")
    log = log or (lambda msg: None)
    X_train = np.asarray(X_train, dtype=np.float64)
    M, N = X_train.shape
    folds = make_folds(M, n_folds, seed=seed)
    with Stopwatch() as clock:
        stats = fold_statistics(X_train, y_train, folds)
    t_cov = clock.wall_s
    lambdas = lambda_grid(stats.A, n_lambdas)
    cond = float(np.linalg.cond(stats.A))
    n_free = N - len(fixed)
    rows = []

    def row(method, t_fixed, t_opt, selected, alpha, cv_sse, coef, timed_out=False, n_steps=0):
        decision = X_test[:, selected] @ coef if len(selected) else np.zeros(X_test.shape[0])
        n_sel = len([j for j in selected if j not in set(fixed)])
        r = dict(
            method=method,
            t_fixed=t_fixed,
            t_opt=t_opt,
            n_features=n_free,
            n_selected=n_sel,
            pct_removed=100.0 * (1 - n_sel / n_free),
            error=test_error(task, y_test, decision),
            alpha=alpha,
            cv_mse=cv_sse / M if cv_sse is not None else np.nan,
            cond=cond,
            n_train=M,
            n_test=int(X_test.shape[0]),
            n_folds=n_folds,
            n_lambdas=n_lambdas,
            timed_out=bool(timed_out),
            n_steps=int(n_steps),
        )
        log(
            f"{method}: t_fixed={t_fixed:.3g}s t_opt={t_opt:.3g}s removed={r['pct_removed']:.0f}% "
            f"error={r['error']:.4g} alpha={alpha:.4g} timed_out={timed_out}"
        )
        rows.append(r)

    everything = np.arange(N)
    for method in methods:
        if method.startswith("rr_"):
            kind = method[3:]
            with Stopwatch() as clock:
                res = search_lambda(
                    X_train,
                    y_train,
                    lambdas,
                    folds,
                    method=kind,
                    stats=None if kind == "naive" else stats,
                )
            t_opt = clock.wall_s
            coef = ridge_weights(stats.A, stats.B, res.alpha)[:, 0]
            row(
                method,
                np.nan if kind == "naive" else t_cov,
                t_opt,
                everything,
                res.alpha,
                res.cv_sse[res.best_index],
                coef,
            )
        elif method.startswith(("ffs_", "bfs_")):
            variant = method[4:]
            run = forward_selection if method.startswith("ffs") else backward_selection
            budget = max_seconds if variant == "covariance" else None
            with Stopwatch() as clock:
                res = run(
                    stats,
                    lambdas,
                    variant=variant,
                    fixed=fixed,
                    run_to_end=False,
                    max_seconds=budget,
                )
            t_opt = clock.wall_s
            sel = res.selected
            coef = refit(stats, sel, res.alpha)[:, 0]
            row(
                method,
                t_cov,
                t_opt,
                sel,
                res.alpha,
                res.cv_sse[res.stop_step],
                coef,
                res.timed_out,
                res.order.shape[0],
            )
        elif method == "lars":
            free = np.array([j for j in range(N) if j not in set(fixed)])
            t_fixed = lars_path_time(X_train[:, free], y_train)
            with Stopwatch() as clock:
                model = fit_lars(X_train, y_train, folds)
            t_opt = clock.wall_s
            sel = np.flatnonzero(model.coef_)
            row(method, t_fixed, t_opt, sel, float(model.alpha_), None, model.coef_[sel])
        else:  # OP-LR / OP-RR: LARS ranking, then the best prefix
            with Stopwatch() as clock:
                free = np.array([j for j in range(N) if j not in set(fixed)])
                ranking = np.concatenate(
                    [
                        np.asarray(fixed, dtype=np.intp),
                        free[lars_ranking(X_train[:, free], y_train)],
                    ]
                )
                pruned = (op_lr if method == "op_lr" else op_rr)(stats, ranking, lambdas)
            t_opt = clock.wall_s
            sel = pruned.selected
            if fixed:  # the constant column ranks first and is always kept
                sel = np.unique(np.concatenate([np.asarray(fixed, dtype=np.intp), sel]))
            coef = refit(stats, sel, pruned.alpha)[:, 0]
            row(method, t_cov, t_opt, sel, pruned.alpha, pruned.cv_sse[pruned.n_selected], coef)
    return rows


def timing_point(
    M: int,
    N: int,
    *,
    methods,
    n_folds: int,
    n_lambdas: int,
    seed: int,
    max_seconds=None,
    repeats: int = 1,
) -> list[dict]:
    """Fixed cost and optimisation time of each method on a random M×N regression problem.

    Parameters
    ----------
    M, N : int
    methods : sequence of str
        From ``rr_naive``, ``rr_covariance``, ``rr_eigen``, ``ffs_*``, ``bfs_*``.
    n_folds, n_lambdas : int
    seed : int
    max_seconds : float, optional
        Budget of each FFS/BFS run.
    repeats : int
        Every time is the minimum over this many runs (the machine is shared).

    Returns
    -------
    list of dict
        ``method, M, N, t_fixed, t_opt, timed_out, n_steps``.
    """
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((M, N))
    y = X[:, : max(1, N // 4)] @ rng.standard_normal(max(1, N // 4)) + rng.standard_normal(M)
    folds = make_folds(M, n_folds, seed=seed)
    t_cov = np.inf
    for _ in range(repeats):
        with Stopwatch() as clock:
            stats = fold_statistics(X, y, folds)
        t_cov = min(t_cov, clock.wall_s)
    lambdas = lambda_grid(stats.A, n_lambdas)
    rows = []
    for method in methods:
        t_opt, timed_out, steps = np.inf, False, 0
        for _ in range(repeats):
            with Stopwatch() as clock:
                if method.startswith("rr_"):
                    kind = method[3:]
                    search_lambda(
                        X, y, lambdas, folds, method=kind, stats=None if kind == "naive" else stats
                    )
                else:
                    run = forward_selection if method.startswith("ffs") else backward_selection
                    res = run(
                        stats,
                        lambdas,
                        variant=method[4:],
                        run_to_end=False,
                        max_seconds=max_seconds,
                    )
                    timed_out, steps = res.timed_out, int(res.order.shape[0])
            t_opt = min(t_opt, clock.wall_s)
        rows.append(
            dict(
                method=method,
                M=M,
                N=N,
                t_fixed=np.nan if method == "rr_naive" else t_cov,
                t_opt=t_opt,
                timed_out=timed_out,
                n_steps=steps,
            )
        )
    return rows
