"""Stability selection with the randomised Lasso computed by LARS: the first q variables of
each subsample's path (Meinshausen and Bühlmann 2010, whose error control is stated in q, the
number of variables the base procedure selects per subsample).

As :mod:`.stability` (``stability_selection``, kept as it is): :data:`N_SUBSAMPLES` random
halves of the training split, every column scaled by a weight drawn from {:data:`WEAKNESS`, 1}
(the randomised Lasso). ``stability_selection`` fits the coordinate-descent Lasso path on a
fixed grid of λ on each half, 100 · 25 · ~10 sweeps of the m/2 × n matrix per target: on
10³–10⁴ features with one-vs-rest targets that is minutes per fold. Here each half's path is
scikit-learn's LARS with the Lasso modification, stopped after q = k steps: q passes over the
half instead of a grid, the λ of each half being where its path reaches q variables. With
several outputs (one-vs-rest columns) the base procedure on each randomised half is the
simultaneous pursuit of :mod:`.somp` (q steps, each the feature with the largest summed
squared correlation with the residuals of all targets, as greedy RLS chooses for several
outputs; stability selection takes any selection procedure): one LARS path per target would
cost t times as much, and its fixed cost (about 1 ms a step) alone is over the time budget on
the ten-class face sets. A feature's selection probability is the fraction of halves on which
it is among the first q picks; features are ordered by it, ties by how early they are picked
(the mean over halves of ``1 - position / q``, 0 where they are not), then by index. The
protocol's RLS model is scored along the first ``k`` (:func:`.ranking.ranked_path`); constant
columns come last.

The halves and weights are drawn from ``seed`` (``randomized=True``).

Package: scikit-learn (``lars_path``).

References
----------
N. Meinshausen and P. Bühlmann. Stability selection. JRSS B 72(4):417–473, 2010.
"""

from __future__ import annotations

import warnings

import numpy as np

from rlsbench.benchmark.methods import Method, int_seed
from rlsbench.benchmark.methods.ranking import centered_targets, ranked_path
from rlsbench.benchmark.methods.somp import pursuit_flops, somp_support
from rlsbench.lazy import lazy_module

sklm = lazy_module("sklearn.linear_model")
sklearn_exceptions = lazy_module("sklearn.exceptions")

#: Random halves of the training split (the paper's B = 100).
N_SUBSAMPLES = 100

#: Smallest column weight of the randomised Lasso (the paper's α; 0.5 in its examples).
WEAKNESS = 0.5


def _entries(coefs):
    """Features in the order they first leave zero along a LARS path (n_features, steps)."""
    active = coefs != 0
    entered = np.flatnonzero(active.any(axis=1))
    return entered[np.argsort(active[entered].argmax(axis=1), kind="stable")]


def selection_scores(X, y, q, seed):
    """Selection probability and earliness of every feature over the randomised halves.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    q : int
        Steps of the base procedure per half.
    seed : int

    Returns
    -------
    probability : ndarray of shape (n_features,)
        Fraction of the :data:`N_SUBSAMPLES` halves on which the feature is among the first
        ``q`` picks.
    earliness : ndarray of shape (n_features,)
        Mean over halves of ``1 - position / q`` of its earliest entry (0 where it does not).
    """
    rng = np.random.default_rng(seed)
    X = np.ascontiguousarray(X)
    m, n = X.shape
    Y = centered_targets(y)
    half = max(m // 2, 2)
    probability = np.zeros(n)
    earliness = np.zeros(n)
    # one half and its column-major copy for LARS, written over on every half
    Xs = np.empty((half, n))
    Xs_lars = np.empty((half, n), order="F")
    for _ in range(N_SUBSAMPLES):
        rows = rng.choice(m, size=half, replace=False)
        weights = rng.choice([WEAKNESS, 1.0], size=n)
        # rows of a row-major X (copied above), mode="clip" (the rows are in range):
        # from the protocol's column-major X, and with out= in the default mode "raise",
        # which buffers the whole copy first, taking the rows cost 20x as much
        np.take(X, rows, axis=0, out=Xs, mode="clip")
        Xs *= weights
        Xs -= Xs.mean(axis=0)
        Ys = Y[rows] - Y[rows].mean(axis=0)
        first = np.full(n, np.inf)
        if Ys.shape[1] > 1:
            order = np.asarray(somp_support(Xs, Ys, q), dtype=np.intp)
        elif Ys.any():
            with warnings.catch_warnings():
                # collinear columns and a path that reaches zero residual: LARS' notes
                warnings.simplefilter("ignore", sklearn_exceptions.ConvergenceWarning)
                # what lars_path(Xs, y) does first, with the same numbers: Xᵀy on the
                # row-major half, then its column-major copy (here into the buffer, which
                # LARS may overwrite: copy_X=False)
                Xy = np.dot(Xs.T, Ys[:, 0])
                Xs_lars[...] = Xs
                try:
                    _, _, coefs = sklm.lars_path(
                        Xs_lars, Ys[:, 0], Xy=Xy, method="lasso", max_iter=q, copy_X=False
                    )
                except ValueError:
                    # scikit-learn's path without a Gram matrix can fail after dropping a
                    # variable on rank-deficient halves ("shapes (476,14) and (13,) not
                    # aligned": PMLB's 4544_GeographicalOriginalofMusic, 117 columns of rank
                    # 73); the same LARS-lasso path from the precomputed Gram matrix does not
                    _, _, coefs = sklm.lars_path(
                        Xs, Ys[:, 0], Xy=Xy, Gram=Xs.T @ Xs, method="lasso", max_iter=q
                    )
            order = _entries(coefs)[:q]
        else:
            order = np.empty(0, dtype=np.intp)
        first[order] = np.arange(order.size)
        entered = np.isfinite(first)
        probability[entered] += 1.0
        earliness[entered] += 1.0 - first[entered] / q
    return probability / N_SUBSAMPLES, earliness / N_SUBSAMPLES


def stability_lars_order(X, y, k, seed):
    """Features by decreasing selection probability, ties by earliness, then by index
    (:func:`selection_scores` with q = k).

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    probability, earliness = selection_scores(X, y, min(k, X.shape[1]), seed)
    return np.lexsort((np.arange(X.shape[1]), -earliness, -probability))


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along the first k features of :func:`stability_lars_order`."""
    seed = int_seed(seed)
    return ranked_path(
        "stability_lars",
        X,
        y,
        k,
        alpha=alpha,
        bias=bias,
        criterion=criterion,
        n_jobs=n_jobs,
        rank=lambda Xv, yv, kv: stability_lars_order(Xv, yv, kv, seed),
    )


def _flops(m, n, k, t):
    # per half (m/2 rows): gathering, weighting and centring the half and LARS's column-major
    # copy of it, five memory-bound passes (16 (m/2) n at the nominal 2 GFLOP/s), then k steps
    # of either LARS (one correlation pass, 2 (m/2) n, and scikit-learn's per-step work, about
    # 0.4 ms plus 50 ns a feature: 8e5 + 100 n) or S-OMP (:func:`.somp.pursuit_flops`); then
    # the RLS path.
    # Where a half's time goes (scikit-learn 1.9.1, one thread, k = 50, under a load of 4-7 on
    # two cores): on BASEHOCK's training split (1793 x 4862) 74 ms the passes before LARS,
    # 137 ms the 50 correlation passes, 43 ms the rest of LARS's steps; on arcene's (180 x
    # 10000) 13 ms, 37 ms and 56 ms. What LARS computes fixes the correlation passes and the
    # per-step cost: a precomputed Gram matrix (X_halfᵀ X_half, cheaper on tall halves)
    # changes the first 50 entries on 9 of 10 halves of adult's training split (one-hot
    # columns, degenerate active sets), so it is not used.
    half = m / 2.0
    if t > 1:
        per_half = 16.0 * half * n + pursuit_flops(half, n, k, t)
    else:
        per_half = 16.0 * half * n + k * (2.0 * half * n + 8e5 + 100.0 * n)
    return N_SUBSAMPLES * per_half + 4.0 * k * k * m * t


#: CPU seconds of one run, measured with ``benchmarks/bench_cost_models.py`` (one thread, the
#: protocol's 10-fold training split of each set; 20 of the halves timed and scaled to all of
#: them, under a load of 4-7 on two cores): (data, m, n, k, t, seconds);
#: ``tests/benchmark/methods/test_cost_models.py`` holds each estimate within a factor 3.
#: On a lightly loaded machine arcene's run took 5.3 s (about 50 CPU s a 10-fold job).
MEASURED_S = {
    "stability_lars": (
        ("arcene", 180, 10000, 50, 1, 9.9),
        ("nci9", 54, 9712, 50, 9, 2.67),
        ("TOX_171", 153, 5748, 50, 4, 4.0),
        ("BASEHOCK", 1793, 4862, 50, 1, 35.4),
        ("madelon", 2340, 500, 50, 1, 3.72),
        # adult from ../shared/datasets (the registry's reader), 10 halves timed
        ("adult", 29304, 123, 50, 1, 12.0),
    ),
}


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="stability_lars",
    run=run,
    description=f"Stability selection, randomised Lasso on {N_SUBSAMPLES} halves, the first k "
    "LARS steps of each (Meinshausen & Bühlmann 2010), scikit-learn lars_path",
    randomized=True,
    flops=_flops,
    tags={"package": "scikit-learn (lars_path)", "label": "stability (LARS)"},
)
