"""Simultaneous orthogonal matching pursuit: OMP for several targets at once (one-vs-rest).

Each step adds the feature whose inner products with the current residuals have the largest
sum of squares over the targets, ``Σ_t (x_jᵀ r_t)²`` (Tropp, Gilbert and Strauss 2006's
S-OMP with the ℓ2 combination), then refits least squares on the selected features (the
residuals are the targets' projections off their span). With one target this is plain OMP:
the same choice, ``argmax |x_jᵀ r|``, as scikit-learn's ``orthogonal_mp``
(:data:`.sparse.omp`, which runs one pursuit per one-vs-rest column instead). Multiclass targets
are the protocol's one-vs-rest ±1 columns, so a feature is chosen by how much it reduces the
residuals of all of them, as greedy RLS chooses for several outputs.

The basis of the selected columns is kept orthonormal (Gram–Schmidt, twice), and the inner
products ``Xᵀ R`` are updated by one rank-one step per pick, so k steps cost O(kmn + knt)
like greedy RLS. A column in the span of the selected ones (its orthogonal part below
round-off) is never picked; when no column is left that reduces the residuals, the order is
completed by decreasing squared correlation with the targets (:func:`.ranking.complete`), as
:data:`.sparse.omp` does. The protocol's RLS model is scored along the first ``k``
(:func:`.ranking.ranked_path`); constant columns come last.

References
----------
J. A. Tropp, A. C. Gilbert and M. J. Strauss. Algorithms for simultaneous sparse approximation.
Part I: Greedy pursuit. Signal Processing 86(3):572–588, 2006.
"""

from __future__ import annotations

import numpy as np

from rlsbench.benchmark.methods import Method
from rlsbench.benchmark.methods.ranking import (
    centered_targets,
    complete,
    correlation_scores,
    ranked_path,
)

#: A column whose part orthogonal to the selected ones has a squared norm below this fraction
#: of its own is taken to lie in their span.
COLLINEAR_TOL = 1e-10


def somp_support(X, Y, k):
    """The features S-OMP picks, in order (the module docstring), without completion.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples, t)
        Centred targets (:func:`.ranking.centered_targets`).
    k : int
        Pursuit steps (at most ``min(k, n_samples, n_features)`` are taken).

    Returns
    -------
    list of int
        At most ``k`` features; fewer where the residuals are orthogonal to every column left.
    """
    m, n = X.shape
    residual = np.array(Y, dtype=np.float64)
    products = X.T @ residual  # Xᵀ R, (n, t)
    col_sq = np.einsum("ij,ij->j", X, X)
    orth_sq = col_sq.copy()  # squared norms of the columns' parts off the selected span
    basis = np.empty((m, 0))
    usable = col_sq > 0
    order = []
    floor = np.finfo(np.float64).tiny
    for _ in range(min(k, m, n)):
        score = np.einsum("ij,ij->i", products, products)
        score[~usable] = -np.inf
        best = int(np.argmax(score))
        if not np.isfinite(score[best]) or score[best] <= floor:
            break  # the residuals are orthogonal to every column left
        v = X[:, best].copy()
        for _ in range(2):  # classical Gram–Schmidt, repeated: orthogonal to round-off
            v -= basis @ (basis.T @ v)
        norm = np.linalg.norm(v)
        if norm**2 <= COLLINEAR_TOL * col_sq[best]:
            usable[best] = False
            continue
        q = v / norm
        projection = X.T @ q  # (n,)
        weight = q @ residual  # (t,)
        residual -= np.outer(q, weight)
        products -= np.outer(projection, weight)
        orth_sq -= projection**2
        basis = np.column_stack([basis, q])
        order.append(best)
        usable[best] = False
        usable &= orth_sq > COLLINEAR_TOL * col_sq
    return order


def somp_order(X, y, k):
    """S-OMP's support order (:func:`somp_support`), completed to every column by decreasing
    squared correlation with the targets.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    k : int

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    return complete(somp_support(X, centered_targets(y), k), correlation_scores(X, y))


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along the first k features of :func:`somp_order`."""
    return ranked_path(
        "somp",
        X,
        y,
        k,
        alpha=alpha,
        bias=bias,
        criterion=criterion,
        n_jobs=n_jobs,
        rank=somp_order,
    )


def pursuit_flops(m, n, k, t):
    """Estimated operations of :func:`somp_support`: Xᵀ Y, then per pick the product Xᵀ q and
    the update of the orthogonal parts' norms (4 m n: memory-bound passes over X), the
    Gram–Schmidt passes (4 m k) and the rank-one updates of Xᵀ R and R (2 (n + m) t).

    Measured with NumPy's OpenBLAS, one thread, k = 50 (the whole method, with the RLS path):
    0.17 s on arcene's training split (180 x 10000), 0.5 s on BASEHOCK's (1793 x 4862), 0.1 s
    on Isolet's (1404 x 617, 26 classes), against 0.18, 0.87 and 0.12 s estimated at the
    protocol's 2 GFLOP/s.
    """
    return 2.0 * m * n * t + k * (4.0 * m * n + 4.0 * m * k + 2.0 * (n + m) * t)


def _flops(m, n, k, t):
    # the pursuit, then the RLS path along k features
    return pursuit_flops(m, n, k, t) + 4.0 * k * k * m * t


#: CPU seconds of one run, measured with ``benchmarks/bench_cost_models.py`` (one thread, the
#: protocol's 10-fold training split of each set): (data, m, n, k, t, seconds);
#: ``tests/benchmark/methods/test_cost_models.py`` holds each estimate within a factor 3.
MEASURED_S = {
    "somp": (
        ("arcene", 180, 10000, 50, 1, 0.176),
        ("nci9", 54, 9712, 50, 9, 0.0943),
        ("TOX_171", 153, 5748, 50, 4, 0.101),
        ("Prostate_GE", 91, 5966, 50, 1, 0.0595),
        ("GLIOMA", 45, 4434, 50, 4, 0.0421),
    ),
}


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="somp",
    run=run,
    description="Simultaneous OMP (Tropp et al. 2006): OMP on all one-vs-rest targets at once; "
    "plain OMP for one target",
    flops=_flops,
    tags={"label": "S-OMP"},
)
