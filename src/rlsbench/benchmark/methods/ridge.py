"""Ridge regression on every feature, λ chosen by K-fold validation (Buteneers et al., Section 2):
the "RR" columns of their tables.

It selects no features, so the main protocol (which scores paths of k selected features) has
no target for it (``tasks=()``); it runs on K-fold tasks (:mod:`rlsbench.benchmark.methods.kfold`)
with the option ``search``, the way the validation error of the R values of λ is computed:

* ``"naive"``: one ridge fit per fold and λ on the raw rows (no shared covariances);
* ``"covariance"``: one solve per fold and λ on the shared fold covariances;
* ``"eigen"``: one eigendecomposition per fold, then every λ at O(N²).

The three choose the same λ with the same numbers (Section 2.2); they differ in cost.
"""

from __future__ import annotations

import numpy as np

from rlsbench.benchmark.methods import Method, MethodPluginError
from rlsbench.benchmark.methods.kfold import KFoldFit, KFoldTask
from rlsbench.benchmark.timing import Stopwatch
from rlsbench.numerics.ridgecv.kfold_lambda import ridge_weights, search_lambda

#: The ways of computing the K-fold validation error over the λ grid.
SEARCHES = ("naive", "covariance", "eigen")


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Refused: ridge regression keeps every feature, a protocol path has k of them."""
    raise MethodPluginError(
        "method 'ridge_kfold' selects no features: it runs on K-fold tasks only (tasks=())"
    )


def run_kfold(task: KFoldTask, *, search: str = "eigen") -> KFoldFit:
    """Ridge regression on every column of ``task``, λ by its K-fold validation error.

    Parameters
    ----------
    task : KFoldTask
    search : {"naive", "covariance", "eigen"}
        How the validation errors are computed (module docstring). The naive search uses no
        shared covariances: its ``t_fixed`` is NaN.

    Returns
    -------
    KFoldFit
    """
    if search not in SEARCHES:
        raise ValueError(f"method 'ridge_kfold': search must be one of {SEARCHES}, got {search!r}")
    naive = search == "naive"
    with Stopwatch() as clock:
        res = search_lambda(
            task.X,
            task.y,
            task.lambdas,
            task.folds,
            method=search,
            stats=None if naive else task.stats,
        )
    coef = ridge_weights(task.stats.A, task.stats.B, res.alpha)[:, 0]
    return KFoldFit(
        np.nan if naive else task.t_statistics,
        clock.wall_s,
        np.arange(task.X.shape[1]),
        res.alpha,
        res.cv_sse[res.best_index],
        coef,
    )


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="ridge_kfold",
    run=run,
    description="ridge regression on every feature, λ by K-fold validation "
    "(Buteneers et al.'s RR; K-fold tasks only)",
    tasks=(),
    own_alpha=True,
    # fold covariances (2mn²), then per fold one eigendecomposition (9n³) and R = 50 values
    # of λ at 2n² each, K = 10 folds
    flops=lambda m, n, k, t: 2.0 * m * n * n + 10 * (9.0 * n**3 + 50 * 2.0 * n * n * t),
    tags={"kfold": run_kfold, "label": "RR"},
)
