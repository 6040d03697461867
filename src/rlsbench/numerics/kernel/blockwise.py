"""Gram-matrix sums accumulated block by block (Ramona et al. 2012, Section VI.A).

The alignment (eq. 3, 9) and the class separability (eq. 15-16, 22-23) only need Frobenius
sums ⟨K, M⟩_F and ⟨∂_d K, M⟩_F for class-structured matrices M. We visit the Gram matrix in
square blocks of ``block_size`` rows and columns, upper triangle only (off-diagonal blocks
count twice since every M is symmetric), so peak memory is O(block_size² + block_size · D)
instead of O(n²) (or O(D n²) for the derivative matrices).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rlsbench.numerics.kernel.kernels import ScaledKernel

SUMS = ("kt", "kk", "sb", "sw")


@dataclass
class GramSums:
    """Frobenius sums of one scaled Gram matrix K_w (and their gradients in w).

    Attributes
    ----------
    kt : float
        ⟨K, K*⟩_F (eq. 3 numerator).
    kk : float
        ||K||_F².
    sb, sw : float
        tr S_b and tr S_w (eq. 15, 16).
    d_kt, d_kk, d_sb, d_sw : ndarray of shape (n_features,) or None
        ⟨∂_d K, K*⟩_F, ⟨∂_d K, K⟩_F, ∂_d tr S_b (eq. 22), ∂_d tr S_w (eq. 23).
    n_blocks : int
        Number of Gram blocks computed.
    """

    kt: float = 0.0
    kk: float = 0.0
    sb: float = 0.0
    sw: float = 0.0
    d_kt: np.ndarray | None = None
    d_kk: np.ndarray | None = None
    d_sb: np.ndarray | None = None
    d_sw: np.ndarray | None = None
    n_blocks: int = 0


def gram_sums(
    X,
    codes,
    counts,
    w,
    kernel: ScaledKernel,
    *,
    target_classes=None,
    needs=SUMS,
    grad: bool = True,
    block_size: int | None = 512,
) -> GramSums:
    """Accumulate the Frobenius sums of K_w block by block.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    codes : ndarray of shape (n_samples,), int
        Class index of every sample (:func:`~rlsbench.numerics.kernel.alignment.encode_labels`).
    counts : ndarray of shape (C,)
        Samples per class.
    w : ndarray of shape (n_features,)
        Scale factors.
    kernel : ScaledKernel
    target_classes : ndarray of shape (C, C), optional
        Class-level target Tc, [K*]_ij = Tc[c_i, c_j]; required when "kt" is needed.
    needs : iterable of {"kt", "kk", "sb", "sw"}
        Which sums to accumulate (alignment: kt, kk; separability: sb, sw; Frobenius: kt).
    grad : bool
        Also accumulate the gradients (one ⟨∂_d K, M⟩ contraction per needed sum).
    block_size : int or None
        Rows/columns per block; None = one block (the dense n × n computation).

    Returns
    -------
    GramSums
    """
    needs = set(needs)
    unknown = needs - set(SUMS)
    if unknown:
        raise ValueError(f"needs must be a subset of {SUMS}, got {sorted(unknown)}")
    if "kt" in needs and target_classes is None:
        raise ValueError("target_classes is required to accumulate kt = <K, K*>")
    n, D = X.shape
    if block_size is None or block_size >= n:
        block_size = n
    if block_size < 1:
        raise ValueError(f"block_size must be >= 1 or None, got {block_size!r}")
    inv_counts = 1.0 / np.asarray(counts, dtype=np.float64)
    out = GramSums()
    if grad:
        for name in needs:
            setattr(out, "d_" + name, np.zeros(D))
    scatter = bool(needs & {"sb", "sw"})
    starts = range(0, n, block_size)
    for a in starts:
        sa = slice(a, min(a + block_size, n))
        Xa, ca = X[sa], codes[sa]
        for b in starts:
            if b < a:
                continue
            sl_b = slice(b, min(b + block_size, n))
            Xb, cb = X[sl_b], codes[sl_b]
            weight = 1.0 if a == b else 2.0  # symmetric M: the (b, a) block is the transpose
            K = kernel.gram(Xa, Xb, w)
            out.n_blocks += 1
            mats = {}
            if "kt" in needs:
                mats["kt"] = target_classes[ca][:, cb]
            if "kk" in needs:
                mats["kk"] = K
            if scatter:
                # B_ij = [c_i = c_j] / n_c ;  tr S_b = <K, B − 1/n>,  tr S_w = <K, I − B>
                B = (ca[:, None] == cb[None, :]) * inv_counts[ca][:, None]
                if "sb" in needs:
                    mats["sb"] = B - 1.0 / n
                if "sw" in needs:
                    Mw = -B
                    if a == b:
                        Mw = Mw + np.eye(Xa.shape[0])
                    mats["sw"] = Mw
            for name, M in mats.items():
                setattr(out, name, getattr(out, name) + weight * float(np.vdot(K, M)))
                if grad:
                    g = getattr(out, "d_" + name)
                    g += weight * kernel.grad_contract(Xa, Xb, w, M, K=K)
    return out
