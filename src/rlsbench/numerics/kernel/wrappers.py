"""Reference wrappers of Ramona et al.'s comparison, on scikit-learn's SVMs: RFE, AROM, R2W2.

RFE and AROM use a linear kernel (as in the paper, Section V); R2W2 any scaled kernel. All use
the SVM penalty Ĉ = 1/R̄² of SVMlight (footnote 4). RFE and AROM recompute it on the current
(scaled or reduced) data inside their loops, as the paper does; R2W2 computes it once at w = 1
and holds it fixed (see ``R2W2_NOTE``).
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import RFE
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import SVC
from sklearn.utils._param_validation import Interval, StrOptions

from rlsbench.numerics.kernel.kernels import KERNELS, ScaledKernel
from rlsbench.numerics.kernel.selectors import _Ranker, bold_driver_ascent, make_kernel

R2W2_NOTE = (
    "R2W2 follows Weston et al. (2000) / Chapelle et al. (2002): gradient descent of the "
    "radius-margin bound R²W² on the scale factors, with the 2-norm soft margin (K + I/C); "
    "C = 1/R̄² is computed once at w = 1 and held fixed along the descent (so that the "
    "descent follows the gradient of the bound it evaluates); the step rule (bold driver), "
    "the stopping rule and the elimination schedule (after each descent round the weaker half "
    "of the active features, by |w_d|, is ranked last and dropped) are ours, as the papers "
    "leave them to the Spider toolbox."
)


def joachims_C(X, kernel: ScaledKernel | str = "linear", w=None) -> float:
    """SVM penalty Ĉ = 1/R̄², R̄ = mean_i ||φ(x_i) − φ(0)|| (SVMlight's default, footnote 4).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    kernel : ScaledKernel or str
    w : ndarray of shape (n_features,), optional
        Scale factors (default: all ones).

    Returns
    -------
    float
    """
    X = np.asarray(X, dtype=np.float64)
    if not isinstance(kernel, ScaledKernel):
        kernel = ScaledKernel(kernel)
    w = np.ones(X.shape[1]) if w is None else w
    k0x, k00 = kernel.value_at_origin(X, w)
    dist_sq = np.maximum(kernel.diag(X, w) - 2.0 * k0x + k00, 0.0)
    r_bar = float(np.mean(np.sqrt(dist_sq)))
    if r_bar == 0:
        raise ValueError("joachims_C: all samples map to φ(0) (R̄ = 0); C is undefined")
    return 1.0 / r_bar**2


def linear_svm_weights(X, codes, n_classes) -> np.ndarray:
    """``|w_h|`` of a linear SVM with C = 1/R̄²; C > 2 classes: one-vs-rest, root sum of squares.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    codes : ndarray of shape (n_samples,), int
    n_classes : int

    Returns
    -------
    ndarray of shape (n_features,)
    """
    svc = SVC(kernel="linear", C=joachims_C(X))
    if n_classes > 2:
        svc = OneVsRestClassifier(svc).fit(X, codes)
        coef = np.vstack([est.coef_ for est in svc.estimators_])
    else:
        coef = svc.fit(X, codes).coef_
    return np.sqrt(np.sum(coef**2, axis=0))


def arom_log_scale_factors(X, codes, counts, *, max_iter=50, tol=1e-6):
    """AROM with the L2 norm (Weston et al. 2003): ``z ← z ∘ |w_h|`` with w_h from a linear SVM
    trained on x ∘ z. Kept in log space, z rescaled to max 1 (as :func:`kfds_scale_factors`).

    Returns
    -------
    log_z : ndarray of shape (n_features,)
    n_iter : int
    """
    log_z = np.zeros(X.shape[1])
    z = np.ones(X.shape[1])
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007 (the count is returned)
        Xz = X * z
        if not np.any(Xz):
            break
        wh = linear_svm_weights(Xz, codes, counts.size)
        log_z = log_z + np.log(np.maximum(wh, np.finfo(float).tiny))
        log_z -= log_z.max()
        z_new = np.exp(log_z)
        done = np.max(np.abs(z_new - z)) < tol
        z = z_new
        if done:
            break
    return log_z, n_iter


class _RescaledSVC(SVC):
    """Linear SVC whose C is re-estimated as 1/R̄² on the data it is fitted on (RFE loop)."""

    def fit(self, X, y, sample_weight=None):
        self.C = joachims_C(X)
        return super().fit(X, y, sample_weight=sample_weight)


class SVMRFE(_Ranker):
    """Recursive feature elimination with a linear SVM (Guyon et al. 2002), sklearn's RFE.

    Features are removed ``step`` at a time by smallest squared SVM weight (summed over the
    pairwise classifiers for C > 2 classes, as sklearn does); the order is the reverse
    elimination order.

    Parameters
    ----------
    n_features_to_select : int or None
    step : int
        Features removed per round (1 = the original RFE).
    standardize : bool

    Attributes
    ----------
    scores_, order_, ranking_ : as :class:`~rlsbench.numerics.kernel.selectors.SAS`
    """

    _parameter_constraints: dict = {
        **_Ranker._parameter_constraints,
        "step": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, n_features_to_select=None, *, step=1, standardize=True):
        self.n_features_to_select = n_features_to_select
        self.step = step
        self.standardize = standardize

    def _scores(self, X, codes, counts):
        if X.shape[1] == 1:  # nothing to eliminate (sklearn's RFE refuses one feature)
            return np.ones(1)
        rfe = RFE(_RescaledSVC(kernel="linear"), n_features_to_select=1, step=self.step)
        rfe.fit(X, codes)
        # ranking_ 1 = kept last; within a removed batch sklearn keeps the within-batch order
        return -rfe.ranking_.astype(np.float64)


class AROM(_Ranker):
    """Approximation of the zero-norm minimization, L2 variant (Weston et al. 2003).

    Parameters
    ----------
    n_features_to_select : int or None
    max_iter : int
    tol : float
    standardize : bool

    Attributes
    ----------
    log_scale_factors_ : ndarray of shape (n_features,)
    scores_, order_, ranking_ : as :class:`~rlsbench.numerics.kernel.selectors.SAS`
    n_iter_ : int
    """

    _parameter_constraints: dict = {
        **_Ranker._parameter_constraints,
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, n_features_to_select=None, *, max_iter=50, tol=1e-6, standardize=True):
        self.n_features_to_select = n_features_to_select
        self.max_iter = max_iter
        self.tol = tol
        self.standardize = standardize

    def _scores(self, X, codes, counts):
        self.log_scale_factors_, self.n_iter_ = arom_log_scale_factors(
            X, codes, counts, max_iter=self.max_iter, tol=self.tol
        )
        with np.errstate(divide="ignore"):
            return self.log_scale_factors_ + np.log(self._feature_std)


def enclosing_ball(K, *, tol=1e-10, max_iter=100_000, return_n_iter=False):
    """Squared radius of the smallest sphere enclosing the points of Gram matrix K.

    Solves R² = max_β Σ_i β_i K_ii − βᵀKβ over the simplex (β ≥ 0, Σβ = 1) by Frank-Wolfe with
    away steps and exact line search (linear convergence for this problem).

    Parameters
    ----------
    K : ndarray of shape (n, n)
        Positive semi-definite.
    tol : float
        Stop when the duality gap is below ``tol`` · max(R², tiny).
    return_n_iter : bool
        Also return the number of Frank-Wolfe iterations (each costs O(n)).

    Returns
    -------
    r2 : float
    beta : ndarray of shape (n,)
    n_iter : int
        Only with ``return_n_iter``.
    """
    n = K.shape[0]
    d = np.diag(K).copy()
    beta = np.zeros(n)
    j = int(np.argmax(d))
    beta[j] = 1.0
    Kb = K[:, j].copy()
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007 (the count is returned)
        g = d - 2.0 * Kb  # gradient of the concave objective
        bKb = float(beta @ Kb)
        value = float(beta @ d) - bKb
        j = int(np.argmax(g))
        gap = float(g[j] - beta @ g)
        if gap <= tol * max(value, np.finfo(float).tiny):
            break
        support = np.flatnonzero(beta > 0)
        a = int(support[np.argmin(g[support])])
        if gap >= float(beta @ g - g[a]):  # toward vertex j
            direction_k = K[:, j] - Kb
            slope = gap
            curv = K[j, j] - 2.0 * Kb[j] + bKb
            t_max, ej, sign = 1.0, j, 1.0
        else:  # away from vertex a
            direction_k = Kb - K[:, a]
            slope = float(beta @ g - g[a])
            curv = K[a, a] - 2.0 * Kb[a] + bKb
            t_max = beta[a] / (1.0 - beta[a]) if beta[a] < 1.0 else np.inf
            ej, sign = a, -1.0
        t = t_max if curv <= 0 else min(t_max, slope / (2.0 * curv))
        if sign > 0:
            beta *= 1.0 - t
            beta[ej] += t
        else:
            beta *= 1.0 + t
            beta[ej] -= t
            beta[beta < 0] = 0.0
        Kb += t * direction_k
    beta /= beta.sum()
    Kb = K @ beta
    r2 = float(beta @ d - beta @ Kb)
    return (r2, beta, n_iter) if return_n_iter else (r2, beta)


def enclosing_ball_qp(K, *, tol=1e-10, max_iter=100):
    """Squared radius of the smallest enclosing sphere by a general dense QP solver.

    The dual QP of the smallest enclosing ball as Weston et al. (2000) and Chapelle et al.
    (2002) state it, R² = max_β Σ_i β_i K_ii − βᵀKβ subject to β ≥ 0 and Σβ = 1, solved as
    a quadratic program by CVXOPT (``cvxopt.solvers.qp``: a primal-dual interior-point method,
    the whole N × N matrix held densely, as the paper's R2W2 holds "the full expression of
    the Gram matrix", Sec. VI-A). The objective is divided by max_i K_ii so that the solver's
    absolute tolerances mean the same on every kernel. An interior method's β only approaches
    the active bounds, so its support is then solved exactly: with S = {i : β_i > 0}, the KKT
    system ``[2 K_SS, 1; 1ᵀ, 0] [β_S; λ] = [diag K_S; 1]`` (S corrected point by point where
    needed, :func:`_ball_active_set_solution`); its solution replaces the solver's when it is
    feasible (β_S ≥ 0) and optimal (K_jj − 2 (Kβ)_j ≤ λ off S, to ``tol``), so that β is the
    ball's multipliers to rounding rather than the solver's stopping point.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        Positive semi-definite.
    tol : float
        CVXOPT's absolute, relative and feasibility tolerances on the scaled problem, and the
        tolerance of the KKT check.
    max_iter : int
        CVXOPT's iteration limit (it needs 10-15 at n = 100-1000).

    Returns
    -------
    r2 : float
    beta : ndarray of shape (n,)
        The Lagrange multipliers of the ball (its centre is Σ_i β_i φ(x_i)); they give the
        radius's gradient in :func:`radius_margin_value_grad`.

    Warns
    -----
    ConvergenceWarning
        When CVXOPT stops without an optimal status and its support is not the optimum either.
    """
    from cvxopt import matrix, solvers, spmatrix

    K = np.asarray(K, dtype=np.float64)
    n = K.shape[0]
    scale = max(float(np.max(np.diag(K))), np.finfo(float).tiny)
    Ks = K / scale
    d = np.diag(Ks).copy()
    sol = solvers.qp(
        matrix(2.0 * Ks),
        matrix(-d),
        spmatrix(-1.0, range(n), range(n)),  # -β ≤ 0
        matrix(0.0, (n, 1)),
        matrix(1.0, (1, n)),  # Σβ = 1
        matrix(1.0),
        options={
            "show_progress": False,
            "abstol": tol,
            "reltol": tol,
            "feastol": tol,
            "maxiters": int(max_iter),
        },
    )
    beta = np.maximum(np.asarray(sol["x"], dtype=np.float64).ravel(), 0.0)
    beta /= beta.sum()
    polished = _ball_active_set_solution(Ks, d, beta > 1e-6 * beta.max(), tol)
    if polished is not None:
        beta = polished
    elif sol["status"] != "optimal":
        warnings.warn(
            f"enclosing_ball_qp: CVXOPT stopped with status {sol['status']!r} after "
            f"{sol['iterations']} iterations (max_iter={max_iter})",
            ConvergenceWarning,
            stacklevel=2,
        )
    r2 = float(beta @ d - beta @ Ks @ beta) * scale
    return r2, beta


def _ball_active_set_solution(K, d, support, tol, max_rounds=20):
    """β of the enclosing ball from the KKT equalities on a support set, or None.

    Starting from ``support`` (the QP solver's), a point whose weight comes out negative leaves the
    set and the point farthest outside the ball joins it, until β is feasible and optimal
    (at most ``max_rounds`` times; None if it is not reached).
    """
    support = np.asarray(support, dtype=bool).copy()
    for _ in range(max_rounds):
        S = np.flatnonzero(support)
        if S.size == 0:
            return None
        m = S.size
        A = np.zeros((m + 1, m + 1))
        A[:m, :m] = 2.0 * K[np.ix_(S, S)]
        A[:m, m] = A[m, :m] = 1.0
        try:
            sol = np.linalg.solve(A, np.r_[d[S], 1.0])
        except np.linalg.LinAlgError:
            return None
        if not np.all(np.isfinite(sol)):
            return None
        beta_s, lam = sol[:m], sol[m]
        if beta_s.min() < 0.0:
            support[S[beta_s < 0.0]] = False
            continue
        beta = np.zeros(K.shape[0])
        beta[S] = beta_s
        g = d - 2.0 * (K @ beta)  # the objective's gradient: λ on the support, ≤ λ off it
        g[S] = -np.inf
        j = int(np.argmax(g))
        if g[j] <= lam + tol * max(abs(lam), 1.0):
            return beta
        support[j] = True
    return None


#: The solvers of the radius R² of R2W2 (``R2W2(radius=...)``), by option name.
RADIUS_SOLVERS = {"frank_wolfe": enclosing_ball, "qp": enclosing_ball_qp}


def radius_margin_value_grad(
    X, codes, counts, w, kernel: ScaledKernel, C: float, *, radius: str = "frank_wolfe"
):
    """R²W² and its gradient in the scale factors (Chapelle et al. 2002, Weston et al. 2000).

    2-norm soft margin: a hard-margin SVM on K̃ = K_w + I/C, C given (held fixed so that the
    gradient is that of the bound being evaluated). With α the SVM dual solution and β the
    enclosing-ball weights,
    ∂W²/∂w_d = −Σ α_i α_j y_i y_j ∂_d K_ij and ∂R²/∂w_d = Σ β_i ∂_d K_ii − Σ β_i β_j ∂_d K_ij
    (the I/C term does not depend on w). C > 2 classes: W² summed over one-vs-rest problems
    (our extension). ``radius`` names the solver of R² and β (:data:`RADIUS_SOLVERS`:
    "frank_wolfe", :func:`enclosing_ball`; "qp", :func:`enclosing_ball_qp`, the paper's
    dense quadratic program); both return the ball's multipliers β, so the gradient's formula
    is the same.

    Returns
    -------
    value : float
        R²W² (to be minimised).
    grad : ndarray of shape (n_features,)
    """
    K = kernel.gram(X, X, w)
    K_soft = K + np.eye(K.shape[0]) / C
    r2, beta = RADIUS_SOLVERS[radius](K_soft)
    problems = [codes == 1] if counts.size == 2 else [codes == c for c in range(counts.size)]
    w2, M = 0.0, np.zeros_like(K)
    for pos in problems:
        y = np.where(pos, 1.0, -1.0)
        svc = SVC(kernel="precomputed", C=1e8, tol=1e-10).fit(K_soft, y)
        ay = np.zeros(K.shape[0])
        ay[svc.support_] = svc.dual_coef_[0]  # α_i y_i
        w2 += float(ay @ K_soft @ ay)
        M -= np.outer(ay, ay)
    d_w2 = kernel.grad_contract(X, X, w, M, K=K)
    d_r2 = kernel.grad_contract(X, X, w, np.diag(beta) - np.outer(beta, beta), K=K)
    return r2 * w2, r2 * d_w2 + w2 * d_r2


class R2W2(_Ranker):
    """Radius-margin feature scaling (Weston et al. 2000), ranked by the final ``|w_d|``.

    Gradient descent of R²W² (:func:`radius_margin_value_grad`) on the scale factors of a
    scaled kernel, from w = 1; see ``R2W2_NOTE`` for what is ours.

    Parameters
    ----------
    n_features_to_select : int or None
    kernel : {"linear", "rbf", "poly"}
    sigma, degree, coef : as :class:`~rlsbench.numerics.kernel.selectors.SAS`
    max_iter, tol, step : descent controls
        (:func:`~rlsbench.numerics.kernel.selectors.bold_driver_ascent`)
    elimination : float
        Fraction of the active features dropped after each descent round.
    radius : {"frank_wolfe", "qp"}
        Solver of the radius R² and its multipliers β (:data:`RADIUS_SOLVERS`): Frank-Wolfe
        with away steps (:func:`enclosing_ball`, O(N) per iteration) or the paper's dense
        quadratic program (:func:`enclosing_ball_qp`, CVXOPT). Both solve the same
        problem; they differ in cost and in the rounding of β.
    standardize : bool

    Attributes
    ----------
    scale_factors_ : ndarray of shape (n_features,)
    history_ : ndarray
        R²W² after every accepted step.
    scores_, order_, ranking_ : as :class:`~rlsbench.numerics.kernel.selectors.SAS`
    """

    _parameter_constraints: dict = {
        **_Ranker._parameter_constraints,
        "kernel": [StrOptions(set(KERNELS))],
        "sigma": [StrOptions({"scale"}), Interval(Real, 0, None, closed="neither")],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "coef": [StrOptions({"scale"}), Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "step": [Interval(Real, 0, None, closed="neither")],
        "elimination": [Interval(Real, 0, 1, closed="right")],
        "radius": [StrOptions(set(RADIUS_SOLVERS))],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        kernel="rbf",
        sigma="scale",
        degree=3,
        coef="scale",
        max_iter=20,
        tol=1e-4,
        step=0.1,
        elimination=0.5,
        radius="frank_wolfe",
        standardize=True,
    ):
        self.n_features_to_select = n_features_to_select
        self.elimination = elimination
        self.radius = radius
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef = coef
        self.max_iter = max_iter
        self.tol = tol
        self.step = step
        self.standardize = standardize

    def _scores(self, X, codes, counts):
        kernel = make_kernel(self.kernel, X, self.sigma, self.degree, self.coef)
        # C = 1/R̄² at the start (footnote 4), then held fixed along the descent
        C = joachims_C(X, kernel)
        self.C_ = C
        D = X.shape[1]
        active = np.arange(D)
        scores = np.zeros(D)
        w_all = np.ones(D)
        histories = []
        rank_base = 0.0
        # backward elimination in rounds: descend on the active features, then move the
        # weaker part (by |w_d|) behind the rest, in their order; scores rise with survival
        while active.size:
            Xa = X[:, active]

            def neg_bound(w, Xa=Xa):
                value, grad = radius_margin_value_grad(
                    Xa, codes, counts, w, kernel, C, radius=self.radius
                )
                return -value, -grad

            w, hist = bold_driver_ascent(
                neg_bound, w_all[active], max_iter=self.max_iter, tol=self.tol, step=self.step
            )
            histories.append(-hist)
            w_all[active] = w
            n_drop = (
                active.size if active.size <= 2 else int(np.ceil(active.size * self.elimination))
            )
            drop = np.argsort(np.abs(w) * self._feature_std[active], kind="stable")[:n_drop]
            # within a dropped batch: larger |w| ranks higher
            scores[active[drop]] = rank_base + np.arange(1, n_drop + 1) / (n_drop + 1)
            rank_base += 1.0
            active = np.delete(active, drop)
        self.scale_factors_ = w_all
        self.history_ = np.concatenate(histories)
        self.n_iter_ = self.history_.size
        return scores


__all__ = [
    "AROM",
    "R2W2",
    "SVMRFE",
    "R2W2_NOTE",
    "RADIUS_SOLVERS",
    "enclosing_ball",
    "enclosing_ball_qp",
    "joachims_C",
    "linear_svm_weights",
    "radius_margin_value_grad",
]
