"""Random feature selection: the paper's sanity baseline (Section 4.2)."""

from __future__ import annotations

import numpy as np

from rlsbench.numerics.array_api import numpy_only
from rlsbench.numerics.selection.order import ridge_path
from rlsbench.numerics.validation import check_k


def random_selection(X, y, k, alpha, *, bias=0.0, criterion="squared", seed=0):
    """``k`` features drawn uniformly without replacement, with the RLS path along them.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        NumPy input only: a CuPy or PyTorch array raises ``TypeError``
        (:func:`~rlsbench.numerics.selection.greedy_rls` runs on other array libraries).
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    k : int
    alpha : float
    bias : float, default=0.0
    criterion : {"squared", "zero_one"}, default="squared"
        Only reported along the path; it does not influence the choice.
    seed : int or numpy.random.Generator, default=0

    Returns
    -------
    SelectionPath
    """
    numpy_only("random_selection", X, y)
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-d (n_samples, n_features), got shape {X.shape}")
    k = check_k(k, X.shape[1])
    order = np.random.default_rng(seed).permutation(X.shape[1])[:k]
    path = ridge_path(X, y, order, alpha, bias=bias, criterion=criterion)
    path.info.update(method="random", seed=seed if isinstance(seed, int) else None)
    return path
