"""OP-ELM's ranking and pruning (Miche et al. 2010): the features in their order of entry on
the LAR path, then the best prefix of that order. Buteneers et al. (Section 5) compare with it
as OP-LR and OP-RR.

In the main protocol the method is its ranking: the protocol's RLS model is scored along the
first ``k`` features of the LAR order (:func:`.ranking.ranked_path`); one output only. On a
K-fold task (:mod:`rlsbench.benchmark.methods.kfold`) it also prunes, with the option
``prune``, the model that scores the prefixes by their K-fold validation error:

* ``"lr"``: linear regression (OP-LR), at the smallest λ of the grid;
* ``"rr"``: ridge regression with λ chosen per prefix (OP-RR).

Package: scikit-learn (``lars_path``, ``method="lar"``).
"""

from __future__ import annotations

import numpy as np

from rlsbench.benchmark.methods import Method
from rlsbench.benchmark.methods.kfold import KFoldFit, KFoldTask
from rlsbench.benchmark.methods.ranking import centered_targets, ranked_path
from rlsbench.benchmark.timing import Stopwatch
from rlsbench.numerics.ridgecv.baselines import lars_ranking, op_lr, op_rr
from rlsbench.numerics.ridgecv.ffs_bfs import refit

#: The models that score the prefixes of the ranking: option ``prune`` of :func:`run_kfold`.
PRUNERS = {"lr": op_lr, "rr": op_rr}


def lar_order(X, y, k):
    """Features in their order of entry on the LAR path of the centred targets.

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    return lars_ranking(X, centered_targets(y)[:, 0])


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along the first k features of the LAR order (:func:`lar_order`)."""
    return ranked_path(
        "op_elm",
        X,
        y,
        k,
        alpha=alpha,
        bias=bias,
        criterion=criterion,
        n_jobs=n_jobs,
        rank=lar_order,
    )


def run_kfold(task: KFoldTask, *, prune: str = "rr") -> KFoldFit:
    """The best prefix of the LAR order of ``task``'s free columns; the fixed columns rank
    first and are always kept.

    Parameters
    ----------
    task : KFoldTask
    prune : {"lr", "rr"}
        OP-LR or OP-RR (module docstring).

    Returns
    -------
    KFoldFit
    """
    if prune not in PRUNERS:
        raise ValueError(f"method 'op_elm': prune must be one of {tuple(PRUNERS)}, got {prune!r}")
    fixed = np.asarray(task.fixed, dtype=np.intp)
    with Stopwatch() as clock:
        free = task.free
        ranking = np.concatenate([fixed, free[lars_ranking(task.X[:, free], task.y)]])
        pruned = PRUNERS[prune](task.stats, ranking, task.lambdas)
    sel = pruned.selected
    if fixed.size:  # the constant column ranks first and is always kept
        sel = np.unique(np.concatenate([fixed, sel]))
    coef = refit(task.stats, sel, pruned.alpha)[:, 0]
    return KFoldFit(
        task.t_statistics,
        clock.wall_s,
        sel,
        pruned.alpha,
        pruned.cv_sse[pruned.n_selected],
        coef,
    )


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="op_elm",
    run=run,
    description="OP-ELM ranking (Miche et al. 2010): LAR order of entry, scikit-learn lars_path; "
    "on K-fold tasks OP-LR/OP-RR pruning",
    tasks=("binary", "regression"),
    # LAR over all n features: a correlation pass (2mn) and a Cholesky update per step
    flops=lambda m, n, k, t: 2.0 * 2 * n * m * n + 4.0 * n * n * m,
    tags={"kfold": run_kfold, "label": "OP-ELM", "package": "scikit-learn (lars_path)"},
)
