"""Methods on a K-fold task: λ (and the features) chosen by K-fold validation on shared fold
covariances, as in Buteneers et al. (Sections 2-3).

The main protocol hands a method one training split and a λ (:mod:`rlsbench.benchmark.methods`).
A K-fold task instead hands it the split's fold covariances, computed once and shared by every
method run on it, with the grid of R values of λ: each method chooses its λ (and its features)
by the K-fold validation error and returns one model, timed. A method takes part through the
tag ``tags["kfold"]`` of its :class:`~rlsbench.benchmark.methods.Method`::

    tags={"kfold": run_kfold}   # run_kfold(task: KFoldTask, **options) -> KFoldFit

The options are the method's own variants (the λ search of ridge regression, the scoring of
FFS/BFS, the pruning of OP-ELM), named in the method's module; a study names the method and
its options, never a name prefix. :func:`kfold_runner` is how a study finds the runner.

Here too, results never depend on a time: the times of :class:`KFoldFit` fill timing columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rlsbench.benchmark.methods import Method, MethodPluginError, distribution_of
from rlsbench.benchmark.timing import Stopwatch
from rlsbench.numerics.ridgecv.ffs_bfs import (
    VARIANTS,
    SelectionResult,
    backward_selection,
    candidate_sets,
    forward_selection,
    refit,
)
from rlsbench.numerics.ridgecv.kfold_lambda import FoldStats, cv_errors_covariance

#: The tag a method's K-fold runner is declared under.
TAG = "kfold"


@dataclass
class KFoldTask:
    """One training split prepared for the methods of a K-fold task.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features), float64
        The training split (read-out features, including a constant column if wanted).
    y : ndarray of shape (n_samples,)
        ±1 (classification) or standardised real targets (regression).
    folds : ndarray of shape (n_samples,), int
        Fold of every row.
    stats : FoldStats
        Fold covariances of (X, y) on ``folds``.
    lambdas : ndarray of shape (R,)
        The grid of λ every method chooses from.
    fixed : tuple of int
        Columns in every model (the constant column): never added nor removed, not counted
        as selected.
    t_statistics : float
        Seconds it took to compute ``stats``: the fixed cost of the methods that use them.
    shared : dict
        Runs that one method's variants share on this task (FFS/BFS's eigen run, against
        which the covariance variant is checked), keyed by the method that made them.
    """

    X: np.ndarray
    y: np.ndarray
    folds: np.ndarray
    stats: FoldStats
    lambdas: np.ndarray
    fixed: tuple[int, ...] = ()
    t_statistics: float = float("nan")
    shared: dict = field(default_factory=dict)

    @property
    def free(self) -> np.ndarray:
        """Columns a method may select (all but ``fixed``), in order."""
        fixed = set(self.fixed)
        return np.array([j for j in range(self.X.shape[1]) if j not in fixed])


@dataclass(frozen=True)
class KFoldFit:
    """A method's model on a K-fold task.

    Attributes
    ----------
    t_fixed : float
        Seconds of what does not depend on λ (NaN: none).
    t_opt : float
        Seconds to choose λ and the features.
    selected : ndarray of shape (s,), int, or None
        Columns of the model (the fixed ones included); None: the run has no model of its own
        (a covariance run cut by its step budget).
    alpha : float
        The chosen λ (NaN without a model).
    cv_sse : float or None
        K-fold validation squared error of the model at its λ (None: not computed).
    coef : ndarray of shape (s,) or None
        Weights of ``selected``, trained on all rows.
    extra : dict
        Columns of the method's own (steps taken, budget, agreement, time estimate).
    """

    t_fixed: float
    t_opt: float
    selected: np.ndarray | None
    alpha: float
    cv_sse: float | None
    coef: np.ndarray | None
    extra: dict = field(default_factory=dict)


def kfold_runner(method: Method):
    """The K-fold runner of ``method`` (its ``tags["kfold"]``).

    Raises
    ------
    MethodPluginError
        The method declares no runner; the message names it and its distribution.
    """
    run = method.tags.get(TAG)
    if not callable(run):
        raise MethodPluginError(
            f"method {method.name!r} of {distribution_of(method.name)} cannot run on a K-fold "
            f"task: its Method has no tags[{TAG!r}] runner "
            "(rlsbench.benchmark.methods.kfold)"
        )
    return run


# ---------------------------------------------------------------------------------------------
# FFS and BFS (Buteneers et al., Section 3): the eigen and the covariance variant
# ---------------------------------------------------------------------------------------------
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


def _timed_selection(task: KFoldTask, direction: str, variant: str, budget):
    run = forward_selection if direction == "forward" else backward_selection
    with Stopwatch() as clock:
        res = run(
            task.stats,
            task.lambdas,
            variant=variant,
            fixed=task.fixed,
            run_to_end=False,
            step_budget=budget,
        )
    return res, clock.wall_s


def run_selection(
    task: KFoldTask, *, direction: str, variant: str = "eigen", step_budget=None
) -> KFoldFit:
    """FFS or BFS on a K-fold task, stopped where the validation error stops improving.

    The eigen run is made once per task and direction (``task.shared``): the eigen variant
    returns it, the covariance variant is checked against it step by step
    (``agrees_with_eigen``) and, when its ``step_budget`` cuts it, has no model of its own and
    an estimated full time (:func:`covariance_time_estimate`).

    Parameters
    ----------
    task : KFoldTask
    direction : {"forward", "backward"}
    variant : {"covariance", "eigen"}
        How the candidate sets are scored (same numbers, different cost).
    step_budget : int or None
        Steps the covariance variant may take (None: to the stopping point); the eigen
        variant always runs to its stopping point.

    Returns
    -------
    KFoldFit
        ``extra``: ``n_steps``, ``steps_needed`` (steps of the eigen run) and, for the
        covariance variant, ``step_budget``, ``agrees_with_eigen``, ``cut_by_budget``,
        ``t_opt_estimate`` and ``estimate_check`` (measured / estimated time of the steps a
        cut run took).
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    key = (direction, "eigen")
    if key not in task.shared:
        task.shared[key] = _timed_selection(task, direction, "eigen", None)
    eig, t_eig = task.shared[key]
    needed = int(eig.order.shape[0])
    if variant == "eigen":
        res, t_opt, extra = eig, t_eig, {}
    else:
        res, t_opt = _timed_selection(task, direction, "covariance", step_budget)
        extra = dict(
            step_budget=np.nan if step_budget is None else int(step_budget),
            agrees_with_eigen=_agrees(res, eig),
            cut_by_budget=bool(res.cut_by_budget),
        )
        if res.cut_by_budget:
            est = covariance_time_estimate(task.stats, task.lambdas, eig)
            k = int(res.order.shape[0])
            done = est["initial"] + est["per_step"][:k].sum()
            extra.update(t_opt_estimate=est["total"], estimate_check=t_opt / done)
    extra.update(n_steps=int(res.order.shape[0]), steps_needed=needed)
    if extra.get("cut_by_budget"):
        return KFoldFit(task.t_statistics, t_opt, None, np.nan, None, None, extra)
    sel = res.selected
    coef = refit(task.stats, sel, res.alpha)[:, 0]
    cv_sse = res.cv_sse[res.stop_step]
    return KFoldFit(task.t_statistics, t_opt, sel, res.alpha, cv_sse, coef, extra)


__all__ = [
    "TAG",
    "KFoldFit",
    "KFoldTask",
    "covariance_time_estimate",
    "kfold_runner",
    "run_selection",
]
