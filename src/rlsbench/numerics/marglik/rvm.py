"""The relevance vector machine for regression: Tipping (2001) and Tipping & Faul (2003).

Both maximize the same log marginal likelihood over one precision αᵢ per basis vector
(Sun & Yao eq. 11, with λᵢ = σ² αᵢ) and, unless the noise is fixed, the noise precision β = 1/σ²:

    L(α, β) = −½ [n log 2π + log|C| + tᵀ C⁻¹ t],   C = β⁻¹ I + Φ A⁻¹ Φᵀ,   A = diag(α).

* :func:`rvm_tipping` — the original re-estimation (Tipping 2001, eq. 12-14, 16, 18):
  all n basis vectors start in the model; each iteration solves the posterior
  Σ = (A + βΦᵀΦ)⁻¹ (O(M³) for M retained vectors, O(n³) at the start) and updates
  αᵢ ← γᵢ / μᵢ², γᵢ = 1 − αᵢ Σᵢᵢ; vectors whose αᵢ exceeds ``prune_alpha`` are removed.
* :func:`rvm_fast` — the sequential algorithm (Tipping & Faul 2003, sec. 3-4): starts from
  one vector and, per iteration, adds, re-estimates or deletes the single vector that increases
  L the most, using the sparsity/quality factors sᵢ, qᵢ (eq. 19-23) and the closed-form
  optimum αᵢ = sᵢ² / (qᵢ² − sᵢ) (eq. 20).

Both here compute Σ from scratch by a Cholesky factorization of the retained vectors at each
iteration (the reference implementation of Tipping & Faul updates Σ, μ, S, Q by rank-one
corrections, which is cheaper but accumulates rounding error — the instability Sun & Yao report
for the "New RVM"); the decisions taken are those of the papers.

A fit can be bounded by ``flop_budget``: both solvers count the floating-point operations of
their own cost model as they go (:func:`tipping_iteration_flops`, :func:`fast_iteration_flops`;
a multiply-add counts 2) and raise :class:`BudgetExceeded` before an iteration that would take
the count past the budget. The count is a function of the data and the settings alone, so a
budgeted fit stops at the same iteration on every machine and under any load; it is returned in
``RVMResult.info["flops"]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.linalg import LinAlgError
from scipy.linalg.lapack import dpotrf, dpotrs

from rlsbench.errors import RLSBenchError


class BudgetExceeded(RuntimeError, RLSBenchError):
    """A fit would exceed its budget of estimated floating-point operations.

    Attributes
    ----------
    flops : float
        Estimated operations spent when the fit stopped.
    n_iter : int
        Iterations completed.
    """

    def __init__(self, message, *, flops=0.0, n_iter=0):
        super().__init__(message)
        self.flops = float(flops)
        self.n_iter = int(n_iter)


def _cholesky_flops(M):
    """Cholesky factor, μ, L, and Σ's diagonal (or all of Σ) of an M×M posterior:
    M³/3 for the factor and 2M³ for the two triangular solves against the identity."""
    return M**3 / 3.0 + 2.0 * M**3 + 8.0 * M**2


def tipping_setup_flops(n, m):
    """ΦᵀΦ and Φᵀt of :func:`rvm_tipping` (2nm² + 2nm)."""
    return 2.0 * n * m * m + 2.0 * n * m


def tipping_iteration_flops(M):
    """One re-estimation of :func:`rvm_tipping` with M retained vectors: the posterior and the
    diagonal of Σ (O(M³))."""
    return _cholesky_flops(M)


def fast_setup_flops(n, m):
    """Φᵀt, the column norms and the first Φᵀφ of :func:`rvm_fast` (6nm)."""
    return 6.0 * n * m


def fast_iteration_flops(n, m, M, *, add, noise):
    """One iteration of :func:`rvm_fast` with M retained vectors out of m: the posterior and Σ,
    the factors S, Q of every candidate (2mM² + 4mM), Φᵀφ of an added vector (2nm) and, when
    the noise is re-estimated, a second posterior."""
    flops = _cholesky_flops(M) + 2.0 * m * M * M + 4.0 * m * M + 30.0 * m
    if add:
        flops += 2.0 * n * m
    if noise:
        flops += _cholesky_flops(M + 1) + 2.0 * M * M
    return flops


class _Budget:
    """Counts estimated operations; raises :class:`BudgetExceeded` before going over."""

    def __init__(self, budget, name):
        if budget is not None and not budget > 0:
            raise ValueError(f"flop_budget must be > 0 or None, got {budget!r}")
        self.budget, self.name, self.spent = budget, name, 0.0

    def spend(self, flops, n_iter):
        if self.budget is not None and self.spent + flops > self.budget:
            raise BudgetExceeded(
                f"{self.name} would exceed its budget of {self.budget:.3g} estimated flops "
                f"({self.spent:.3g} spent after {n_iter} iterations, the next needs "
                f"{flops:.3g})",
                flops=self.spent,
                n_iter=n_iter,
            )
        self.spent += flops


@dataclass(frozen=True)
class RVMResult:
    """A fitted relevance vector machine.

    Attributes
    ----------
    active : ndarray of shape (M,), int
        Columns of Φ retained (relevance vectors).
    alpha : ndarray of shape (M,)
        Their precisions αᵢ.
    mean : ndarray of shape (M,)
        Posterior-mean weights μ.
    beta : float
        Noise precision 1/σ².
    log_ml : float
        Log marginal likelihood L at the returned (α, β).
    n_iter : int
    converged : bool
    info : dict
        ``log_ml_history`` (per iteration) and method-specific counters.
    """

    active: np.ndarray
    alpha: np.ndarray
    mean: np.ndarray
    beta: float
    log_ml: float
    n_iter: int
    converged: bool
    info: dict = field(default_factory=dict)


def _cho_factor(a):
    """``scipy.linalg.cho_factor(a, lower=True, check_finite=False)`` for a float64 (M, M) array.

    The same LAPACK call (POTRF on a copy, the other triangle left as it was), so the same bits,
    without SciPy's wrappers: the solvers factor an M × M matrix every iteration, M often under
    20, where the wrappers' checks took longer than LAPACK (issue 46: Sun & Yao's searches).
    """
    c, info = dpotrf(a, lower=1, overwrite_a=0, clean=0)
    if info > 0:
        raise LinAlgError(f"{info}-th leading minor of the array is not positive definite")
    if info < 0:
        raise ValueError(
            f'LAPACK reported an illegal value in {-info}-th argument on entry to "POTRF".'
        )
    return c, True


def _cho_solve(factor, b):
    """``scipy.linalg.cho_solve(factor, b, check_finite=False)`` for :func:`_cho_factor`'s factor
    and a float64 b of shape (M,) or (M, K): POTRS, as SciPy calls it."""
    x, info = dpotrs(factor[0], b, lower=1, overwrite_b=0)
    if info != 0:
        raise ValueError(f"illegal value in {-info}th argument of internal potrs")
    return x


def _posterior(PhiTPhi_a, PhiTt_a, alpha_a, beta):
    """Cholesky of Σ⁻¹ = A + βΦᵀΦ and μ = βΣΦᵀt (Tipping 2001, eq. 12-13)."""
    Sigma_inv = beta * PhiTPhi_a
    Sigma_inv.flat[:: Sigma_inv.shape[0] + 1] += alpha_a  # the diagonal
    factor = _cho_factor(Sigma_inv)
    mu = _cho_solve(factor, beta * PhiTt_a)
    return factor, mu


def _log_ml(factor, mu, alpha_a, beta, tt, PhiTt_a, PhiTPhi_a, n):
    """L of the module docstring from the posterior (determinant and Woodbury identities)."""
    log_det_Sigma_inv = 2.0 * np.sum(np.log(np.diag(factor[0])))
    # ‖t − Φμ‖² without Φ: tᵀt − 2μᵀΦᵀt + μᵀΦᵀΦμ
    sq_err = tt - 2.0 * (mu @ PhiTt_a) + mu @ (PhiTPhi_a @ mu)
    quad = beta * sq_err + np.sum(alpha_a * mu**2)
    log_det_C = -n * np.log(beta) - np.sum(np.log(alpha_a)) + log_det_Sigma_inv
    return -0.5 * (n * np.log(2 * np.pi) + log_det_C + quad), max(sq_err, 0.0)


def _check(Phi, t):
    Phi = np.asarray(Phi, dtype=np.float64)
    t = np.asarray(t, dtype=np.float64)
    if Phi.ndim != 2 or t.shape != (Phi.shape[0],):
        raise ValueError(f"Phi must be (n, m) and t (n,); got {Phi.shape} and {t.shape}")
    return Phi, t


def _initial_beta(t, beta):
    if beta is not None:
        if not beta > 0:
            raise ValueError(f"beta must be > 0, got {beta!r}")
        return float(beta)
    # Tipping's SparseBayes default: noise std 10 % of the target std.
    return 1.0 / (0.01 * _scale(t))


def _noise_precision(dof, sq_err, t):
    """β = (n − Σγ) / ‖t − Φμ‖² (Tipping 2001, eq. 18), capped at 10⁶ / var(t): an exact fit
    (‖t − Φμ‖² → 0) must not drive the noise variance to zero."""
    cap = 1e6 / _scale(t)
    return min(max(dof, 1e-12) / sq_err, cap) if sq_err > 0 else cap


def _scale(t):
    """var(t), or 1 for constant targets (a single example), so that 1/β stays finite."""
    var = float(np.var(t))
    return var if var > 0 else 1.0


def rvm_tipping(
    Phi,
    t,
    *,
    beta=None,
    fixed_noise=False,
    alpha_init=None,
    max_iter=1000,
    tol=1e-6,
    prune_alpha=1e12,
    flop_budget=None,
):
    """Original RVM regression by re-estimation (Tipping 2001).

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
        Design matrix (the kernel matrix, optionally with a bias column).
    t : ndarray of shape (n_samples,)
    beta : float or None
        Initial (or, with ``fixed_noise``, fixed) noise precision 1/σ²; None: 1/(0.01 var t).
    fixed_noise : bool, default=False
        Keep β fixed instead of re-estimating it by eq. (18).
    alpha_init : float or None
        Initial αᵢ for every vector; None: ``1 / var(t)`` (weights of the target's scale).
    max_iter : int, default=1000
    tol : float, default=1e-6
        Converged when every retained ``|Δ log αᵢ|`` (and ``|Δ log β|``) is below ``tol``.
    prune_alpha : float, default=1e12
        αᵢ above this removes vector i (its weight is zero to working precision).
    flop_budget : float or None
        Estimated floating-point operations (:func:`tipping_setup_flops`,
        :func:`tipping_iteration_flops`); :class:`BudgetExceeded` before an iteration that
        would exceed it. None: unbounded.

    Returns
    -------
    RVMResult
        ``info["flops"]``: the estimated operations spent.

    Notes
    -----
    Φᵀ Φ is formed once (O(n·m²) time, O(m²) memory); each iteration costs O(M³).
    """
    Phi, t = _check(Phi, t)
    n, m = Phi.shape
    budget = _Budget(flop_budget, "rvm_tipping")
    budget.spend(tipping_setup_flops(n, m), 0)
    PhiTPhi = Phi.T @ Phi
    PhiTt = Phi.T @ t
    tt = t @ t
    beta = _initial_beta(t, beta)
    alpha = np.full(m, 1.0 / _scale(t) if alpha_init is None else float(alpha_init))
    active = np.arange(m)
    history = []
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        budget.spend(tipping_iteration_flops(active.size), it - 1)
        G = PhiTPhi[np.ix_(active, active)]
        factor, mu = _posterior(G, PhiTt[active], alpha, beta)
        L, sq_err = _log_ml(factor, mu, alpha, beta, tt, PhiTt[active], G, n)
        history.append(L)
        Sigma_diag = np.diag(_cho_solve(factor, np.eye(active.size)))
        gamma = 1.0 - alpha * Sigma_diag  # eq. (16)
        with np.errstate(divide="ignore"):
            alpha_new = gamma / mu**2  # eq. (16)
        alpha_new = np.where(np.isfinite(alpha_new) & (alpha_new > 0), alpha_new, np.inf)
        beta_new = beta if fixed_noise else _noise_precision(n - gamma.sum(), sq_err, t)
        keep = alpha_new < prune_alpha
        with np.errstate(divide="ignore", invalid="ignore"):
            change = np.abs(np.log(alpha_new[keep]) - np.log(alpha[keep]))
        converged = (
            keep.all()
            and (change.max(initial=0.0) < tol)
            and (abs(np.log(beta_new) - np.log(beta)) < tol)
        )
        active, alpha, beta = active[keep], alpha_new[keep], beta_new
        if converged or active.size == 0:
            break
    if active.size == 0:
        return RVMResult(
            active,
            alpha,
            np.zeros(0),
            beta,
            float("nan"),
            it,
            converged,
            {"log_ml_history": np.asarray(history), "flops": budget.spent},
        )
    G = PhiTPhi[np.ix_(active, active)]
    factor, mu = _posterior(G, PhiTt[active], alpha, beta)
    L, _ = _log_ml(factor, mu, alpha, beta, tt, PhiTt[active], G, n)
    return RVMResult(
        active,
        alpha,
        mu,
        float(beta),
        float(L),
        it,
        bool(converged),
        {"log_ml_history": np.asarray(history), "flops": budget.spent},
    )


def rvm_fast(
    Phi,
    t,
    *,
    beta=None,
    fixed_noise=False,
    max_iter=10000,
    tol=1e-6,
    flop_budget=None,
):
    """Fast marginal-likelihood maximization for the RVM (Tipping & Faul 2003).

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
    t : ndarray of shape (n_samples,)
    beta : float or None
        Initial (or fixed) noise precision; None: 1/(0.01 var t).
    fixed_noise : bool, default=False
        Keep β fixed instead of re-estimating it after every iteration.
    max_iter : int, default=10000
    tol : float, default=1e-6
        Converged when no vector can be added or deleted and the best re-estimate changes its
        log αᵢ by less than ``tol`` (the rule of Tipping's SparseBayes; with noise
        re-estimation, also ``|Δ log β| < tol``).
    flop_budget : float or None
        Estimated floating-point operations (:func:`fast_setup_flops`,
        :func:`fast_iteration_flops`); :class:`BudgetExceeded` before an iteration that would
        exceed it. None: unbounded.

    Returns
    -------
    RVMResult
        ``info`` counts the ``adds``, ``deletes`` and ``reestimates`` and the estimated
        ``flops`` spent.

    Notes
    -----
    Sparsity and quality factors of every candidate (T&F eq. 22-23)::

        S_m = β φ_mᵀφ_m − β² φ_mᵀ Φ Σ Φᵀ φ_m,   Q_m = β φ_mᵀ t − β² φ_mᵀ Φ Σ Φᵀ t,
        s_m = α_m S_m / (α_m − S_m),  q_m = α_m Q_m / (α_m − S_m)  (retained; s = S, q = Q else).

    ``Φᵀφ_i`` is formed when vector i enters (O(n·m)) and kept, so an iteration costs
    O(m·M² + M³); memory O(m·M) beyond Φ.
    """
    Phi, t = _check(Phi, t)
    n, m = Phi.shape
    budget = _Budget(flop_budget, "rvm_fast")
    budget.spend(fast_setup_flops(n, m), 0)
    PhiTt = Phi.T @ t
    norms = np.einsum("ij,ij->j", Phi, Phi)
    tt = t @ t
    beta = _initial_beta(t, beta)

    # Initialise with the vector of largest normalised projection (T&F sec. 4, step 2).
    proj = PhiTt**2 / np.where(norms > 0, norms, np.inf)
    i0 = int(np.argmax(proj))
    denom = proj[i0] - 1.0 / beta
    alpha0 = norms[i0] / denom if denom > 0 else 1.0 / _scale(t)
    active = [i0]
    alpha = [alpha0]
    cross = {i0: Phi.T @ Phi[:, i0]}  # Φᵀ φ_i for retained i, shape (m,)
    counts = {"adds": 1, "deletes": 0, "reestimates": 0}
    history = []
    converged = False
    stacked = None  # Φᵀφ_i of the retained vectors as columns, in ``active``'s order
    it = 0
    for it in range(1, max_iter + 1):
        budget.spend(
            fast_iteration_flops(n, m, len(active), add=False, noise=not fixed_noise), it - 1
        )
        act = np.asarray(active)
        alpha_a = np.asarray(alpha)
        if stacked is None:  # the retained set changed (a re-estimate keeps it)
            stacked = np.column_stack([cross[i] for i in active])
        PhiTPhi_a = stacked  # (m, M)
        G = PhiTPhi_a[act]
        factor, mu = _posterior(G, PhiTt[act], alpha_a, beta)
        L, sq_err = _log_ml(factor, mu, alpha_a, beta, tt, PhiTt[act], G, n)
        history.append(L)
        # S, Q of every candidate (eq. 22-23)
        Sigma = _cho_solve(factor, np.eye(len(active)))
        S = beta * norms - beta**2 * np.einsum("mk,mk->m", PhiTPhi_a @ Sigma, PhiTPhi_a)
        Q = beta * (PhiTt - PhiTPhi_a @ mu)  # βΦᵀt − β²ΦᵀΦΣΦᵀt with μ = βΣΦᵀt
        s, q = S.copy(), Q.copy()
        a_full = np.full(m, np.inf)
        a_full[act] = alpha_a
        s[act] = alpha_a * S[act] / (alpha_a - S[act])
        q[act] = alpha_a * Q[act] / (alpha_a - S[act])
        theta = q**2 - s
        in_model = np.isfinite(a_full)

        gain = np.full(m, -np.inf)
        with np.errstate(divide="ignore", invalid="ignore"):
            # re-estimate a retained vector (θ > 0): T&F eq. (32)
            re = in_model & (theta > 0)
            a_new = s[re] ** 2 / theta[re]
            dinv = 1.0 / a_new - 1.0 / a_full[re]
            gain[re] = 0.5 * (Q[re] ** 2 / (S[re] + 1.0 / dinv) - np.log1p(S[re] * dinv))
            gain[re] = np.where(dinv == 0.0, 0.0, gain[re])
            # add a new vector (θ > 0): eq. (27)
            add = ~in_model & (theta > 0) & (norms > 0)
            gain[add] = 0.5 * ((Q[add] ** 2 - S[add]) / S[add] + np.log(S[add] / Q[add] ** 2))
            # delete a retained vector (θ ≤ 0): eq. (37)
            dele = in_model & (theta <= 0)
            if len(active) > 1:
                gain[dele] = 0.5 * (
                    Q[dele] ** 2 / (S[dele] - a_full[dele]) - np.log1p(-S[dele] / a_full[dele])
                )
        log_change = np.zeros(m)
        log_change[re] = np.abs(np.log(a_new) - np.log(a_full[re]))
        j = int(np.argmax(gain))
        # Tipping's SparseBayes rule: converged when nothing can be added or deleted and the
        # best action is a re-estimate that moves its log α by less than ``tol``.
        if (
            not add.any()
            and not (dele.any() and len(active) > 1)
            and (not re[j] or log_change[j] < tol)
        ):
            if fixed_noise:
                converged = True
                break
            gamma = 1.0 - alpha_a * np.diag(Sigma)
            beta_new = _noise_precision(n - gamma.sum(), sq_err, t)
            if abs(np.log(beta_new) - np.log(beta)) < tol:
                converged = True
                break
            beta = beta_new
            continue
        if in_model[j] and theta[j] > 0:
            alpha[active.index(j)] = s[j] ** 2 / theta[j]
            counts["reestimates"] += 1
        elif in_model[j]:
            pos = active.index(j)
            del active[pos], alpha[pos], cross[j]
            counts["deletes"] += 1
            stacked = None
        else:
            budget.spend(2.0 * n * m, it - 1)  # Φᵀφ_j of the new vector
            active.append(j)
            alpha.append(s[j] ** 2 / theta[j])
            cross[j] = Phi.T @ Phi[:, j]
            counts["adds"] += 1
            stacked = None
        if not fixed_noise:
            # eq. (18) of Tipping 2001 with the posterior of the updated model
            act = np.asarray(active)
            alpha_a = np.asarray(alpha)
            if stacked is None:
                stacked = np.column_stack([cross[i] for i in active])
            G = stacked[act]
            try:
                factor, mu = _posterior(G, PhiTt[act], alpha_a, beta)
            except LinAlgError:
                continue
            _, sq_err = _log_ml(factor, mu, alpha_a, beta, tt, PhiTt[act], G, n)
            Sd = np.diag(_cho_solve(factor, np.eye(act.size)))
            gamma = 1.0 - alpha_a * Sd
            beta = _noise_precision(n - gamma.sum(), sq_err, t)
    act = np.asarray(active)
    alpha_a = np.asarray(alpha)
    G = np.column_stack([cross[i] for i in active])[act]
    factor, mu = _posterior(G, PhiTt[act], alpha_a, beta)
    L, _ = _log_ml(factor, mu, alpha_a, beta, tt, PhiTt[act], G, n)
    order = np.argsort(act)
    return RVMResult(
        act[order],
        alpha_a[order],
        mu[order],
        float(beta),
        float(L),
        it,
        bool(converged),
        {"log_ml_history": np.asarray(history), "flops": budget.spent, **counts},
    )
