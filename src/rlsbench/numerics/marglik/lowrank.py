"""The kernel variant of the forward selection: a low-rank factor in place of the kernel matrix.

Sun & Yao (2006, sec. 2) replace every product ``K c`` of eq. (10) by ``G (Gᵀ c)`` with
``K ≈ Q = G Gᵀ``, ``G`` of shape (n, p), computed by pivoted incomplete Cholesky (Fine &
Scheinberg 2001). With ``p = k_max`` the whole run costs O(n·k_max²) time and O(n·k_max)
memory; the n×n kernel matrix is never formed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import solve_triangular

from rlsbench.numerics.marglik.forward import _forward


def gaussian_kernel(X, Y, width):
    """Gaussian kernel ``exp(−‖x − y‖² / r)`` of Sun & Yao (sec. 4).

    The paper prints the exponent without its minus sign; the kernel is the usual decaying one.

    Parameters
    ----------
    X : ndarray of shape (n_samples_x, n_features)
    Y : ndarray of shape (n_samples_y, n_features)
    width : float
        r > 0.

    Returns
    -------
    ndarray of shape (n_samples_x, n_samples_y)
    """
    if not width > 0:
        raise ValueError(f"width must be > 0, got {width!r}")
    D = _squared_distances(X, Y)
    D *= -1.0 / width
    return np.exp(D, out=D)


def _squared_distances(X, Y):
    """``‖x − y‖²`` as scikit-learn's ``euclidean_distances(X, Y, squared=True)`` computes it.

    The same operations in the same order for float64 arrays (``‖x‖² − 2 x·y + ‖y‖²`` clipped at
    0, a zero diagonal where ``Y is X``), so the same bits, without its input validation:
    the pivoted Cholesky asks for one kernel column per pivot, and the validation took about
    0.6 ms of each call (80 % of Sun & Yao's Forward CV search; issue 46).

    Parameters
    ----------
    X : array-like of shape (n_samples_x, n_features)
    Y : array-like of shape (n_samples_y, n_features)

    Returns
    -------
    ndarray of shape (n_samples_x, n_samples_y)
    """
    same = Y is X
    X = np.asarray(X, dtype=np.float64)
    Y = X if same else np.asarray(Y, dtype=np.float64)
    if X.ndim != 2 or Y.ndim != 2 or X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X and Y must be 2-d with the same number of features, got shapes {X.shape} "
            f"and {Y.shape}"
        )
    XX = np.einsum("ij,ij->i", X, X)[:, None]
    D = -2 * (X @ Y.T)
    D += XX
    D += XX.T if same else np.einsum("ij,ij->i", Y, Y)[None, :]
    np.maximum(D, 0.0, out=D)
    if same:
        np.fill_diagonal(D, 0.0)
    return D


@dataclass(frozen=True)
class IncompleteCholesky:
    """``K ≈ G Gᵀ`` with ``G`` of shape (n_samples, rank).

    Attributes
    ----------
    factor : ndarray of shape (n_samples, rank)
        G; ``factor[pivots]`` is lower triangular.
    pivots : ndarray of shape (rank,), int
        Rows chosen, in order (their kernel columns are reproduced exactly).
    residual_trace : float
        ``trace(K − G Gᵀ)`` left when the factorization stopped.
    """

    factor: np.ndarray
    pivots: np.ndarray
    residual_trace: float

    @property
    def rank(self) -> int:
        return int(self.pivots.shape[0])


def pivoted_cholesky(X, width, rank, *, tol=1e-12):
    """Pivoted incomplete Cholesky factorization of the Gaussian kernel matrix of X.

    Greedily pivots on the largest remaining diagonal of ``K − G Gᵀ`` (Fine & Scheinberg 2001,
    Alg. 1); stops at ``rank`` columns or when the largest residual diagonal is ≤ ``tol``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    width : float
        Kernel width r.
    rank : int
        Maximum rank p.
    tol : float, default=1e-12
        Residual-diagonal threshold.

    Returns
    -------
    IncompleteCholesky

    Notes
    -----
    O(n·p²) time (plus O(n·p·d) kernel evaluations) and O(n·p) memory.
    """
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    rank = int(min(rank, n))
    if rank < 1:
        raise ValueError(f"rank must be >= 1, got {rank}")
    G = np.zeros((n, rank))
    residual = np.ones(n)  # diag(K) = 1 for the Gaussian kernel
    pivots = []
    for j in range(rank):
        i = int(np.argmax(residual))
        if residual[i] <= tol:
            break
        pivots.append(i)
        column = gaussian_kernel(X, X[i : i + 1], width)[:, 0]
        column -= G[:, :j] @ G[i, :j]
        G[:, j] = column / np.sqrt(residual[i])
        residual -= G[:, j] ** 2
        residual[pivots] = 0.0  # exact zeros on the pivots; rounding must not re-pick them
    p = len(pivots)
    return IncompleteCholesky(
        factor=np.ascontiguousarray(G[:, :p]),
        pivots=np.asarray(pivots, dtype=np.intp),
        residual_trace=float(np.clip(residual, 0.0, None).sum()),
    )


class LowRankDesign:
    """The design Q = G Gᵀ (n×n), used only through products with G."""

    def __init__(self, G):
        self.G = np.asarray(G, dtype=np.float64)
        self.n_samples = self.n_basis = self.G.shape[0]
        self._gram = self.G.T @ self.G  # (p, p)

    def column(self, i):
        return self.G @ self.G[i]

    def rmatvec(self, v):
        return self.G @ (self.G.T @ v)

    def sq_norms(self):
        # ‖Q(:, i)‖² = G_i (GᵀG) G_iᵀ
        return np.einsum("ij,ij->i", self.G @ self._gram, self.G)


def forward_marglik_lowrank(G, t, k_max, lam, *, sigma2=1.0, stop_on_no_gain=False):
    """Forward selection by marginal likelihood on the kernel columns of ``Q = G Gᵀ``.

    Parameters
    ----------
    G : ndarray of shape (n_samples, p)
        Low-rank factor of the kernel matrix (:func:`pivoted_cholesky`).
    t : ndarray of shape (n_samples,)
    k_max : int
    lam : float
        λ = σ² α.
    sigma2 : float, default=1.0
    stop_on_no_gain : bool, default=False

    Returns
    -------
    ForwardPath
        ``selected`` indexes training examples (basis vectors ``Q(:, i)``).

    Notes
    -----
    Eq. (10) becomes ``C = G (Gᵀ m_k)``: O(n·p) per step, O(n·k_max·p) in all, O(n·(k_max + p))
    memory. With ``p = n`` and an exact factor this is :func:`forward_marglik` on K.
    """
    return _forward(LowRankDesign(G), t, k_max, lam, float(sigma2), (), stop_on_no_gain)


def nystroem_features(X_new, X_train, chol: IncompleteCholesky, width):
    """Rows of G for new points, so that ``Q(x, X_train) = g(x) Gᵀ`` (Nyström extension).

    Parameters
    ----------
    X_new : ndarray of shape (n_new, n_features)
    X_train : ndarray of shape (n_samples, n_features)
    chol : IncompleteCholesky
        Factor of the training kernel matrix.
    width : float

    Returns
    -------
    ndarray of shape (n_new, p)
        ``K(x, X_pivots) L⁻ᵀ`` with ``L = G[pivots]`` (lower triangular).
    """
    L = chol.factor[chol.pivots]
    Kp = gaussian_kernel(X_new, X_train[chol.pivots], width)
    return solve_triangular(L, Kp.T, lower=True).T
