"""Pairwise coupling (Hastie & Tibshirani, 1998): class posteriors from pairwise ones.

Ramona et al. (2012, Section V-B4) classify USPS with "a pairwise scheme (45 SVMs trained),
combined with the pairwise coupling algorithm [41], to determine the maximum likelihood class
on the posterior probabilities"; [41] is Hastie & Tibshirani's iterative algorithm, written
here as they state it.
"""

from __future__ import annotations

import numpy as np


def pairwise_coupling(R, weights=None, *, tol=1e-10, max_iter=1000):
    """Class probabilities p whose pairwise ratios p_i / (p_i + p_j) best fit ``R``.

    Hastie & Tibshirani (1998), Section 2: minimise the weighted Kullback-Leibler distance
    ℓ(p) = Σ_{i<j} n_ij [r_ij log(r_ij / μ_ij) + r_ji log(r_ji / μ_ij')], μ_ij = p_i/(p_i+p_j),
    by cycling over the classes i = 1..K:
    p_i ← p_i · Σ_{j≠i} n_ij r_ij / Σ_{j≠i} n_ij μ_ij, then renormalise p and recompute μ.

    Parameters
    ----------
    R : ndarray of shape (n_samples, K, K)
        R[s, i, j] = r_ij, the estimate of P(class i | class i or j) at sample s; only the
        entries i ≠ j are read, and R[s, j, i] must be 1 − R[s, i, j].
    weights : ndarray of shape (K, K) or None
        n_ij, the training samples of the pair (i, j) (symmetric); None: all equal.
    tol : float
        Stop when no probability moves by more than ``tol`` in a full cycle.
    max_iter : int
        Full cycles at most.

    Returns
    -------
    ndarray of shape (n_samples, K)
        Class probabilities of every sample (rows sum to 1).

    References
    ----------
    T. Hastie and R. Tibshirani, "Classification by pairwise coupling", Annals of Statistics
    26(2), 451-471, 1998.
    """
    R = np.asarray(R, dtype=np.float64)
    if R.ndim != 3 or R.shape[1] != R.shape[2] or R.shape[1] < 2:
        raise ValueError(f"R must be of shape (n_samples, K, K) with K >= 2, got {R.shape}")
    n, K, _ = R.shape
    off = ~np.eye(K, dtype=bool)
    if not np.allclose((R + R.transpose(0, 2, 1))[:, off], 1.0, atol=1e-8):
        raise ValueError("R[:, j, i] must be 1 - R[:, i, j] for every pair i != j")
    W = np.ones((K, K)) if weights is None else np.asarray(weights, dtype=np.float64)
    if W.shape != (K, K) or not np.allclose(W, W.T) or (W[off] <= 0).any():
        raise ValueError(f"weights must be a symmetric ({K}, {K}) array of positive n_ij")
    W = np.where(off, W, 0.0)
    # r_ij of exactly 0 or 1 leave a class at zero for good: a tiny floor keeps every p_i > 0
    R = np.where(off, np.clip(R, 1e-12, 1.0 - 1e-12), 0.0)
    target = np.einsum("ij,sij->si", W, R)  # Σ_j n_ij r_ij, fixed
    p = np.full((n, K), 1.0 / K)
    for _ in range(max_iter):
        before = p.copy()
        for i in range(K):
            mu = p[:, i : i + 1] / (p[:, i : i + 1] + p)  # μ_ij for every j
            p[:, i] *= target[:, i] / (mu @ W[i])
            p /= p.sum(axis=1, keepdims=True)
        if np.max(np.abs(p - before)) <= tol:
            break
    return p
