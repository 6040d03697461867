"""Ramona et al.'s SVM-RFE, AROM and SAS at the scale of the wide reference benchmark (issue
41, item 2): ``svm_rfe_fraction``, ``arom_l2svm`` and ``sas_primal``.

``svm_rfe``, ``arom`` and ``sas`` (:mod:`rlsbench.benchmark.methods.ramona`, kept as they are:
Ramona et al.'s tables are built from them) train libsvm's SMO on the m × m Gram matrix, or
ascend the alignment over m × m Gram blocks, at every step: minutes a fold on adult (29305 ×
123), ijcnn1 (127522 × 22), mnist5 (63000 × 780), usps and the text sets (~1500 × 4000). The
variants here compute the same kind of ranking with algorithms whose cost grows with the
smaller of the two dimensions.

``sas_primal``
    SAS with the linear kernel (Ramona et al. 2012, Algorithm 1): the same bold-driver ascent
    of the same alignment A(K_w, K*) from the same start, but the alignment and its gradient
    (eq. 3, 9) are computed from n × n feature-space sums where that is cheaper. With
    K_w = X W² Xᵀ and the class sums S = Eᵀ X (E the class indicators),
    ⟨K_w, K*⟩_F = Σ_d w_d² s_dᵀ T s_d and ||K_w||_F² = Σ_{d,l} w_d² w_l² (x_dᵀ x_l)²: after one
    product H = (XᵀX)∘(XᵀX) (m n² operations) each step costs one n × n matrix-vector product
    instead of the m² n of the Gram matrix. Where n is large against m the sums are taken in
    sample space as the original does (one m × m Gram matrix a step,
    :func:`feature_space_is_cheaper`). Scores equal ``sas``'s up to round-off.

``svm_rfe_fraction``
    Guyon et al. (2002)'s SVM-RFE eliminating chunks as they did on their gene sets: half of
    the survivors per round (:data:`STEP_FRACTION`, the schedule of ``rfe_fraction``,
    :func:`.rfe_fraction.elimination_sizes`) down to ``k``, then one at a time, so that the
    first ``k`` are ordered by single eliminations as in ``svm_rfe``. Within a round, the
    eliminated features are ordered by decreasing weight. A feature's weight is its squared
    SVM weight, summed over the one-vs-rest problems of several classes (liblinear's scheme;
    ``svm_rfe`` sums over libsvm's one-vs-one pairs: t (t − 1) / 2 problems a round, 325 on
    letter's 26 classes). ``rfe_fraction``'s tenth per round was measured too: 8.5 to 11 CPU s
    a fold on BASEHOCK, PCMAC and usps (one thread), against 3.4 and 4.9 s for BASEHOCK and
    usps by halves (``MEASURED_S``).

``arom_l2svm``
    Weston et al. (2003)'s AROM with the L2 norm, as ``arom``: ``z ← z ∘ |w|`` with w a linear
    SVM trained on x ∘ z (one-vs-rest, root sum of squares over the classes), kept in log
    space, up to 50 iterations, stopping when no z changes by 10⁻⁶. Features whose scale factor has
    fallen below :data:`DEAD_SCALE` (their share of the kernel is below 10⁻¹⁶, under float64's
    round-off) are left out of the SVM's fit; their weight is still computed from the SVM's
    dual coefficients (w = X̃ᵀ α), so they keep being ranked as in ``arom``.

The SVM (both wrappers). The original uses libsvm's hinge-loss SVM (SMO on the m × m kernel,
C = 1/R̄², SVMlight's default). Here: the L2-loss (squared hinge) linear SVM with the same
C = 1/R̄² and liblinear's regularised intercept (a constant column of 1),
``min ½||w||² + C Σ_i max(0, 1 − y_i x̃_iᵀ w)²``, the problem liblinear's primal solver
(``LinearSVC(dual=False)``, TRON) solves, solved by the finite Newton method of Keerthi and
DeCoste (2005) (:func:`l2svm_dual_coef`): each step solves the least-squares system of the
examples inside the margin exactly, in the primal (p × p) where there are fewer features than
examples, in the dual (m × m, Woodbury) otherwise, then an exact line search. The L2 loss is
what makes that Newton step exact and cheap; it is the loss Fan et al. (2008) recommend and
``LinearSVC``'s default. Measured on one thread: liblinear's TRON takes 1.9 s on adult's
training split and 56 s on mnist5's (86 Newton iterations of conjugate gradients on
ill-conditioned data), its dual coordinate descent 16 s and 49 s, for one SVM. The dense
Newton method forms X̃ᵀX̃ (or X̃X̃ᵀ) once, shares it between the one-vs-rest problems and
indexes (or downdates) it as features go, starts each problem from the previous round's or
iteration's solution, and needs a few iterations. The solver is written here (about 80 lines)
because no maintained library offers it: liblinear's solvers are the slow ones above.
``tests/benchmark/methods/test_ramona_scalable.py`` checks it against
``LinearSVC`` at a tight tolerance.

References
----------
I. Guyon, J. Weston, S. Barnhill and V. Vapnik. Gene selection for cancer classification using
support vector machines. Machine Learning 46:389–422, 2002.
J. Weston, A. Elisseeff, B. Schölkopf and M. Tipping. Use of the zero-norm with linear models
and kernel methods. JMLR 3:1439–1461, 2003.
H. Ramona, G. Richard and B. David. Multiclass feature selection with kernel Gram-matrix-based
criteria. IEEE TNNLS 23(10):1611–1623, 2012.
S. S. Keerthi and D. DeCoste. A modified finite Newton method for fast solution of large scale
linear SVMs. JMLR 6:341–361, 2005.
R.-E. Fan, K.-W. Chang, C.-J. Hsieh, X.-R. Wang and C.-J. Lin. LIBLINEAR: a library for large
linear classification. JMLR 9:1871–1874, 2008.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.linalg
from sklearn.utils._param_validation import Interval
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.methods import Method, check_k
from rlsbench.benchmark.methods.ramona import constant_last
from rlsbench.benchmark.methods.ranking import protocol_flops
from rlsbench.benchmark.methods.rfe_fraction import elimination_sizes
from rlsbench.numerics.kernel.alignment import (
    alignment_from_sums,
    target_class_matrix,
    target_norm_sq,
)
from rlsbench.numerics.kernel.selectors import SAS, bold_driver_ascent
from rlsbench.numerics.kernel.wrappers import AROM, SVMRFE, joachims_C

#: Fraction of the surviving features ``svm_rfe_fraction`` drops per round while more than k
#: survive: half, as Guyon et al. (2002) on their gene sets.
STEP_FRACTION = 0.5

#: Scale factor (relative to the largest, 1) below which ``arom_l2svm`` leaves a feature out of
#: the SVM's fit: its share of the kernel, z², is below float64's round-off.
DEAD_SCALE = 1e-8


# -- the L2-loss linear SVM by the finite Newton method ----------------------------------------
def _line_search(wd, dd, u, du, C):
    """Exact minimiser t ≥ 0 of φ(t) = ½||w + t d||² + C Σ max(0, 1 − u_i − t du_i)².

    φ is convex and piecewise quadratic: φ'(t) = wd + t dd − 2C Σ du_i max(0, 1 − u_i − t du_i)
    is increasing and linear between the breakpoints (1 − u_i) / du_i, which are swept in
    order (Keerthi and DeCoste 2005, Section 3).
    """
    r = 1.0 - u
    act = (r > 0) | ((r == 0) & (du < 0))  # the terms inside the margin just after t = 0
    a0 = wd - 2.0 * C * float(du[act] @ r[act])
    a1 = dd + 2.0 * C * float(du[act] @ du[act])
    moving = du != 0
    with np.errstate(divide="ignore", invalid="ignore"):
        bp = np.where(moving, r / np.where(moving, du, 1.0), -1.0)
    toggles = np.flatnonzero(bp > 0)
    toggles = toggles[np.argsort(bp[toggles], kind="stable")]
    # a term inside the margin leaves it at its breakpoint (du > 0), one outside enters (du < 0)
    sign = np.where(du[toggles] > 0, 1.0, -1.0)
    A0 = a0 + np.cumsum(sign * 2.0 * C * du[toggles] * r[toggles])
    A1 = a1 - np.cumsum(sign * 2.0 * C * du[toggles] ** 2)
    A0 = np.concatenate([[a0], A0])
    A1 = np.concatenate([[a1], A1])
    slope_at = A0[:-1] + A1[:-1] * bp[toggles]
    piece = int(np.searchsorted(slope_at >= 0, True)) if toggles.size else 0
    return max(float(-A0[piece] / A1[piece]), 0.0) if A1[piece] > 0 else 0.0


def l2svm_dual_coef(X, y, C, *, gram=None, kernel=None, alpha0=None, max_iter=50):
    """Dual coefficients of the L2-loss linear SVM with a regularised intercept (liblinear's
    ``LinearSVC(loss="squared_hinge")`` problem), by the finite Newton method.

    Minimises ``½||w||² + C Σ_i max(0, 1 − y_i x̃_iᵀ w)²`` over w ∈ R^(p+1), x̃_i = (x_i, 1).
    Each iteration solves the least-squares problem of the examples inside the margin (the
    active set A) exactly, ``(I + 2C X̃_Aᵀ X̃_A) w = 2C X̃_Aᵀ y_A``, in the primal when
    p + 1 ≤ m (the Hessian from ``gram`` minus the inactive examples' product where they are
    fewer), in the dual otherwise (``w = 2C X̃_Aᵀ (I + 2C K_AA)⁻¹ y_A``, K = X̃ X̃ᵀ), and moves
    to the minimiser along that direction (exact line search); it stops when the active set
    at the Newton point is the one it was computed from (Keerthi and DeCoste 2005: that point
    is then the exact minimiser).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        ±1.
    C : float
    gram : ndarray of shape (n_features + 1, n_features + 1), optional
        X̃ᵀ X̃ (primal form), when the caller shares it between problems.
    kernel : ndarray of shape (n_samples, n_samples), optional
        X̃ X̃ᵀ (dual form), likewise.
    alpha0 : ndarray of shape (n_samples,), optional
        Starting point w = X̃ᵀ α0 (a previous problem's result); w = 0 by default.
    max_iter : int

    Returns
    -------
    alpha : ndarray of shape (n_samples,)
        ``2C y_i max(0, 1 − y_i x̃_iᵀ w)``: w = X̃ᵀ α (stationarity), the intercept Σ α_i.
    """
    Xt = np.hstack([X, np.ones((X.shape[0], 1))])
    return _l2svm(Xt, y, C, gram, kernel, alpha0, max_iter)


def _l2svm(Xt, y, C, gram=None, kernel=None, alpha0=None, max_iter=50):
    """:func:`l2svm_dual_coef` on X̃ (the constant column appended by the caller)."""
    if Xt.shape[1] <= Xt.shape[0]:
        return _l2svm_primal(Xt, y, C, gram, alpha0, max_iter)
    return _l2svm_dual(Xt, y, C, kernel, alpha0, max_iter)


def _l2svm_primal(Xt, y, C, gram, alpha0, max_iter):
    m, p1 = Xt.shape
    w = np.zeros(p1) if alpha0 is None else Xt.T @ alpha0
    u = y * (Xt @ w)
    for _ in range(max_iter):
        act = u < 1
        n_act = int(act.sum())
        if n_act == 0:
            break
        if n_act < p1:
            # fewer examples inside the margin than features: the same Newton point through
            # the m_A x m_A system, (I + 2C X̃_AᵀX̃_A)⁻¹ X̃_Aᵀ = X̃_Aᵀ (I + 2C X̃_AX̃_Aᵀ)⁻¹
            Xa = Xt[act]
            Kaa = 2.0 * C * (Xa @ Xa.T)
            Kaa[np.diag_indices(n_act)] += 1.0
            beta = scipy.linalg.solve(Kaa, y[act], assume_a="pos")
            d = 2.0 * C * (Xa.T @ beta) - w
        else:
            if gram is not None and n_act > m - n_act:
                Xi = Xt[~act]
                H = gram - Xi.T @ Xi
            else:
                Xa = Xt[act]
                H = Xa.T @ Xa
            H *= 2.0 * C
            H[np.diag_indices(p1)] += 1.0
            rhs = 2.0 * C * (y[act] @ Xt[act])
            d = scipy.linalg.solve(H, rhs, assume_a="pos") - w
        du = y * (Xt @ d)
        if np.array_equal(u + du < 1, act):  # the Newton point minimises this piece: optimum
            w += d
            u += du
            break
        t = _line_search(float(w @ d), float(d @ d), u, du, C)
        w += t * d
        u += t * du
    return 2.0 * C * y * np.maximum(1.0 - u, 0.0)


def _l2svm_dual(Xt, y, C, kernel, alpha0, max_iter):
    # w = X̃ᵀ γ throughout: ||w||² = γᵀ K γ, X̃ w = K γ with K = X̃ X̃ᵀ
    m = Xt.shape[0]
    K = Xt @ Xt.T if kernel is None else kernel
    gamma = np.zeros(m) if alpha0 is None else np.asarray(alpha0, dtype=np.float64).copy()
    f = K @ gamma
    for _ in range(max_iter):
        u = y * f
        act = u < 1
        if not act.any():
            break
        Kaa = 2.0 * C * K[np.ix_(act, act)]
        Kaa[np.diag_indices(Kaa.shape[0])] += 1.0
        gamma_new = np.zeros(m)
        gamma_new[act] = 2.0 * C * scipy.linalg.solve(Kaa, y[act], assume_a="pos")
        dg = gamma_new - gamma
        df = K[:, act] @ gamma_new[act] - f
        du = y * df
        if np.array_equal(u + du < 1, act):
            f = f + df
            break
        t = _line_search(float(gamma @ df), float(dg @ df), u, du, C)
        gamma += t * dg
        f += t * df
    return 2.0 * C * y * np.maximum(1.0 - y * f, 0.0)


def _one_vs_rest(codes, n_classes):
    """±1 targets: class 1 against class 0 for two classes, else each class against the rest
    (liblinear's multiclass scheme)."""
    if n_classes == 2:
        return [np.where(codes == 1, 1.0, -1.0)]
    return [np.where(codes == c, 1.0, -1.0) for c in range(n_classes)]


def svm_rfe_fraction_order(X, codes, n_classes, k, fraction=STEP_FRACTION):
    """Features in reverse order of elimination (the module docstring).

    A feature's weight is its squared L2-SVM weight summed over the one-vs-rest problems
    (C = 1/R̄² of the surviving features, ``svm_rfe``'s rule). Each round's problems start from
    the previous round's solutions; X̃ᵀX̃ (primal form) is formed once and indexed, X̃X̃ᵀ (dual
    form) is downdated by the eliminated columns.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    codes : ndarray of shape (n_samples,), int
        Class index of every sample.
    n_classes : int
    k : int
        Below k survivors, one feature is dropped per round.
    fraction : float
        Fraction of the survivors dropped per round above k.

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    m, n = X.shape
    targets = _one_vs_rest(codes, n_classes)
    Xt = np.hstack([X, np.ones((m, 1))])
    gram = kernel = None  # X̃ᵀX̃ or X̃X̃ᵀ of the survivors
    surviving = np.arange(n)
    dropped = []
    alphas = [None] * len(targets)
    sizes = elimination_sizes(n, k, fraction)
    for s, after in zip(sizes, [*sizes[1:], 1], strict=False):
        Xst = Xt[:, np.append(surviving, n)]
        Xs = Xst[:, :s]
        weight = np.zeros(s)
        if s + 1 <= m and gram is None:
            gram = Xst.T @ Xst
        elif s + 1 > m and kernel is None:
            kernel = Xst @ Xst.T
        if np.any(Xs):
            C = joachims_C(Xs)
            for c, yc in enumerate(targets):
                alphas[c] = _l2svm(Xst, yc, C, gram, kernel, alphas[c])
            weight = np.sum((Xs.T @ np.column_stack(alphas)) ** 2, axis=1)
        worst = np.argsort(weight, kind="stable")[: s - after]
        keep = np.ones(s + 1, dtype=bool)
        keep[worst] = False
        if gram is not None:
            gram = gram[np.ix_(keep, keep)]
        if kernel is not None:
            if after + 1 <= m:
                kernel = None
            else:
                kernel = kernel - Xs[:, worst] @ Xs[:, worst].T
        dropped.append(surviving[worst])
        surviving = surviving[keep[:s]]
    return np.concatenate([surviving, *(batch[::-1] for batch in reversed(dropped))])


def arom_l2svm_log_scale_factors(X, codes, n_classes, *, max_iter=50, tol=1e-6):
    """AROM's scale factors (the module docstring), in log space, max 0.

    Returns
    -------
    log_z : ndarray of shape (n_features,)
    n_iter : int
    """
    m, n = X.shape
    log_z = np.zeros(n)
    z = np.ones(n)
    targets = _one_vs_rest(codes, n_classes)
    # X̃ᵀX̃ once: the rescaled problem's is Z̃ (X̃ᵀX̃) Z̃ on the live features
    gram = None
    if n + 1 <= m:
        Xt = np.hstack([X, np.ones((m, 1))])
        gram = Xt.T @ Xt
    alphas = {}  # each problem starts from the last iteration's solution
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007 (the count is returned)
        live = z >= DEAD_SCALE
        Xz = X[:, live] * z[live]
        if not np.any(Xz):
            break
        C = joachims_C(Xz)
        live_gram = kernel = None
        if Xz.shape[1] + 1 <= m:
            if gram is not None:
                zt = np.append(z[live], 1.0)
                idx = np.append(np.flatnonzero(live), n)
                live_gram = gram[np.ix_(idx, idx)] * np.outer(zt, zt)
        else:
            kernel = Xz @ Xz.T + 1.0  # X̃_z X̃_zᵀ, shared by the classes
        wh_sq = np.zeros(n)
        Xzt = np.hstack([Xz, np.ones((m, 1))])
        for c, yc in enumerate(targets):
            alpha = _l2svm(Xzt, yc, C, live_gram, kernel, alphas.get(c))
            alphas[c] = alpha
            wh_sq += (z * (X.T @ alpha)) ** 2
        log_z = log_z + np.log(np.maximum(np.sqrt(wh_sq), np.finfo(float).tiny))
        log_z -= log_z.max()
        z_new = np.exp(log_z)
        done = np.max(np.abs(z_new - z)) < tol
        z = z_new
        if done:
            break
    return log_z, n_iter


# -- SAS: the alignment in feature space ---------------------------------------------------
#: How much faster than the protocol's nominal 2 GFLOP/s dense matrix products (OpenBLAS
#: dgemm, one thread) run, as in :mod:`.rfe_fraction`.
GEMM_SPEEDUP = 10.0


def feature_space_is_cheaper(m, n, max_iter=100):
    """Whether ``sas_primal`` sums the alignment in feature space: XᵀX once (m n² at dgemm
    speed) and an n × n matrix-vector product a step (memory-bound: 2 n² at the nominal
    rate), against the sample space's Gram matrix and K X a step (3 m² n at dgemm speed)."""
    feature = 2.0 * m * n * n / GEMM_SPEEDUP + max_iter * 2.0 * n * n
    sample = max_iter * 6.0 * m * m * n / GEMM_SPEEDUP
    return feature < sample


def alignment_value_grad(X, codes, counts, target="plain", *, feature_space=None):
    """``w -> (A(K_w, K*), ∂A/∂w)`` for the linear scaled kernel K_w = X W² Xᵀ (eq. 3, 9).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    codes, counts : class codes and counts
    target : {"plain", "balanced"}
    feature_space : bool or None
        Sum in feature space (n × n) or sample space (m × m); None:
        :func:`feature_space_is_cheaper`.

    Returns
    -------
    callable
    """
    m, n = X.shape
    Tc = target_class_matrix(counts, target)
    tt = target_norm_sq(counts, Tc)
    class_sums = (codes == np.arange(counts.size)[:, None]).astype(np.float64) @ X
    # ⟨K_w, K*⟩ = Σ_d w_d² s_dᵀ T s_d: the target is class-structured
    q = np.einsum("cd,ce,ed->d", class_sums, Tc, class_sums)
    if feature_space is None:
        feature_space = feature_space_is_cheaper(m, n)
    H = None
    if feature_space:
        H = X.T @ X
        H *= H

    def value_grad(w):
        v = w * w
        kt = float(v @ q)
        if H is not None:
            Hv = H @ v
            kk = float(v @ Hv)
            d_kk = 2.0 * w * Hv
        else:
            Z = X * w
            K = Z @ Z.T
            kk = float(np.vdot(K, K))
            d_kk = 2.0 * w * np.einsum("id,id->d", X, K @ X)
        return alignment_from_sums(kt, kk, tt, 2.0 * w * q, d_kk)

    return value_grad


# -- sklearn-style rankers (private: the method plugins below are their interface) ------------
class _SASPrimal(SAS):
    """SAS with the linear kernel, the alignment summed in feature space where cheaper.

    Parameters
    ----------
    n_features_to_select : int or None
    target : {"plain", "balanced"}
    max_iter, tol, step : ascent controls, as :class:`SAS`.
    standardize : bool
    feature_space : bool or None
        None: :func:`feature_space_is_cheaper`.

    Attributes
    ----------
    scale_factors_, scores_, order_, ranking_, history_, n_iter_ : as :class:`SAS`.
    """

    _parameter_constraints: dict = {
        **{
            key: value
            for key, value in SAS._parameter_constraints.items()
            if key not in ("kernel", "sigma", "degree", "coef", "block_size")
        },
        "feature_space": ["boolean", None],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        target="plain",
        max_iter=100,
        tol=1e-5,
        step=0.1,
        standardize=True,
        feature_space=None,
    ):
        self.n_features_to_select = n_features_to_select
        self.target = target
        self.max_iter = max_iter
        self.tol = tol
        self.step = step
        self.standardize = standardize
        self.feature_space = feature_space

    def _scores(self, X, codes, counts):
        value_grad = alignment_value_grad(
            X,
            codes,
            counts,
            self.target,
            feature_space=(
                feature_space_is_cheaper(*X.shape, self.max_iter)
                if self.feature_space is None
                else self.feature_space
            ),
        )
        w, self.history_ = bold_driver_ascent(
            value_grad, np.ones(X.shape[1]), max_iter=self.max_iter, tol=self.tol, step=self.step
        )
        self.scale_factors_ = w
        self.n_iter_ = self.history_.size
        return np.abs(w) * self._feature_std


class _SVMRFEFraction(SVMRFE):
    """SVM-RFE dropping a fraction of the survivors per round down to ``k``, then one at a
    time, on the L2-loss linear SVM (:func:`svm_rfe_fraction_order`).

    Parameters
    ----------
    n_features_to_select : int or None
    k : int
        Survivors below which one feature is dropped per round.
    fraction : float
    standardize : bool

    Attributes
    ----------
    scores_, order_, ranking_ : as :class:`SVMRFE`.
    """

    _parameter_constraints: dict = {
        **{k: v for k, v in SVMRFE._parameter_constraints.items() if k != "step"},
        "k": [Interval(Integral, 1, None, closed="left")],
        "fraction": [Interval(Real, 0, 1, closed="neither")],
    }

    def __init__(self, n_features_to_select=None, *, k=1, fraction=STEP_FRACTION, standardize=True):
        self.n_features_to_select = n_features_to_select
        self.k = k
        self.fraction = fraction
        self.standardize = standardize

    def _scores(self, X, codes, counts):
        order = svm_rfe_fraction_order(X, codes, counts.size, self.k, self.fraction)
        scores = np.empty(X.shape[1])
        scores[order] = -np.arange(order.size, dtype=np.float64)
        return scores


class _AROML2SVM(AROM):
    """AROM (L2) on the L2-loss linear SVM (:func:`arom_l2svm_log_scale_factors`).

    Parameters and attributes as :class:`AROM`.
    """

    def _scores(self, X, codes, counts):
        self.log_scale_factors_, self.n_iter_ = arom_l2svm_log_scale_factors(
            X, codes, counts.size, max_iter=self.max_iter, tol=self.tol
        )
        with np.errstate(divide="ignore"):
            return self.log_scale_factors_ + np.log(self._feature_std)


# -- the methods ----------------------------------------------------------------------------
def _runner(name, make_ranker):
    def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
        from rlsbench.numerics.selection import ridge_path

        X = np.asarray(X, dtype=np.float64)
        check_k(name, k, X.shape[1])
        with threadpool_limits(limits=max(int(n_jobs or 1), 1)):
            ranker = make_ranker(k).fit(X, y)
        order = constant_last(X, ranker.order_)
        path = ridge_path(X, y, order[:k], alpha, bias=bias, criterion=criterion)
        path.info.update({"ranker": type(ranker).__name__, "order": order.tolist()})
        return path

    return run


def _sas_ranker(k):
    return _SASPrimal()


def _svm_rfe_ranker(k):
    return _SVMRFEFraction(k=k)


def _arom_ranker(k):
    return _AROML2SVM()


#: CPU seconds of one run, measured on one thread (the protocol's 10-fold training split of each
#: set, standardised, k = 50 or all features; the machine shared with other jobs, load 9-12):
#: (data, m, n, k, t, seconds). ``tests/benchmark/methods/test_cost_models.py`` holds each
#: estimate within a factor 3. Not within 3, and left out: sas_primal on adult, 0.26 to 0.87 s
#: against 0.20 s estimated (0.6 s of it the protocol's RLS path along 50 features of 29304
#: rows, which ``protocol_flops`` counts as 0.15 s); arom_l2svm on adult, 5.1 s against 1.3 s
#: (AROM's iterations depend on the data: one-hot columns that take all 50 iterations).
MEASURED_S = {
    "sas_primal": (
        ("sonar", 187, 60, 50, 1, 0.0162),
        ("digits", 1617, 64, 50, 10, 0.0361),
        ("spambase", 4140, 57, 50, 1, 0.0232),
        ("ijcnn1", 127521, 22, 22, 1, 0.222),
        ("usps", 8368, 256, 50, 10, 0.216),
        ("BASEHOCK", 1793, 4862, 50, 1, 2.68),
        ("RELATHE", 1284, 4322, 50, 1, 2.14),
        ("arcene", 180, 10000, 50, 1, 2.87),
        ("nci9", 54, 9712, 50, 9, 0.392),
        ("TOX_171", 153, 5748, 50, 4, 1.55),
        ("GLIOMA", 45, 4434, 50, 4, 0.149),
        ("Isolet", 1404, 617, 50, 26, 0.0873),
        ("madelon", 2340, 500, 50, 1, 0.0737),
        ("pmlb-letter", 18000, 16, 16, 26, 0.136),
        ("mnist5", 63000, 780, 50, 1, 4.95),
    ),
    "svm_rfe_fraction": (
        ("sonar", 187, 60, 50, 1, 0.0854),
        ("digits", 1617, 64, 50, 10, 1.2),
        ("spambase", 4140, 57, 50, 1, 0.228),
        ("ijcnn1", 127521, 22, 22, 1, 2.67),
        ("usps", 8368, 256, 50, 10, 4.9),
        ("BASEHOCK", 1793, 4862, 50, 1, 3.43),
        ("RELATHE", 1284, 4322, 50, 1, 1.55),
        ("PCMAC", 1748, 3289, 50, 1, 2.41),
        ("arcene", 180, 10000, 50, 1, 0.204),
        ("nci9", 54, 9712, 50, 9, 0.37),
        ("TOX_171", 153, 5748, 50, 4, 0.271),
        ("GLIOMA", 45, 4434, 50, 4, 0.143),
        ("Isolet", 1404, 617, 50, 26, 5.07),
        ("madelon", 2340, 500, 50, 1, 0.203),
        ("pmlb-letter", 18000, 16, 16, 26, 3.96),
        ("pmlb-satimage", 5791, 36, 36, 6, 0.844),
        ("mnist5", 63000, 780, 50, 1, 17.8),
        ("adult", 29304, 123, 50, 1, 2.69),
    ),
    "arom_l2svm": (
        ("sonar", 187, 60, 50, 1, 0.0721),
        ("digits", 1617, 64, 50, 10, 0.809),
        ("spambase", 4140, 57, 50, 1, 0.173),
        ("ijcnn1", 127521, 22, 22, 1, 2.2),
        ("BASEHOCK", 1793, 4862, 50, 1, 5.88),
        ("RELATHE", 1284, 4322, 50, 1, 3.14),
        ("arcene", 180, 10000, 50, 1, 0.382),
        ("nci9", 54, 9712, 50, 9, 0.378),
        ("TOX_171", 153, 5748, 50, 4, 0.407),
        ("GLIOMA", 45, 4434, 50, 4, 0.184),
        ("madelon", 2340, 500, 50, 1, 1.2),
        ("pmlb-letter", 18000, 16, 16, 26, 1.63),
        ("pmlb-satimage", 5791, 36, 36, 6, 0.8),
        ("COIL20", 1296, 1024, 50, 20, 21.3),
        ("Isolet", 1404, 617, 50, 26, 10.4),
        ("usps", 8368, 256, 50, 10, 11.7),
        ("mnist5", 63000, 780, 50, 1, 58.1),
    ),
}


def _sas_flops(m, n, k, t):
    # up to 100 ascent steps: in feature space XᵀX once (dgemm) and an n x n matrix-vector
    # product a step (memory-bound, nominal rate), in sample space the Gram matrix and K X a
    # step (dgemm), whichever feature_space_is_cheaper picks; 0.35 of that count and a fixed
    # 5 ms (least squares on MEASURED_S), then the RLS path
    if feature_space_is_cheaper(m, n):
        ascent = 2.0 * m * n * n / GEMM_SPEEDUP + 100 * 2.0 * n * n
    else:
        ascent = 100 * 6.0 * m * m * n / GEMM_SPEEDUP
    return 0.35 * ascent + 1e7 + protocol_flops(m, n, k, t)


def _svm_rfe_flops(m, n, k, t):
    # per round of s survivors and per one-vs-rest problem (one for two classes): a few Newton
    # steps, each a product of the examples inside the margin (primal, m s²) or a Cholesky of
    # them (dual, m³ at most), at dgemm speed; the margins and weights (25 m s), the line
    # searches (850 m: a sort of the breakpoints) and 0.4 ms of calls; X̃ᵀX̃ or X̃X̃ᵀ once
    # (fitted to MEASURED_S), then the RLS path
    s = np.asarray(elimination_sizes(n, k, STEP_FRACTION), dtype=np.float64)
    p = min(n, m)
    newton = 2.0 * t * m * np.sum(np.minimum(s, m) ** 2) / GEMM_SPEEDUP
    gram = 2.0 * m * p * n / GEMM_SPEEDUP
    rounds = t * (25.0 * m * np.sum(s) + s.size * (850.0 * m + 7.9e5))
    return float(1.15 * (newton + gram) + rounds) + protocol_flops(m, n, k, t)


def _arom_flops(m, n, k, t):
    # up to 50 iterations of one L2-SVM per one-vs-rest problem on the live features: Newton
    # steps of m p² at dgemm speed (p = min(m, n), 5 + 7.1 t times over the run), the
    # rescaled copies and weights (66 t m n), the line searches' sorts (1900 m log2 m) and
    # 42 ms a problem (least squares on the log of MEASURED_S), then the RLS path
    p = min(n, m)
    newton = (5.0 + 7.1 * t) * 2.0 * m * p * p / GEMM_SPEEDUP
    return (newton + 66.0 * t * m * n + 1900.0 * m * np.log2(m) + 8.3e7 * t) + protocol_flops(
        m, n, k, t
    )


def _sas_bytes(m, n, k):
    # the data, its standardised copy, and H (n x n) or the Gram matrix and K X
    extra = n * n if feature_space_is_cheaper(m, n) else m * m + m * n
    return 8 * (2 * m * n + extra)


def _l2svm_bytes(m, n, k):
    # the data and its copies with the constant column (rescaled or reduced) and X̃ᵀX̃ or X̃X̃ᵀ
    # with the Hessian
    return 8 * (4 * m * (n + 1) + 2 * min(n + 1, m) ** 2)


# One entry point each in pyproject.toml ([project.entry-points."rlsbench.methods"]).
sas_primal = Method(
    name="sas_primal",
    run=_runner("sas_primal", _sas_ranker),
    description="SAS (linear kernel, eq. 3/9), the alignment summed in feature space where "
    "cheaper (Ramona et al. 2012)",
    tasks=("binary", "multiclass"),
    memory_bytes=_sas_bytes,
    flops=_sas_flops,
    tags={"label": "SAS (primal)"},
)
svm_rfe_fraction = Method(
    name="svm_rfe_fraction",
    run=_runner("svm_rfe_fraction", _svm_rfe_ranker),
    description="SVM-RFE on the L2-loss linear SVM, half the survivors per round down to k, "
    "then one at a time (Guyon et al. 2002)",
    tasks=("binary", "multiclass"),
    memory_bytes=_l2svm_bytes,
    flops=_svm_rfe_flops,
    tags={"label": "SVM-RFE (halves)"},
)
arom_l2svm = Method(
    name="arom_l2svm",
    run=_runner("arom_l2svm", _arom_ranker),
    description="AROM (L2) on the L2-loss linear SVM, finite Newton (Weston et al. 2003)",
    tasks=("binary", "multiclass"),
    memory_bytes=_l2svm_bytes,
    flops=_arom_flops,
    tags={"label": "AROM (L2-SVM)"},
)
