"""Correlation ranker: rank the features by |correlation| with the targets, then hand the
protocol the RLS path along that order (the protocol scores every prefix on the held-out
fold, as it does for every method)."""

import numpy as np

from rlsbench.benchmark.methods import Method
from rlsbench.numerics.selection import ridge_path


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """X : (n_samples, n_features) float64, standardised on the training split by the
    protocol; y : (n_samples,) or (n_samples, n_outputs) encoded targets."""
    Y = y.reshape(len(y), -1)
    Xc, Yc = X - X.mean(axis=0), Y - Y.mean(axis=0)
    norms = np.maximum(np.linalg.norm(Xc, axis=0), 1e-300)
    score = np.abs(Xc.T @ Yc).sum(axis=1) / norms
    order = np.argsort(-score, kind="stable")[:k]
    return ridge_path(X, y, order, alpha, bias=bias, criterion=criterion)


method = Method(
    name="corr_ranker",
    run=run,
    description="|correlation| ranker + RLS path",
    tags={"label": "corr. ranker"},  # the name figures and tables show
    # X^T Y, then the RLS path along k features: O(mn + k²m) per output
    flops=lambda m, n, k, t: 2.0 * m * n * t + 4.0 * k * k * m * t,
)
