"""Forward selection of basis vectors by marginal likelihood (Sun & Yao 2006, eq. 2-10).

The loss is the negative log marginal likelihood of the Gaussian linear model
``t = H w + ε``, ``w ~ N(0, α⁻¹ I)``, ``ε ~ N(0, σ² I)`` restricted to the selected columns,

    J = ½ [tᵀ C⁻¹ t + log|C|],   C = σ² I + α⁻¹ H_I H_Iᵀ
      = tᵀ P t / (2σ²) − ½ log|P| + (n/2) log σ²,   P = I − H_I Σ H_Iᵀ,   Σ = (H_Iᵀ H_I + λ I)⁻¹

with λ = σ² α (eq. 2). The paper prints the coefficient of ``log|P|`` as ``(log σ²)/2``; the
derivation (and the determinant identity ``|P| = λᵏ / |H_IᵀH_I + λI|``) gives ½, which is what
this module uses (eq. 2, 3, 5).

Every step scores every candidate from the running ``A(i) = hᵢᵀ P t`` and ``B(i) = hᵢᵀ P hᵢ``
(eq. 4-5), adds the best one, and updates ``P = I − M D Mᵀ`` and ``A``, ``B`` by one rank-one
correction (eq. 6-10). The design enters only through three operations (a column, the product
``Hᵀ v`` and the squared column norms), so the same loop runs on an explicit design matrix
(O(n·m) per step) and on a low-rank kernel factor ``K ≈ G Gᵀ`` (O(n·p) per step, see
:mod:`rlsbench.numerics.marglik.lowrank`).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from rlsbench.numerics.selection._common import SelectionError
from rlsbench.numerics.validation import check_numeric


@dataclass(frozen=True)
class ForwardPath:
    """The forward path of :func:`forward_marglik`.

    Shapes use ``k`` = number of selected basis vectors, ``n`` = number of examples.

    Attributes
    ----------
    selected : ndarray of shape (k,), int
        Column indices in selection order (forced columns excluded).
    delta_loss : ndarray of shape (k,)
        Loss reduction ΔJ of each addition (eq. 5).
    loss : ndarray of shape (k + 1,)
        J after 0, 1, ..., k additions (eq. 2); entry 0 includes the forced columns.
    coef_path : ndarray of shape (k, k)
        Row ``s``: posterior-mean weights ``(H_IᵀH_I + λI)⁻¹ H_Iᵀ t`` of ``selected[:s + 1]``.
    forced_coef_path : ndarray of shape (k, n_forced)
        Weights of the forced columns in the model after each addition.
    loo_mse : ndarray of shape (k,)
        Exact leave-one-out MSE of the ridge model after each addition (``(Pt)ᵢ / Pᵢᵢ``).
    lam : float
        λ = σ² α.
    sigma2 : float
        The fixed noise variance σ².
    info : dict
        ``stopped`` ("k_max", "no_gain" or "exhausted").
    """

    selected: np.ndarray
    delta_loss: np.ndarray
    loss: np.ndarray
    coef_path: np.ndarray
    forced_coef_path: np.ndarray
    loo_mse: np.ndarray
    lam: float
    sigma2: float
    info: dict = field(default_factory=dict)


class ExplicitDesign:
    """The design matrix H of shape (n_samples, n_basis), stored."""

    def __init__(self, H):
        self.H = np.asarray(H, dtype=np.float64)
        self.n_samples, self.n_basis = self.H.shape

    def column(self, i):
        return self.H[:, i]

    def rmatvec(self, v):
        return self.H.T @ v

    def sq_norms(self):
        return np.einsum("ij,ij->j", self.H, self.H)


def _loss_change(A, B, lam, sigma2):
    """ΔJ of eq. (5) for every candidate, from A(i) and B(i) of eq. (4)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return A**2 / (2.0 * sigma2 * (lam + B)) + 0.5 * np.log(lam / (lam + B))


def _forward(design, t, k_max, lam, sigma2, forced=(), stop_on_no_gain=False):
    """Shared loop of eq. (3)-(10) on a design exposing ``column``, ``rmatvec``, ``sq_norms``.

    ``forced`` columns are added first, in order, regardless of their ΔJ (a bias column).
    """
    t = check_numeric(t, "t", ensure_2d=False, ensure_all_finite=False)
    n, m = design.n_samples, design.n_basis
    if t.shape != (n,):
        raise ValueError(f"t must have shape ({n},), got {t.shape}")
    if not np.all(np.isfinite(t)):
        raise ValueError("t must be finite; it holds NaN or infinity")
    if isinstance(k_max, bool) or not isinstance(k_max, numbers.Integral):
        raise ValueError(f"k_max must be an integer, got {k_max!r}")
    if not (lam > 0 and np.isfinite(lam)):
        raise ValueError(f"lam must be a positive finite number, got {lam!r}")
    if not (sigma2 > 0 and np.isfinite(sigma2)):
        raise ValueError(f"sigma2 must be a positive finite number, got {sigma2!r}")
    forced = [int(i) for i in forced]
    k_max = int(min(k_max, m - len(forced)))
    if k_max < 0:
        raise ValueError(f"k_max must be >= 0, got {k_max}")
    n_total = len(forced) + k_max

    A = design.rmatvec(t)  # eq. (4) with P_0 = I
    B = design.sq_norms()
    M = np.empty((n, n_total))  # columns m_j of eq. (6)
    d = np.empty(n_total)  # d_j of eq. (7); D = diag(1 / d)
    e = np.empty(n_total)  # e_j of eq. (8)
    # m_j = H_I u_j: U holds u_j so the weights follow without refactoring (w = U D e).
    U = np.zeros((n_total, n_total))
    residual = t.copy()  # P t
    p_diag = np.ones(n)  # diag(P), for the exact LOO residuals (P t)_i / P_ii
    available = np.ones(m, dtype=bool)

    J = 0.5 * (t @ t) / sigma2 + 0.5 * n * np.log(sigma2)  # eq. (2) with P = I
    order, deltas, losses, coefs, loos = [], [], [], [], []
    stopped = "k_max"
    for step in range(n_total):
        delta = _loss_change(A, B, lam, sigma2)
        if step < len(forced):
            i = forced[step]
        else:
            eligible = available & (B > 0)
            if not np.isfinite(delta[eligible]).all():
                # an over- or underflowing ΔJ (extreme scales of H, t or λ) must not win
                bad = int((~np.isfinite(delta[eligible])).sum())
                raise SelectionError(
                    f"forward_marglik: step {step + 1}: {bad} of {int(eligible.sum())} "
                    "candidate basis functions have a non-finite "
                    f"ΔJ (lam = {lam:g}, sigma2 = {sigma2:g}, max |t| = {np.abs(t).max():.3g}); "
                    "scale the design and the target, or change lam"
                )
            delta_free = np.where(eligible, delta, -np.inf)
            i = int(np.argmax(delta_free))
            if not np.isfinite(delta_free[i]):
                stopped = "exhausted"
                break
            if stop_on_no_gain and delta_free[i] <= 0.0:
                stopped = "no_gain"
                break
        h = design.column(i)
        proj = M[:, :step].T @ h  # M_{k-1}ᵀ h
        scaled = proj / d[:step]  # D_{k-1} Mᵀ h
        m_k = h - M[:, :step] @ scaled  # eq. (6)
        d_k = lam + h @ m_k  # eq. (7)
        e_k = t @ m_k  # eq. (8)
        M[:, step], d[step], e[step] = m_k, d_k, e_k
        U[:step, step] = -U[:step, :step] @ scaled
        U[step, step] = 1.0
        C = design.rmatvec(m_k)  # eq. (10)
        A -= C * (e_k / d_k)  # eq. (9)
        B -= C**2 / d_k
        available[i] = False
        J -= delta[i]
        residual -= m_k * (e_k / d_k)
        p_diag -= m_k**2 / d_k
        if step >= len(forced):
            order.append(i)
            deltas.append(delta[i])
            losses.append(J)
            w = U[: step + 1, : step + 1] @ (e[: step + 1] / d[: step + 1])
            coefs.append(w)
            loos.append(np.mean((residual / p_diag) ** 2))
        elif step == len(forced) - 1:
            J_start = J
    if not forced:
        J_start = 0.5 * (t @ t) / sigma2 + 0.5 * n * np.log(sigma2)

    k = len(order)
    nf = len(forced)
    coef_path = np.zeros((k, k))
    forced_path = np.zeros((k, nf))
    for s, w in enumerate(coefs):
        forced_path[s] = w[:nf]
        coef_path[s, : s + 1] = w[nf:]
    return ForwardPath(
        selected=np.asarray(order, dtype=np.intp),
        delta_loss=np.asarray(deltas),
        loss=np.concatenate([[J_start], losses]),
        coef_path=coef_path,
        forced_coef_path=forced_path,
        loo_mse=np.asarray(loos),
        lam=float(lam),
        sigma2=float(sigma2),
        info={"stopped": stopped},
    )


def forward_marglik(H, t, k_max, lam, *, sigma2=1.0, forced=(), stop_on_no_gain=False):
    """Greedy forward selection of columns of H maximizing the marginal likelihood.

    Parameters
    ----------
    H : ndarray of shape (n_samples, n_basis)
        Design matrix; its columns are the candidate basis vectors (kernel columns or features).
    t : ndarray of shape (n_samples,)
        Targets.
    k_max : int
        Number of basis vectors to select (fewer if the candidates run out).
    lam : float
        Regularization λ = σ² α (eq. 2).
    sigma2 : float, default=1.0
        Fixed noise variance σ².
    forced : sequence of int, default=()
        Columns added first regardless of their ΔJ (e.g. a constant bias column); they are not
        reported in ``selected``.
    stop_on_no_gain : bool, default=False
        Stop when no candidate decreases J (max ΔJ ≤ 0). The paper runs to ``k_max``.

    Returns
    -------
    ForwardPath

    Notes
    -----
    Each step costs one ``Hᵀ m_k`` product (eq. 10), O(n·m), plus O(n·k) for eq. (6): the
    whole run is O(n·m·k) time and O(n·k) memory beyond H.

    References
    ----------
    P. Sun and X. Yao. Efficient forward regression with marginal likelihood. ESANN 2006.
    """
    H = check_numeric(H, "H")
    return _forward(ExplicitDesign(H), t, k_max, lam, float(sigma2), forced, stop_on_no_gain)


def marginal_loss(H, t, lam, sigma2=1.0):
    """J of eq. (2) computed from scratch, ½[tᵀC⁻¹t + log|C|] with C = σ²I + (σ²/λ) H Hᵀ.

    Parameters
    ----------
    H : ndarray of shape (n_samples, k)
    t : ndarray of shape (n_samples,)
    lam, sigma2 : float

    Returns
    -------
    float
    """
    H = np.asarray(H, dtype=np.float64)
    t = np.asarray(t, dtype=np.float64)
    C = sigma2 * np.eye(t.shape[0]) + (sigma2 / lam) * (H @ H.T)
    L = np.linalg.cholesky(C)
    z = np.linalg.solve(L, t)
    return 0.5 * (z @ z) + np.sum(np.log(np.diag(L)))
