"""Best-subset selection by abess after sure independence screening (SIS): abess's best subset
of each size 1 … k among the columns of largest marginal fit.

Sure independence screening (Fan and Lv 2008) keeps the d columns that fit the targets best
on their own, here by the decrease of the residual sum of squares of a least-squares fit on
the centred column alone, summed over the outputs (``Σ_t (x̃ᵀỹ_t)² / ‖x̃‖²``, x̃ and ỹ
centred: the squared Pearson correlation times the target's variance, the marginal likelihood
abess's own screening ranks by for the linear model); ties by index. d is Fan and Lv's
``⌊m / ln m⌋`` (m training examples), at least 2k so that abess's splicing has as many columns
to exchange as it holds, and at most the number of columns. abess then runs exactly as in
:mod:`.abess` (``abess_best_subset``: one fit per size, subsets not nested, each scored by its
own RLS model) on the d columns kept.

Why screen before abess rather than with abess's own ``screening_size``: each abess call
centres, scales and copies all of X and correlates every column with the residuals before it
screens or splices (0.34–0.38 s a call on RELATHE's training split, 1284 × 4322, whatever the
subset size, the screening size or ``max_iter``; abess 0.4.11), and the protocol makes k calls.
Screened first, a call reads m × d entries: RELATHE's 50 calls take 0.5 s instead of 17 s.
Where d is all the columns (m / ln m ≥ n: the sets with many more rows than columns) this is
``abess_best_subset`` itself; only there does a call still cost m × n.

Screening changes what abess searches, so this is its own method: a column that the best
subset of some size needs but that fits the targets poorly alone (a suppressor) is lost. Its
subsets are what the protocol scores, as for any method.

Package: abess (``abess.linear``, through :func:`.abess.best_subsets`), written against
0.4.11; an optional dependency (the ``bench`` extra).

References
----------
J. Fan and J. Lv. Sure independence screening for ultrahigh dimensional feature space. Journal
of the Royal Statistical Society B 70(5):849–911, 2008.

J. Zhu, C. Wen, J. Zhu, H. Zhang and X. Wang. A polynomial algorithm for best-subset selection
problem. PNAS 117(52):33117–33123, 2020.
"""

from __future__ import annotations

import numpy as np

from rlsbench.benchmark.methods import Method
from rlsbench.benchmark.methods.abess import abess_calls_flops, best_subsets
from rlsbench.benchmark.methods.ranking import centered_targets, prepare, subsets_path


def screening_size(m, n, k):
    """Columns SIS keeps: ``min(n, max(2k, ⌊m / ln m⌋))`` (module docstring).

    Parameters
    ----------
    m, n, k : int
        Training examples, (non-constant) columns, largest subset size.

    Returns
    -------
    int
    """
    return int(min(n, max(2 * k, int(m / np.log(max(m, 2))))))


def marginal_fit_scores(X, y):
    """Decrease of the residual sum of squares by each column alone, summed over the outputs.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        No constant column.
    y : ndarray of shape (n_samples,) or (n_samples, t)

    Returns
    -------
    ndarray of shape (n_features,)
        ``Σ_t (x̃_jᵀ ỹ_t)² / ‖x̃_j‖²``, x̃ and ỹ centred.
    """
    centred = X - X.mean(axis=0)
    products = centred.T @ centered_targets(y)
    return (products**2).sum(axis=1) / np.einsum("ij,ij->j", centred, centred)


def screened_columns(X, y, size):
    """The ``size`` columns of largest :func:`marginal_fit_scores` (ties by index), sorted.

    Returns
    -------
    ndarray of shape (size,), int
    """
    order = np.argsort(-marginal_fit_scores(X, y), kind="stable")
    return np.sort(order[:size])


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """abess's best subset of each size among the screened columns, each scored by its own RLS
    model (module docstring).

    Returns
    -------
    SelectionPath
        With ``subsets`` (one per size) and ``info["first_size"]``.
    """
    X, y, varying = prepare("abess_sis", X, y, k)
    columns = np.flatnonzero(varying)
    constant = np.flatnonzero(~varying)
    largest = min(k, columns.size)
    kept = columns[
        screened_columns(X[:, columns], y, screening_size(X.shape[0], columns.size, largest))
    ]
    found = best_subsets(X[:, kept], y, largest, n_jobs=max(int(n_jobs or 1), 1), name="abess_sis")
    subsets = [kept[sub] for sub in found]
    # k beyond the non-constant columns: every one of them is kept, the constant ones fill up
    for size in range(len(subsets) + 1, k + 1):
        subsets.append(np.concatenate([columns, constant[: size - columns.size]]))

    return subsets_path(
        X, y, subsets, alpha=alpha, bias=bias, criterion=criterion, constant=~varying
    )


def _abess_sis_flops(m, n, k, t):
    # the screening (centring X and one product with the targets: about (10 + 2t) m n at the
    # nominal rate), one abess call per size on the m x d kept columns
    # (:func:`.abess.abess_calls_flops`), then one RLS fit per subset (m s²)
    sizes = np.arange(1, k + 1, dtype=np.float64)
    return (
        (10.0 + 2.0 * t) * m * n
        + abess_calls_flops(m, screening_size(m, n, k), k)
        + float(np.sum(4.0 * m * sizes**2 * t))
    )


#: CPU seconds of one run, measured like ``benchmarks/bench_cost_models.py`` does (one thread,
#: ``time.process_time``, the protocol's 10-fold training split of each set; usps, ailerons and
#: the PMLB sets read through their registry entries; the machine under a load of 5 to 12 on 2
#: cores): (data, m, n, k, t, seconds); ``tests/benchmark/methods/test_cost_models.py`` holds
#: each estimate within a factor 3.
MEASURED_S = {
    "abess_sis": (
        ("arcene", 180, 10000, 50, 1, 1.18),
        ("nci9", 54, 9712, 50, 9, 0.674),
        ("riboflavin", 63, 4088, 50, 1, 0.261),
        ("RELATHE", 1284, 4322, 50, 1, 1.47),
        ("BASEHOCK", 1793, 4862, 50, 1, 2.13),
        ("COIL20", 1296, 1024, 50, 20, 2.43),
        ("madelon", 2340, 500, 50, 1, 1.65),
        ("usps", 8368, 256, 50, 10, 15.8),
        ("pmlb-201_pol", 13500, 48, 48, 1, 2.55),
        ("pmlb-coil2000", 8839, 85, 50, 1, 3.15),
        ("ailerons", 12375, 40, 40, 1, 2.44),
    ),
}


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="abess_sis",
    run=run,
    description="Best subset of each size by abess on the columns sure independence screening "
    "keeps (Fan and Lv 2008), not nested",
    flops=_abess_sis_flops,
    tags={"package": "abess (abess.linear)", "nested": False},
)
