"""Sparse-regression baselines: the order in which features enter a Lasso path, an elastic-net
path, or orthogonal matching pursuit.

Each orders the features on the training split by the step at which its coefficient first
leaves zero along the method's own path (scikit-learn computes the path), then the protocol's
RLS model is scored along the first ``k`` of that order (:func:`.ranking.ranked_path`). A path
is followed only until ``k`` features have entered: LARS stops after the step that brings the
k-th, a coordinate-descent grid after its first λ with k non-zero rows (warm-started λ by λ, so
the λ it reaches are solved as in one call of ``enet_path`` and the first ``k`` of the order are
the same; the small λ it skips are the ones where coordinate descent runs up to its
``max_iter`` sweeps). The
paths are fitted on centred targets without intercept: the protocol's X is standardised
(centred), so this is the path with an intercept. Features the path never reaches (LARS and
OMP stop at the rank of X; a λ grid ends) follow by decreasing squared correlation with the
targets (:func:`.ranking.correlation_scores`); constant columns come last. OMP on one-vs-rest
columns (multiclass) is one pursuit per class, the standard one-vs-rest reduction: a feature
enters at the first step at which it is in any class's support.

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
    protocol_flops,
    ranked_path,
)
from rlsbench.lazy import lazy_module

# imported at the first selection, not when the workflow reads its methods
sklm = lazy_module("sklearn.linear_model")
sklearn_exceptions = lazy_module("sklearn.exceptions")

#: Length of the λ grid of the coordinate-descent paths (scikit-learn's default, from
#: ``eps * λ_max`` to ``λ_max``).
N_ALPHAS = 100

#: scikit-learn's default tolerance of ``enet_path``: the duality gap at which coordinate descent
#: stops, relative to ``‖Y‖²``.
SKLEARN_TOL = 1e-4

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
    on each feature's row of coefficients) on a grid of :data:`N_ALPHAS` λ, followed until k
    features have entered (:func:`enet_entry_path`).

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
        return _enet_order(X, Y, k, l1_ratio=1.0)
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


def alpha_grid(X, Y, *, l1_ratio, n_alphas=N_ALPHAS, eps=1e-3):
    """scikit-learn's λ grid of ``enet_path(X, Y, alphas=n_alphas)``: from λ_max, the smallest
    λ at which every coefficient is zero (``max_j ‖x_jᵀ Y‖₂ / (m · l1_ratio)``), down to
    ``eps · λ_max`` on a geometric grid.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples, t)
        Centred targets.
    l1_ratio : float

    Returns
    -------
    ndarray of shape (n_alphas,)
    """
    XY = X.T @ Y
    alpha_max = np.sqrt(np.max(np.sum(XY**2, axis=1))) / (X.shape[0] * l1_ratio)
    if alpha_max <= np.finfo(np.float64).resolution:
        return np.full(n_alphas, np.finfo(np.float64).resolution)
    return np.geomspace(alpha_max, alpha_max * eps, num=n_alphas)


def enet_entry_path(X, Y, k, *, l1_ratio):
    """The coordinate-descent path of scikit-learn's ``enet_path`` on the grid of
    :func:`alpha_grid`, stopped after the first λ at which ``k`` features are non-zero.

    Each λ starts from the solution of the one before (``coef_init``), as inside one call of
    ``enet_path``, so the coefficients at the λ reached are those of the whole path.

    With several outputs and more rows than columns, the multi-task solver (which takes no
    Gram matrix) works on the thin QR factors instead of X: with X = QR, ``‖Y − XW‖²`` is
    ``‖QᵀY − RW‖²`` plus a constant, so R (n × n) and QᵀY give the same objective at every
    W, hence the same solution, at n/m of the cost of a sweep (PMLB's texture, 4950 × 40 with
    11 classes: 38 s to 0.6 s a training split). λ is scaled by m/n (scikit-learn multiplies
    it by the number of rows) and the duality-gap tolerance is scikit-learn's default
    absolute one, ``1e-4 · ‖Y‖²``, so the objective is as close to its minimum as on X.
    Coefficients then differ from those on X by no more than that tolerance allows (an entry
    tied within it can change places).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples, t)
        Centred targets; t > 1 is the multi-task path (ℓ2,1 penalty on each feature's row).
    k : int
    l1_ratio : float

    Returns
    -------
    ndarray of shape (n_features, steps) or (t, n_features, steps)
        scikit-learn's layout; ``steps`` ≤ :data:`N_ALPHAS`.
    """
    multi = Y.shape[1] > 1
    grid = alpha_grid(X, Y, l1_ratio=l1_ratio)
    m, n = X.shape
    X = np.asfortranarray(X, dtype=np.float64)
    y = np.asfortranarray(Y if multi else Y[:, 0], dtype=np.float64)
    options = {"precompute": False}
    if not multi and m > n:
        # enet_path's precompute="auto": the Gram matrix where there are more rows than columns
        options = {"precompute": np.dot(X.T, X), "Xy": np.dot(X.T, y)}
    elif multi and m > n:
        Q, R = np.linalg.qr(X)
        y_reduced = Q.T @ y
        reduced_norm2 = np.sum(y_reduced**2)
        if reduced_norm2 > 0:  # else Y is orthogonal to X: every coefficient is zero on X
            options["tol"] = SKLEARN_TOL * np.sum(y**2) / reduced_norm2
            X, y, grid = np.asfortranarray(R), np.asfortranarray(y_reduced), grid * (m / n)
    coefs = []
    coef = None
    for alpha in grid:
        with warnings.catch_warnings():
            # the small λ of a grid on m < n, and ill-conditioned X
            warnings.simplefilter("ignore", sklearn_exceptions.ConvergenceWarning)
            _, step, _ = sklm.enet_path(
                X,
                y,
                l1_ratio=l1_ratio,
                alphas=[alpha],
                # a copy: the solver updates coef_init in place
                coef_init=None if coef is None else np.array(coef, order="F"),
                check_input=False,
                **options,
            )
        coef = step[..., 0]
        coefs.append(coef)
        rows = np.abs(coef).sum(axis=0) if multi else np.abs(coef)
        if np.count_nonzero(rows) >= k:
            break
    return np.stack(coefs, axis=-1)


def _enet_order(X, Y, k, *, l1_ratio):
    return complete(
        entry_order(enet_entry_path(X, Y, k, l1_ratio=l1_ratio)), correlation_scores(X, Y)
    )


def enet_order(X, y, k):
    """Elastic-net entry order along scikit-learn's coordinate-descent ``enet_path``
    (``l1_ratio`` = :data:`L1_RATIO`, a grid of :data:`N_ALPHAS` λ followed until k features
    have entered, :func:`enet_entry_path`; multi-task for several outputs).

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    return _enet_order(X, centered_targets(y), k, l1_ratio=L1_RATIO)


def omp_order(X, y, k):
    """Orthogonal matching pursuit's support order (scikit-learn's ``orthogonal_mp`` with
    ``return_path=True``, k atoms); one-vs-rest for several outputs.

    With t one-vs-rest columns, each class gets its own pursuit of k atoms and a feature
    enters at the first step at which it is in any class's support (ties by the norm of its
    coefficients over the classes there, then by index: :func:`entry_order`), so that the
    first s steps of the order hold the union of the classes' first s atoms.

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    Y = centered_targets(y)
    n_atoms = min(k, X.shape[1])
    paths = np.zeros((Y.shape[1], X.shape[1], n_atoms))
    for target, column in enumerate(Y.T):
        with warnings.catch_warnings():
            # OMP stops early when the residual is orthogonal to what is left (collinear
            # columns): its support stays, and the completion below orders the rest
            warnings.simplefilter("ignore", RuntimeWarning)
            coefs = sklm.orthogonal_mp(X, column, n_nonzero_coefs=n_atoms, return_path=True)
        coefs = coefs.reshape(X.shape[1], -1)
        if coefs.shape[1]:  # none for a target without variance
            paths[target, :, : coefs.shape[1]] = coefs
            paths[target, :, coefs.shape[1] :] = coefs[:, -1:]
    return complete(entry_order(paths if Y.shape[1] > 1 else paths[0]), correlation_scores(X, Y))


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


#: Fixed operations of one solver step at the nominal 2 GFLOP/s (about 0.5 ms: one call of
#: ``enet_path`` for one λ, one LARS or OMP step's Python and LAPACK calls).
STEP_OVERHEAD_FLOPS = 1e6

#: CPU seconds of one run, measured with ``benchmarks/bench_cost_models.py`` (scikit-learn
#: 1.9.1, one thread, the protocol's 10-fold training split of each set, standardised, or a
#: random subset of its rows and columns): (data, m, n, k, t, seconds); the multi-task points
#: on more rows than columns measured again with the path on X's QR factors (83e1eee). The cost
#: models below
#: are fitted to them; ``tests/benchmark/methods/test_cost_models.py`` holds each estimate at
#: 2 GFLOP/s within a factor 3 of its measurement.
MEASURED_S = {
    "enet_path": (
        ("madelon rows/cols", 50, 20, 20, 1, 0.049),
        ("madelon rows/cols", 2000, 100, 50, 1, 0.058),
        ("Isolet rows/cols", 300, 200, 50, 26, 0.086),
        ("arcene", 180, 10000, 50, 1, 0.397),
        ("arcene", 180, 10000, 10, 1, 0.129),
        ("nci9", 54, 9712, 50, 9, 0.285),
        ("nci9", 54, 9712, 10, 9, 0.108),
        ("TOX_171", 153, 5748, 50, 4, 0.155),
        ("BASEHOCK rows/cols", 1000, 2000, 50, 1, 0.205),
        ("BASEHOCK", 1793, 4862, 50, 1, 0.977),
        ("BASEHOCK", 1793, 4862, 10, 1, 0.378),
        ("Isolet", 1404, 617, 50, 26, 0.495),
        ("Isolet", 1404, 617, 10, 26, 0.236),
        ("COIL20", 1296, 1024, 50, 20, 0.926),
        ("ORL", 360, 1024, 50, 40, 0.674),
    ),
    # LARS for one output, the multi-task coordinate-descent path for several. Not within a
    # factor 3: COIL20 (1296 x 1024, 20 classes), 38.6 s against 3.5 s estimated: on its
    # strongly correlated pixels the multi-task Lasso needs about ten times the sweeps per λ
    # of the other sets (the elastic net's ℓ2 part keeps its count down: 1.0 s there)
    "lasso_path": (
        ("madelon rows/cols", 50, 20, 20, 1, 0.012),
        ("madelon rows/cols", 2000, 100, 50, 1, 0.027),
        ("arcene", 180, 10000, 50, 1, 0.391),
        ("BASEHOCK rows/cols", 1000, 2000, 50, 1, 0.137),
        ("BASEHOCK", 1793, 4862, 50, 1, 0.543),
        ("Isolet rows/cols", 300, 200, 50, 26, 0.095),
        ("nci9", 54, 9712, 50, 9, 0.259),
        ("TOX_171", 153, 5748, 50, 4, 0.152),
        ("Isolet", 1404, 617, 50, 26, 2.07),
        ("Isolet", 1404, 617, 10, 26, 0.805),
        ("ORL", 360, 1024, 50, 40, 1.79),
    ),
    "omp": (
        ("arcene", 180, 10000, 50, 1, 0.311),
        ("nci9", 54, 9712, 50, 9, 0.270),
        ("TOX_171", 153, 5748, 50, 4, 0.382),
        ("Prostate_GE", 91, 5966, 50, 1, 0.081),
        ("GLIOMA", 45, 4434, 50, 4, 0.275),
    ),
}


def _cd_entry_flops(m, n, k, t):
    # the coordinate-descent path followed until k features have entered (enet_entry_path):
    # its cost grows with k (the λ it reaches) and with the rows swept times n t (one sweep's
    # passes over X and the residuals), plus a fixed cost per λ solved; the single-output path
    # costs about as much as a 4-output one (the measured points: scikit-learn's one-output
    # solver takes more λ and sweeps to reach k). The multi-task path on more rows than
    # columns sweeps R (n rows) after one QR of X (2 m n², at BLAS-3 speed)
    rows, qr = (n, 2.0 * m * n * n / 10.0) if t > 1 and m > n else (m, 0.0)
    return 2.0 * k * rows * n * (t + 3) + qr + min(2 * k, N_ALPHAS) * STEP_OVERHEAD_FLOPS


def _enet_flops(m, n, k, t):
    return _cd_entry_flops(m, n, k, t) + protocol_flops(m, n, k, t)


def _lasso_flops(m, n, k, t):
    if t == 1:
        # LARS: a correlation pass (4 m n with the Cholesky update's products) and a fixed
        # cost per step
        return k * (4.0 * m * n + STEP_OVERHEAD_FLOPS) + protocol_flops(m, n, k, t)
    # the multi-task Lasso: pure ℓ1 needs more sweeps per λ than the elastic net, more where
    # there are more examples (at most 1.5 times here: 1.1 times its time on Isolet's 300 x
    # 200 subset, 4.2 on all of Isolet; COIL20 below)
    return (1.0 + min(m / n, 0.5)) * _cd_entry_flops(m, n, k, t) + protocol_flops(m, n, k, t)


def _omp_flops(m, n, k, t):
    # one pursuit of k steps per output (one-vs-rest): a correlation pass and a least-squares
    # update per step (4 m n) and its fixed cost
    return t * k * (4.0 * m * n + STEP_OVERHEAD_FLOPS) + protocol_flops(m, n, k, t)


# One entry point each in pyproject.toml ([project.entry-points."rlsbench.methods"]).
lasso_path = Method(
    name="lasso_path",
    run=_runner("lasso_path", lasso_order),
    description="Lasso entry order (LARS-lasso; multi-task Lasso path for several outputs), "
    "scikit-learn",
    flops=_lasso_flops,
    # on a K-fold task (Buteneers et al.'s LARS column): the Lasso at a K-fold penalty
    tags={"package": "scikit-learn (lars_path, enet_path)", "kfold": lasso_kfold},
)
enet_path = Method(
    name="enet_path",
    run=_runner("enet_path", enet_order),
    description=f"Elastic-net entry order (l1_ratio={L1_RATIO}, {N_ALPHAS} λ), scikit-learn",
    flops=_enet_flops,
    tags={"package": "scikit-learn (enet_path)"},
)
omp = Method(
    name="omp",
    run=_runner("omp", omp_order),
    description="Orthogonal matching pursuit support order (one-vs-rest for multiclass), "
    "scikit-learn orthogonal_mp",
    flops=_omp_flops,
    tags={"package": "scikit-learn (orthogonal_mp)"},
)
