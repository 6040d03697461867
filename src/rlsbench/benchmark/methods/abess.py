"""Best-subset selection by adaptive best-subset selection (abess; Zhu et al. 2020), one fit
per subset size.

For each size s = 1 … k, abess's splicing algorithm finds the best subset of s features for
least squares with an intercept (``abess.linear.LinearRegression(support_size=[s])``; on ±1
targets this is the protocol's squared loss), or for several outputs (one-vs-rest columns) the
best s rows of the multi-task regression (``MultiTaskRegression``: a feature is in or out for
every output). The best subsets of different sizes are not nested, so the method hands the
protocol one subset per size (``SelectionPath.subsets``) and the protocol scores each with its
own RLS model (λ = the protocol's ``alpha``, fitted here on the subset with
:func:`rlsbench.numerics.selection.ridge_path`).

``selected`` (the subset of size k) and every subset are ordered by the smallest size whose
best subset holds the feature, then by index; ``info["first_size"]`` records that size.
Constant columns are not given to abess (they change no linear model); they fill the subsets
larger than the number of other columns, last. A fit whose support has fewer than s non-zero
coefficients (an exactly zero weight) is completed by the columns of largest squared
correlation with the targets.

abess's splicing is a local search whose guarantee needs a well-conditioned design: on
strongly correlated columns it can return a subset that is not the best of its size (y = x0 +
x1, x2 = x0 + x1 + noise, 30 samples: the pair {x1, x2}, RSS 1.81, where {x0, x1} has RSS
0.002; abess 0.4.11, any ``splicing_type``, ``exchange_num`` or warm start). Its subsets are
then what the protocol scores, as for any method.

Package: abess (``abess.linear``), written against 0.4.11 (``support_size`` and ``coef_`` as in
0.4.x); an optional dependency (the ``bench`` extra).

References
----------
J. Zhu, C. Wen, J. Zhu, H. Zhang and X. Wang. A polynomial algorithm for best-subset selection
problem. PNAS 117(52):33117–33123, 2020.
"""

from __future__ import annotations

import numpy as np

from rlsbench.benchmark.methods import Method
from rlsbench.benchmark.methods.ranking import (
    complete,
    correlation_scores,
    prepare,
    subsets_path,
)


def best_subsets(X, y, k, *, n_jobs=1, name="abess_best_subset"):
    """abess's best subset of every size 1 … k.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        No constant column.
    y : ndarray of shape (n_samples,) or (n_samples, t)
    k : int
        Largest size, at most n_features.
    n_jobs : int
        abess's threads.
    name : str
        The method that asks, for the error message where abess is not installed.

    Returns
    -------
    list of k ndarrays of int
        Entry s - 1 holds the s features of the best subset of size s, sorted.
    """
    try:
        from abess.linear import LinearRegression, MultiTaskRegression
    except ImportError as exc:
        raise ImportError(
            f"method {name!r} needs the abess package: pip install 'rlsbench[bench]' "
            "or pip install abess"
        ) from exc
    Y = y.reshape(y.shape[0], -1)
    scores = correlation_scores(X, Y)
    subsets = []
    for size in range(1, k + 1):
        if Y.shape[1] > 1:
            model = MultiTaskRegression(support_size=[size], thread=n_jobs).fit(X, Y)
            weight = np.abs(model.coef_).sum(axis=1)
        else:
            model = LinearRegression(support_size=[size], thread=n_jobs).fit(X, Y[:, 0])
            weight = np.abs(model.coef_)
        support = np.flatnonzero(weight)
        subsets.append(np.sort(complete(support, scores)[:size]))
    return subsets


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """One best subset per size, each scored by its own RLS model (module docstring).

    Returns
    -------
    SelectionPath
        With ``subsets`` (one per size) and ``info["first_size"]``.
    """
    X, y, varying = prepare("abess_best_subset", X, y, k)
    columns = np.flatnonzero(varying)
    constant = np.flatnonzero(~varying)
    found = best_subsets(X[:, columns], y, min(k, columns.size), n_jobs=max(int(n_jobs or 1), 1))
    subsets = [columns[sub] for sub in found]
    for size in range(len(subsets) + 1, k + 1):
        subsets.append(np.concatenate([columns, constant[: size - columns.size]]))

    return subsets_path(
        X, y, subsets, alpha=alpha, bias=bias, criterion=criterion, constant=~varying
    )


#: abess's cost per entry of X and per call (one subset size), at the nominal rate: each call
#: centres, scales and copies X and computes the correlations of every column with the
#: residuals, whatever the size and the splicing rounds (0.34-0.38 s a call on RELATHE's split,
#: 1284 x 4322, for sizes 1, 25 and 50, and with ``max_iter=1``; abess 0.4.11, one thread)
ABESS_FLOPS_PER_ENTRY = 150.0

#: abess's cost per row and per call beyond the entries of X, at the nominal rate: the passes
#: over the targets and residuals of each splicing round, which show on few columns and many
#: rows (ijcnn1's split, 127521 x 22: 13.3 s for its 22 sizes, where the per-entry cost alone
#: counts 5.8 s and the model 8.6 s; pmlb-201_pol's, 13500 x 48: 2.55 s for 48 sizes, the
#: model 4.5 s)
ABESS_FLOPS_PER_ROW = 2000.0

#: abess's cost of a call beyond its rows and entries, at the nominal rate: the argument
#: checks and the splicing rounds on the active set, which depend on the data more than on its
#: shape (4 to 20 ms a call for sizes 1 … 50 among 100 columns of 54 to 180 rows:
#: riboflavin's, nci9's and arcene's screened splits, :mod:`.abess_sis`)
ABESS_CALL_FLOPS = 2.0e7


def abess_calls_flops(m, n, k):
    """Operations of abess's k calls (subset sizes 1 … k) on m rows and n columns, at the
    nominal rate (the measured costs above).

    Returns
    -------
    float
    """
    return float(k * (ABESS_FLOPS_PER_ENTRY * m * n + ABESS_FLOPS_PER_ROW * m + ABESS_CALL_FLOPS))


def _abess_flops(m, n, k, t):
    # one abess call per size (the per-entry cost was 300 before the measured points below,
    # 2-2.5x over on every one of them), then one RLS fit per subset (m s²)
    sizes = np.arange(1, k + 1, dtype=np.float64)
    return abess_calls_flops(m, n, k) + float(np.sum(4.0 * m * sizes**2 * t))


#: CPU seconds of one run, measured with ``benchmarks/bench_cost_models.py`` (one thread, the
#: protocol's 10-fold training split of each set; usps, adult, ijcnn1 and mnist5 the same way
#: through their registry entries): (data, m, n, k, t, seconds);
#: ``tests/benchmark/methods/test_cost_models.py`` holds each estimate within a factor 3.
MEASURED_S = {
    "abess_best_subset": (
        ("arcene", 180, 10000, 50, 1, 4.9),
        ("nci9", 54, 9712, 50, 9, 3.84),
        ("TOX_171", 153, 5748, 50, 4, 3.14),
        ("RELATHE", 1284, 4322, 50, 1, 17.1),
        ("COIL20", 1296, 1024, 50, 20, 6.05),
        ("usps", 8368, 256, 50, 10, 16.0),
        ("adult", 29304, 123, 50, 1, 15.2),
        ("ijcnn1", 127521, 22, 22, 1, 13.3),
        ("mnist5, 6300 rows", 6300, 780, 50, 1, 14.6),
    ),
}


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="abess_best_subset",
    run=run,
    description="Best subset of each size by abess (Zhu et al. 2020), not nested",
    flops=_abess_flops,
    tags={"package": "abess (abess.linear)", "nested": False},
)
