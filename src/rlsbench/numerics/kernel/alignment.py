"""Kernel target alignment (Ramona et al. 2012, Section III): targets, value and gradient.

Every target used here is *class-structured*: [K*]_ij depends only on the classes of i and j,
so it is stored as a C × C matrix ``Tc`` and expanded on demand (``Tc[c_i, c_j]``). This is
what makes the block-by-block evaluation of Section VI.A cheap: the target costs no memory.
"""

from __future__ import annotations

import numpy as np

TARGETS = ("plain", "balanced")


def encode_labels(y) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class codes of a label vector.

    Parameters
    ----------
    y : array-like of shape (n_samples,) or (n_samples, t)
        Class labels (any hashable values), or one-vs-rest ±1 columns (argmax taken).

    Returns
    -------
    codes : ndarray of shape (n_samples,), int
        Class index 0..C−1 of every sample.
    classes : ndarray of shape (C,)
        The label of each class index.
    counts : ndarray of shape (C,), int
        n_c, samples per class.
    """
    y = np.asarray(y)
    if y.ndim == 2:
        if y.shape[1] == 1:
            y = y[:, 0]
        else:
            y = np.argmax(y, axis=1)
    if y.ndim != 1:
        raise ValueError(f"y must be of shape (n_samples,) or (n_samples, t), got {y.shape}")
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"y must contain at least two classes, got {classes.size} class(es)")
    return codes.astype(np.intp), classes, np.bincount(codes).astype(np.intp)


def target_class_matrix(counts, kind: str = "plain") -> np.ndarray:
    """The C × C class-level target: [K*]_ij = Tc[c_i, c_j].

    Parameters
    ----------
    counts : ndarray of shape (C,)
        Samples per class n_c.
    kind : {"plain", "balanced"}
        ``plain``: K* = y yᵀ for two classes (eq. 2) and Vert's multiclass target
        (eq. 10-11: 1 within a class, −1/(C−1) across classes) for C > 2; both are the same
        formula. ``balanced``: the class-balanced target K̂* = ŷŷᵀ, ŷ_i ∈ {1/n_1, −1/n_2}
        (eq. 4); for C > 2 we use D T D with D = diag(1/n_c) and T the eq. 10 target, which
        reduces to eq. 4 when C = 2 (our extension; the paper defines eq. 4 for two classes).

    Returns
    -------
    Tc : ndarray of shape (C, C)
        Positive semi-definite (eq. 10 is a valid kernel, and D T D is a congruence of it).
    """
    counts = np.asarray(counts, dtype=np.float64)
    C = counts.size
    if C < 2:
        raise ValueError(f"a target needs at least two classes, got {C}")
    Tc = np.full((C, C), -1.0 / (C - 1))
    np.fill_diagonal(Tc, 1.0)
    if kind == "plain":
        return Tc
    if kind == "balanced":
        return Tc / np.outer(counts, counts)
    raise ValueError(f"target must be one of {TARGETS}, got {kind!r}")


def target_matrix(y, kind: str = "plain") -> np.ndarray:
    """Dense n × n target matrix K* (eq. 2, 4, 10-11), for tests and small problems.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    kind : {"plain", "balanced"}

    Returns
    -------
    K_star : ndarray of shape (n_samples, n_samples)
    """
    codes, _, counts = encode_labels(y)
    Tc = target_class_matrix(counts, kind)
    return Tc[codes][:, codes]


def target_norm_sq(counts, Tc) -> float:
    """||K*||_F² = Σ_ab n_a n_b Tc_ab² without forming K*."""
    counts = np.asarray(counts, dtype=np.float64)
    return float(counts @ (Tc**2) @ counts)


def alignment(K, K_star) -> float:
    """Kernel target alignment A(K, K*) = ⟨K, K*⟩_F / (||K||_F ||K*||_F) (eq. 3).

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
    K_star : ndarray of shape (n_samples, n_samples)

    Returns
    -------
    float
    """
    return float(np.vdot(K, K_star) / (np.linalg.norm(K) * np.linalg.norm(K_star)))


def alignment_grad(K, dK, K_star) -> np.ndarray:
    """∂A/∂θ_p for dense derivative matrices (eq. 7-9), reference implementation.

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
    dK : ndarray of shape (P, n_samples, n_samples)
        ∂_p K for every parameter p.
    K_star : ndarray of shape (n_samples, n_samples)

    Returns
    -------
    ndarray of shape (P,)
    """
    kt = np.vdot(K, K_star)
    nk = np.linalg.norm(K)
    nt = np.linalg.norm(K_star)
    d_kt = np.einsum("pij,ij->p", dK, K_star)  # eq. 7
    d_kk = np.einsum("pij,ij->p", dK, K)  # ⟨∂K, K⟩ of eq. 8
    return d_kt / (nk * nt) - kt * d_kk / (nk**3 * nt)  # eq. 9


def alignment_from_sums(kt, kk, tt, d_kt=None, d_kk=None):
    """Alignment and its gradient from Frobenius sums (eq. 3, 9).

    Parameters
    ----------
    kt : float
        ⟨K, K*⟩_F.
    kk : float
        ||K||_F².
    tt : float
        ||K*||_F².
    d_kt, d_kk : ndarray of shape (P,), optional
        ⟨∂_p K, K*⟩_F and ⟨∂_p K, K⟩_F.

    Returns
    -------
    value : float
    grad : ndarray of shape (P,) or None
    """
    nk, nt = np.sqrt(kk), np.sqrt(tt)
    value = kt / (nk * nt)
    if d_kt is None:
        return float(value), None
    return float(value), d_kt / (nk * nt) - kt * d_kk / (nk**3 * nt)


def frobenius_from_sums(kt, d_kt=None):
    """Frobenius criterion F(K, K*) = ⟨K, K*⟩_F (eq. 24), the alignment's numerator."""
    return float(kt), d_kt
