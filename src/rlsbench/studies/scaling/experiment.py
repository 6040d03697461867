"""Runtime scaling study: Pahikkala, Airola and Salakoski (2010), Section 4.1, Figs. 1-3.

The study times forward selection of ``k`` features out of ``n`` on ``m`` examples drawn from
two normal distributions, for greedy RLS (Algorithm 3, O(kmn)), the low-rank updated LS-SVM
(Algorithm 2, O(knm²)), the wrapper with and without the LOO short-cut (Algorithm 1) and
scikit-learn's :class:`~sklearn.feature_selection.SequentialFeatureSelector`.

The study's pieces, as plain functions (the workflow's ``scaling`` rules run them through
:mod:`rlsbench.studies.scaling.jobs`):

- :func:`plan_points` turns the ``scaling`` config section into timing points (one Snakemake job
  each), each knowing the smaller point it is extrapolated from;
- :func:`budget_decision` decides from that smaller point whether a point is run or skipped;
- :func:`time_selection` runs one selection with a capped thread count and a hard time limit;
- :func:`fit_exponents` fits the exponent of the swept size on a log-log scale;
- :func:`speedup_table` gives the speed-up of greedy RLS over every other method at every size;
- :func:`agreement_table` / :func:`check_agreement` verify that all methods selected the same
  features wherever more than one of them ran.

Timing records are tidy: one JSON file per point (see :func:`point_record`), flattened by
:func:`points_frame` into one row per point.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import signal
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.timing import Stopwatch
from rlsbench.benchmark.workflow import JobError

REFERENCE_METHOD = "greedy_rls"
VARIABLES = ("m", "n", "k")
METRICS = ("cpu", "wall")


# --------------------------------------------------------------------------------------------
# Methods under test
# --------------------------------------------------------------------------------------------


def _greedy_rls(X, y, k, alpha, threads):
    from rlsbench.numerics.selection import greedy_rls

    return greedy_rls(X, y, k, alpha, n_jobs=threads).selected


def _lowrank_lssvm(X, y, k, alpha, threads):
    from rlsbench.numerics.selection import lowrank_lssvm

    return lowrank_lssvm(X, y, k, alpha).selected


def _wrapper_loo(X, y, k, alpha, threads):
    from rlsbench.numerics.selection import wrapper

    return wrapper(X, y, k, alpha, loo="shortcut").selected


def _wrapper_blackbox(X, y, k, alpha, threads):
    from rlsbench.numerics.selection import wrapper

    return wrapper(X, y, k, alpha, loo="blackbox").selected


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


@dataclass(frozen=True)
class ScalingMethod:
    """A selector the study can time.

    Parameters
    ----------
    name : str
    select : callable
        ``select(X, y, k, alpha, threads) -> ndarray of shape (k,)`` of selected column indices.
    ordered : bool
        True when ``select`` returns the features in the order they were added; False when only
        the set is known (scikit-learn's SFS), in which case agreement is checked by set.
    comparable : bool
        True when the method optimises greedy RLS's criterion (squared LOO error, no intercept)
        and therefore must select the same features; False excludes it from the agreement check.
    label : str
        Short name for legends.
    description : str
    """

    name: str
    select: Callable
    label: str
    ordered: bool = True
    comparable: bool = True
    description: str = ""


SCALING_METHODS: dict[str, ScalingMethod] = {
    m.name: m
    for m in (
        ScalingMethod(
            "greedy_rls", _greedy_rls, "greedy RLS", description="greedy RLS, Algorithm 3, O(kmn)"
        ),
        ScalingMethod(
            "lowrank_lssvm",
            _lowrank_lssvm,
            "low-rank updated LS-SVM",
            description="low-rank updated LS-SVM, Algorithm 2, O(knm^2)",
        ),
        ScalingMethod(
            "wrapper_loo",
            _wrapper_loo,
            "wrapper, LOO short-cut",
            description="wrapper, RLS retrained per candidate, LOO short-cut (7), O(k^3mn)",
        ),
        ScalingMethod(
            "wrapper_blackbox",
            _wrapper_blackbox,
            "wrapper, black box",
            description="wrapper, RLS as black box, m retrainings for LOO, O(k^3m^2n)",
        ),
        ScalingMethod(
            "sfs_ridge_loo",
            _sfs_ridge_loo,
            "sklearn SFS, Ridge, LOO",
            ordered=False,
            description="sklearn SequentialFeatureSelector(Ridge(fit_intercept=False), "
            "cv=LeaveOneOut, neg MSE): greedy RLS's criterion",
        ),
        ScalingMethod(
            "sfs_ridgeclassifier_cv5",
            _sfs_ridgeclassifier_cv5,
            "sklearn SFS, RidgeClassifier, 5-fold",
            ordered=False,
            comparable=False,
            description="sklearn SequentialFeatureSelector(RidgeClassifier(), cv=5, accuracy): "
            "the default user set-up; another criterion, excluded from the agreement check",
        ),
    )
}


def get_scaling_method(name: str) -> ScalingMethod:
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
    """One timing job: a method at one (m, n, k) with a thread count.

    ``previous`` is the key of the next smaller point of the same method and threads along
    ``vary`` (the swept variable of the first sweep that lists this point); the budget is
    extrapolated from it. ``sweeps`` lists every sweep the point belongs to.
    """

    method: str
    threads: int
    m: int
    n: int
    k: int
    sweeps: tuple[str, ...] = ()
    vary: str | None = None
    previous: str | None = None

    @property
    def key(self) -> str:
        return point_key(self.method, self.threads, self.m, self.n, self.k)

    def size(self, variable: str) -> int:
        return int(getattr(self, variable))


def point_key(method: str, threads: int, m: int, n: int, k: int) -> str:
    """Relative path stem of a point: ``{method}/t{threads}/m{m}_n{n}_k{k}``."""
    return f"{method}/t{int(threads)}/m{int(m)}_n{int(n)}_k{int(k)}"


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
        once) and keeps the predecessor of the first sweep that lists it.
    """
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
            if method not in SCALING_METHODS:
                raise ConfigError(
                    f"config key scaling.sweeps.{sweep}.methods[{i}]: unknown scaling method "
                    f"{method!r}; known: {', '.join(sorted(SCALING_METHODS))}"
                )
            if method not in cfg.get("methods", {}):
                raise ConfigError(
                    f"config key scaling.sweeps.{sweep}.methods[{i}]: {method!r} has no entry "
                    "(exponents) in scaling.methods"
                )
            for threads in spec.get("threads", cfg.get("threads", [1])):
                previous = None
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
                            previous=previous,
                        )
                    previous = key
    return points


def lookup_point(points: Mapping[str, Point], wildcards) -> Point:
    """The planned point of a job's wildcards (``method``, ``threads``, ``m``, ``n``, ``k``)."""
    key = point_key(wildcards.method, wildcards.threads, wildcards.m, wildcards.n, wildcards.k)
    if key not in points:
        raise ValueError(f"scaling point {key} is not in any sweep of config['scaling']['sweeps']")
    return points[key]


def previous_input(points: Mapping[str, Point], wildcards, directory: str) -> dict:
    """Snakemake input of a point job: the record of the smaller point it extrapolates from."""
    previous = lookup_point(points, wildcards).previous
    return {"previous": f"{directory}/{previous}.json"} if previous else {}


def job_params(points: Mapping[str, Point], wildcards) -> dict:
    """The point's fields a job needs; not its sweeps, so adding a sweep never re-runs it."""
    point = lookup_point(points, wildcards)
    return {f.name: getattr(point, f.name) for f in dataclasses.fields(point) if f.name != "sweeps"}


# --------------------------------------------------------------------------------------------
# Budget: run, or skip with the reason
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BudgetDecision:
    run: bool
    predicted_s: float
    reason: str


def budget_decision(
    point: Point,
    previous: Mapping | None,
    exponents: Mapping[str, float],
    budget_s: float,
) -> BudgetDecision:
    """Run a point, or skip it because its predicted time exceeds the budget.

    The prediction extrapolates the measured median CPU time of the next smaller point with
    the method's known exponent of the swept variable: ``t = t_prev (size / size_prev) ** p``.
    CPU time (all threads) rather than wall time, so that the set of points run does not
    depend on how busy a shared machine is, and a multi-threaded point is not cheaper.

    Parameters
    ----------
    point : Point
    previous : mapping or None
        The record (:func:`point_record`) of ``point.previous``; None for the smallest size.
    exponents : mapping of {"m", "n", "k"} → float
        The method's asymptotic exponents (e.g. greedy RLS 1, 1, 1; low-rank LS-SVM 2, 1, 1).
    budget_s : float
        Largest predicted CPU time (seconds) of one selection run that is still run.
    """
    if previous is None:
        return BudgetDecision(True, math.nan, "smallest size: always run")
    status = previous["status"]
    if status != "ok":
        return BudgetDecision(
            False, math.nan, f"not run: the smaller point {point.previous} was {status}"
        )
    prev_size = int(previous[point.vary])
    t_prev = float(np.median(previous["cpu_s"]))
    p = float(exponents[point.vary])
    predicted = t_prev * (point.size(point.vary) / prev_size) ** p
    if predicted > budget_s:
        return BudgetDecision(
            False,
            predicted,
            f"skipped: predicted {predicted:.3g} CPU s = {t_prev:.3g} s at "
            f"{point.vary}={prev_size} "
            f"x ({point.size(point.vary)}/{prev_size})^{p:g} > budget {budget_s:g} s",
        )
    return BudgetDecision(True, predicted, f"predicted {predicted:.3g} s <= budget {budget_s:g} s")


# --------------------------------------------------------------------------------------------
# Timing one point
# --------------------------------------------------------------------------------------------


class PointTimeout(BaseException):
    """A selection exceeded the hard time limit of its point.

    A :class:`BaseException` (like :class:`KeyboardInterrupt`), so that libraries catching
    ``Exception`` (scikit-learn's cross-validation turns a failing split into a NaN score)
    cannot swallow it and carry on with a corrupted selection.
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
        "previous": point.previous,
        "ordered": get_scaling_method(point.method).ordered,
        "status": None,
        "reason": "",
        "predicted_s": None,
        "wall_s": [],
        "cpu_s": [],
        "selected": None,
    }


def add_repeat(record: dict, result: Mapping) -> dict:
    """Append one repeat's result; every repeat of a point must select the same features."""
    if record["status"] not in (None, "ok"):
        raise ValueError(f"cannot add a repeat to a {record['status']} point")
    if record["selected"] is not None and result["selected"] != record["selected"]:
        key = point_key(record["method"], record["threads"], record["m"], record["n"], record["k"])
        raise RuntimeError(
            f"{key}: repeats selected different features (non-deterministic selector)"
        )
    record["status"] = result["status"]
    record["reason"] = result.get("reason") or record["reason"]
    record["wall_s"].append(float(result["wall_s"]))
    record["cpu_s"].append(float(result["cpu_s"]))
    if result["selected"] is not None:
        record["selected"] = list(result["selected"])
    return record


# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------

POINT_COLUMNS = [
    "method",
    "threads",
    "threads_used",
    "m",
    "n",
    "k",
    "status",
    "reason",
    "predicted_s",
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
    records: Iterable[Mapping],
    benchmarks: Iterable[pd.DataFrame | None],
    sweeps_of: Mapping[str, Iterable[str]] | None = None,
) -> pd.DataFrame:
    """One row per point: medians of the in-process selection times and of the job benchmark.

    ``wall_s``/``cpu_s`` (with ``_min``/``_max`` over the repeats) time the selection alone,
    in-process, after a warm-up; ``job_s``/``job_cpu_s``/``job_max_rss_mb`` are Snakemake's
    benchmark of the whole job (interpreter start, imports, data generation), median of the
    repeats.

    Parameters
    ----------
    records : iterable of dict
        Point records (:func:`point_record`).
    benchmarks : iterable of DataFrame or None
        The matching Snakemake benchmark tables (columns ``s``, ``cpu_time``, ``max_rss``; one
        row per repeat), or None.
    sweeps_of : mapping of point key → sweep names, optional
        Which sweeps each point belongs to (:func:`plan_points`); kept out of the records so
        that adding a sweep never re-triggers an existing timing.

    Returns
    -------
    DataFrame with :data:`POINT_COLUMNS`, sorted by method, threads, m, n, k. ``selected`` is
    the space-separated feature indices; ``sweeps`` is ``;``-separated.
    """
    rows = []
    for rec, bench in zip(records, benchmarks, strict=True):
        wall = np.asarray(rec["wall_s"], dtype=float)
        cpu = np.asarray(rec["cpu_s"], dtype=float)
        ok = rec["status"] == "ok"
        key = point_key(rec["method"], rec["threads"], rec["m"], rec["n"], rec["k"])

        def _bench(col, bench=bench):
            if bench is None or col not in bench or bench[col].isna().all():
                return math.nan
            return float(pd.to_numeric(bench[col], errors="coerce").median())

        rows.append(
            {
                "method": rec["method"],
                "threads": int(rec["threads"]),
                "threads_used": int(rec["threads_used"]),
                "m": int(rec["m"]),
                "n": int(rec["n"]),
                "k": int(rec["k"]),
                "status": rec["status"],
                "reason": rec["reason"],
                "predicted_s": math.nan
                if rec["predicted_s"] is None
                else float(rec["predicted_s"]),
                "n_repeats": int(wall.size),
                "wall_s": float(np.median(wall)) if ok else math.nan,
                "wall_s_min": float(wall.min()) if ok else math.nan,
                "wall_s_max": float(wall.max()) if ok else math.nan,
                "cpu_s": float(np.median(cpu)) if ok else math.nan,
                "cpu_s_min": float(cpu.min()) if ok else math.nan,
                "cpu_s_max": float(cpu.max()) if ok else math.nan,
                "job_s": _bench("s"),
                "job_cpu_s": _bench("cpu_time"),
                "job_max_rss_mb": _bench("max_rss"),
                "ordered": bool(rec["ordered"]),
                "selected": "" if rec["selected"] is None else " ".join(map(str, rec["selected"])),
                "sweeps": ";".join((sweeps_of or {}).get(key, ())),
            }
        )
    frame = pd.DataFrame(rows, columns=POINT_COLUMNS)
    return frame.sort_values(["method", "threads", "m", "n", "k"], ignore_index=True)


def read_points(path) -> pd.DataFrame:
    """Read a ``points.csv`` written from :func:`points_frame` (``selected`` stays a string)."""
    frame = pd.read_csv(path, dtype={"selected": str, "reason": str, "sweeps": str})
    for col in ("selected", "reason", "sweeps"):
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
    "fit_exponent",
    "fit_exponents",
    "get_scaling_method",
    "job_params",
    "lookup_point",
    "previous_input",
    "plan_points",
    "point_key",
    "point_record",
    "read_points",
    "points_frame",
    "speedup_table",
    "thread_speedup_table",
    "sweep_frame",
    "time_selection",
]
