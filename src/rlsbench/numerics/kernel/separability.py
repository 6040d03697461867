"""Kernel class separability (Ramona et al. 2012, Section IV): value and gradient.

Normalisation. With W = blockdiag(K_cc / n_c) (eq. 17 without its leading 1/n), eq. 15, 16, 22
and 23 hold exactly as printed: tr S_b = ΣW − ΣK/n = Σ_c n_c ||m_c − m||² and
tr S_w = tr K − ΣW = Σ_c Σ_{x∈S_c} ||φ(x) − m_c||², so tr S_b + tr S_w is the total scatter
tr K − ΣK/n. (Eq. 12 carries a 1/n on S_b that eq. 15 does not; the ratio differs only by
that constant factor, which the regularizer ε absorbs.)

Both traces are Frobenius products of K with class-structured matrices,
tr S_b = ⟨K, B − 11ᵀ/n⟩_F and tr S_w = ⟨K, I − B⟩_F with B_ij = [c_i = c_j] / n_{c_i},
which is what the block-by-block evaluation of Section VI.A accumulates.
"""

from __future__ import annotations

import numpy as np

from rlsbench.numerics.kernel.alignment import encode_labels


def scatter_weights(y) -> tuple[np.ndarray, np.ndarray]:
    """Dense matrices M_b, M_w with tr S_b = ⟨K, M_b⟩_F and tr S_w = ⟨K, M_w⟩_F (eq. 15-17).

    Parameters
    ----------
    y : array-like of shape (n_samples,)

    Returns
    -------
    M_b, M_w : ndarrays of shape (n_samples, n_samples)
    """
    codes, _, counts = encode_labels(y)
    n = codes.size
    B = (codes[:, None] == codes[None, :]) / counts[codes][:, None]
    return B - 1.0 / n, np.eye(n) - B


def scatter_traces(K, y) -> tuple[float, float]:
    """tr S_b and tr S_w in the feature space (eq. 15, 16), from a dense Gram matrix.

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
    y : array-like of shape (n_samples,)

    Returns
    -------
    tr_sb, tr_sw : float
    """
    codes, _, counts = encode_labels(y)
    n = codes.size
    sum_w = sum(K[np.ix_(codes == c, codes == c)].sum() / counts[c] for c in range(counts.size))
    return float(sum_w - K.sum() / n), float(np.trace(K) - sum_w)


def class_separability(K, y, epsilon: float = 0.0) -> float:
    """Regularized kernel class separability C̃_K = tr S_b / (tr S_w + ε) (eq. 14, 18).

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
    y : array-like of shape (n_samples,)
    epsilon : float
        Regularizer ε of the denominator (Section IV-C); 0 gives eq. 18.

    Returns
    -------
    float
    """
    sb, sw = scatter_traces(K, y)
    return sb / (sw + epsilon)


def class_separability_grad(K, dK, y, epsilon: float = 0.0) -> np.ndarray:
    """∂C̃_K/∂θ_p for dense derivative matrices (eq. 22-23), reference implementation.

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
    dK : ndarray of shape (P, n_samples, n_samples)
    y : array-like of shape (n_samples,)
    epsilon : float

    Returns
    -------
    ndarray of shape (P,)
    """
    sb, sw = scatter_traces(K, y)
    codes, _, counts = encode_labels(y)
    n = codes.size
    d_sum_w = sum(
        dK[:, codes == c][:, :, codes == c].sum(axis=(1, 2)) / counts[c] for c in range(counts.size)
    )
    d_sb = d_sum_w - dK.sum(axis=(1, 2)) / n  # eq. 22
    d_sw = np.trace(dK, axis1=1, axis2=2) - d_sum_w  # eq. 23
    return separability_from_sums(sb, sw, epsilon, d_sb, d_sw)[1]


def separability_from_sums(sb, sw, epsilon=0.0, d_sb=None, d_sw=None):
    """C̃_K = tr S_b / (tr S_w + ε) and its gradient by the quotient rule on eq. 22-23.

    Returns
    -------
    value : float
    grad : ndarray of shape (P,) or None
    """
    if not epsilon >= 0:
        raise ValueError(f"class separability epsilon must be >= 0, got {epsilon!r}")
    den = sw + epsilon
    if not den > 0:
        raise ValueError(
            f"class separability denominator tr S_w + epsilon = {den!r} must be > 0; "
            "increase epsilon"
        )
    value = sb / den
    if d_sb is None:
        return float(value), None
    return float(value), (d_sb * den - sb * d_sw) / den**2
