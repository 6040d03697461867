"""Runtime scaling study: Pahikkala, Airola and Salakoski (2010), Section 4.1, Figs. 1-3.

The study times forward selection of ``k`` features out of ``n`` on ``m`` examples drawn from
two normal distributions, for greedy RLS (Algorithm 3, O(kmn)), the low-rank updated LS-SVM
(Algorithm 2, O(knm²)), the wrapper with and without the LOO short-cut (Algorithm 1) and
scikit-learn's :class:`~sklearn.feature_selection.SequentialFeatureSelector`.

The methods are the installed ``rlsbench.methods`` plugins, the ones the main protocol runs
(their ``run``, cost model ``Method.flops`` and description), plus the study's own
SequentialFeatureSelector baselines (:data:`BASELINES`): a method a user installs is timed by
naming it in ``scaling.methods`` and a sweep's ``methods``, nothing else.

The study's pieces, as plain functions (the workflow's ``scaling`` rules run them through
:mod:`rlsbench.studies.scaling.jobs`):

- :func:`plan_points` turns the ``scaling`` config section into timing points;
- :func:`budget_decision` decides, from the method's cost model alone (estimated operations, never
  a time measured in this run), whether a point is run (one Snakemake job) or recorded as
  skipped, so the set of rows is a function of the config;
- :func:`time_selection` runs one selection with a capped thread count and a hard time limit
  (a safety net: a run past it fails its job, it never becomes a row);
- :func:`fit_exponents` fits the exponent of the swept size on a log-log scale;
- :func:`speedup_table` gives the speed-up of greedy RLS over every other method at every size;
- :func:`agreement_table` / :func:`check_agreement` verify that all methods selected the same
  features wherever more than one of them ran.

Timing records are tidy: one JSON file per point that ran (see :func:`point_record`), flattened
with the plan's decisions by :func:`points_frame` into one row per planned point.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import signal
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.timing import Stopwatch
from rlsbench.benchmark.workflow import JobError
from rlsbench.lazy import lazy_module

# pandas on first use: Snakemake reads this module with the rule files before any job
pd = lazy_module("pandas")

REFERENCE_METHOD = "greedy_rls"
VARIABLES = ("m", "n", "k")
METRICS = ("cpu", "wall")


# --------------------------------------------------------------------------------------------
# Methods under test
# --------------------------------------------------------------------------------------------


def _plugin_select(method, X, y, k, alpha, threads):
    # the plugin's own run under its contract (Method.select), as the main protocol calls it:
    # greedy RLS's squared LOO criterion, no bias feature (the paper's set-up, Section 4.1);
    # a randomized method draws with seed 0 (the data's seed is scaling.seed)
    path = method.select(
        X, y, alpha=alpha, k=k, criterion="squared", bias=0.0, seed=0, n_jobs=threads
    )
    return np.asarray(path.selected)


def _sfs(estimator, cv, scoring, X, y, k, threads):
    from sklearn.feature_selection import SequentialFeatureSelector

    sfs = SequentialFeatureSelector(
        estimator,
        n_features_to_select=k,
        direction="forward",
        scoring=scoring,
        cv=cv,
        n_jobs=threads if threads > 1 else None,
    )
    sfs.fit(X, y)
    return np.flatnonzero(sfs.get_support())


def _sfs_ridge_loo(X, y, k, alpha, threads):
    # Ridge without intercept, scored by the mean squared LOO residual, optimises exactly the
    # criterion of greedy RLS (squared LOO error, eq. (7)/(8)) over the same candidates.
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import LeaveOneOut

    return _sfs(
        Ridge(alpha=alpha, fit_intercept=False),
        LeaveOneOut(),
        "neg_mean_squared_error",
        X,
        y,
        k,
        threads,
    )


def _sfs_ridgeclassifier_cv5(X, y, k, alpha, threads):
    # What a user reaches for: RidgeClassifier with its intercept, 5-fold CV accuracy.
    from sklearn.linear_model import RidgeClassifier

    return _sfs(RidgeClassifier(alpha=alpha), 5, None, X, y, k, threads)


# --------------------------------------------------------------------------------------------
# Cost models: estimated operations of one selection run, the currency of the budget
# --------------------------------------------------------------------------------------------

#: Interpreter cost of one scikit-learn fit, predict and score inside
#: SequentialFeatureSelector, in flop equivalents (about 1 ms at 2 GFLOP/s: 5 CPU s for the
#: 6000 fits of sfs_ridge_loo at m = 25, n = 50, k = 5); it dominates SFS on small problems.
SKLEARN_FIT_OVERHEAD_FLOPS = 2e6


def _sfs_flops(folds):
    def flops(m, n, k):
        # forward SFS: round s scores each of the n - s + 1 candidate sets of s features by
        # `folds` fits (LeaveOneOut: folds = m), each O(min(s²m, sm²)) plus the fit overhead
        folds_ = m if folds == "loo" else folds
        return float(
            sum(
                (n - s + 1) * folds_ * (min(s * s * m, s * m * m) + SKLEARN_FIT_OVERHEAD_FLOPS)
                for s in range(1, k + 1)
            )
        )

    return flops


@dataclass(frozen=True)
class ScalingMethod:
    """A selector the study can time.

    Parameters
    ----------
    name : str
    select : callable
        ``select(X, y, k, alpha, threads) -> ndarray of shape (k,)`` of selected column indices.
    flops : callable or None
        ``flops(m, n, k) -> float``: the estimated operations of one run (its cost model),
        which the budget compares (:func:`budget_decision`); None: the method has none and
        cannot be planned.
    ordered : bool
        True when ``select`` returns the features in the order they were added; False when only
        the set is known (scikit-learn's SFS), in which case agreement is checked by set.
    comparable : bool
        True when the method optimises greedy RLS's criterion (squared LOO error, no intercept)
        and therefore must select the same features; False excludes it from the agreement check.
    label : str
        Short name for legends.
    description : str
    tasks : tuple of str
        Targets the method supports (:data:`rlsbench.benchmark.methods.TASKS`); the study's
        data is a binary task.
    """

    name: str
    select: Callable
    flops: Callable[[int, int, int], float] | None
    label: str
    ordered: bool = True
    comparable: bool = True
    description: str = ""
    tasks: tuple[str, ...] = ("binary",)


def from_plugin(method) -> ScalingMethod:
    """The study's view of an installed ``rlsbench.methods`` plugin: its own ``run`` (through
    :meth:`~rlsbench.benchmark.methods.Method.select`), cost model (at one output), description
    and tasks; its legend label is ``tags["label"]`` (default: the name). It takes part in the
    agreement check if it is the reference or declares ``tags["selects_as"] = "greedy_rls"``.

    Parameters
    ----------
    method : rlsbench.benchmark.methods.Method
    """
    flops = None
    if method.flops is not None:
        flops = functools.partial(_plugin_flops, method)
    return ScalingMethod(
        method.name,
        functools.partial(_plugin_select, method),
        flops,
        method.tags.get("label", method.name),
        comparable=(
            method.name == REFERENCE_METHOD or method.tags.get("selects_as") == REFERENCE_METHOD
        ),
        description=method.description,
        tasks=tuple(method.tasks),
    )


def _plugin_flops(method, m, n, k):
    return method.estimate_flops(m, n, k, 1)


#: Comparison baselines of this study alone: scikit-learn's SequentialFeatureSelector as a user
#: would set it up. Not plugins: SFS reports the selected set, not the order of selection that
#: a method's path must give (the plugin contract), so the main protocol could not score them.
BASELINES: dict[str, ScalingMethod] = {
    m.name: m
    for m in (
        ScalingMethod(
            "sfs_ridge_loo",
            _sfs_ridge_loo,
            _sfs_flops("loo"),
            "sklearn SFS, Ridge, LOO",
            ordered=False,
            description="sklearn SequentialFeatureSelector(Ridge(fit_intercept=False), "
            "cv=LeaveOneOut, neg MSE): greedy RLS's criterion",
        ),
        ScalingMethod(
            "sfs_ridgeclassifier_cv5",
            _sfs_ridgeclassifier_cv5,
            _sfs_flops(5),
            "sklearn SFS, RidgeClassifier, 5-fold",
            ordered=False,
            comparable=False,
            description="sklearn SequentialFeatureSelector(RidgeClassifier(), cv=5, accuracy): "
            "the default user set-up; another criterion, excluded from the agreement check",
        ),
    )
}


class _ScalingMethods(Mapping):
    """Every method the study can name: the installed ``rlsbench.methods`` plugins (the group
    is read when first iterated or looked up, a plugin loaded only when looked up), then
    :data:`BASELINES`. A plugin may not take a baseline's name."""

    def _plugins(self) -> list[str]:
        from rlsbench.benchmark.methods import method_names

        names = method_names()
        clash = sorted(set(names) & set(BASELINES))
        if clash:
            raise ConfigError(
                f"rlsbench.methods plugin(s) {clash} take the name of a scaling baseline "
                "(rlsbench.studies.scaling.experiment.BASELINES); rename the plugin"
            )
        return names

    def __iter__(self):
        yield from self._plugins()
        yield from BASELINES

    def __len__(self) -> int:
        return len(self._plugins()) + len(BASELINES)

    def __contains__(self, name) -> bool:
        return name in BASELINES or name in self._plugins()

    def __getitem__(self, name: str) -> ScalingMethod:
        if name in BASELINES:
            return BASELINES[name]
        if name not in self._plugins():
            raise KeyError(name)
        from rlsbench.benchmark.methods import get_method

        return from_plugin(get_method(name))


#: The study's methods by name (a read-only view; see :class:`_ScalingMethods`).
SCALING_METHODS: Mapping[str, ScalingMethod] = _ScalingMethods()


def get_scaling_method(name: str) -> ScalingMethod:
    """The method ``name`` (a plugin or a baseline).

    Raises
    ------
    KeyError
        Unknown name; the message lists the known ones.
    """
    try:
        return SCALING_METHODS[name]
    except KeyError:
        raise KeyError(
            f"unknown scaling method {name!r}; known: {', '.join(sorted(SCALING_METHODS))}"
        ) from None


# --------------------------------------------------------------------------------------------
# Planning: config -> timing points
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Point:
    """One timing point: a method at one (m, n, k) with a thread count.

    ``vary`` is the swept variable of the first sweep that lists the point; ``sweeps`` lists
    every sweep the point belongs to.
    """

    method: str
    threads: int
    m: int
    n: int
    k: int
    sweeps: tuple[str, ...] = ()
    vary: str | None = None

    @property
    def key(self) -> str:
        return point_key(self.method, self.threads, self.m, self.n, self.k)

    def size(self, variable: str) -> int:
        return int(getattr(self, variable))


def point_key(method: str, threads: int, m: int, n: int, k: int) -> str:
    """Relative path stem of a point: ``{method}/t{threads}/m{m}_n{n}_k{k}``."""
    return f"{method}/t{int(threads)}/m{int(m)}_n{int(n)}_k{int(k)}"


def check_method(name: str, key: str) -> ScalingMethod:
    """The method ``name`` that config key ``key`` names, if the study can time and budget it.

    Raises
    ------
    ConfigError
        Naming ``key``: ``name`` is no installed ``rlsbench.methods`` plugin nor baseline, its
        plugin does not load, it cannot run on the study's binary task, or it has no cost model
        (``Method.flops``) for the budget.
    """
    from rlsbench.benchmark.methods import MethodPluginError

    if name not in SCALING_METHODS:
        raise ConfigError(
            f"config key {key}: unknown scaling method {name!r}; known: installed "
            f"rlsbench.methods plugins and baselines: {', '.join(sorted(SCALING_METHODS))}"
        )
    try:
        method = SCALING_METHODS[name]
    except MethodPluginError as exc:
        raise ConfigError(f"config key {key}: {exc}") from exc
    if "binary" not in method.tasks:
        raise ConfigError(
            f"config key {key}: method {name!r} runs on "
            f"{', '.join(method.tasks) or 'no protocol'} targets only; "
            "the scaling study's data (make_two_gaussians) is a binary task"
        )
    if method.flops is None:
        raise ConfigError(
            f"config key {key}: method {name!r} has no cost model (Method.flops), which the "
            "budget (scaling.budget.max_flops) compares; declare one in its Method"
        )
    return method


def plan_points(cfg: Mapping) -> dict[str, Point]:
    """All timing points of a ``scaling`` config section, in a deterministic order.

    Parameters
    ----------
    cfg : mapping
        The validated ``scaling`` section: ``threads`` (default list), ``sweeps`` (mapping of
        name → ``{vary, values, fixed, methods[, threads]}``).

    Returns
    -------
    dict of str → Point
        Keyed by :attr:`Point.key`. A point listed by several sweeps appears once (its job runs
        once) and keeps the swept variable of the first sweep that lists it.
    """
    for method in cfg.get("methods", {}):
        check_method(method, f"scaling.methods.{method}")
    points: dict[str, Point] = {}
    for sweep, spec in cfg["sweeps"].items():
        vary = spec["vary"]
        if vary not in VARIABLES:
            raise ConfigError(
                f"config key scaling.sweeps.{sweep}.vary: must be one of {VARIABLES}, got {vary!r}"
            )
        fixed = dict(spec.get("fixed", {}))
        if vary in fixed:
            raise ConfigError(
                f"config key scaling.sweeps.{sweep}.fixed: {vary!r} is both varied and fixed"
            )
        missing = set(VARIABLES) - {vary} - set(fixed)
        if missing:
            raise ConfigError(f"config key scaling.sweeps.{sweep}.fixed: lacks {sorted(missing)}")
        values = sorted(int(v) for v in spec["values"])
        if len(set(values)) != len(values):
            raise ConfigError(
                f"config key scaling.sweeps.{sweep}.values: duplicates in {spec['values']}"
            )
        for i, method in enumerate(spec["methods"]):
            check_method(method, f"scaling.sweeps.{sweep}.methods[{i}]")
            if method not in cfg.get("methods", {}):
                raise ConfigError(
                    f"config key scaling.sweeps.{sweep}.methods[{i}]: {method!r} has no entry "
                    "(exponents) in scaling.methods"
                )
            for threads in spec.get("threads", cfg.get("threads", [1])):
                for value in values:
                    dims = {**fixed, vary: value}
                    if dims["k"] >= dims["n"]:
                        raise ConfigError(
                            f"config key scaling.sweeps.{sweep}: k={dims['k']} must be "
                            f"< n={dims['n']}"
                        )
                    key = point_key(method, threads, dims["m"], dims["n"], dims["k"])
                    if key in points:
                        old = points[key]
                        points[key] = dataclasses.replace(old, sweeps=old.sweeps + (sweep,))
                    else:
                        points[key] = Point(
                            method,
                            int(threads),
                            int(dims["m"]),
                            int(dims["n"]),
                            int(dims["k"]),
                            sweeps=(sweep,),
                            vary=vary,
                        )
    return points


def lookup_point(points: Mapping[str, Point], wildcards) -> Point:
    """The planned point of a job's wildcards (``method``, ``threads``, ``m``, ``n``, ``k``)."""
    key = point_key(wildcards.method, wildcards.threads, wildcards.m, wildcards.n, wildcards.k)
    if key not in points:
        raise ValueError(
            f"scaling point {key} is not planned to run: in no sweep of scaling.sweeps, or over "
            "its budget (points.csv lists it with the reason)"
        )
    return points[key]


def job_params(points: Mapping[str, Point], wildcards) -> dict:
    """The point's fields a job needs; not its sweeps, so adding a sweep never re-runs it."""
    point = lookup_point(points, wildcards)
    return {f.name: getattr(point, f.name) for f in dataclasses.fields(point) if f.name != "sweeps"}


# --------------------------------------------------------------------------------------------
# Budget: run, or skip with the reason, decided from the plan alone
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BudgetDecision:
    """Whether a point runs, with the numbers that decided it (both recorded in the tables).

    ``budget_key`` is the config key the budget came from.
    """

    run: bool
    estimated_flops: float
    budget_flops: float
    budget_key: str
    reason: str


def budget_decision(point: Point, section: Mapping) -> BudgetDecision:
    """Run a point, or skip it because its estimated cost exceeds the budget.

    The estimate is the method's cost model (:attr:`ScalingMethod.flops`) at the point's
    (m, n, k); the budget is ``scaling.methods.<method>.max_flops`` if given, else
    ``scaling.budget.max_flops``. Both are fixed by the config, so the same config always runs
    the same points, however fast or busy the machine is (no time measured in this run
    decides anything).

    Parameters
    ----------
    point : Point
    section : mapping
        The validated ``scaling`` section (``budget``, ``methods``).
    """
    method_cfg = section["methods"][point.method]
    if "max_flops" in method_cfg:
        key, budget = f"scaling.methods.{point.method}.max_flops", float(method_cfg["max_flops"])
    else:
        key, budget = "scaling.budget.max_flops", float(section["budget"]["max_flops"])
    flops = float(get_scaling_method(point.method).flops(point.m, point.n, point.k))
    if flops > budget:
        return BudgetDecision(
            False, flops, budget, key, f"skipped: estimated {flops:.3g} flops > {key} {budget:.3g}"
        )
    return BudgetDecision(
        True, flops, budget, key, f"run: estimated {flops:.3g} flops <= {key} {budget:.3g}"
    )


def run_points(points: Mapping[str, Point], section: Mapping) -> dict[str, Point]:
    """The planned points within the budget: one job each."""
    return {key: p for key, p in points.items() if budget_decision(p, section).run}


def plan_rows(points: Mapping[str, Point], section: Mapping) -> list[dict]:
    """Every planned point with its budget decision, as :func:`points_frame` reads them.

    ``status`` is "ok" for a point that runs (its record adds the times) and "skipped" for one
    over the budget (no job, no record).
    """
    rows = []
    for key, point in points.items():
        decision = budget_decision(point, section)
        rows.append(
            {
                "key": key,
                "method": point.method,
                "threads": point.threads,
                "m": point.m,
                "n": point.n,
                "k": point.k,
                "sweeps": list(point.sweeps),
                "status": "ok" if decision.run else "skipped",
                "reason": decision.reason,
                "estimated_flops": decision.estimated_flops,
                "budget_flops": decision.budget_flops,
                "budget_key": decision.budget_key,
            }
        )
    return rows


# --------------------------------------------------------------------------------------------
# Timing one point
# --------------------------------------------------------------------------------------------


class PointTimeout(BaseException):
    """A selection exceeded the hard time limit of its point.

    A :class:`BaseException` (like :class:`KeyboardInterrupt`), so that libraries catching
    ``Exception`` (scikit-learn's cross-validation turns a failing split into a NaN score)
    cannot swallow it and carry on with a corrupted selection. Hence not an
    :class:`~rlsbench.errors.RLSBenchError` (an ``Exception``): the one exemption
    (:mod:`rlsbench.errors`).
    """


@contextlib.contextmanager
def hard_time_limit(seconds: float | None):
    """Raise :class:`PointTimeout` once ``seconds`` of wall time have passed (main thread).

    SIGALRM is delivered between Python byte codes, so a compiled kernel (BLAS call, numba
    loop) finishes its current call first; the limit is therefore hard up to one such call.
    """
    if not seconds or seconds <= 0:
        yield
        return

    def _raise(signum, frame):
        raise PointTimeout(f"hard time limit of {seconds:g} s reached")

    old = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def thread_limits(threads: int):
    """Cap BLAS/OpenMP pools (threadpoolctl) and numba's parallel loops to ``threads``."""
    from threadpoolctl import threadpool_limits

    numba_old = None
    if "numba" in sys.modules:
        import numba

        numba_old = numba.get_num_threads()
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        with threadpool_limits(limits=int(threads)):
            yield
    finally:
        if numba_old is not None:
            numba.set_num_threads(numba_old)


def time_selection(
    select: Callable,
    X: np.ndarray,
    y: np.ndarray,
    *,
    k: int,
    alpha: float,
    threads: int = 1,
    timeout_s: float | None = None,
    warmup: bool = True,
) -> dict:
    """Time one selection run.

    Parameters
    ----------
    select : callable
        ``select(X, y, k, alpha, threads) -> ndarray of shape (k,)``.
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    k : int
        Number of features to select.
    alpha : float
        Regularization parameter λ.
    threads : int
        Threads the selector may use (BLAS, numba, joblib).
    timeout_s : float or None
        Hard limit (:func:`hard_time_limit`).
    warmup : bool
        First run on a tiny problem so that compilation (numba) and lazy imports are not timed
        and every BLAS library the selector uses is loaded before the thread cap is applied.

    Returns
    -------
    dict
        ``status`` ("ok" or "timeout"), ``wall_s`` (wall seconds of the selection alone),
        ``cpu_s`` (process CPU seconds, all threads), ``selected`` (list of int, or None).
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if warmup:
        # Outside the limits on purpose: threadpoolctl caps only the BLAS libraries already
        # loaded, and a selector may load one lazily (scipy's own OpenBLAS on first use).
        rng = np.random.default_rng(0)
        small = rng.standard_normal((12, 6))
        select(small, np.sign(rng.standard_normal(12)) + 0.0, 2, alpha, threads)
        # the input check of a large X takes a compiled one-pass scan that the small problem
        # does not reach: where this X takes it, compile it here too (a point whose X is
        # smaller compiles nothing)
        from rlsbench.numerics.validation import warm_up_input_scan

        warm_up_input_scan(X)
    with thread_limits(threads):
        clock = Stopwatch().start()
        try:
            with hard_time_limit(timeout_s):
                selected = select(X, y, k, alpha, threads)
        except PointTimeout as exc:
            timed_out = str(exc)
        else:
            timed_out = ""
        wall, cpu = clock.stop().wall_s, clock.cpu_s
        if not timed_out and timeout_s and wall > timeout_s:
            # The alarm fired inside code that swallowed it: the result cannot be trusted.
            timed_out = f"hard time limit of {timeout_s:g} s exceeded ({wall:.3g} s)"
        if timed_out:
            return {
                "status": "timeout",
                "reason": timed_out,
                "wall_s": wall,
                "cpu_s": cpu,
                "selected": None,
            }
    selected = np.asarray(selected, dtype=np.int64)
    if selected.shape != (k,):
        raise ValueError(f"selector returned shape {selected.shape}, expected ({k},)")
    return {
        "status": "ok",
        "reason": "",
        "wall_s": wall,
        "cpu_s": cpu,
        "selected": selected.tolist(),
    }


def point_record(point: Point, *, alpha: float, seed: int, threads_used: int) -> dict:
    """An empty record for ``point``; repeats are appended by :func:`add_repeat`."""
    return {
        "method": point.method,
        "threads": point.threads,
        "threads_used": int(threads_used),
        "m": point.m,
        "n": point.n,
        "k": point.k,
        "alpha": float(alpha),
        "seed": int(seed),
        "vary": point.vary,
        "ordered": get_scaling_method(point.method).ordered,
        "status": None,
        "wall_s": [],
        "cpu_s": [],
        "selected": None,
    }


def add_repeat(record: dict, result: Mapping) -> dict:
    """Append one repeat's result; every repeat of a point must select the same features."""
    key = point_key(record["method"], record["threads"], record["m"], record["n"], record["k"])
    if result["status"] != "ok":
        raise ValueError(f"{key}: only a finished run is a repeat, got {result['status']!r}")
    if record["selected"] is not None and result["selected"] != record["selected"]:
        raise RuntimeError(
            f"{key}: repeats selected different features (non-deterministic selector)"
        )
    record["status"] = "ok"
    record["wall_s"].append(float(result["wall_s"]))
    record["cpu_s"].append(float(result["cpu_s"]))
    record["selected"] = list(result["selected"])
    return record


# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------

#: Columns of ``points.csv``: the plan and its budget decision (a function of the config),
#: then the measurements (``n_repeats`` onwards, bar ``ordered``, ``selected``, ``sweeps``).
POINT_COLUMNS = [
    "method",
    "threads",
    "threads_used",
    "m",
    "n",
    "k",
    "status",
    "reason",
    "estimated_flops",
    "budget_flops",
    "budget_key",
    "n_repeats",
    "wall_s",
    "wall_s_min",
    "wall_s_max",
    "cpu_s",
    "cpu_s_min",
    "cpu_s_max",
    "job_s",
    "job_cpu_s",
    "job_max_rss_mb",
    "ordered",
    "selected",
    "sweeps",
]


def points_frame(
    plan: Iterable[Mapping],
    records: Mapping[str, Mapping],
    benchmarks: Mapping[str, pd.DataFrame | None] | None = None,
) -> pd.DataFrame:
    """One row per planned point: its budget decision, and for a point that ran the medians of
    the in-process selection times and of the job benchmark.

    ``wall_s``/``cpu_s`` (with ``_min``/``_max`` over the repeats) time the selection alone,
    in-process, after a warm-up; ``job_s`` is Snakemake's benchmark of the whole job (data
    generation included), ``job_cpu_s``/``job_max_rss_mb`` the job process's own CPU time and
    peak memory (:func:`rlsbench.studies.scaling.jobs.process_usage`), medians of the
    repeats. A skipped point has no record: NaN times, ``threads_used`` 0.

    Parameters
    ----------
    plan : iterable of dict
        :func:`plan_rows`: every planned point with its decision.
    records : mapping of point key → dict
        The records (:func:`point_record`) of the points that ran.
    benchmarks : mapping of point key → DataFrame or None, optional
        The matching Snakemake benchmark tables (columns ``s``, ``cpu_time``, ``max_rss``; one
        row per repeat).

    Returns
    -------
    DataFrame with :data:`POINT_COLUMNS`, sorted by method, threads, m, n, k. ``selected`` is
    the space-separated feature indices; ``sweeps`` is ``;``-separated.
    """
    benchmarks = benchmarks or {}
    rows = []
    for planned in plan:
        key = planned["key"]
        ran = planned["status"] == "ok"
        rec = records.get(key)
        if ran and (rec is None or rec.get("status") != "ok"):
            raise JobError(f"scaling point {key}: planned to run but it has no finished record")
        if not ran and rec is not None:
            raise JobError(f"scaling point {key}: over its budget but it has a record")
        wall = np.asarray(rec["wall_s"] if ran else [], dtype=float)
        cpu = np.asarray(rec["cpu_s"] if ran else [], dtype=float)
        bench = benchmarks.get(key)

        def _bench(col, bench=bench):
            if bench is None or col not in bench or bench[col].isna().all():
                return math.nan
            return float(pd.to_numeric(bench[col], errors="coerce").median())

        def _process(field, col, rec=rec, ran=ran):
            # the job's own measurement of its process (a child of the job server is not the
            # process Snakemake's benchmark watches); Snakemake's for older records
            if ran and rec.get(field):
                return float(np.median(np.asarray(rec[field], dtype=float)))
            return _bench(col)

        rows.append(
            {
                "method": planned["method"],
                "threads": int(planned["threads"]),
                "threads_used": int(rec["threads_used"]) if ran else 0,
                "m": int(planned["m"]),
                "n": int(planned["n"]),
                "k": int(planned["k"]),
                "status": planned["status"],
                "reason": planned["reason"],
                "estimated_flops": float(planned["estimated_flops"]),
                "budget_flops": float(planned["budget_flops"]),
                "budget_key": planned["budget_key"],
                "n_repeats": int(wall.size),
                "wall_s": float(np.median(wall)) if ran else math.nan,
                "wall_s_min": float(wall.min()) if ran else math.nan,
                "wall_s_max": float(wall.max()) if ran else math.nan,
                "cpu_s": float(np.median(cpu)) if ran else math.nan,
                "cpu_s_min": float(cpu.min()) if ran else math.nan,
                "cpu_s_max": float(cpu.max()) if ran else math.nan,
                "job_s": _bench("s"),
                "job_cpu_s": _process("process_cpu_s", "cpu_time"),
                "job_max_rss_mb": _process("process_max_rss_mb", "max_rss"),
                "ordered": get_scaling_method(planned["method"]).ordered,
                "selected": " ".join(map(str, rec["selected"])) if ran else "",
                "sweeps": ";".join(planned["sweeps"]),
            }
        )
    frame = pd.DataFrame(rows, columns=POINT_COLUMNS)
    return frame.sort_values(["method", "threads", "m", "n", "k"], ignore_index=True)


def read_points(path) -> pd.DataFrame:
    """Read a ``points.csv`` written from :func:`points_frame` (``selected`` stays a string)."""
    text = {"selected": str, "reason": str, "sweeps": str, "budget_key": str}
    frame = pd.read_csv(path, dtype=text)
    for col in text:
        frame[col] = frame[col].fillna("")
    return frame


def sweep_frame(
    points: pd.DataFrame, sweeps: Mapping[str, Mapping], default_metric: str = "cpu"
) -> pd.DataFrame:
    """Points expanded to one row per (sweep, point), in the sweep's time metric.

    A point listed by several sweeps (column ``sweeps``) appears once per sweep. Added
    columns: ``sweep``, ``vary``, ``size`` (the swept value), ``metric`` ("cpu": CPU seconds
    of the process, all threads, as the paper's "CPU seconds"; "wall": elapsed seconds, the
    measure for comparing thread counts) and ``time_s``, ``time_s_min``, ``time_s_max`` (that
    metric's median, fastest and slowest repeat).
    """
    parts = []
    for sweep, spec in sweeps.items():
        vary, metric = spec["vary"], spec.get("metric", default_metric)
        if metric not in METRICS:
            raise ConfigError(f"config key scaling.sweeps.{sweep}.metric: must be one of {METRICS}")
        mask = points["sweeps"].str.split(";").apply(lambda s, sw=sweep: sw in s)
        part = points[mask].copy()
        part.insert(0, "sweep", sweep)
        part.insert(1, "vary", vary)
        part.insert(2, "size", part[vary].astype(int))
        part.insert(3, "metric", metric)
        for suffix in ("", "_min", "_max"):
            part[f"time_s{suffix}"] = part[f"{metric}_s{suffix}"]
        parts.append(part)
    if not parts:
        return points.iloc[0:0].assign(
            sweep="", vary="", size=0, metric="", time_s=0.0, time_s_min=0.0, time_s_max=0.0
        )
    return pd.concat(parts, ignore_index=True)


def fit_exponent(sizes, times) -> tuple[float, float]:
    """Least-squares slope of log(time) on log(size): the empirical exponent ``p`` in t ∝ size^p.

    Parameters
    ----------
    sizes, times : array-like of shape (n_points,)
        Positive sizes and times; at least two distinct sizes.

    Returns
    -------
    exponent : float
    stderr : float
        Standard error of the slope (NaN with two points).
    """
    from scipy.stats import linregress

    sizes = np.asarray(sizes, dtype=float)
    times = np.asarray(times, dtype=float)
    if sizes.shape != times.shape or sizes.ndim != 1:
        raise ValueError("sizes and times must be 1-d arrays of equal length")
    if np.unique(sizes).size < 2:
        raise ValueError("need at least two distinct sizes to fit an exponent")
    if np.any(sizes <= 0) or np.any(times <= 0):
        raise ValueError("sizes and times must be positive for a log-log fit")
    fit = linregress(np.log(sizes), np.log(times))
    stderr = float(fit.stderr) if sizes.size > 2 else math.nan
    return float(fit.slope), stderr


def fit_exponents(
    sweeps_df: pd.DataFrame,
    expected: Mapping[str, Mapping[str, float]],
    *,
    min_points: int = 3,
) -> pd.DataFrame:
    """Exponent of the swept size per (sweep, method, threads), on the successful points.

    Parameters
    ----------
    sweeps_df : DataFrame
        :func:`sweep_frame` output.
    expected : mapping method → {"m", "n", "k"} → float
        The asymptotic exponents (from the paper's complexity analysis) shown beside the fit.
    min_points : int
        Fewer successful sizes than this give NaN (reported, not hidden).
    """
    rows = []
    for (sweep, vary, metric, method, threads), grp in sweeps_df.groupby(
        ["sweep", "vary", "metric", "method", "threads"], sort=True
    ):
        ok = grp[grp["status"] == "ok"].sort_values("size")
        exponent = stderr = math.nan
        if ok["size"].nunique() >= min_points:
            exponent, stderr = fit_exponent(ok["size"], ok["time_s"])
        rows.append(
            {
                "sweep": sweep,
                "vary": vary,
                "metric": metric,
                "method": method,
                "threads": int(threads),
                "exponent": exponent,
                "stderr": stderr,
                "expected": float(expected.get(method, {}).get(vary, math.nan)),
                "n_points": int(ok["size"].nunique()),
                "size_min": int(ok["size"].min()) if len(ok) else 0,
                "size_max": int(ok["size"].max()) if len(ok) else 0,
                "n_skipped": int((grp["status"] != "ok").sum()),
            }
        )
    return pd.DataFrame(rows)


def speedup_table(sweeps_df: pd.DataFrame, reference: str = REFERENCE_METHOD) -> pd.DataFrame:
    """Speed-up of ``reference`` over every other method at every size both ran.

    ``speedup = time_s(method) / time_s(reference)`` for the same sweep, size and threads,
    i.e. from points measured in the same run, in the sweep's metric (:func:`sweep_frame`).
    Sizes where the other method did not run are kept with its status and NaN speed-up.
    """
    key = ["sweep", "vary", "metric", "size", "threads"]
    ref = sweeps_df[(sweeps_df["method"] == reference)][key + ["status", "time_s"]]
    ref = ref.rename(columns={"status": "reference_status", "time_s": "reference_s"})
    others = sweeps_df[sweeps_df["method"] != reference][key + ["method", "status", "time_s"]]
    merged = others.merge(ref, on=key, how="inner")
    both = (merged["status"] == "ok") & (merged["reference_status"] == "ok")
    merged["speedup"] = np.where(both, merged["time_s"] / merged["reference_s"], np.nan)
    merged.insert(merged.columns.get_loc("method"), "reference", reference)
    return merged.sort_values(["sweep", "threads", "method", "size"], ignore_index=True)


def thread_speedup_table(sweeps_df: pd.DataFrame) -> pd.DataFrame:
    """Speed-up of every multi-threaded variant over the same method single-threaded.

    ``speedup = time_s(threads=1) / time_s(threads)`` at the same sweep and size (wall-time
    sweeps are the meaningful ones: CPU time adds up over threads).
    """
    key = ["sweep", "vary", "metric", "size", "method"]
    single = sweeps_df[sweeps_df["threads"] == 1][key + ["status", "time_s"]]
    single = single.rename(columns={"status": "single_status", "time_s": "single_s"})
    multi = sweeps_df[sweeps_df["threads"] > 1][
        key + ["threads", "threads_used", "status", "time_s"]
    ]
    merged = multi.merge(single, on=key, how="inner")
    both = (merged["status"] == "ok") & (merged["single_status"] == "ok")
    merged["speedup"] = np.where(both, merged["single_s"] / merged["time_s"], np.nan)
    return merged.sort_values(["sweep", "method", "threads", "size"], ignore_index=True)


# --------------------------------------------------------------------------------------------
# Agreement of selections
# --------------------------------------------------------------------------------------------


class SelectionDisagreement(JobError, AssertionError):
    """Methods that must select the same features did not."""


def _compare(a: list[int], b: list[int], by_set: bool) -> str:
    if by_set:
        if set(a) == set(b):
            return ""
        return (
            f"sets differ: only in first {sorted(set(a) - set(b))}, "
            f"only in second {sorted(set(b) - set(a))}"
        )
    for step, (i, j) in enumerate(zip(a, b)):
        if i != j:
            return f"first difference at step {step + 1}: feature {i} vs {j}"
    return "" if len(a) == len(b) else f"lengths differ: {len(a)} vs {len(b)}"


def agreement_table(points: pd.DataFrame, excluded: Iterable[str] = ()) -> pd.DataFrame:
    """Compare the selections of all successful runs at every (m, n, k).

    Every successful variant (method × threads) of a comparable method is compared with the
    first one in (reference first, then by name) order: by ordered sequence when both report
    their order, by set otherwise (scikit-learn's SFS reports only its support).

    Parameters
    ----------
    points : DataFrame
        :func:`points_frame` output.
    excluded : iterable of str
        Methods with another criterion (e.g. ``sfs_ridgeclassifier_cv5``); listed in the table
        with ``agree`` = NaN and not compared.

    Returns
    -------
    DataFrame with one row per compared variant: m, n, k, method, threads, against, compared_by
    ("order" or "set"), agree (bool or NaN), detail.
    """
    excluded = set(excluded)
    rows = []
    ok = points[points["status"] == "ok"].copy()
    ok["_rank"] = (ok["method"] != REFERENCE_METHOD).astype(int)
    for (m, n, k), grp in ok.groupby(["m", "n", "k"], sort=True):
        grp = grp.sort_values(["_rank", "method", "threads"])
        comparable = grp[~grp["method"].isin(excluded)]
        base = comparable.iloc[0] if len(comparable) else None
        for _, row in grp.iterrows():
            common = {"m": m, "n": n, "k": k, "method": row["method"], "threads": row["threads"]}
            if row["method"] in excluded:
                rows.append(
                    {
                        **common,
                        "against": "",
                        "compared_by": "excluded",
                        "agree": np.nan,
                        "detail": "other criterion: not compared",
                    }
                )
                continue
            if (
                base is None
                or row is base
                or (row["method"] == base["method"] and row["threads"] == base["threads"])
            ):
                continue
            by_set = not (bool(row["ordered"]) and bool(base["ordered"]))
            detail = _compare(
                [int(v) for v in str(base["selected"]).split()],
                [int(v) for v in str(row["selected"]).split()],
                by_set,
            )
            rows.append(
                {
                    **common,
                    "against": f"{base['method']}/t{base['threads']}",
                    "compared_by": "set" if by_set else "order",
                    "agree": detail == "",
                    "detail": detail or "identical",
                }
            )
    columns = ["m", "n", "k", "method", "threads", "against", "compared_by", "agree", "detail"]
    return pd.DataFrame(rows, columns=columns)


def check_agreement(table: pd.DataFrame) -> None:
    """Raise :class:`SelectionDisagreement` naming every point where selections differ."""
    compared = table[table["compared_by"] != "excluded"]
    bad = compared[~compared["agree"].astype(bool)]
    if len(bad):
        lines = [
            f"m={r.m} n={r.n} k={r.k}: {r.method}/t{r.threads} vs {r.against}: {r.detail}"
            for r in bad.itertuples()
        ]
        raise SelectionDisagreement(
            f"{len(bad)} selection(s) differ where the methods must agree:\n" + "\n".join(lines)
        )


__all__ = [
    "BASELINES",
    "BudgetDecision",
    "Point",
    "PointTimeout",
    "SCALING_METHODS",
    "ScalingMethod",
    "SelectionDisagreement",
    "add_repeat",
    "agreement_table",
    "budget_decision",
    "check_agreement",
    "check_method",
    "fit_exponent",
    "fit_exponents",
    "from_plugin",
    "get_scaling_method",
    "job_params",
    "lookup_point",
    "plan_points",
    "plan_rows",
    "point_key",
    "point_record",
    "read_points",
    "points_frame",
    "run_points",
    "speedup_table",
    "thread_speedup_table",
    "sweep_frame",
    "time_selection",
]
