"""The toy problems of Weston et al. (2000) used in Fig. 1 of Ramona et al. (2012).

Linear problem (202 features, 6 relevant and redundant): y = ±1 with equal probability; with
probability 0.7 features 1-3 are y · N(i, 1) (i = 1, 2, 3) and features 4-6 are N(0, 1),
otherwise features 1-3 are N(0, 1) and features 4-6 are y · N(i − 3, 1); features 7-202 are
N(0, 20) noise. The two groups are complementary: one feature of each explains both regimes.

Nonlinear problem (52 features, 2 relevant): for y = −1, (x_1, x_2) ~ N(μ, I) with
μ ∈ {(−3/4, −3), (3/4, 3)} equally likely; for y = +1, μ ∈ {(3, −3), (−3, 3)}; features 3-52
are N(0, 20) noise.

N(0, 20) is read as standard deviation 20 (Weston et al. write N(μ, σ) with σ = 1 for the
relevant features).
"""

from __future__ import annotations

import numpy as np

TOY_PROBLEMS = ("linear", "nonlinear")


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
