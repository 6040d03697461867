"""State and bookkeeping shared by the RLS selectors (dual-variable form of Section 3)."""

from __future__ import annotations

import time
import warnings

import numpy as np

from rlsbench.errors import RLSBenchError, RLSBenchWarning
from rlsbench.lazy import lazy_module
from rlsbench.numerics.criteria import TIE_RTOL, best_index, loo_mse, loo_zero_one
from rlsbench.numerics.path import SelectionPath
from rlsbench.numerics.validation import check_problem

#: numba kernels, compiled on first use (not when the workflow reads the methods)
_scan = lazy_module("rlsbench.numerics._scan")

#: Relative gap between a selector's LOO MSE and the LOO MSE of a direct solve on the same
#: features (:func:`check_loo_precision`) above which the LOO values are reported as untrusted.
#: Two computations of one value by different algorithms agree to ≈1e-13 on well-posed data;
#: a gap of 1e-6 means more than 10 of float64's ≈16 significant digits are gone, too few
#: left to rank candidates whose criteria differ in the 4th digit.
LOO_RTOL = 1e-6

#: Largest ``m · max|x|² · max(1, 1/λ)²`` a selector accepts. It bounds the magnitudes the
#: LOO computations form (Gram entries ``xᵢᵀxⱼ``, ``s_i = xᵢᵀ G xᵢ ≤ ‖xᵢ‖²/λ``, cache entries
#: ``(G x)_j`` up to ``|x_j|/λ`` and their squares); beyond it they overflow float64
#: (max ≈ 1.8e308), and the 2¹⁶ margin leaves room for the sums over rows and outputs.
MAX_DYNAMIC_RANGE = np.finfo(np.float64).max / 2.0**16
#: Smallest ``max|y|²`` a selector accepts: squared LOO residuals (at most the scale of y,
#: smaller for a good fit) keep the 2¹⁶ margin above float64's smallest normal number.
MIN_SQUARE = np.finfo(np.float64).tiny * 2.0**16


class SelectionError(ValueError, FloatingPointError, RLSBenchError):
    """A selector cannot make a valid choice: no candidate has a finite score.

    Raised instead of guessing when float64 over- or underflows in the scores of a round (X
    scaled far from 1, λ extreme for that scale). Standardising X (zero mean, unit variance)
    or changing λ resolves it. A ``ValueError`` (bad input for the method) and a
    ``FloatingPointError`` (its cause).
    """


class LOOPrecisionWarning(RLSBenchWarning):
    """A selection's LOO values lost too many digits to float64 rounding to be trusted.

    Raised (as a warning: the selection is returned unchanged) when the LOO MSE of a step
    differs from a direct solve on the same features by more than :data:`LOO_RTOL`
    (relative): λ is tiny against the scale of X, so the rank-one updates cancel
    catastrophically. Raising alpha or standardising X (zero mean, unit variance) restores
    the lost digits.
    """


class TiedCriteriaWarning(RLSBenchWarning):
    """Every open candidate of a round had the same criterion, so the lowest index won.

    The criteria tie within :data:`rlsbench.numerics.criteria.TIE_RTOL` when the features'
    contributions vanish against λ (X scaled far below 1, λ huge) or the target is constant:
    the pick then says nothing about the features. Standardising X (zero mean, unit variance)
    or lowering alpha gives the features a say.
    """


def check_scale(X, alpha, *, bias=0.0, method, x_scale=None):
    """Refuse (:class:`SelectionError`) an X whose scale makes the LOO scores overflow.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), finite
    alpha : float
        λ > 0.
    bias : float, default=0.0
        Value of the bias feature (a column of X for the scale).
    method : str
        Name of the selector, for the message.
    x_scale : float, optional
        max |x| if already known (:func:`rlsbench.numerics.validation.check_X_y`).

    Returns
    -------
    x_scale : float
        max |x|.
    """
    data_scale = _scan.max_abs(X) if x_scale is None else float(x_scale)
    x_scale = max(data_scale, abs(float(bias)))
    m = X.shape[0]
    with np.errstate(over="ignore"):
        dynamic_range = m * np.square(np.float64(x_scale) * max(1.0, 1.0 / alpha))
        design_range = m * np.square(np.float64(x_scale))
    if not dynamic_range <= MAX_DYNAMIC_RANGE:
        if design_range <= MAX_DYNAMIC_RANGE:
            # the design itself fits at λ = 1: the λ < 1 makes the range overflow
            raise SelectionError(
                f"{method}: alpha={alpha:.3g} is too small for float64: max |x| = "
                f"{x_scale:.3g} on n_samples={m} gives m·max|x|²·max(1, 1/λ)² = "
                f"{dynamic_range:.3g} > {MAX_DYNAMIC_RANGE:.3g}, so the LOO scores would "
                "overflow; use a larger alpha"
            )
        # the bias feature is a column of the design: blame it when it sets the scale
        culprit, remedy = (
            ("bias", "use a bias near 1 (the scale of standardised X)")
            if abs(float(bias)) > data_scale
            else ("X", "standardise X (zero mean, unit variance)")
        )
        raise SelectionError(
            f"{method}: {culprit} is too large for float64 at alpha={alpha:.3g}: max |x| = "
            f"{x_scale:.3g} (X: {data_scale:.3g}, bias: {abs(float(bias)):.3g}) on "
            f"n_samples={m} gives m·max|x|²·max(1, 1/λ)² = {dynamic_range:.3g} > "
            f"{MAX_DYNAMIC_RANGE:.3g}, so the LOO scores would overflow; {remedy} or use a "
            "larger alpha"
        )
    return x_scale


def check_target_scale(y_scale, n_samples, n_targets, *, method):
    """Refuse (:class:`SelectionError`) a y whose scale makes the squared LOO residuals overflow.

    The LOO residuals have the scale of y whatever λ (``a = G y`` and ``d = diag(G)`` both
    scale with 1/λ), so the bound is ``m · t · max|y|²`` against :data:`MAX_DYNAMIC_RANGE`:
    without it a huge y fails later as "no finite score" and is blamed on X. A y whose
    square is below :data:`MIN_SQUARE` is refused too: its squared residuals underflow to 0
    and every candidate ties.

    Parameters
    ----------
    y_scale : float
        max |y|.
    n_samples, n_targets : int
        Rows and columns of y as (n_samples, n_targets).
    method : str
        Name of the selector, for the message.
    """
    with np.errstate(over="ignore", under="ignore"):
        square = np.square(np.float64(y_scale))
    squares = n_samples * n_targets * square
    if 0.0 < y_scale and not square >= MIN_SQUARE:
        raise SelectionError(
            f"{method}: y is too small for float64: max |y| = {float(y_scale):.3g}, its "
            f"square {square:.3g} < {MIN_SQUARE:.3g}, so the squared "
            "LOO residuals would underflow and every criterion tie; scale y (e.g. divide it "
            "by its standard deviation)"
        )
    if not squares <= MAX_DYNAMIC_RANGE:
        raise SelectionError(
            f"{method}: y is too large for float64: max |y| = {float(y_scale):.3g} on "
            f"n_samples={n_samples}, n_targets={n_targets} gives m·t·max|y|² = {squares:.3g} > "
            f"{MAX_DYNAMIC_RANGE:.3g}, so the squared LOO residuals would overflow; scale y "
            "(e.g. divide it by its standard deviation)"
        )


def check_loo_precision(loo_mse, reference, alpha, *, x_scale, method, stacklevel=3):
    """Warn (:class:`LOOPrecisionWarning`) where the LOO MSE of a step is off a direct solve.

    Parameters
    ----------
    loo_mse : ndarray of shape (k,)
        The selector's mean squared LOO error after each addition.
    reference : ndarray of shape (k,)
        The same from a direct solve on each prefix of the selection
        (:func:`rlsbench.numerics.rls.ridge_prefix_path`).
    alpha : float
        λ, for the message.
    x_scale : float, ndarray or callable
        max |x|, or X, or a function returning max |x| (taken only for the message).
    method : str
        Name of the selector, for the message.
    stacklevel : int
        Of the warning: 3 points at the caller of a selector that calls this directly.
    """
    loo_mse = np.asarray(loo_mse, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        # both 0 is agreement; a NaN or inf on either side is a gap (nan_to_num below)
        gap = np.abs(loo_mse - reference) / np.maximum(np.abs(loo_mse), np.abs(reference))
    gap = np.nan_to_num(np.where(loo_mse == reference, 0.0, gap), nan=np.inf)
    if not gap.max(initial=0.0) > LOO_RTOL:
        return
    x_scale = _x_scale(x_scale)
    step = int(np.argmax(gap))
    # a relative gap g leaves about -log10(g) of the ≈16 digits
    digits = int(np.clip(np.round(16 + np.log10(gap[step])), 10, 16))
    warnings.warn(
        f"{method}: the LOO values lost about {digits} of float64's 16 significant digits: "
        f"after step {step + 1} the LOO MSE is {loo_mse[step]:.6g}, a direct solve on the "
        f"same features gives {reference[step]:.6g} (relative gap {gap[step]:.2g} > "
        f"{LOO_RTOL:g}; alpha = {alpha:.3g}, max |x| = {float(x_scale):.3g}), so the "
        "criteria may rank the candidates by rounding error; raise alpha or standardise X "
        "(zero mean, unit variance)",
        LOOPrecisionWarning,
        stacklevel=stacklevel,
    )


def _x_scale(x_scale):
    """max |x| from what :func:`check_loo_precision` and :func:`warn_tied` take."""
    if callable(x_scale):
        return float(x_scale())
    return _scan.max_abs(x_scale) if np.ndim(x_scale) > 0 else float(x_scale)


def all_tied(crit, tiebreak, open_, rtol=TIE_RTOL):
    """Whether every open candidate ties on the criterion and the tiebreak (O(n)).

    Parameters
    ----------
    crit, tiebreak : ndarray of shape (n_features,)
        The round's criterion and second key (lower is better).
    open_ : ndarray of int of shape (n_open,)
        Candidates not chosen yet; fewer than two never tie.
    rtol : float
        As in :func:`rlsbench.numerics.criteria.best_index`.
    """
    if open_.size < 2:
        return False
    for values in (crit[open_], tiebreak[open_]):
        if not np.all(np.isfinite(values)):
            return False
        low, high = values.min(), values.max()
        if high > low + rtol * abs(low):
            return False
    return True


def warn_tied(rounds, k, alpha, *, x_scale, method, stacklevel=3):
    """Warn (:class:`TiedCriteriaWarning`) once for the rounds (from 0) whose candidates all
    tied (:func:`all_tied`)."""
    if not rounds:
        return
    x_scale = _x_scale(x_scale)
    shown = ", ".join(str(r + 1) for r in rounds[:10]) + (", ..." if len(rounds) > 10 else "")
    warnings.warn(
        f"{method}: in {len(rounds)} of {k} rounds (rounds {shown}) every candidate had the same "
        f"LOO criterion (alpha = {alpha:.3g}, max |x| = {float(x_scale):.3g}), so the lowest "
        "feature index was picked and the order says nothing about those features; "
        "standardise X (zero mean, unit variance) or lower alpha",
        TiedCriteriaWarning,
        stacklevel=stacklevel,
    )


def check_target(y2, criterion, *, method):
    """Warn (``UserWarning``) when a target column is constant.

    A constant regression target is fitted equally well by every feature set (exactly, with
    a bias feature), so the selection says nothing about the features. A constant class
    label is refused earlier (``criterion='zero_one'`` needs two classes; the estimators
    refuse a single class for classification).
    """
    if y2.shape[0] > 1 and np.any(np.all(y2 == y2[:1], axis=0)):
        col = int(np.flatnonzero(np.all(y2 == y2[:1], axis=0))[0])
        where = "y" if y2.shape[1] == 1 else f"y[:, {col}]"
        warnings.warn(
            f"{method}: {where} is constant (every value is {y2[0, col]:g}): the LOO "
            "criterion cannot tell features apart, the selection is arbitrary",
            UserWarning,
            stacklevel=4,
        )


def pick_winner(
    scores,
    chosen,
    step,
    *,
    tiebreak=None,
    maximize=False,
    rtol=TIE_RTOL,
    x_scale=None,
    alpha=None,
    method="selector",
):
    """The winner of one round: best finite score among the candidates not chosen yet.

    The one rule every forward selector applies: NaN and ±inf never win, a chosen feature
    never wins (even when every score is NaN), and when no candidate is left with a finite
    score the round fails with :class:`SelectionError` instead of guessing. O(n) on the
    round's score vector (device paths pass a host copy of it).

    Parameters
    ----------
    scores : array-like of shape (n_candidates,)
        The round's criterion (lower is better unless ``maximize``).
    chosen : array-like of int or bool mask of shape (n_candidates,)
        Features already in the model (indices, or True where chosen).
    step : int
        Round number, from 0 (reported from 1).
    tiebreak : array-like of shape (n_candidates,), optional
        Second key (lower is better, e.g. the LOO MSE under the zero-one criterion); a
        candidate whose tiebreak is not finite is not eligible either.
    maximize : bool, default=False
        Pick the largest score (e.g. a gain) instead of the smallest.
    rtol : float, default=TIE_RTOL
        Relative gap below which scores tie; ties go to the tiebreak, then the lower index
        (:func:`rlsbench.numerics.criteria.best_index`). 0 = exact ``argmin``/``argmax``.
    x_scale : float or ndarray, optional
        max |x| of the data, or the data (max |x| is then taken only for the message).
    alpha : float or str, optional
        λ (or a description of the λ grid), for the message.
    method : str
        Name of the selector, for the message.

    Returns
    -------
    int
        Index of the winner.

    Raises
    ------
    SelectionError
        No candidate left with a finite score (and tiebreak).
    """
    scores = np.asarray(scores, dtype=np.float64)
    crit = -scores if maximize else scores.copy()
    eligible = np.isfinite(crit)
    if tiebreak is not None:
        tiebreak = np.asarray(tiebreak, dtype=np.float64)
        eligible &= np.isfinite(tiebreak)
    chosen = np.asarray(chosen)
    if chosen.dtype == bool:
        eligible &= ~chosen
    elif chosen.size:
        eligible[chosen.astype(np.intp)] = False
    if not eligible.any():
        open_ = scores.size - (
            int(chosen.sum()) if chosen.dtype == bool else np.unique(chosen).size
        )
        if x_scale is not None and np.ndim(x_scale) > 0:
            x_scale = _scan.max_abs(x_scale)
        scale = "" if x_scale is None else f", max |x| = {float(x_scale):.3g}"
        lam = (
            ""
            if alpha is None
            else (f", alpha = {alpha:.3g}" if isinstance(alpha, (int, float)) else f", {alpha}")
        )
        raise SelectionError(
            f"{method}: round {step + 1}: none of the {open_} candidate features has a finite "
            f"score (NaN or infinite: float64 overflowed or underflowed{scale}{lam}); "
            "standardise X (zero mean, unit variance) or change alpha"
        )
    crit[~eligible] = np.inf
    if tiebreak is None:
        tiebreak = np.zeros_like(crit)
    tiebreak = np.where(eligible, tiebreak, np.inf)
    return best_index(crit, tiebreak, rtol=rtol)


def prepare(X, y, k, alpha, bias, criterion, *, method="selector"):
    """Validate a selector call; return ``X`` (C-contiguous), ``y`` as (m, t) and a flag.

    Besides the parameter checks, an X or y whose scale would overflow the LOO scores is
    refused (:func:`check_scale`, :func:`check_target_scale`) and a constant target column
    draws a warning (:func:`check_target`).

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64, C-contiguous
    y2 : ndarray of shape (n_samples, n_targets)
    single : bool
        True when ``y`` was given as a vector (outputs are then squeezed back).
    k, alpha, bias, criterion : validated scalars
    """
    X, y, k, alpha, bias, criterion, x_scale = check_problem(
        X, y, k, alpha, bias, criterion, return_x_scale=True
    )
    single = y.ndim == 1
    y2 = np.ascontiguousarray(y.reshape(y.shape[0], -1))
    check_scale(X, alpha, bias=bias, method=method, x_scale=x_scale)
    check_target_scale(_scan.max_abs(y2), *y2.shape, method=method)
    check_target(y2, criterion, method=method)
    return np.ascontiguousarray(X), y2, single, k, alpha, bias, criterion


def check_sample_weight(sample_weight, n_samples, criterion, *, method):
    """``sample_weight`` as a float64 vector of ``n_samples`` finite values >= 0, not all
    zero (None stays None); a ValueError naming ``sample_weight`` otherwise. The zero-one
    criterion counts examples, not weights: refused with weights."""
    if sample_weight is None:
        return None
    try:
        weights = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{method}: sample_weight must hold real numbers: {exc}") from exc
    if weights.shape != (n_samples,):
        raise ValueError(
            f"{method}: sample_weight must have shape ({n_samples},) (one weight per "
            f"example), got {weights.shape}"
        )
    bad = ~(np.isfinite(weights) & (weights >= 0.0))
    if bad.any():
        j = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{method}: sample_weight must be finite and >= 0, got {weights[j]!r} for example {j}"
        )
    if not weights.sum() > 0.0:
        raise ValueError(f"{method}: sample_weight is zero for every example")
    if criterion == "zero_one":
        raise ValueError(
            f"{method}: sample_weight needs criterion='squared' (the zero-one LOO criterion "
            "counts examples, not weights)"
        )
    return weights


def scale_rows(X, y2, weights, bias):
    """Weighted least squares as plain RLS: ``(sqrt(w) ∘ X, sqrt(w) ∘ y, bias·sqrt(w))``,
    the rows of X and y scaled (new arrays, X C-contiguous) and the bias column."""
    root = np.sqrt(weights)
    X = np.ascontiguousarray(X * root[:, None])
    return X, y2 * root[:, None], bias * root


def bias_shrink(m, alpha, bias):
    """β of the empty model's dual matrix with the bias feature ``b·1`` already in it.

    ``G = (b² 1 1^T + λ I)^{-1} = (I - β 1 1^T) / λ`` with ``β = b² / (λ + m b²)`` (Sherman-
    Morrison on eq. 5); β = 0 without a bias.
    """
    return bias * bias / (alpha + m * bias * bias)


def initial_dual(y2, alpha, beta):
    """Dual variables ``a = G y`` (eq. 5) and ``d = diag(G)`` of the empty (bias-only) model."""
    m = y2.shape[0]
    a = (y2 - beta * y2.sum(axis=0)) / alpha
    d = np.full(m, (1.0 - beta) / alpha)
    return a, d


def zero_one_targets(y2):
    """Per-example class used by the zero-one criterion: sign (one output) or arg-max."""
    if y2.shape[1] == 1:
        return (y2[:, 0] > 0).astype(np.int64)
    return np.argmax(y2, axis=1).astype(np.int64)


def loo_errors(y2, residuals):
    """(mean squared LOO error summed over outputs, zero-one LOO error) from LOO residuals."""
    return loo_mse(residuals), loo_zero_one(y2, residuals)


class PathRecorder:
    """Collects the model after every addition and builds the :class:`SelectionPath`."""

    def __init__(self, k, n_targets, single, alpha, criterion, start=None):
        self.start = time.perf_counter() if start is None else start
        self.elapsed = np.full(k, np.nan)
        self.k = k
        self.single = single
        self.criterion_name = criterion
        self.alpha = alpha
        self.selected = np.zeros(k, dtype=np.intp)
        self.criterion = np.full(k, np.nan)
        self.loo_mse = np.full(k, np.nan)
        self.coef = np.zeros((k, k, n_targets))
        self.intercept = np.zeros((k, n_targets))
        self.step = 0

    def add(self, feature, y2, residuals, coef=None, intercept=None):
        """Record step ``s``: feature, LOO residuals (m, t), weights (s+1, t), intercept (t,).

        Weights left out here are given for all steps at once by :meth:`set_weights`.
        """
        self.add_errors(feature, *loo_errors(y2, residuals), coef=coef, intercept=intercept)

    def add_errors(self, feature, mse, zero_one, coef=None, intercept=None):
        """:meth:`add` from the LOO errors already reduced: mean squared, zero-one (floats)."""
        s = self.step
        mse, zo = float(mse), float(zero_one)
        self.selected[s] = feature
        self.loo_mse[s] = mse
        self.criterion[s] = mse if self.criterion_name == "squared" else zo
        if coef is not None:
            self.coef[s, : s + 1] = coef
            self.intercept[s] = intercept
        self.elapsed[s] = time.perf_counter() - self.start
        self.step += 1

    def set_weights(self, coef, intercept):
        """Weights of every recorded step: ``coef`` (steps, steps, t), ``intercept`` (steps, t)."""
        steps = coef.shape[0]
        self.coef[:steps, :steps] = coef
        self.intercept[:steps] = intercept

    def path(self, **info):
        coef, intercept = self.coef, self.intercept
        if self.single:
            coef, intercept = coef[:, :, 0], intercept[:, 0]
        return SelectionPath(
            selected=self.selected[: self.step].copy(),
            criterion=self.criterion[: self.step].copy(),
            loo_mse=self.loo_mse[: self.step].copy(),
            coef_path=coef[: self.step, : self.step].copy(),
            intercept_path=intercept[: self.step].copy(),
            alphas=np.full(self.step, self.alpha),
            # elapsed_s: seconds from the call to each addition (machine-dependent).
            info={
                "criterion": self.criterion_name,
                "elapsed_s": self.elapsed[: self.step].copy(),
                **info,
            },
        )
