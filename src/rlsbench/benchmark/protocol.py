"""The evaluation protocol rlsbench runs every selection method under, arrays in, rows out.

For one dataset, one selection method and one fold of a seeded K-fold split:

1. split the data by seeded K-fold cross-validation, stratified for classification
   (:func:`cv_splits`);
2. standardise the features with the mean and standard deviation of the *training* split
   (:func:`standardize`; ``standardize: false`` leaves them as the dataset gives them);
3. choose λ on that training split by the LOO grid search of RLS on all its features
   (:func:`run_alpha_job`);
4. run the selection method with that λ up to ``k_max`` features: forward selection adds one
   per step (a method whose subsets are not nested gives one subset per size);
5. after every addition score the model: accuracy (MSE and R² for regression) on the held-out
   fold, and the LOO estimate on the training split along the same features
   (:func:`loo_decision_path`), with the feature chosen, λ and the times (:func:`run_select_job`).

A method over the memory or time budget is recorded as skipped, with the reason, before it
touches the data (:func:`feasibility`).

The protocol comes from the accuracy experiment of the greedy RLS paper (Pahikkala, Airola and
Salakoski 2010, Section 4.2); the standardisation and the regularised bias feature are choices
of ours that the paper does not state (``docs/parts/main.rst``), and every method, of whichever
paper, runs under it alike.

Everything here takes arrays and typed settings
(:class:`~rlsbench.benchmark.protocol_settings.ProtocolSettings`) and returns arrays or plain
records. Reading and writing files is the job of :mod:`rlsbench.benchmark.jobs`, whose
:func:`~rlsbench.benchmark.jobs.alpha_job` and :func:`~rlsbench.benchmark.jobs.select_job` the
main part's rules run.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from dataclasses import dataclass

import numpy as np

from rlsbench.benchmark.protocol_settings import LambdaGrid, ProtocolSettings, time_budget_for
from rlsbench.benchmark.provenance import provenance
from rlsbench.benchmark.timing import Stopwatch

log = logging.getLogger(__name__)

#: Columns whose values depend on the machine's speed; everything else in a result table is
#: a deterministic function of (config, code, seed).
TIMING_COLUMNS = (
    "alpha_time_s",
    "fit_time_s",
    "elapsed_s",
    "score_time_s",
    "job_max_rss_mb",
)


# ---------------------------------------------------------------------------------------------
# Data preparation
# ---------------------------------------------------------------------------------------------
def encode_targets(y, task):
    """Targets as the RLS selectors expect them.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        ±1 for ``binary``, integer classes 0..c-1 for ``multiclass``, real for ``regression``.
    task : {"binary", "multiclass", "regression"}

    Returns
    -------
    Y : ndarray of shape (n_samples,) or (n_samples, c), float64
        One-vs-rest ±1 columns for ``multiclass``; ``y`` as float64 otherwise.
    """
    y = np.asarray(y)
    if task == "multiclass":
        classes = np.unique(y)
        return np.where(y[:, None] == classes[None, :], 1.0, -1.0)
    if task in ("binary", "regression"):
        return y.astype(np.float64)
    raise ValueError(f"task must be binary, multiclass or regression, got {task!r}")


@dataclass(frozen=True)
class CVPlan:
    """How one dataset is split: ``n_repeats`` times a seeded ``n_folds``-fold split.

    Attributes
    ----------
    n_folds : int
        Folds of each repetition: the configured ``n_folds``, or fewer where a class has fewer
        members (a stratified split puts every class in every fold).
    n_repeats : int
        Repetitions (differently seeded splits); more than one for a dataset with fewer
        examples than ``cv_repeat_below``.
    rule : str
        What the plan departs from the configured split, in words ("" when nothing).
    """

    n_folds: int
    n_repeats: int = 1
    rule: str = ""

    @property
    def n_splits(self) -> int:
        """Train/test splits in all: ``n_folds * n_repeats`` (the rows' ``fold`` runs over
        them; repetition ``r`` holds folds ``r * n_folds ... (r + 1) * n_folds - 1``)."""
        return self.n_folds * self.n_repeats


def cv_plan(y, task, settings) -> CVPlan:
    """The split of one dataset under the protocol's rule for small samples.

    1. A classification set whose smallest class has fewer members than ``n_folds`` gets as
       many folds as that class has members (stratified K-fold needs every class in every
       fold); a class of one member cannot be split and is refused.
    2. A dataset with fewer examples than ``cv_repeat_below`` is split ``cv_repeats`` times,
       each repetition seeded anew, so that its accuracy is an average over more test folds and
       the tables can show the spread across repetitions.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
    task : {"binary", "multiclass", "regression"}
    settings : ProtocolSettings

    Returns
    -------
    CVPlan

    Raises
    ------
    ValueError
        A class with a single member.
    """
    settings = ProtocolSettings.of(settings)
    y = np.asarray(y)
    n_folds, rules = settings.n_folds, []
    if task != "regression":
        values, counts = np.unique(y, return_counts=True)
        smallest = int(counts.min())
        if smallest < 2:
            raise ValueError(
                f"class {values[counts.argmin()].item()!r} has a single example: a stratified "
                "split cannot put it in a training and a test fold"
            )
        if smallest < n_folds:
            rules.append(f"{smallest} folds: the smallest class has {smallest} examples")
            n_folds = smallest
    elif len(y) < n_folds:
        raise ValueError(
            f"{len(y)} examples cannot make {n_folds} folds (config key {settings.key}.n_folds)"
        )
    n_repeats = 1
    if len(y) < settings.cv_repeat_below and settings.cv_repeats > 1:
        n_repeats = settings.cv_repeats
        rules.append(
            f"{n_repeats} repetitions: {len(y)} examples < {settings.key}.cv_repeat_below "
            f"({settings.cv_repeat_below})"
        )
    return CVPlan(n_folds=n_folds, n_repeats=n_repeats, rule="; ".join(rules))


def _repeat_seed(seed: int, repeat: int) -> int:
    """The splitter's seed of repetition ``repeat``: ``seed`` itself for the first, so that a
    plan of one repetition is the plain seeded split; a SeedSequence draw for the others."""
    if repeat == 0:
        return int(seed)
    return int(np.random.SeedSequence([int(seed), int(repeat)]).generate_state(1)[0])


def cv_splits(y, task, n_folds, seed, n_repeats=1):
    """Seeded K-fold splits: stratified for classification, plain for regression.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
    task : {"binary", "multiclass", "regression"}
    n_folds : int
    seed : int
        ``random_state`` of the shuffling splitter (of its first repetition).
    n_repeats : int, default=1
        Repetitions, each with its own seed (:func:`cv_plan`).

    Returns
    -------
    list of (train_index, test_index)
        ``n_folds * n_repeats`` splits, repetition by repetition.
    """
    if task == "regression":
        from sklearn.model_selection import KFold as splitter
    else:
        from sklearn.model_selection import StratifiedKFold as splitter

    splits = []
    for repeat in range(int(n_repeats)):
        folds = splitter(n_splits=n_folds, shuffle=True, random_state=_repeat_seed(seed, repeat))
        splits.extend(folds.split(np.zeros((len(y), 1)), y))
    return splits


def plan_splits(y, task, settings) -> list:
    """:func:`cv_splits` of the dataset's :func:`cv_plan`."""
    settings = ProtocolSettings.of(settings)
    plan = cv_plan(y, task, settings)
    return cv_splits(y, task, plan.n_folds, settings.cv_seed, plan.n_repeats)


def standardize(X_train, X_test):
    """Centre and scale features by the training split's mean and standard deviation.

    Constant training features (standard deviation 0) are only centred.

    Parameters
    ----------
    X_train : ndarray of shape (n_train, n_features)
    X_test : ndarray of shape (n_test, n_features)

    Returns
    -------
    X_train, X_test : float64 ndarrays of the same shapes
    """
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(X_train)
    return scaler.transform(X_train), scaler.transform(X_test)


def alpha_grid(spec):
    """λ grid of a config value: an explicit list, or ``{base, min_exp, max_exp}``
    (:class:`~rlsbench.benchmark.protocol_settings.LambdaGrid`, validated as the config is).

    Returns
    -------
    ndarray of shape (R,)
        The λ values (the default config gives 2^-15 … 2^15).
    """
    return LambdaGrid.from_spec(spec).values()


# ---------------------------------------------------------------------------------------------
# Scores
# ---------------------------------------------------------------------------------------------
def scores(decision, Y, task):
    """Accuracy and mean squared error of decision values.

    Parameters
    ----------
    decision : ndarray of shape (k, n_samples) or (k, n_samples, c)
        One row per step of a selection path.
    Y : ndarray of shape (n_samples,) or (n_samples, c)
        Encoded targets (:func:`encode_targets`).
    task : {"binary", "multiclass", "regression"}

    Returns
    -------
    accuracy : ndarray of shape (k,)
        Fraction correct: sign for binary, arg-max of the one-vs-rest outputs for multiclass;
        NaN for regression.
    mse : ndarray of shape (k,)
        Mean over samples of the squared error summed over outputs.
    """
    err = decision - Y[None]
    mse = (err**2).reshape(err.shape[0], err.shape[1], -1).sum(axis=2).mean(axis=1)
    if task == "binary":
        acc = (np.where(decision > 0, 1.0, -1.0) == Y[None]).mean(axis=1)
    elif task == "multiclass":
        acc = (decision.argmax(axis=2) == Y.argmax(axis=1)[None]).mean(axis=1)
    else:
        acc = np.full(err.shape[0], np.nan)
    return acc, mse


def r2_from_mse(mse, Y, task):
    """Coefficient of determination on a held-out split, from its MSE.

    Parameters
    ----------
    mse : ndarray of shape (k,)
        Mean squared error after each step (:func:`scores`).
    Y : ndarray of shape (n_samples,)
        The split's targets.
    task : {"binary", "multiclass", "regression"}

    Returns
    -------
    ndarray of shape (k,)
        ``1 - mse / var(Y)`` with the split's own variance (the R² scikit-learn's
        ``r2_score`` gives on the split): scale-free, so regression datasets can be ranked and
        compared in one test (:mod:`rlsbench.benchmark.statistics`). NaN for classification
        and for a constant ``Y``.
    """
    mse = np.asarray(mse, dtype=float)
    if task != "regression":
        return np.full(mse.shape, np.nan)
    var = float(np.var(np.asarray(Y, dtype=float)))
    return 1.0 - mse / var if var > 0 else np.full(mse.shape, np.nan)


def loo_decision_path(X, Y, order, alpha, *, bias=0.0):
    """LOO predictions of RLS after each addition along a given feature order.

    The hat matrix ``H = Z (ZᵀZ + λI)⁻¹ Zᵀ`` of the features chosen so far is ``U Uᵀ`` with
    ``U = Z L⁻ᵀ`` (``L`` the Cholesky factor of ``ZᵀZ + λI``, whose leading blocks factor
    every prefix), so the whole path costs one Gram matrix, one Cholesky factor and one
    triangular solve (O(m k²), BLAS-3; :func:`rlsbench.numerics.rls.ridge_prefix_path`). The
    LOO prediction is ``y_i − (y_i − ŷ_i) / (1 − H_ii)`` (the paper's Eq. for the LOO shortcut).
    A bias is the constant feature ``bias`` regularised like the others (as in RLScore).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples,) or (n_samples, t)
    order : ndarray of shape (k,), int
    alpha : float
        λ > 0.
    bias : float

    Yields
    ------
    ndarray of shape (n_samples,) or (n_samples, t)
        LOO predictions after features ``order[:s + 1]``, for s = 0 … k-1.
    """
    from rlsbench.numerics.rls import ridge_prefix_path

    Y2 = Y.reshape(X.shape[0], -1)
    _, _, residuals = ridge_prefix_path(X, Y2, np.asarray(order), alpha, bias=bias, weights=False)
    for res in residuals:
        yield (Y2 - res).reshape(Y.shape)


# ---------------------------------------------------------------------------------------------
# Feasibility: memory and time budgets
# ---------------------------------------------------------------------------------------------
def estimate_flops(method, m, n, k, t=1):
    """Rough operation count of running ``method`` to k features on an m×n training set with t
    outputs: the method's own cost model, :meth:`~rlsbench.benchmark.methods.Method.estimate_flops`
    (a :class:`~rlsbench.benchmark.methods.MethodPluginError` naming it if it has none)."""
    return method.estimate_flops(m, n, k, t)


def estimate_memory(method, m, n, k):
    """Peak bytes of one job: data, LOO bookkeeping and the method's own needs."""
    data = 8 * m * n * 2 + 8 * m * (k + 2)  # X, its standardised copy, the LOO basis U
    own = method.memory_bytes(m, n, k) if method.memory_bytes is not None else 8 * 2 * m * n
    return int(data + own)


@dataclass(frozen=True)
class Feasibility:
    feasible: bool
    reason: str
    memory_bytes: int
    seconds: float


def feasibility(method, m, n, k, t, *, memory_budget_mb, time_budget_s, flops_per_second):
    """Can ``method`` run within the configured memory and time budgets?

    Parameters
    ----------
    method : rlsbench.benchmark.methods.Method
    m, n, k, t : int
        Training examples, features, features to select, outputs.
    memory_budget_mb, flops_per_second : float
        From the config; time is estimated as :func:`estimate_flops` / ``flops_per_second``.
    time_budget_s : float or dict
        Seconds per job, or ``{"default": s, "<method>": s, ...}``.

    Returns
    -------
    Feasibility
        ``reason`` names the budget that is exceeded ("" when feasible).
    """
    time_budget_s = time_budget_for(time_budget_s, method.name)
    mem = estimate_memory(method, m, n, k)
    sec = estimate_flops(method, m, n, k, t) / flops_per_second
    if mem > memory_budget_mb * 2**20:
        return Feasibility(
            False,
            f"memory: needs ~{mem / 2**20:.0f} MB > budget {memory_budget_mb} MB "
            f"(m={m}, n={n}, k={k})",
            mem,
            sec,
        )
    if sec > time_budget_s:
        return Feasibility(
            False,
            f"time: needs ~{sec:.3g} s > budget {time_budget_s} s (m={m}, n={n}, k={k})",
            mem,
            sec,
        )
    return Feasibility(True, "", mem, sec)


# ---------------------------------------------------------------------------------------------
# One fold: the λ search and the selection run
# ---------------------------------------------------------------------------------------------
def _fold_data(dataset, fold, settings):
    settings = ProtocolSettings.of(settings)
    splits = plan_splits(dataset.y, dataset.task, settings)
    train, test = splits[fold]
    if settings.standardize:
        X_train, X_test = standardize(dataset.X[train], dataset.X[test])
    else:  # the features as the dataset gives them (the greedy RLS paper states no scaling)
        X_train = np.asarray(dataset.X[train], dtype=np.float64)
        X_test = np.asarray(dataset.X[test], dtype=np.float64)
    Y = encode_targets(dataset.y, dataset.task)
    return X_train, Y[train], X_test, Y[test]


def k_max_for(settings, dataset_name, n_features):
    """Number of features to select: the per-dataset cap, else the global one, else all
    (:meth:`~rlsbench.benchmark.protocol_settings.ProtocolSettings.k_cap`; unlike
    :meth:`~rlsbench.benchmark.protocol_settings.ProtocolSettings.k_for`, a cap over
    ``n_features`` is returned as it is, unless ``k_max_clip`` says all features)."""
    settings = ProtocolSettings.of(settings)
    k = settings.k_cap(dataset_name)
    if k is None:
        return n_features
    return int(min(k, n_features)) if settings.k_max_clip else int(k)


def run_alpha_job(dataset, fold, settings):
    """λ of one training split by the LOO grid search on all features.

    Parameters
    ----------
    dataset : rlsbench.benchmark.datasets.Dataset
    fold : int
        0-based fold index of the seeded K-fold split.
    settings : ProtocolSettings
        The protocol's settings (a config section is parsed by
        :meth:`~rlsbench.benchmark.protocol_settings.ProtocolSettings.from_section`).

    Returns
    -------
    dict
        ``{"alpha", "alpha_index", "alpha_time_s"}``.
    """
    from rlsbench.numerics.rls import choose_alpha

    settings = ProtocolSettings.of(settings)
    X_train, Y_train, _, _ = _fold_data(dataset, fold, settings)
    grid = settings.alphas.values()
    with Stopwatch() as clock:
        alpha = choose_alpha(
            X_train, Y_train, grid, bias=settings.bias, criterion=settings.criterion
        )
    elapsed = clock.wall_s
    index = int(np.flatnonzero(grid == alpha)[0])
    return {"alpha": float(alpha), "alpha_index": index, "alpha_time_s": elapsed}


def _on_device(method, settings, X, Y):
    """(X, Y, device name) for a job of ``device: cuda``: CuPy copies for a method that runs
    on such arrays (greedy_rls), the NumPy arrays and "cpu" for the others."""
    if not method.tags.get("array_api"):
        return X, Y, "cpu"
    from rlsbench.numerics.selection import cuda

    why = cuda.gpu_unavailable_reason()
    if why is not None:
        raise RuntimeError(f"config key {settings.key}.device: 'cuda' here, but {why}")
    return cuda.to_device(X), cuda.to_device(Y), cuda.device_name()


def run_select_job(dataset, method_name, fold, seed, alpha_record, settings, *, n_jobs=1):
    """Run one (dataset, method, fold, seed) of the protocol.

    Parameters
    ----------
    dataset : rlsbench.benchmark.datasets.Dataset
    method_name : str
        A method name (:func:`rlsbench.benchmark.methods.get_method`).
    fold : int
        0-based fold index of the seeded K-fold split.
    seed : int
        Seed given to the method (matters for randomized methods).
    alpha_record : dict
        Output of :func:`run_alpha_job` for this fold.
    settings : ProtocolSettings
        The protocol's settings (a config section is parsed by
        :meth:`~rlsbench.benchmark.protocol_settings.ProtocolSettings.from_section`). The
        rows' ``config_hash`` is that of the section it was parsed from: in a workflow job,
        the dataset's
        :meth:`~rlsbench.benchmark.protocol_settings.ProtocolSettings.job_settings`.
    n_jobs : int
        Threads the job may use.

    Returns
    -------
    list of dict
        One row per step (``k`` = 1 … k_max), or one row with ``status="skipped"`` and the
        reason when the method is not applicable or not feasible within the budgets. A
        method whose subsets are not nested (``SelectionPath.subsets``) has each step's model
        scored on its own subset (test split and LOO), and its rows carry that subset in a
        ``subset`` column (space-separated feature indices).

    Raises
    ------
    ValueError
        The k cap exceeds the dataset's features (the message names the config key).
    """
    from rlsbench.benchmark.methods import get_method

    settings = ProtocolSettings.of(settings)
    method = get_method(method_name)
    splits = plan_splits(dataset.y, dataset.task, settings)
    m, n = len(splits[fold][0]), dataset.X.shape[1]
    t = len(np.unique(dataset.y)) if dataset.task == "multiclass" else 1
    k = k_max_for(settings, dataset.name, n)
    base = {
        "dataset": dataset.name,
        "task": dataset.task,
        "method": method_name,
        "fold": int(fold),
        "n_train": m,
        "n_test": len(splits[fold][1]),
        "n_features": n,
        "k_max": k,
        "criterion": settings.criterion,
        "bias": float(settings.bias),
        "alpha_protocol": alpha_record["alpha"],
        "alpha_time_s": alpha_record["alpha_time_s"],
        **provenance(settings.section, seed),
    }
    on_device = settings.device == "cuda"
    if on_device:  # provenance: where the selection ran
        base["device"] = "cuda" if method.tags.get("array_api") else "cpu"
    settings.k_for(dataset.name, n)  # a cap over the features stops the job, naming its key

    def skipped(reason):
        log.info("skipped %s on %s fold %d: %s", method_name, dataset.name, fold, reason)
        return [{**base, "status": "skipped", "reason": reason, "k": 0}]

    if dataset.task not in method.tasks:
        return skipped(f"task: {method_name} does not support {dataset.task} targets")
    feas = feasibility(
        method,
        m,
        n,
        k,
        t,
        memory_budget_mb=settings.memory_budget_mb,
        time_budget_s=settings.time_budget_s,
        flops_per_second=settings.flops_per_second,
    )
    if not feas.feasible:
        return skipped(feas.reason)

    # the budget check comes first: a skipped job never touches the data
    X_train, Y_train, X_test, Y_test = _fold_data(dataset, fold, settings)
    X_fit, Y_fit = X_train, Y_train
    if on_device:
        X_fit, Y_fit, base["device"] = _on_device(method, settings, X_train, Y_train)

    # select, not run: the plugin contract (k in [1, n_features], exactly k distinct steps) is
    # checked there, once for every method
    with Stopwatch() as clock:
        path = method.select(
            X_fit,
            Y_fit,
            alpha=alpha_record["alpha"],
            k=k,
            criterion=settings.criterion,
            bias=settings.bias,
            seed=int(seed),
            n_jobs=n_jobs,
        )
    fit_time = clock.wall_s
    if X_fit is not X_train:  # weights back on the host: the rest of the protocol is NumPy
        from rlsbench.numerics.array_api import to_numpy

        path = dataclasses.replace(
            path, coef_path=to_numpy(path.coef_path), intercept_path=to_numpy(path.intercept_path)
        )
    steps = path.n_steps

    clock = Stopwatch().start()
    with np.errstate(over="ignore", invalid="ignore"):  # refused by name just below
        test_acc, test_mse = scores(path.decision_path(X_test), Y_test, dataset.task)
    _check_scorable(method, dataset.name, fold, path, test_mse)
    test_r2 = r2_from_mse(test_mse, Y_test, dataset.task)
    loo_acc = np.empty(steps)
    loo_mse = np.empty(steps)
    for s, loo in enumerate(
        loo_decision_path(X_train, Y_train, path.selected, path.alphas[0], bias=settings.bias)
        if path.nested and np.all(path.alphas == path.alphas[0])
        else _loo_per_step(X_train, Y_train, path, settings.bias)
    ):
        acc, mse = scores(loo[None], Y_train, dataset.task)
        loo_acc[s], loo_mse[s] = acc[0], mse[0]
    score_time = clock.stop().wall_s

    elapsed = np.asarray(path.info.get("elapsed_s", np.full(steps, np.nan)), dtype=float)
    names = getattr(dataset, "feature_names", None)
    rows = []
    for s in range(steps):
        feature = int(path.selected[s])
        rows.append(
            {
                **base,
                "status": "ok",
                "reason": "",
                "k": s + 1,
                "feature": feature,
                "feature_name": str(names[feature]) if names is not None else str(feature),
                "alpha": float(path.alphas[s]),
                "test_accuracy": float(test_acc[s]),
                "test_mse": float(test_mse[s]),
                "test_r2": float(test_r2[s]),
                "loo_accuracy": float(loo_acc[s]),
                "loo_mse": float(loo_mse[s]),
                "method_criterion": float(path.criterion[s]),
                "method_loo_mse": float(path.loo_mse[s]),
                "elapsed_s": float(elapsed[s]) if s < len(elapsed) else math.nan,
                "fit_time_s": fit_time,
                "score_time_s": score_time,
            }
        )
        if not path.nested:  # the step's own subset: `feature` alone does not say it
            rows[-1]["subset"] = " ".join(str(int(j)) for j in path.subset(s))
    return rows


def _check_scorable(method, dataset_name, fold, path, test_mse) -> None:
    """Refuse (:class:`~rlsbench.benchmark.methods.MethodPluginError`) a path whose finite
    weights score a test MSE that is not a float64 number (issue 45: no non-finite number from
    a plugin in a table). A decision value or squared error beyond 1.8e308 has no float64 MSE
    to write, and clipping would invent one; a model that far off is broken, not merely bad.
    The LOO scores need no such check: the protocol refits them with the path's λ > 0."""
    from rlsbench.benchmark.methods import MethodPluginError, _plugin_name

    bad = ~np.isfinite(test_mse)
    if bad.any():
        step = int(np.argmax(bad))
        largest = float(np.max(np.abs(path.coef_path[step]), initial=0.0))
        raise MethodPluginError(
            f"{_plugin_name(method)}: on dataset {dataset_name!r} fold {fold}, step "
            f"{step + 1}: its weights (largest |w| {largest:.3g}, intercept "
            f"{float(np.max(np.abs(path.intercept_path[step]))):.3g}) give a test MSE that "
            "overflows float64; a method's path must give finite predictions and errors"
        )


def _loo_per_step(X, Y, path, bias):
    # λ re-chosen at each step (e.g. Buteneers et al.'s FFS) or subsets that are not nested
    # (best subset, one fit per size): no prefix shares a basis, so each step is its own path.
    for s in range(path.n_steps):
        *_, last = loo_decision_path(X, Y, path.subset(s), path.alphas[s], bias=bias)
        yield last


def __getattr__(name):
    # The main part's rules name their functions `rlsbench.benchmark.protocol.alpha_job` and
    # `...select_job`: that string is a Snakemake param, so a new name would re-run every job
    # of the committed runs (the params trigger). The functions live in rlsbench.benchmark.jobs.
    if name in ("alpha_job", "select_job"):
        from rlsbench.benchmark import jobs

        return getattr(jobs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
