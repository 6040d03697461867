"""Synthetic two-class Gaussian data of the greedy RLS paper's runtime experiments.

Pahikkala et al. (Section 4.1) "use randomly generated data from two normal distributions
with 1000 features of which 50 are selected"; nothing more is specified, and they note that
the running times depend neither on λ nor on the distribution of features or labels. We
therefore take the simplest reading: two equally likely classes, each an isotropic unit-
variance normal distribution, whose means differ by ``class_sep`` on each informative
feature (``±class_sep / 2``) and coincide on the others.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["make_two_gaussians"]


def make_two_gaussians(n_samples, n_features, *, seed=0, n_informative=None, class_sep=1.0):
    """Two-class data from two normal distributions (the paper's synthetic benchmark data).

    Parameters
    ----------
    n_samples : int
        Number of examples m (>= 2). Classes are balanced: ``m // 2`` examples of class +1
        and the rest -1, in random order.
    n_features : int
        Number of features n (>= 1).
    seed : int or numpy.random.Generator, default=0
    n_informative : int or None, default=None
        Number of features whose class means differ (the first ``n_informative`` columns,
        before the columns are shuffled). None = all features.
    class_sep : float, default=1.0
        Distance between the two class means on each informative feature.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64
        Class ``c ∈ {-1, +1}`` rows are drawn from ``N(c · class_sep/2 · 1_inf, I)``, where
        ``1_inf`` is 1 on the informative features and 0 elsewhere.
    y : ndarray of shape (n_samples,), float64
        Labels in {-1, +1}.

    Notes
    -----
    The informative columns are placed at random positions (seeded), so that a selector
    cannot profit from their index order.
    """
    for name, val, low in (("n_samples", n_samples, 2), ("n_features", n_features, 1)):
        if isinstance(val, bool) or not isinstance(val, numbers.Integral) or val < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {val!r}")
    if n_informative is None:
        n_informative = n_features
    if (
        isinstance(n_informative, bool)
        or not isinstance(n_informative, numbers.Integral)
        or not 0 <= n_informative <= n_features
    ):
        raise ValueError(
            f"n_informative must be an integer in [0, n_features={n_features}], "
            f"got {n_informative!r}"
        )
    if not np.isfinite(class_sep):
        raise ValueError(f"class_sep must be finite, got {class_sep!r}")
    rng = np.random.default_rng(seed)
    y = np.ones(n_samples)
    y[n_samples // 2 :] = -1.0
    rng.shuffle(y)
    X = rng.standard_normal((n_samples, n_features))
    shift = np.zeros(n_features)
    shift[rng.permutation(n_features)[:n_informative]] = class_sep / 2.0
    for start in range(0, n_samples, 4096):  # in blocks: no temporary of X's size
        X[start : start + 4096] += y[start : start + 4096, None] * shift
    return X, y
