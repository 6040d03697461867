"""Fixed-size LS-SVM features (Suykens et al. 2002; De Brabanter et al. 2010).

Buteneers et al., Section 5.3: choose N prototype rows with the largest quadratic Rényi entropy
H = −log(1/N² Σ_ij k(u_i, u_j)) and map every row to the primal space by the Nyström
approximation of the eigenfunctions of the RBF kernel (the formula of Section 5.3, with C's
columns the eigenvectors)::

    x_(i) = √N Σ_j C_(j,i) / D_(i,i) · k(u, Ũ_(j,:)),   K̃ = C D Cᵀ

"""

from __future__ import annotations

import numpy as np
import scipy.linalg
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.metrics.pairwise import euclidean_distances, rbf_kernel
from sklearn.utils.validation import check_is_fitted, validate_data


def median_sigma(U, *, n_pairs: int = 2000, seed: int = 0) -> float:
    """RBF width σ = median pairwise distance of a random sample of rows."""
    rng = np.random.default_rng(seed)
    idx = rng.choice(U.shape[0], size=min(U.shape[0], int(np.sqrt(2 * n_pairs)) + 1), replace=False)
    d = euclidean_distances(U[idx])
    return float(np.median(d[np.triu_indices_from(d, 1)]))


def renyi_prototypes(
    U, n_prototypes: int, sigma: float, *, n_iter: int = 20000, seed: int = 0
) -> np.ndarray:
    """Rows of U with (locally) maximal quadratic Rényi entropy, by random swaps.

    Starting from a random set, propose replacing a random prototype by a random other row and
    keep the swap when Σ_ij k(u_i, u_j) decreases (entropy increases). O(N d) per proposal.

    Parameters
    ----------
    U : ndarray of shape (n_samples, n_inputs)
    n_prototypes : int
    sigma : float
        RBF width: k(u, v) = exp(−‖u − v‖² / (2σ²)).
    n_iter : int
        Number of proposals.
    seed : int

    Returns
    -------
    ndarray of shape (n_prototypes,), int
        Row indices.
    """
    U = np.asarray(U, dtype=np.float64)
    m = U.shape[0]
    if not 0 < n_prototypes < m:
        raise ValueError(f"n_prototypes must be in (0, {m}), got {n_prototypes}")
    gamma = 1.0 / (2.0 * sigma**2)
    rng = np.random.default_rng(seed)
    idx = rng.choice(m, size=n_prototypes, replace=False)
    inside = np.zeros(m, dtype=bool)
    inside[idx] = True
    Kp = rbf_kernel(U[idx], gamma=gamma)
    row_sums = Kp.sum(axis=1)
    sq = np.einsum("md,md->m", U, U)
    for _ in range(n_iter):
        i, j = int(rng.integers(n_prototypes)), int(rng.integers(m))
        if inside[j]:
            continue
        kj = np.exp(-gamma * np.maximum(sq[idx] + sq[j] - 2.0 * (U[idx] @ U[j]), 0.0))
        kj[i] = 1.0  # k(u_j, u_j) on the swapped position
        # change of Σ_ij K: the row/column of i is replaced by that of j
        delta = 2.0 * ((kj.sum() - kj[i]) - (row_sums[i] - Kp[i, i]))
        if delta < 0:
            inside[idx[i]], inside[j] = False, True
            idx[i] = j
            row_sums += kj - Kp[i]
            row_sums[i] = kj.sum()
            Kp[i, :], Kp[:, i] = kj, kj
    return np.sort(idx)


class NystromFeatures(TransformerMixin, BaseEstimator):
    """Fixed-size LS-SVM primal features from Rényi-entropy prototypes (Section 5.3).

    Parameters
    ----------
    n_prototypes : int
        N (400 in the paper).
    sigma : float or "median"
        RBF width.
    n_iter : int
        Proposals of the entropy search.
    rank_tol : float
        Eigen-components of K̃ with D < rank_tol·D_max are dropped (they are numerically zero).
    random_state : int

    Attributes
    ----------
    prototypes_ : ndarray of shape (N, n_inputs)
    sigma_ : float
    eigvals_ : ndarray of shape (n_components,)
    eigvecs_ : ndarray of shape (N, n_components)
    """

    def __init__(
        self,
        n_prototypes: int = 400,
        sigma="median",
        n_iter: int = 20000,
        rank_tol: float = 1e-10,
        random_state: int = 0,
    ):
        self.n_prototypes = n_prototypes
        self.sigma = sigma
        self.n_iter = n_iter
        self.rank_tol = rank_tol
        self.random_state = random_state

    def fit(self, X, y=None):
        X = validate_data(self, X, dtype=np.float64)
        self.sigma_ = (
            median_sigma(X, seed=self.random_state) if self.sigma == "median" else float(self.sigma)
        )
        idx = renyi_prototypes(
            X, self.n_prototypes, self.sigma_, n_iter=self.n_iter, seed=self.random_state
        )
        self.prototypes_ = X[idx]
        D, C = scipy.linalg.eigh(rbf_kernel(self.prototypes_, gamma=self._gamma))
        keep = D > self.rank_tol * D.max()
        self.eigvals_, self.eigvecs_ = D[keep][::-1], C[:, keep][:, ::-1]
        return self

    @property
    def _gamma(self) -> float:
        return 1.0 / (2.0 * self.sigma_**2)

    def transform(self, X):
        """Primal features of shape (n_samples, n_components)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        Kx = rbf_kernel(X, self.prototypes_, gamma=self._gamma)
        return np.sqrt(self.n_prototypes) * (Kx @ self.eigvecs_) / self.eigvals_
