"""Generated data of the papers' experiments (arrays out; seeded, so reproducible).

* :func:`make_two_gaussians` — two-class Gaussian data of the greedy RLS paper's runtime
  experiments (Pahikkala et al., Section 4.1; also Buteneers et al.'s synthetic task);
* :func:`make_weston_linear`, :func:`make_weston_nonlinear`, :func:`make_toy` — the toy
  problems of Weston et al. (2000) in Fig. 1 of Ramona et al. (2012);
* :func:`make_sinc` — Tipping's sinc benchmark (Sun & Yao 2006, Table 1 and Fig. 1).

Two Gaussians. Pahikkala et al. (Section 4.1) "use randomly generated data from two normal
distributions with 1000 features of which 50 are selected"; nothing more is specified, and they
note that the running times depend neither on λ nor on the distribution of features or labels.
We therefore take the simplest reading: two equally likely classes, each an isotropic unit-
variance normal distribution, whose means differ by ``class_sep`` on each informative
feature (``±class_sep / 2``) and coincide on the others.

Weston et al.'s toy problems. Linear problem (202 features, 6 relevant and redundant): y = ±1
with equal probability; with probability 0.7 features 1-3 are y · N(i, 1) (i = 1, 2, 3) and
features 4-6 are N(0, 1), otherwise features 1-3 are N(0, 1) and features 4-6 are
y · N(i − 3, 1); features 7-202 are N(0, 20) noise. The two groups are complementary: one
feature of each explains both regimes.

Nonlinear problem (52 features, 2 relevant): for y = −1, (x_1, x_2) ~ N(μ, I) with
μ ∈ {(−3/4, −3), (3/4, 3)} equally likely; for y = +1, μ ∈ {(3, −3), (−3, 3)}; features 3-52
are N(0, 20) noise.

N(0, 20) is read as standard deviation 20 (Weston et al. write N(μ, σ) with σ = 1 for the
relevant features).
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "TOY_PROBLEMS",
    "make_sinc",
    "make_toy",
    "make_two_gaussians",
    "make_weston_linear",
    "make_weston_nonlinear",
]

TOY_PROBLEMS = ("linear", "nonlinear")


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


def make_weston_linear(n_samples: int, *, seed=0, n_features: int = 202, noise_std=20.0):
    """Weston et al.'s linear toy problem.

    Parameters
    ----------
    n_samples : int
    seed : int or numpy Generator
    n_features : int
        Total number of features (≥ 6).
    noise_std : float

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), ±1 float64
    """
    if n_features < 6:
        raise ValueError(f"n_features must be >= 6, got {n_features}")
    rng = np.random.default_rng(seed)
    y = rng.choice([-1.0, 1.0], size=n_samples)
    X = rng.normal(0.0, noise_std, size=(n_samples, n_features))
    first = rng.random(n_samples) < 0.7
    means = np.arange(1.0, 4.0)
    rel = rng.normal(0.0, 1.0, size=(n_samples, 6))
    shifted = y[:, None] * (means + rng.normal(0.0, 1.0, size=(n_samples, 3)))
    rel[first, :3] = shifted[first]
    rel[~first, 3:] = shifted[~first]
    X[:, :6] = rel
    return X, y


def make_weston_nonlinear(n_samples: int, *, seed=0, n_features: int = 52, noise_std=20.0):
    """Weston et al.'s nonlinear toy problem (an XOR-like mixture on two features).

    Parameters and returns as :func:`make_weston_linear` (n_features ≥ 2).
    """
    if n_features < 2:
        raise ValueError(f"n_features must be >= 2, got {n_features}")
    rng = np.random.default_rng(seed)
    y = rng.choice([-1.0, 1.0], size=n_samples)
    X = rng.normal(0.0, noise_std, size=(n_samples, n_features))
    neg = np.array([[-0.75, -3.0], [0.75, 3.0]])
    pos = np.array([[3.0, -3.0], [-3.0, 3.0]])
    comp = rng.integers(0, 2, size=n_samples)
    centers = np.where((y > 0)[:, None], pos[comp], neg[comp])
    X[:, :2] = centers + rng.normal(0.0, 1.0, size=(n_samples, 2))
    return X, y


def make_toy(problem: str, n_samples: int, *, seed=0):
    """Dispatch on ``problem`` in {"linear", "nonlinear"}."""
    if problem == "linear":
        return make_weston_linear(n_samples, seed=seed)
    if problem == "nonlinear":
        return make_weston_nonlinear(n_samples, seed=seed)
    raise ValueError(f"toy problem must be one of {TOY_PROBLEMS}, got {problem!r}")


def make_sinc(n_samples, *, noise=0.1, seed=0):
    """Tipping's sinc benchmark: x ~ U(−10, 10), t = sin(x)/x + N(0, noise²).

    Returns
    -------
    X : ndarray of shape (n_samples, 1)
    y : ndarray of shape (n_samples,)
    """
    rng = np.random.default_rng(seed)
    X = rng.uniform(-10.0, 10.0, (n_samples, 1))
    y = np.sinc(X[:, 0] / np.pi) + noise * rng.standard_normal(n_samples)
    return X, y
