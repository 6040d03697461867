"""The experiments of Buteneers et al., Section 5 (Tables 3-6): every method on one task.

A task is a training and a test matrix of read-out features (fixed-size LS-SVM or ELM
features) with targets; :func:`run_task` times and evaluates the methods of the tables and
returns one tidy row per method:

``t_fixed``  cost shared by all λ values (fold covariances; LARS: the full-data LAR path),
``t_opt``    time to choose λ (and the feature set), ``pct_removed``, test ``error``.

The covariance variants of FFS/BFS score the same candidate sets as the eigen variants with
the same numbers (Section 3; ``tests/test_ridgecv_selection.py`` proves they choose the same
features) but cost O(R K N N_s³) per step: on the paper's tasks from minutes to days. They run
under a deterministic budget of steps (``covariance_steps``); a run the budget cuts is checked
step by step against the eigen run, and its full optimisation time is *estimated*
(:func:`covariance_time_estimate`): the time of scoring one candidate set is measured at a few
set sizes along the path the eigen variant took and summed over every candidate set of that
path. Results (selections, errors) never depend on a time.

:func:`timing_point` measures how the optimisation time grows with M and N (the claim that
covariance/eigen cost does not depend on M once the covariances are computed).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rlsbench.benchmark.timing import Stopwatch
from rlsbench.numerics.ridgecv.baselines import fit_lars, lars_path_time, lars_ranking, op_lr, op_rr
from rlsbench.numerics.ridgecv.ffs_bfs import (
    SelectionResult,
    backward_selection,
    candidate_sets,
    forward_selection,
    refit,
)
from rlsbench.numerics.ridgecv.kfold_lambda import (
    cv_errors_covariance,
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


#: Columns of a task row that are times of this run (everything else is a function of the
#: config and the seed).
TIMING_COLUMNS = ("t_fixed", "t_opt", "t_opt_estimate", "estimate_check", "t_features")


def _path(eigen: SelectionResult):
    """(current set, candidates) before every step the run took."""
    free = [j for j in range(eigen.n_features) if j not in set(eigen.fixed.tolist())]
    forward = eigen.direction == "forward"
    S = list(eigen.fixed) if forward else list(range(eigen.n_features))
    out = []
    for chosen in eigen.order.tolist():
        cands = [j for j in free if j not in set(S)] if forward else [j for j in S if j in free]
        out.append((S, cands))
        S = S + [chosen] if forward else [j for j in S if j != chosen]
    return out


def covariance_time_estimate(
    stats, lambdas, eigen: SelectionResult, *, n_probes: int = 5, probe_sets: int = 3
):
    """Estimated time of the covariance variant of a selection run, from timed probes.

    The covariance variant scores every candidate set of a step by ``cv_errors_covariance``
    on the set's sub-matrices: K·R solves of size s. Its run makes the choices of the eigen
    run ``eigen`` (same sets, same numbers), so its cost is the sum, over the candidate sets
    of that path, of the time to score one set of that size. That time is measured on
    ``probe_sets`` sets of the path at ``n_probes`` steps spread over it (median per step),
    and interpolated between them (log time, linear in s).

    Parameters
    ----------
    stats : FoldStats
    lambdas : ndarray of shape (R,)
    eigen : SelectionResult
        The eigen variant's run (its ``order`` is the path; ``run_to_end=False`` for the
        paper's stopping point).
    n_probes, probe_sets : int

    Returns
    -------
    dict
        ``total`` (seconds for the whole path, including the first set), ``per_step`` (ndarray
        of shape (J,), seconds of each step), ``initial`` (seconds of the starting set),
        ``probe_sizes`` and ``probe_seconds`` (what was measured).
    """
    path = _path(eigen)
    start = eigen.set_after(0).tolist()

    def time_sets(sets):
        seconds = []
        for idx in sets:
            with Stopwatch() as clock:
                cv_errors_covariance(stats.subset(idx), lambdas)
            seconds.append(clock.wall_s)
        return float(np.median(seconds))

    initial = time_sets([start])
    if not path:
        return dict(
            total=initial, per_step=np.zeros(0), initial=initial, probe_sizes=[], probe_seconds=[]
        )
    steps = np.unique(np.round(np.linspace(0, len(path) - 1, min(n_probes, len(path)))))
    sizes, seconds = [], []
    for j in steps.astype(int):
        S, cands = path[j]
        sets = candidate_sets(eigen.direction, S, cands[:probe_sets])
        sizes.append(len(sets[0]))
        seconds.append(time_sets(sets))
    order = np.argsort(sizes)
    xs, ys = np.asarray(sizes, float)[order], np.log(np.asarray(seconds))[order]
    step_sizes = np.array([len(S) + (1 if eigen.direction == "forward" else -1) for S, _ in path])
    per_set = np.exp(np.interp(step_sizes, xs, ys))
    per_step = per_set * np.array([len(c) for _, c in path])
    return dict(
        total=float(initial + per_step.sum()),
        per_step=per_step,
        initial=initial,
        probe_sizes=[int(x) for x in xs],
        probe_seconds=[float(np.exp(y)) for y in ys],
    )


def _agrees(cov: SelectionResult, eig: SelectionResult) -> bool:
    """The covariance run's steps are the eigen run's first steps (features and errors)."""
    k = cov.order.shape[0]
    return bool(
        k <= eig.order.shape[0]
        and np.array_equal(cov.order, eig.order[:k])
        and np.allclose(cov.cv_sse, eig.cv_sse[: k + 1], rtol=1e-8, atol=0.0)
    )


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
    covariance_steps : int or dict, optional
        Step budget of each covariance-variant FFS/BFS run, or ``{"ffs": ..., "bfs": ...}``
        one per direction (None: run to the stopping point).
    lambda_range : (float, float)
        Smallest and largest λ of the log-spaced grid, as multiples of tr(A)/N (the paper
        does not state its grid of R values).
        A run it cuts has no selection of its own (``n_selected``, ``pct_removed``, ``error``
        are NaN), ``agrees_with_eigen`` for the steps it took and ``t_opt_estimate`` for the
        whole run (:func:`covariance_time_estimate`).
    log : callable, optional
        ``log(str)`` progress messages.

    Returns
    -------
    list of dict
        One row per method, in the order of ``methods``: ``t_fixed``, ``t_opt`` (measured,
        of the steps taken), ``t_opt_estimate``, ``estimate_check`` (measured / estimated
        time of the steps a cut covariance run took), ``n_selected``, ``pct_removed``,
        ``error``, ``alpha``, ``cv_mse``, ``cond`` (condition number of the training
        covariance), ``step_budget``, ``n_steps``, ``steps_needed``, ``cut_by_budget``,
        ``agrees_with_eigen``.
    """
    unknown = set(methods) - set(TABLE_METHODS)
    if unknown:
        raise ValueError(f"unknown methods {sorted(unknown)}; known: {TABLE_METHODS}")
    budgets = (
        dict(covariance_steps)
        if isinstance(covariance_steps, Mapping)
        else {"ffs": covariance_steps, "bfs": covariance_steps}
    )
    for fs, budget in budgets.items():
        if fs not in ("ffs", "bfs") or not (
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

    def row(method, t_fixed, t_opt, selected, alpha, cv_sse, coef, **extra):
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
        r.update(extra)
        log(
            f"{method}: t_fixed={t_fixed:.3g}s t_opt={t_opt:.3g}s removed={r['pct_removed']:.0f}% "
            f"error={r['error']:.4g} alpha={alpha:.4g} steps={r['n_steps']}"
        )
        rows[method] = r

    everything = np.arange(N)
    eigen_runs = {}

    def selection(fs, variant, budget=None):
        run = forward_selection if fs == "ffs" else backward_selection
        with Stopwatch() as clock:
            res = run(
                stats, lambdas, variant=variant, fixed=fixed, run_to_end=False, step_budget=budget
            )
        return res, clock.wall_s

    # the eigen runs first: a covariance run is checked against (and estimated from) its path
    ordered = sorted(methods, key=lambda m: m.endswith("_covariance"))
    for method in ordered:
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
            fs, variant = method[:3], method[4:]
            if fs not in eigen_runs:
                eigen_runs[fs] = selection(fs, "eigen")
            eig, t_eig = eigen_runs[fs]
            needed = int(eig.order.shape[0])
            if variant == "eigen":
                res, t_opt, extra = eig, t_eig, {}
            else:
                budget = budgets.get(fs)
                res, t_opt = selection(fs, "covariance", budget)
                extra = dict(
                    step_budget=np.nan if budget is None else int(budget),
                    agrees_with_eigen=_agrees(res, eig),
                    cut_by_budget=bool(res.cut_by_budget),
                )
                if res.cut_by_budget:
                    est = covariance_time_estimate(stats, lambdas, eig)
                    k = int(res.order.shape[0])
                    done = est["initial"] + est["per_step"][:k].sum()
                    extra.update(t_opt_estimate=est["total"], estimate_check=t_opt / done)
            extra.update(n_steps=int(res.order.shape[0]), steps_needed=needed)
            if extra.get("cut_by_budget"):
                row(method, t_cov, t_opt, None, np.nan, None, None, **extra)
                continue
            sel = res.selected
            coef = refit(stats, sel, res.alpha)[:, 0]
            row(method, t_cov, t_opt, sel, res.alpha, res.cv_sse[res.stop_step], coef, **extra)
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
        t_opt, steps = np.inf, 0
        for _ in range(repeats):
            with Stopwatch() as clock:
                if method.startswith("rr_"):
                    kind = method[3:]
                    search_lambda(
                        X, y, lambdas, folds, method=kind, stats=None if kind == "naive" else stats
                    )
                else:
                    run = forward_selection if method.startswith("ffs") else backward_selection
                    res = run(stats, lambdas, variant=method[4:], run_to_end=False)
                    steps = int(res.order.shape[0])
            t_opt = min(t_opt, clock.wall_s)
        rows.append(
            dict(
                method=method,
                M=M,
                N=N,
                t_fixed=np.nan if method == "rr_naive" else t_cov,
                t_opt=t_opt,
                n_steps=steps,
            )
        )
    return rows
