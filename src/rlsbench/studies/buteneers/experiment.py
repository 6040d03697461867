"""The experiments of Buteneers et al., Section 5 (Tables 3-6): every method on one task.

A task is a training and a test matrix of read-out features (fixed-size LS-SVM or ELM
features) with targets; :func:`run_task` times and evaluates the methods of the tables and
returns one tidy row per method:

``t_fixed``  cost shared by all λ values (fold covariances; LARS: the full-data LAR path),
``t_opt``    time to choose λ (and the feature set), ``pct_removed``, test ``error``.

Every column of the tables is an ``rlsbench.methods`` plugin with its options (:data:`COLUMNS`),
run by the plugin's K-fold runner (:mod:`rlsbench.benchmark.methods.kfold`) on fold
covariances computed once per task.

The covariance variants of FFS/BFS score the same candidate sets as the eigen variants with
the same numbers (Section 3; ``tests/numerics/test_ridgecv_selection.py`` proves they choose the
same features) but cost O(R K N N_s³) per step: on the paper's tasks from minutes to days. They run
under a deterministic budget of steps (``covariance_steps``); a run the budget cuts is checked step
by step against the eigen run, and its full optimisation time is *estimated*
(:func:`rlsbench.benchmark.methods.kfold.covariance_time_estimate`): the time of scoring one
candidate set is measured at a few set sizes along the path the eigen variant took and summed over
every candidate set of that path. Results (selections, errors) never depend on a time.

:func:`timing_point` measures how the optimisation time grows with M and N (the claim that
covariance/eigen cost does not depend on M once the covariances are computed).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rlsbench.benchmark.methods import get_method
from rlsbench.benchmark.methods.kfold import KFoldTask, kfold_runner
from rlsbench.benchmark.timing import Stopwatch
from rlsbench.numerics.ridgecv.kfold_lambda import fold_statistics, lambda_grid, make_folds

#: The columns of Tables 3-5, in order: each is an ``rlsbench.methods`` plugin run on the task
#: by its K-fold runner (``tags["kfold"]``, :mod:`rlsbench.benchmark.methods.kfold`) with the
#: options of the variant the column shows.
COLUMNS: dict[str, tuple[str, dict]] = {
    "rr_naive": ("ridge_kfold", {"search": "naive"}),
    "rr_covariance": ("ridge_kfold", {"search": "covariance"}),
    "rr_eigen": ("ridge_kfold", {"search": "eigen"}),
    "ffs_covariance": ("ffs", {"variant": "covariance"}),
    "ffs_eigen": ("ffs", {"variant": "eigen"}),
    "bfs_covariance": ("bfs", {"variant": "covariance"}),
    "bfs_eigen": ("bfs", {"variant": "eigen"}),
    "lars": ("lasso_path", {}),
    "op_lr": ("op_elm", {"prune": "lr"}),
    "op_rr": ("op_elm", {"prune": "rr"}),
}

#: Column order of Tables 3-5.
TABLE_METHODS = tuple(COLUMNS)

#: The plugins whose covariance variant a step budget (``covariance_steps``) applies to.
BUDGETED = ("ffs", "bfs")


def test_error(task: str, y_test, decision) -> float:
    """Misclassification in % (classification) or normalized RMSE ×10 (regression).

    NRMSE = RMSE / std(y_test), the paper's "normalized root mean squared error".
    """
    y_test = np.asarray(y_test, dtype=np.float64)
    decision = np.asarray(decision, dtype=np.float64)
    if task == "classification":
        return float(100.0 * np.mean(np.where(decision >= 0, 1.0, -1.0) != y_test))
    return float(10.0 * np.sqrt(np.mean((decision - y_test) ** 2)) / np.std(y_test))


#: Columns of a task row that are times of this run (everything else is a function of the
#: config and the seed).
TIMING_COLUMNS = ("t_fixed", "t_opt", "t_opt_estimate", "estimate_check", "t_features")


def _runners(methods, method_options=None):
    """(column, runner, options) of every column of ``methods``, the plugins loaded, the
    column's options updated by ``method_options[column]``.

    Raises
    ------
    ValueError
        A name that is no column of the tables (in ``methods`` or ``method_options``); the
        message names it.
    MethodPluginError
        The column's plugin does not load or has no K-fold runner (names its distribution).
    """
    unknown = [m for m in methods if m not in COLUMNS]
    if unknown:
        raise ValueError(f"unknown methods {sorted(unknown)}; known: {TABLE_METHODS}")
    method_options = dict(method_options or {})
    unknown = [m for m in method_options if m not in COLUMNS]
    if unknown:
        raise ValueError(
            f"method_options: unknown methods {sorted(unknown)}; known: {TABLE_METHODS}"
        )
    out = []
    for column in methods:
        plugin, options = COLUMNS[column]
        options = {**options, **(method_options.get(column) or {})}
        out.append((column, plugin, kfold_runner(get_method(plugin)), options))
    return out


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
    covariance_steps=None,
    lambda_range=(1e-8, 1e2),
    method_options=None,
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
        Subset of :data:`TABLE_METHODS` (the keys of :data:`COLUMNS`).
    n_folds, n_lambdas : int
        K and R.
    seed : int
        Fold assignment seed.
    fixed : sequence of int
        Columns FFS/BFS never add/remove (the constant column).
    covariance_steps : int or dict, optional
        Step budget of each covariance-variant FFS/BFS run, or ``{"ffs": ..., "bfs": ...}``
        one per plugin (None: run to the stopping point); the option ``step_budget`` of the
        plugins' runners.
    lambda_range : (float, float)
        Smallest and largest λ of the log-spaced grid, as multiples of tr(A)/N (the paper
        does not state its grid of R values).
        A run it cuts has no selection of its own (``n_selected``, ``pct_removed``, ``error``
        are NaN), ``agrees_with_eigen`` for the steps it took and ``t_opt_estimate`` for the
        whole run (:func:`rlsbench.benchmark.methods.kfold.covariance_time_estimate`).
    method_options : dict, optional
        Column -> options of its plugin's K-fold runner, updating the column's own
        (:data:`COLUMNS`), e.g. ``{"lars": {"path": "lar", "stop": "cv"}}``: plain least angle
        regression stopped by the task's folds instead of LassoLarsCV
        (:func:`rlsbench.benchmark.methods.sparse.lasso_kfold`).
    log : callable, optional
        ``log(str)`` progress messages.

    Raises
    ------
    ValueError
        A method that is no column of the tables (:data:`COLUMNS`), or a bad budget; the
        message names it.
    MethodPluginError
        A column's plugin does not load or has no K-fold runner; the message names its
        distribution.

    Returns
    -------
    list of dict
        One row per method, in the order of ``methods`` (each run in that order):
        ``t_fixed``, ``t_opt`` (measured, of the steps taken), ``t_opt_estimate``,
        ``estimate_check`` (measured / estimated time of the steps a cut covariance run
        took), ``n_selected``, ``pct_removed``, ``error``, ``alpha``, ``cv_mse``, ``cond``
        (condition number of the training covariance), ``step_budget``, ``n_steps``,
        ``steps_needed``, ``cut_by_budget``, ``agrees_with_eigen``.
    """
    runners = _runners(methods, method_options)
    budgets = (
        dict(covariance_steps)
        if isinstance(covariance_steps, Mapping)
        else {"ffs": covariance_steps, "bfs": covariance_steps}
    )
    for fs, budget in budgets.items():
        if fs not in BUDGETED or not (
            budget is None
            or (isinstance(budget, int) and not isinstance(budget, bool) and budget >= 0)
        ):
            raise ValueError(
                "covariance_steps must be None, a non-negative integer or a mapping "
                f"{{'ffs': ..., 'bfs': ...}} of those, got {covariance_steps!r}"
            )
    log = log or (lambda msg: None)
    X_train = np.asarray(X_train, dtype=np.float64)
    M, N = X_train.shape
    folds = make_folds(M, n_folds, seed=seed)
    with Stopwatch() as clock:
        stats = fold_statistics(X_train, y_train, folds)
    t_cov = clock.wall_s
    lambdas = lambda_grid(stats.A, n_lambdas, low=lambda_range[0], high=lambda_range[1])
    cond = float(np.linalg.cond(stats.A))
    n_free = N - len(fixed)
    rows = {}

    def row(method, fit):
        t_fixed, t_opt, selected, alpha, cv_sse, coef = (
            fit.t_fixed,
            fit.t_opt,
            fit.selected,
            fit.alpha,
            fit.cv_sse,
            fit.coef,
        )
        if selected is None:  # a covariance run cut by its step budget: no model of its own
            n_sel, error = np.nan, np.nan
        else:
            decision = X_test[:, selected] @ coef if len(selected) else np.zeros(X_test.shape[0])
            n_sel = len([j for j in selected if j not in set(fixed)])
            error = test_error(task, y_test, decision)
        r = dict(
            method=method,
            t_fixed=t_fixed,
            t_opt=t_opt,
            t_opt_estimate=np.nan,
            estimate_check=np.nan,
            n_features=n_free,
            n_selected=n_sel,
            pct_removed=100.0 * (1 - n_sel / n_free),
            error=error,
            alpha=alpha,
            cv_mse=cv_sse / M if cv_sse is not None else np.nan,
            cond=cond,
            n_train=M,
            n_test=int(X_test.shape[0]),
            n_folds=n_folds,
            n_lambdas=n_lambdas,
            step_budget=np.nan,
            n_steps=0,
            steps_needed=0,
            cut_by_budget=False,
            agrees_with_eigen=np.nan,
        )
        r.update(fit.extra)
        log(
            f"{method}: t_fixed={t_fixed:.3g}s t_opt={t_opt:.3g}s removed={r['pct_removed']:.0f}% "
            f"error={r['error']:.4g} alpha={alpha:.4g} steps={r['n_steps']}"
        )
        rows[method] = r

    task_data = KFoldTask(
        X_train, y_train, folds, stats, lambdas, fixed=tuple(fixed), t_statistics=t_cov
    )
    for method, plugin, run, options in runners:
        if plugin in budgets:
            options["step_budget"] = budgets[plugin]
        row(method, run(task_data, **options))
    return [rows[m] for m in methods]


def timing_point(
    M: int,
    N: int,
    *,
    methods,
    n_folds: int,
    n_lambdas: int,
    seed: int,
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
    repeats : int
        Every time is the minimum over this many runs (the machine is shared).

    Returns
    -------
    list of dict
        ``method, M, N, t_fixed, t_opt, n_steps`` (FFS/BFS run to their stopping point).

    Raises
    ------
    ValueError
        A method that is no column of the tables (:data:`COLUMNS`); the message names it.
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
    for method, _, run, options in _runners(methods):
        t_opt, steps = np.inf, 0
        for _ in range(repeats):
            # a fresh task per repeat: FFS/BFS's shared eigen run is timed again
            fit = run(KFoldTask(X, y, folds, stats, lambdas, t_statistics=t_cov), **options)
            t_opt = min(t_opt, fit.t_opt)
            steps = int(fit.extra.get("n_steps", 0))
        rows.append(dict(method=method, M=M, N=N, t_fixed=fit.t_fixed, t_opt=t_opt, n_steps=steps))
    return rows
