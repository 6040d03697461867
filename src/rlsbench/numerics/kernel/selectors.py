"""Feature rankers of Ramona et al. (2012): SAS, SCSS, SFS, KFDS and the Fisher score.

SAS, SCSS and SFS maximise a Gram-matrix criterion over the scale factors w of a scaled kernel
k_w(x, y) = k(w ∘ x, w ∘ y) by gradient ascent (Algorithm 1) and rank the features by
decreasing ``|w_d|``; the criterion is, respectively, the kernel target alignment (eq. 3, 9), the
regularized kernel class separability (eq. 18, 22-23) and the Frobenius product ⟨K, K*⟩_F
(eq. 24). KFDS (Algorithm 2) multiplies the scale factors by the normal vector of a kernel
Fisher discriminant (linear kernel). All of them handle any number of classes.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, _fit_context
from sklearn.feature_selection import SelectorMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from rlsbench.numerics.kernel.alignment import (
    alignment_from_sums,
    encode_labels,
    target_class_matrix,
    target_norm_sq,
)
from rlsbench.numerics.kernel.blockwise import gram_sums
from rlsbench.numerics.kernel.kernels import KERNELS, ScaledKernel
from rlsbench.numerics.kernel.separability import separability_from_sums
from rlsbench.numerics.selection._common import SelectionError

CRITERIA = ("alignment", "separability", "frobenius")


# -- numerics (private, arrays in / arrays out) ------------------------------------------------
def _unit_exponent(X):
    """X with every column divided by the power of two nearest its max |x| (exact in float64).

    The rankers' criteria are ratios, invariant to a column's scale (eq. 1, 18, 22-23 on
    standardised data); their float64 sums are not: at max |x| ≈ 1e160 the variances overflow
    and at 1e-160 they underflow, leaving the scores to φ(0) and ε. Powers of two change no
    bit of a result at ordinary scales.
    """
    _, exponent = np.frexp(np.max(np.abs(X), axis=0, initial=0.0))
    return np.ldexp(X, -exponent)


#: ``max |x|`` of raw (unstandardised) data beyond which a scale-free ranker brings X back to
#: ``max |x|`` in [0.5, 1) by a power of two before fitting (below it the data are used as given,
#: so results at ordinary scales keep every bit).
EXTREME_SCALE = 2.0**64


def _to_unit_scale(X):
    """X divided by a power of two when its max |x| lies outside [1/EXTREME_SCALE,
    EXTREME_SCALE], for a ranker whose order does not depend on X's scale."""
    x_max = float(np.max(np.abs(X), initial=0.0))
    if x_max == 0.0 or 1.0 / EXTREME_SCALE <= x_max <= EXTREME_SCALE:
        return X
    return np.ldexp(X, -int(np.frexp(x_max)[1]))


def _standardize(X):
    X = _unit_exponent(X)
    mean = X.mean(axis=0)
    std = X.std(axis=0)
    std[std == 0] = 1.0
    return (X - mean) / std


def make_kernel(name, X, sigma, degree, coef) -> ScaledKernel:
    """Kernel with data-dependent defaults: "scale" = sklearn's gamma="scale" convention."""
    var = float(X.var()) * X.shape[1] or 1.0
    if sigma == "scale":
        sigma = np.sqrt(var / 2.0)  # exp(−||x − y||² / (2σ²)) with 2σ² = D · Var(X)
    if coef == "scale":
        coef = 1.0 / var
    return ScaledKernel(name, sigma=float(sigma), degree=int(degree), coef=float(coef))


def criterion_value_grad(
    X,
    codes,
    counts,
    w,
    kernel,
    criterion,
    *,
    target="plain",
    epsilon=0.0,
    grad=True,
    block_size=512,
):
    """Value (and gradient in w) of one Gram-matrix criterion, accumulated block by block.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    codes : ndarray of shape (n_samples,), int
    counts : ndarray of shape (C,)
    w : ndarray of shape (n_features,)
    kernel : ScaledKernel
    criterion : {"alignment", "separability", "frobenius"}
        Eq. 3 / 9, eq. 18 / 22-23 (with ε), eq. 24.
    target : {"plain", "balanced"}
        Target matrix for alignment and Frobenius (eq. 2/10-11 or eq. 4).
    epsilon : float
        Regularizer of the separability denominator.
    grad : bool
    block_size : int or None

    Returns
    -------
    value : float
    grad : ndarray of shape (n_features,) or None
    """
    if criterion == "separability":
        s = gram_sums(
            X, codes, counts, w, kernel, needs=("sb", "sw"), grad=grad, block_size=block_size
        )
        return separability_from_sums(s.sb, s.sw, epsilon, s.d_sb, s.d_sw)
    Tc = target_class_matrix(counts, target)
    if criterion == "alignment":
        s = gram_sums(
            X,
            codes,
            counts,
            w,
            kernel,
            target_classes=Tc,
            needs=("kt", "kk"),
            grad=grad,
            block_size=block_size,
        )
        return alignment_from_sums(s.kt, s.kk, target_norm_sq(counts, Tc), s.d_kt, s.d_kk)
    if criterion == "frobenius":
        s = gram_sums(
            X,
            codes,
            counts,
            w,
            kernel,
            target_classes=Tc,
            needs=("kt",),
            grad=grad,
            block_size=block_size,
        )
        return float(s.kt), s.d_kt
    raise ValueError(f"criterion must be one of {CRITERIA}, got {criterion!r}")


def scale_factor_ascent(
    X,
    codes,
    counts,
    kernel,
    criterion,
    *,
    target="plain",
    epsilon=0.0,
    max_iter=100,
    tol=1e-5,
    step=0.1,
    block_size=512,
):
    """Gradient ascent of a Gram-matrix criterion on the scale factors (Algorithm 1).

    θ_n = θ_{n−1} + η ∂_θ A, starting from θ_0 = 1, until ``|A_n − A_{n−1}| < tol · |A_n|``.
    The paper leaves the step η open; we use a "bold driver": the first step moves the largest
    scale factor by ``step``, an accepted step grows η by 20 %, a step that lowers the
    criterion is undone and η halved.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    codes, counts : class codes and counts (:func:`encode_labels`)
    kernel : ScaledKernel
    criterion : {"alignment", "separability", "frobenius"}
    target, epsilon, block_size : see :func:`criterion_value_grad`
    max_iter : int
        Maximum number of gradient evaluations.
    tol : float
        Relative change of the criterion that stops the ascent.
    step : float
        Size of the first move of the largest scale factor.

    Returns
    -------
    w : ndarray of shape (n_features,)
        Scale factors at the end of the ascent.
    history : ndarray of shape (n_accepted,)
        Criterion after every accepted step (first entry: at w = 1).
    """
    kw = dict(target=target, epsilon=epsilon, block_size=block_size)
    return bold_driver_ascent(
        lambda w: criterion_value_grad(X, codes, counts, w, kernel, criterion, **kw),
        np.ones(X.shape[1]),
        max_iter=max_iter,
        tol=tol,
        step=step,
    )


def bold_driver_ascent(value_grad, w0, *, max_iter=100, tol=1e-5, step=0.1):
    """Maximise ``value_grad(w) -> (value, grad)`` by gradient steps with a "bold driver" η.

    The first step moves the largest coordinate by ``step``; an accepted step (criterion not
    lower) grows η by 20 %, a rejected one is undone and halves η. Stops after ``max_iter``
    evaluations, when an accepted step changes the value by less than ``tol`` (relative), or
    when η has become negligible.

    Returns
    -------
    w : ndarray
    history : ndarray
        Value after every accepted step (first entry: at ``w0``).
    """
    w = np.asarray(w0, dtype=np.float64).copy()
    value, g = value_grad(w)
    history = [value]
    gmax = np.max(np.abs(g))
    if not np.isfinite(gmax) or gmax == 0:
        return w, np.asarray(history)
    eta = step / gmax
    for _ in range(max_iter - 1):
        w_new = w + eta * g
        v_new, g_new = value_grad(w_new)
        if np.isfinite(v_new) and v_new >= value:
            converged = abs(v_new - value) < tol * max(abs(v_new), np.finfo(float).tiny)
            w, value, g = w_new, v_new, g_new
            history.append(value)
            eta *= 1.2
            if converged:
                break
        else:
            eta *= 0.5
            if eta * np.max(np.abs(g)) < 1e-12 * max(np.max(np.abs(w)), 1.0):
                break
    return w, np.asarray(history)


def fisher_direction(Z, codes, counts, mu):
    """``|w|``: the absolute normal vector of the kernel Fisher discriminant with a linear
    kernel (Mika et al.).

    α = (N + μ' I)⁻¹ (M_1 − M_2) with M_c = K 1_c / n_c and N = Σ_c K_c (I − 1/n_c) K_cᵀ;
    w_h = Σ_i α_i z_i. For C > 2 classes: one discriminant per class against the rest,
    combined as the root sum of squares of their normal vectors (our extension).
    μ' = μ · tr(N) / n (relative regularization).
    """
    K = Z @ Z.T
    n = K.shape[0]
    pairs = (
        [(codes == 0, codes == 1)]
        if counts.size == 2
        else [(codes == c, codes != c) for c in range(counts.size)]
    )
    wh_sq = np.zeros(Z.shape[1])
    for pos, neg in pairs:
        N = np.zeros((n, n))
        means = []
        for mask in (pos, neg):
            Kc = K[:, mask]
            nc = mask.sum()
            means.append(Kc.mean(axis=1))
            N += Kc @ Kc.T - nc * np.outer(means[-1], means[-1])
        N[np.diag_indices(n)] += mu * max(np.trace(N), np.finfo(float).tiny) / n
        alpha = np.linalg.solve(N, means[0] - means[1])
        wh = Z.T @ alpha
        wh_sq += wh**2
    return np.sqrt(wh_sq)


def kfds_scale_factors(X, codes, counts, *, max_iter=50, tol=1e-6, mu=0.1):
    """KFDS (Algorithm 2): w_{n+1} = w_n ∘ w_h^n with w_h the linear KFD normal vector.

    Kept in log space (``log w_{n+1} = log w_n + log |w_h^n|``) so that features driven to zero
    keep an order; w is rescaled to max 1 after each step (the discriminant direction does not
    depend on a global scale).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    codes, counts : class codes and counts
    max_iter : int
    tol : float
        Stop when ``max_d |w_{n+1} − w_n| < tol`` (w normalised to max 1).
    mu : float
        Relative ridge μ added to N.

    Returns
    -------
    log_w : ndarray of shape (n_features,)
        log of the final scale factors (−inf impossible: finite by construction).
    n_iter : int
    """
    log_w = np.zeros(X.shape[1])
    w = np.ones(X.shape[1])
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007 (the count is returned)
        wh = fisher_direction(X * w, codes, counts, mu)
        # A feature whose scale underflowed has wh_d = 0: keep it last, in its current order.
        log_wh = np.log(np.maximum(wh, np.finfo(float).tiny))
        log_w = log_w + log_wh
        log_w -= log_w.max()
        w_new = np.exp(log_w)
        done = np.max(np.abs(w_new - w)) < tol
        w = w_new
        if done:
            break
    return log_w, n_iter


def fisher_scores(X, codes, counts) -> np.ndarray:
    """Fisher criterion per feature (eq. 1).

    Two classes: (μ_1 − μ_2)² / (σ_1² + σ_2²) exactly as eq. 1. C > 2 classes: the usual
    generalisation Σ_c n_c (μ_c − μ)² / Σ_c n_c σ_c².

    Returns
    -------
    scores : ndarray of shape (n_features,)
    """
    X = _unit_exponent(X)  # a ratio per feature: its scale cancels, its overflow must not
    mus = np.array([X[codes == c].mean(axis=0) for c in range(counts.size)])
    vars_ = np.array([X[codes == c].var(axis=0) for c in range(counts.size)])
    if counts.size == 2:
        num = (mus[0] - mus[1]) ** 2
        den = vars_[0] + vars_[1]
    else:
        num = counts @ (mus - X.mean(axis=0)) ** 2
        den = counts @ vars_
    with np.errstate(divide="ignore", invalid="ignore"):
        s = num / den
    s[den == 0] = np.where(num[den == 0] > 0, np.inf, 0.0)
    return s


def order_from_scores(scores) -> np.ndarray:
    """Feature indices by decreasing score; ties keep the lower index first.

    A non-finite score (an overflow at extreme scales) ranks after every finite one; when no
    feature has a finite score the ranking would be a guess, and :class:`SelectionError` says
    so instead.
    """
    scores = np.asarray(scores, dtype=np.float64)
    finite = np.isfinite(scores)
    if scores.size and not finite.any():
        raise SelectionError(
            f"none of the {scores.size} features has a finite relevance score (NaN or infinite: "
            "float64 overflowed or underflowed); standardise X (zero mean, unit variance)"
        )
    key = np.where(finite, -scores, np.inf)
    return np.argsort(key, kind="stable")


# -- sklearn-style rankers -------------------------------------------------------------------
class _Ranker(SelectorMixin, BaseEstimator):
    """Common fit / support logic: subclasses set ``scores_`` (higher = more relevant)."""

    _parameter_constraints: dict = {
        "n_features_to_select": [Interval(Integral, 1, None, closed="left"), None],
        "standardize": ["boolean"],
    }

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Rank the features of X for the labels y.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels (two or more classes).

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64, multi_output=True, y_numeric=False)
        codes, self.classes_, counts = encode_labels(y)
        if self.standardize:
            X = _standardize(X)
        elif self._scale_free():
            X = _to_unit_scale(X)
        # k_w sees feature d only through w_d x_d: on raw data its effective scale is
        # |w_d| · std(x_d) (a near-constant feature keeps w_d ≈ 1 without mattering); on
        # standardised data the paper's plain |w_d|.
        self._feature_std = np.ones(X.shape[1]) if self.standardize else X.std(axis=0)
        self.scores_ = np.asarray(self._scores(X, codes, counts), dtype=np.float64)
        self.order_ = order_from_scores(self.scores_)
        self.ranking_ = np.empty_like(self.order_)
        self.ranking_[self.order_] = np.arange(1, self.order_.size + 1)
        return self

    def _scale_free(self):
        """Whether the order is the same for X and c·X, c > 0: true of the linear kernel and of
        the data-relative defaults (σ² ∝ Var X, polynomial c = 1/Var X), with the penalties
        the rankers derive from the data (C = 1/R̄², ε ∝ tr K, μ ∝ tr N). Such a ranker fits
        data of extreme scale as if it were of scale 1 instead of over- or underflowing."""
        kernel = getattr(self, "kernel", "linear")
        return (
            kernel == "linear"
            or (kernel == "rbf" and self.sigma == "scale")
            or (kernel == "poly" and self.coef == "scale")
        )

    def _get_support_mask(self):
        check_is_fitted(self)
        k = self.n_features_to_select
        k = max(1, self.n_features_in_ // 2) if k is None else min(k, self.n_features_in_)
        mask = np.zeros(self.n_features_in_, dtype=bool)
        mask[self.order_[:k]] = True
        return mask

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags


class _ScaledKernelRanker(_Ranker):
    _criterion = "alignment"
    _parameter_constraints: dict = {
        **_Ranker._parameter_constraints,
        "kernel": [StrOptions(set(KERNELS))],
        "sigma": [StrOptions({"scale"}), Interval(Real, 0, None, closed="neither")],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "coef": [StrOptions({"scale"}), Interval(Real, 0, None, closed="neither")],
        "target": [StrOptions({"plain", "balanced"})],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "step": [Interval(Real, 0, None, closed="neither")],
        "block_size": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        kernel="linear",
        sigma="scale",
        degree=3,
        coef="scale",
        target="plain",
        max_iter=100,
        tol=1e-5,
        step=0.1,
        block_size=512,
        standardize=True,
    ):
        self.n_features_to_select = n_features_to_select
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef = coef
        self.target = target
        self.max_iter = max_iter
        self.tol = tol
        self.step = step
        self.block_size = block_size
        self.standardize = standardize

    def _epsilon(self, X, kernel):
        return 0.0

    def _scores(self, X, codes, counts):
        kernel = make_kernel(self.kernel, X, self.sigma, self.degree, self.coef)
        self.kernel_ = kernel
        w, self.history_ = scale_factor_ascent(
            X,
            codes,
            counts,
            kernel,
            self._criterion,
            target=self.target,
            epsilon=self._epsilon(X, kernel),
            max_iter=self.max_iter,
            tol=self.tol,
            step=self.step,
            block_size=self.block_size,
        )
        self.scale_factors_ = w
        self.n_iter_ = self.history_.size
        # k_w depends on w only through w_d² (linear, polynomial, RBF): rank by |w_d|,
        # times the feature's spread when the data are not standardised.
        return np.abs(w) * self._feature_std


class SAS(_ScaledKernelRanker):
    """Scaled alignment selection (Ramona et al. 2012, Algorithm 1).

    Gradient ascent of the kernel target alignment (eq. 3, gradient eq. 9) on the scale
    factors of a scaled kernel; features ranked by decreasing ``|w_d|``. Multiclass through Vert's
    target (eq. 10-11).

    Parameters
    ----------
    n_features_to_select : int or None
        Size of the support returned by ``transform`` (None: half the features).
    kernel : {"linear", "rbf", "poly"}
    sigma : float or "scale"
        RBF width; "scale": 2σ² = n_features · Var(X).
    degree : int
        Polynomial order δ.
    coef : float or "scale"
        Polynomial factor c; "scale": 1 / (n_features · Var(X)).
    target : {"plain", "balanced"}
        eq. 2 / 10-11, or the class-balanced eq. 4.
    max_iter, tol, step : ascent controls (:func:`scale_factor_ascent`).
    block_size : int or None
        Gram block size for the memory-lean evaluation (Section VI.A).
    standardize : bool
        Scale every feature to zero mean and unit variance before the ascent.

    Attributes
    ----------
    scale_factors_ : ndarray of shape (n_features,)
    scores_ : ndarray of shape (n_features,)
        ``|w_d|``.
    order_ : ndarray of shape (n_features,)
        Features from most to least relevant.
    ranking_ : ndarray of shape (n_features,)
        Rank of each feature (1 = best).
    history_ : ndarray
        Criterion after every accepted ascent step.
    """

    _criterion = "alignment"


class SFS(_ScaledKernelRanker):
    """Scaled Frobenius selection (Section V-C): SAS with the numerator ⟨K, K*⟩_F alone (eq. 24).

    Not defined for the linear kernel (the criterion grows without bound with w, Section V-C),
    so the default kernel is RBF. Parameters and attributes as :class:`SAS`.
    """

    _criterion = "frobenius"

    def __init__(
        self,
        n_features_to_select=None,
        *,
        kernel="rbf",
        sigma="scale",
        degree=3,
        coef="scale",
        target="plain",
        max_iter=100,
        tol=1e-5,
        step=0.1,
        block_size=512,
        standardize=True,
    ):
        super().__init__(
            n_features_to_select,
            kernel=kernel,
            sigma=sigma,
            degree=degree,
            coef=coef,
            target=target,
            max_iter=max_iter,
            tol=tol,
            step=step,
            block_size=block_size,
            standardize=standardize,
        )

    def _scores(self, X, codes, counts):
        if self.kernel != "rbf":
            raise ValueError(
                f"SFS kernel={self.kernel!r}: the Frobenius criterion diverges when the scale "
                "factors grow for linear and polynomial kernels (Section V-C); use kernel='rbf'"
            )
        return super()._scores(X, codes, counts)


class SCSS(_ScaledKernelRanker):
    """Scaled class separability selection (Section IV-C).

    Gradient ascent of C̃_K = tr S_b / (tr S_w + ε) (eq. 18, gradient eq. 22-23).

    Parameters
    ----------
    epsilon : float
        Regularizer ε relative to tr K at w = 1: ε = epsilon · tr K_1 (the paper does not give
        its value; tr K_1 = n for the RBF kernel).
    Other parameters and attributes as :class:`SAS`.
    """

    _criterion = "separability"
    _parameter_constraints: dict = {
        **_ScaledKernelRanker._parameter_constraints,
        "epsilon": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        kernel="linear",
        sigma="scale",
        degree=3,
        coef="scale",
        target="plain",
        epsilon=0.1,
        max_iter=100,
        tol=1e-5,
        step=0.1,
        block_size=512,
        standardize=True,
    ):
        super().__init__(
            n_features_to_select,
            kernel=kernel,
            sigma=sigma,
            degree=degree,
            coef=coef,
            target=target,
            max_iter=max_iter,
            tol=tol,
            step=step,
            block_size=block_size,
            standardize=standardize,
        )
        self.epsilon = epsilon

    def _epsilon(self, X, kernel):
        return self.epsilon * float(kernel.diag(X, np.ones(X.shape[1])).sum())


class KFDS(_Ranker):
    """Kernel Fisher discriminant selection (Section IV-D, Algorithm 2), linear kernel.

    Parameters
    ----------
    n_features_to_select : int or None
    max_iter : int
    tol : float
    mu : float
        Relative ridge on the KFD matrix N (Mika et al.'s regularization), added as
        ``mu · tr(N) / n`` to N's diagonal. Ramona et al. give no value (Sec. IV-D: "the
        leading eigenvector of N⁻¹M", referring to Mika et al.); with the linear kernel N has
        rank at most D, so without a ridge it is singular whenever n > D.
    standardize : bool

    Attributes
    ----------
    log_scale_factors_ : ndarray of shape (n_features,)
    scores_, order_, ranking_ : as :class:`SAS`
    n_iter_ : int
    """

    _parameter_constraints: dict = {
        **_Ranker._parameter_constraints,
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "mu": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(
        self, n_features_to_select=None, *, max_iter=50, tol=1e-6, mu=0.1, standardize=True
    ):
        self.n_features_to_select = n_features_to_select
        self.max_iter = max_iter
        self.tol = tol
        self.mu = mu
        self.standardize = standardize

    def _scores(self, X, codes, counts):
        self.log_scale_factors_, self.n_iter_ = kfds_scale_factors(
            X, codes, counts, max_iter=self.max_iter, tol=self.tol, mu=self.mu
        )
        with np.errstate(divide="ignore"):
            return self.log_scale_factors_ + np.log(self._feature_std)


class FisherScore(_Ranker):
    """Fisher criterion filter (eq. 1; generalised to C > 2 classes).

    Parameters
    ----------
    n_features_to_select : int or None
    standardize : bool
        Has no effect on the ranking (the score is scale invariant); kept for symmetry.

    Attributes
    ----------
    scores_, order_, ranking_ : as :class:`SAS`
    """

    def __init__(self, n_features_to_select=None, *, standardize=False):
        self.n_features_to_select = n_features_to_select
        self.standardize = standardize

    def _scores(self, X, codes, counts):
        return fisher_scores(X, codes, counts)
