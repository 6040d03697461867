"""Scaled kernels k_w(x, y) = k(w ∘ x, w ∘ y) and their derivatives in the scale factors.

Ramona et al. (2012), Section III-D: linear, Gaussian RBF and polynomial kernels written as
functions of the feature-wise matrices κ^d, so that ∂k_w/∂w_d is an entry-wise product of the
Gram matrix (or a power of it) with κ^d.

The criteria of this package only ever need Frobenius products ⟨∂_d K, M⟩_F for a handful of
matrices M (Section VI.A), so instead of forming the D derivative matrices ∂_d K (D × n × n)
each kernel provides :meth:`ScaledKernel.grad_contract`, which returns the D numbers
⟨∂_d K, M⟩_F for one block of rows and columns in O(n_a n_b D) time and O(n_a n_b) memory.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

KERNELS = ("linear", "rbf", "poly")


@dataclass(frozen=True)
class ScaledKernel:
    """A kernel with per-feature scale factors ``w`` (Section III-D).

    Parameters
    ----------
    name : {"linear", "rbf", "poly"}
        ``linear``: k_w(x, y) = Σ_d w_d² x_d y_d.
        ``rbf``: k_w(x, y) = exp(−Σ_d w_d² (x_d − y_d)² / (2σ²)).
        ``poly``: k_w(x, y) = (1 + c Σ_d w_d² x_d y_d)^δ.
    sigma : float
        Width σ of the Gaussian RBF kernel (ignored otherwise). σ is redundant with a global
        rescaling of w (eq. 6); it only sets where the ascent starts.
    degree : int
        Order δ of the polynomial kernel.
    coef : float
        Factor c of the polynomial kernel.
    """

    name: str = "linear"
    sigma: float = 1.0
    degree: int = 3
    coef: float = 1.0

    def __post_init__(self):
        if self.name not in KERNELS:
            raise ValueError(f"kernel name must be one of {KERNELS}, got {self.name!r}")
        if not self.sigma > 0:
            raise ValueError(f"kernel sigma must be > 0, got {self.sigma!r}")
        if int(self.degree) != self.degree or self.degree < 1:
            raise ValueError(f"kernel degree must be an integer >= 1, got {self.degree!r}")

    # -- Gram matrix ---------------------------------------------------------------------
    def gram(self, Xa, Xb, w) -> np.ndarray:
        """Scaled Gram block [K_w]_ij = k_w(xa_i, xb_j).

        Parameters
        ----------
        Xa : ndarray of shape (n_a, n_features)
        Xb : ndarray of shape (n_b, n_features)
        w : ndarray of shape (n_features,)
            Scale factors.

        Returns
        -------
        K : ndarray of shape (n_a, n_b)
        """
        Za, Zb = Xa * w, Xb * w
        if self.name == "linear":
            return Za @ Zb.T
        if self.name == "rbf":
            sq = (
                np.einsum("ij,ij->i", Za, Za)[:, None]
                + np.einsum("ij,ij->i", Zb, Zb)[None, :]
                - 2.0 * (Za @ Zb.T)
            )
            np.maximum(sq, 0.0, out=sq)
            return np.exp(-sq / (2.0 * self.sigma**2))
        return (1.0 + self.coef * (Za @ Zb.T)) ** self.degree

    def diag(self, X, w) -> np.ndarray:
        """k_w(x_i, x_i) for every row, shape (n_samples,)."""
        Z = X * w
        if self.name == "linear":
            return np.einsum("ij,ij->i", Z, Z)
        if self.name == "rbf":
            return np.ones(X.shape[0])
        return (1.0 + self.coef * np.einsum("ij,ij->i", Z, Z)) ** self.degree

    def value_at_origin(self, X, w) -> tuple[np.ndarray, float]:
        """k_w(x_i, 0) for every row and k_w(0, 0) (for the radius R̄ of the C = 1/R̄² rule)."""
        if self.name == "linear":
            return np.zeros(X.shape[0]), 0.0
        if self.name == "rbf":
            Z = X * w
            return np.exp(-np.einsum("ij,ij->i", Z, Z) / (2.0 * self.sigma**2)), 1.0
        return np.ones(X.shape[0]), 1.0

    # -- derivatives -----------------------------------------------------------------------
    def grad_gram(self, Xa, Xb, w) -> np.ndarray:
        """All feature-wise derivative matrices ∂_d K_w (Section III-D), dense.

        Only for tests and small problems: memory is D × n_a × n_b.

        Returns
        -------
        dK : ndarray of shape (n_features, n_a, n_b)
        """
        K = self.gram(Xa, Xb, w)
        if self.name == "linear":
            # ∂_d k = 2 w_d κ^d,  κ^d = x_d y_d
            return 2.0 * w[:, None, None] * np.einsum("id,jd->dij", Xa, Xb)
        if self.name == "rbf":
            # ∂_d k = −2 w_d κ^d k,  κ^d = (x_d − y_d)² / (2σ²)
            kappa = (Xa.T[:, :, None] - Xb.T[:, None, :]) ** 2 / (2.0 * self.sigma**2)
            return -2.0 * w[:, None, None] * kappa * K[None]
        chi = 1.0 + self.coef * ((Xa * w) @ (Xb * w).T)
        # ∂_d k = 2 δ c w_d κ^d χ^(δ−1),  κ^d = x_d y_d
        return (
            2.0
            * self.degree
            * self.coef
            * w[:, None, None]
            * np.einsum("id,jd->dij", Xa, Xb)
            * chi[None] ** (self.degree - 1)
        )

    def grad_contract(self, Xa, Xb, w, M, K=None) -> np.ndarray:
        """Frobenius products ⟨∂_d K_w, M⟩_F for every feature d, without forming ∂_d K_w.

        Parameters
        ----------
        Xa : ndarray of shape (n_a, n_features)
        Xb : ndarray of shape (n_b, n_features)
        w : ndarray of shape (n_features,)
        M : ndarray of shape (n_a, n_b)
            The matrix contracted against (a block of a target or weighting matrix).
        K : ndarray of shape (n_a, n_b), optional
            The Gram block ``self.gram(Xa, Xb, w)`` if already computed.

        Returns
        -------
        g : ndarray of shape (n_features,)
            g_d = Σ_ij [∂_d K_w]_ij M_ij.

        Notes
        -----
        Σ_ij M_ij xa_id xb_jd = (xa_d)ᵀ M xb_d and Σ_ij P_ij (xa_id − xb_jd)² =
        rowsum(P)·xa_d² + colsum(P)·xb_d² − 2 (xa_d)ᵀ P xb_d, for all d at once.
        """
        if self.name == "linear":
            return 2.0 * w * np.einsum("id,id->d", Xa, M @ Xb)
        if K is None:
            K = self.gram(Xa, Xb, w)
        if self.name == "rbf":
            P = K * M
            quad = (
                P.sum(axis=1) @ (Xa * Xa)
                + P.sum(axis=0) @ (Xb * Xb)
                - 2.0 * np.einsum("id,id->d", Xa, P @ Xb)
            )
            return -2.0 * w * quad / (2.0 * self.sigma**2)
        chi = 1.0 + self.coef * ((Xa * w) @ (Xb * w).T)
        P = M * chi ** (self.degree - 1)
        return 2.0 * self.degree * self.coef * w * np.einsum("id,id->d", Xa, P @ Xb)


def as_kernel(kernel, **params) -> ScaledKernel:
    """Return ``kernel`` if it is a :class:`ScaledKernel`, else build one from its name."""
    if isinstance(kernel, ScaledKernel):
        return kernel
    return ScaledKernel(str(kernel), **params)
