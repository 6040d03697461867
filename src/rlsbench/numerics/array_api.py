"""Array namespaces of the RLS core: NumPy input keeps the NumPy/numba code, any other library
of the array API standard (CuPy, PyTorch, array-api-strict) goes to the namespace-generic code.

The namespace comes from :func:`array_api_compat.array_namespace`, as in scikit-learn. Lists,
scalars and NumPy arrays count as NumPy input: the dispatch of every function is "NumPy (or
nothing array-like) → the existing NumPy code, unchanged", so CPU results and speed do not
depend on this module.
"""

from __future__ import annotations

import numpy as np
from array_api_compat import (
    array_namespace,
    device,
    is_array_api_obj,
    is_cupy_array,
    is_numpy_array,
    is_torch_array,
)

from rlsbench.numerics.validation import check_criterion

__all__ = [
    "non_numpy_namespace",
    "numpy_only",
    "to_numpy",
    "is_cuda_array",
    "check_X_y_xp",
    "check_finite_xp",
]


def non_numpy_namespace(*arrays):
    """The array-API namespace of ``arrays`` when one of them is a non-NumPy array, else None.

    Parameters
    ----------
    *arrays : array-like or None
        NumPy arrays, lists and scalars are "NumPy input"; None entries are skipped.

    Returns
    -------
    module or None
        The (compat-wrapped) namespace shared by the non-NumPy arrays; None for NumPy input.
    """
    foreign = [a for a in arrays if is_array_api_obj(a) and not is_numpy_array(a)]
    if not foreign:
        return None
    return array_namespace(*foreign)


def numpy_only(name, *arrays):
    """Refuse non-NumPy arrays in a selector that only has a NumPy implementation.

    Raises
    ------
    TypeError
        One line naming the selector and the array type it was given.
    """
    for a in arrays:
        if is_array_api_obj(a) and not is_numpy_array(a):
            raise TypeError(
                f"{name} supports NumPy input only; greedy_rls runs on other array libraries "
                f"(got {type(a).__module__}.{type(a).__name__})"
            )


def to_numpy(x):
    """A host NumPy copy of an array of any namespace (a view for NumPy input)."""
    if is_numpy_array(x) or not is_array_api_obj(x):
        return np.asarray(x)
    if is_cupy_array(x):
        return x.get()
    if is_torch_array(x):
        return x.detach().cpu().numpy()
    return np.from_dlpack(x)


def is_cuda_array(x):
    """Whether ``x`` lives in CUDA device memory (CuPy arrays, torch tensors on ``cuda``)."""
    return hasattr(x, "__cuda_array_interface__")


def _as_float64(v, name, xp, *, ndim, finite=True):
    if v.ndim not in ndim:
        shapes = " or ".join(f"{k}-d" for k in ndim)
        raise ValueError(f"{name} must be {shapes}, got shape {tuple(v.shape)}")
    if not (xp.isdtype(v.dtype, "real floating") or xp.isdtype(v.dtype, "integral")):
        raise ValueError(f"{name} must be numeric (real), got dtype {v.dtype}")
    v = xp.astype(v, xp.float64, copy=False)
    if finite:
        check_finite_xp(v, name, xp)
    return v


def check_finite_xp(v, name, xp):
    """Refuse NaN and infinity in ``v`` (``ValueError`` naming ``name``)."""
    if not bool(xp.all(xp.isfinite(v))):
        raise ValueError(f"{name} contains NaN or infinity")


def check_X_y_xp(X, y, xp, criterion=None, finite_X=True):
    """:func:`rlsbench.numerics.validation.check_X_y` for arrays of namespace ``xp``.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,) or (n_samples, n_targets)
    xp : namespace
    criterion : str or None
        Checked against ``y`` (on a host copy of y) when given.
    finite_X : bool, default=True
        Check X for NaN and infinity here. Greedy RLS checks its column sums instead (an
        elementwise ``isfinite`` allocates temporaries of the size of X on some libraries)
        and calls :func:`check_finite_xp` only when one of them is not finite.

    Returns
    -------
    X, y : float64 arrays of namespace ``xp`` on the device of ``X`` (no copy when they
        already are)
    """
    X = _as_float64(xp.asarray(X), "X", xp, ndim=(2,), finite=finite_X)
    y = _as_float64(xp.asarray(y, device=device(X)), "y", xp, ndim=(1, 2))
    if X.shape[0] < 2:
        raise ValueError(f"X has {X.shape[0]} sample(s), at least 2 are required")
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"y has {y.shape[0]} samples but X has {X.shape[0]}: X and y must have the same "
            "number of rows (samples)"
        )
    if y.ndim == 2 and y.shape[1] == 0:
        raise ValueError("y has zero targets (columns)")
    if criterion is not None:
        check_criterion(criterion, to_numpy(y))
    return X, y
