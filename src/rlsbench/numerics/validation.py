"""Input checks shared by the RLS core and every selector.

Each check raises ``ValueError`` whose message starts with the name of the offending
parameter, so that a bad call is diagnosed from the message alone.
"""

from __future__ import annotations

import numbers

import numpy as np
from array_api_compat import is_array_api_obj, is_numpy_array

from rlsbench.lazy import lazy_module

#: numba kernels, compiled on first use (not when the workflow reads the methods)
_scan = lazy_module("rlsbench.numerics._scan")

CRITERIA = ("squared", "zero_one")


def warm_up_input_scan(X) -> None:
    """Compile, ahead of a timing, the one-pass scan that :func:`check_numeric` takes for an
    array like ``X``: only where X is large enough to take it (a small X compiles nothing),
    for X as it is and for the read-only view the selectors check (numba compiles the two
    kinds apart).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    """
    if np.size(X) < _scan.MIN_ELEMENTS:
        return
    large = np.zeros((_scan.MIN_ELEMENTS // 512, 512))
    for writeable in {bool(np.asarray(X).flags.writeable), False}:
        large.flags.writeable = writeable
        _scan.max_abs(large)


def check_numeric(values, name, *, return_max_abs=False, **check_array_kwargs):
    """``values`` as a finite float64 array (:func:`sklearn.utils.check_array`), refused with
    a one-line message that starts with ``name`` (the parameter).

    Arrays of other array-API libraries (CuPy, PyTorch, ...) are refused with ``TypeError``:
    the code that calls this check is NumPy-only (the functions that run on other libraries,
    greedy RLS, the LOO λ grid and the LOO path, dispatch before it).
    """
    from sklearn.utils import check_array  # not at import: reading the workflow loads this

    if is_array_api_obj(values) and not is_numpy_array(values):
        raise TypeError(
            f"{name}: NumPy input only here; greedy_rls, the LOO λ grid (loo_grid, "
            "choose_alpha) and the LOO path (ridge_path) run on other array libraries "
            f"(got {type(values).__module__}.{type(values).__name__})"
        )
    if check_array_kwargs.get("ensure_2d", True) and np.ndim(values) != 2:
        # before check_array, whose message dumps the whole array over several lines
        raise ValueError(
            f"{name} must be 2-d (n_samples, n_features), got shape {np.shape(values)}"
        )
    try:
        finite_2d = check_array_kwargs.get("ensure_2d", True) and (
            check_array_kwargs.get("ensure_all_finite", True) is True
        )
        if finite_2d:
            # one pass for finiteness (and none of scikit-learn's); its message if not finite
            values = check_array(
                values,
                dtype=np.float64,
                input_name=name,
                **{**check_array_kwargs, "ensure_all_finite": False},
            )
            top = _scan.max_abs(values)
            if np.isfinite(top):
                return (values, top) if return_max_abs else values
        values = check_array(values, dtype=np.float64, input_name=name, **check_array_kwargs)
    except ValueError as exc:
        message = " ".join(str(exc).split())
        if "could not convert" in message:
            raise ValueError(f"{name} must be numeric: {message}") from None
        if not message.startswith((name, f"Input {name} ")):
            raise ValueError(f"{name}: {message}") from None
        raise
    return (values, _scan.max_abs(values)) if return_max_abs else values


def check_X_y(X, y, *, return_x_scale=False):
    """Validate a training set.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or (n_samples, n_targets)

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,) or (n_samples, n_targets), float64
    x_scale : float
        max ``|x|``, only with ``return_x_scale`` (from the same pass as the finiteness check).
    """
    X, x_scale = check_numeric(X, "X", return_max_abs=True, ensure_min_samples=2)
    y = check_numeric(y, "y", ensure_2d=False)
    if y.ndim not in (1, 2):
        raise ValueError(f"y must have shape (n_samples,) or (n_samples, n_targets), got {y.shape}")
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"y has {y.shape[0]} samples but X has {X.shape[0]}: X and y must have the same "
            "number of rows (samples)"
        )
    if y.ndim == 2 and y.shape[1] == 0:
        raise ValueError("y has zero targets (columns)")
    return (X, y, x_scale) if return_x_scale else (X, y)


def check_alpha(alpha, name="alpha"):
    """λ must be a finite real > 0 (a Python or NumPy scalar, or a 0-d real array)."""
    if isinstance(alpha, np.ndarray) and alpha.ndim == 0 and alpha.dtype.kind in "fiu":
        alpha = alpha.item()  # e.g. np.median of a λ grid; np.bool_ stays refused
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise ValueError(f"{name} must be a real number > 0, got {alpha!r}")
    alpha = float(alpha)
    if not np.isfinite(alpha) or alpha <= 0:
        raise ValueError(f"{name} must be a finite real number > 0 (the λ of RLS), got {alpha!r}")
    return alpha


def check_alphas(alphas):
    """A non-empty grid of λ values, each > 0."""
    alphas = np.asarray(alphas, dtype=np.float64).ravel()
    if alphas.size == 0:
        raise ValueError("alphas must hold at least one λ value")
    if not np.all(np.isfinite(alphas)) or np.any(alphas <= 0):
        bad = alphas[~(np.isfinite(alphas) & (alphas > 0))][0]
        raise ValueError(f"alphas must all be finite and > 0 (λ of RLS), got {bad!r}")
    return alphas


def check_bias(bias):
    if isinstance(bias, bool) or not isinstance(bias, numbers.Real) or not np.isfinite(bias):
        raise ValueError(f"bias must be a finite real number (0 = no bias feature), got {bias!r}")
    return float(bias)


def check_k(k, n_features, name="k"):
    """Number of features to select: an int in [1, n_features]."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {k!r}")
    k = int(k)
    if k < 1:
        raise ValueError(f"{name} must be >= 1, got {k}")
    if k > n_features:
        raise ValueError(
            f"{name}={k} is larger than the number of features n_features={n_features}"
        )
    return k


def check_criterion(criterion, y):
    """Validate the criterion name and, for ``zero_one``, the labels it needs.

    ``zero_one`` needs labels in {-1, +1}: one column with both classes, or a one-vs-rest
    coding in which at least two classes (arg-max columns) occur.
    """
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {CRITERIA}, got {criterion!r}")
    if criterion == "zero_one":
        if not np.all((y == 1.0) | (y == -1.0)):
            raise ValueError("criterion='zero_one' needs labels y in {-1, +1}")
        if y.ndim == 1 or y.shape[1] == 1:
            n_classes = np.unique(y).size
        else:
            n_classes = np.unique(np.argmax(y, axis=1)).size
        if n_classes < 2:
            raise ValueError(
                "criterion='zero_one' needs at least two classes in y, got a single class"
            )
    return criterion


def check_problem(X, y, k, alpha, bias, criterion, *, return_x_scale=False):
    """All checks of a selector call; returns the validated values (and max ``|x|`` with
    ``return_x_scale``)."""
    X, y, x_scale = check_X_y(X, y, return_x_scale=True)
    k = check_k(k, X.shape[1])
    alpha = check_alpha(alpha)
    bias = check_bias(bias)
    criterion = check_criterion(criterion, y)
    checked = (X, y, k, alpha, bias, criterion)
    return (*checked, x_scale) if return_x_scale else checked
