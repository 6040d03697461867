"""Stability selection with the randomised Lasso (Meinshausen and Bühlmann 2010).

On each of :data:`N_SUBSAMPLES` random halves of the training split, every column is scaled by
a weight drawn from {:data:`WEAKNESS`, 1} (the randomised Lasso: penalty ``λ Σ |β_j| / W_j``,
Section 3.1), and scikit-learn's ``lasso_path`` is fitted on a grid of :data:`N_LAMBDAS` λ from
λ_max (the smallest λ that keeps every coefficient at zero on the whole split) down to
λ_max · :data:`LAMBDA_RATIO`. A feature's selection probability at λ is the fraction of the
halves on which its coefficient is non-zero there; features are ordered by their largest
probability over the grid (the stability path's maximum, eq. 7), ties by the mean over the
grid, then by index. The protocol's RLS model is scored along the first ``k``
(:func:`.ranking.ranked_path`); constant columns come last. With several outputs (one-vs-rest
columns) the multi-task Lasso (ℓ2,1 penalty) is fitted: a feature is selected when its row of
coefficients is non-zero.

The halves and weights are drawn from ``seed``: the protocol runs the method once per seed of
``main.random_seeds`` (``randomized=True``).

Package: scikit-learn (``lasso_path``), written against 1.9.1 (``alphas=`` as an array has
been accepted since 0.x).

References
----------
N. Meinshausen and P. Bühlmann. Stability selection. JRSS B 72(4):417–473, 2010.
"""

from __future__ import annotations

import warnings

import numpy as np

from rlsbench.benchmark.methods import Method, int_seed
from rlsbench.benchmark.methods.ranking import centered_targets, protocol_flops, ranked_path

#: Random halves of the training split (the paper's B = 100).
N_SUBSAMPLES = 100

#: Smallest column weight of the randomised Lasso (the paper's α; 0.5 in its examples).
WEAKNESS = 0.5

#: Length of the λ grid, and its smallest λ as a fraction of λ_max.
N_LAMBDAS = 25
LAMBDA_RATIO = 1e-2


def selection_probabilities(X, y, seed):
    """Selection probability of every feature at every λ of the grid.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    seed : int

    Returns
    -------
    ndarray of shape (n_features, N_LAMBDAS)
        Fraction of the :data:`N_SUBSAMPLES` randomised-Lasso fits on random halves that keep
        the feature at each λ (largest λ first).
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import lasso_path

    rng = np.random.default_rng(seed)
    m, n = X.shape
    Y = centered_targets(y)
    Xc = X - X.mean(axis=0)
    # λ_max in scikit-learn's scaling (1 / 2m ‖y − Xw‖² + λ‖w‖₁): max_j ‖x_jᵀ Y‖₂ / m
    lambda_max = np.sqrt(((Xc.T @ Y) ** 2).sum(axis=1)).max() / m
    if lambda_max == 0:  # targets constant: no feature is ever selected
        return np.zeros((n, N_LAMBDAS))
    lambdas = lambda_max * np.geomspace(1.0, LAMBDA_RATIO, N_LAMBDAS)
    counts = np.zeros((n, N_LAMBDAS))
    half = max(m // 2, 2)
    for _ in range(N_SUBSAMPLES):
        rows = rng.choice(m, size=half, replace=False)
        weights = rng.choice([WEAKNESS, 1.0], size=n)
        Xs = X[rows] * weights
        Ys = Y[rows]
        Xs -= Xs.mean(axis=0)
        Ys = Ys - Ys.mean(axis=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # the smallest λ on m/2 < n
            _, coefs, _ = lasso_path(Xs, Ys if Ys.shape[1] > 1 else Ys[:, 0], alphas=lambdas)
        kept = (coefs != 0).any(axis=0) if coefs.ndim == 3 else coefs != 0
        counts += kept
    return counts / N_SUBSAMPLES


def stability_order(X, y, seed):
    """Features by decreasing maximal selection probability, ties by the mean over the grid,
    then by index (:func:`selection_probabilities`).

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    prob = selection_probabilities(X, y, seed)
    index = np.arange(X.shape[1])
    return np.lexsort((index, -prob.mean(axis=1), -prob.max(axis=1)))


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along the first k features of :func:`stability_order`."""
    seed = int_seed(seed)
    return ranked_path(
        "stability_selection",
        X,
        y,
        k,
        alpha=alpha,
        bias=bias,
        criterion=criterion,
        n_jobs=n_jobs,
        rank=lambda Xv, yv, kv: stability_order(Xv, yv, seed),
    )


#: CPU seconds of one run (all :data:`N_SUBSAMPLES` halves), measured with
#: ``benchmarks/bench_cost_models.py`` (scikit-learn 1.9.1, one thread, the protocol's 10-fold
#: training split of each set or a random subset of its rows and columns; ``--halves 4``, 4
#: halves timed and multiplied by 25, where a run takes minutes): (data, m, n, k, t, seconds).
#: The rows marked "committed run" are the mean fit times per fold (k = 10) of
#: ``results/benchmark/tables/summary.csv``. ``tests/benchmark/methods/test_cost_models.py``
#: holds each estimate within a factor 3.
MEASURED_S = {
    "stability_selection": (
        ("madelon rows/cols", 50, 20, 20, 1, 0.85),
        ("madelon rows/cols, 4 halves", 2000, 100, 50, 1, 1.51),
        ("Isolet rows/cols, 4 halves", 300, 200, 50, 26, 318.0),
        ("arcene, 4 halves", 180, 10000, 50, 1, 315.0),
        ("nci9, 4 halves", 54, 9712, 50, 9, 222.0),
        ("TOX_171, 4 halves", 153, 5748, 50, 4, 190.0),
        ("BASEHOCK rows/cols, 4 halves", 1000, 2000, 50, 1, 312.0),
        ("Isolet, 2 halves", 1404, 617, 50, 26, 3445.0),
        ("colon-cancer, committed run", 55, 2000, 10, 1, 8.17),
        ("digits, committed run", 1617, 64, 10, 10, 14.7),
        ("abalone, committed run", 3759, 10, 10, 1, 0.716),
        ("musk, committed run", 428, 166, 10, 1, 4.10),
        ("bank32nh, committed run", 7372, 32, 10, 1, 1.14),
        ("wine, committed run", 160, 13, 10, 3, 0.479),
        ("australian, committed run", 621, 14, 10, 1, 0.706),
        ("sonar, committed run", 187, 60, 10, 1, 0.930),
    ),
}


def _flops(m, n, k, t):
    # per half (h = m/2 rows): a fixed cost (the weighted copy, 25 calls of the solver: about
    # 7 ms, 1.4e7 at the nominal 2 GFLOP/s), then the coordinate-descent path down to
    # λ_max / 100. Where h < n the small λ of the grid take up to the solver's 1000 sweeps
    # each: 1000 to 10000 sweeps of h n t a half, about 4000 h n t (fitted to MEASURED_S).
    # Where h >= n the path converges in a few sweeps: one output is solved on the Gram matrix
    # (4 h n²), several on X (8 h n² t).
    h = max(m // 2, 2)
    if h < n:
        path = 4000.0 * h * n * t
    else:
        path = 4.0 * h * n * n if t == 1 else 8.0 * h * n * n * t
    return N_SUBSAMPLES * (1.4e7 + path) + protocol_flops(m, n, k, t)


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="stability_selection",
    run=run,
    description=f"Stability selection, randomised Lasso on {N_SUBSAMPLES} halves "
    "(Meinshausen & Bühlmann 2010), scikit-learn lasso_path",
    randomized=True,
    flops=_flops,
    tags={"package": "scikit-learn (lasso_path)"},
)
