"""The record every selector returns: the forward path of a selection run.

All selectors (greedy RLS, its baselines, and the other papers' methods) return a
:class:`SelectionPath`, so that the evaluation protocol can score a held-out fold after every
addition without refitting from scratch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from array_api_compat import device

from rlsbench.numerics.array_api import non_numpy_namespace
from rlsbench.numerics.validation import check_numeric


@dataclass(frozen=True)
class SelectionPath:
    """Features in the order chosen, with the model after every addition.

    Shapes use ``k`` = number of steps, ``t`` = number of outputs (absent for a single output).

    Parameters
    ----------
    selected : ndarray of shape (k,), int
        Feature indices (columns of X) in selection order.
    criterion : ndarray of shape (k,)
        The method's own selection criterion after each addition (LOO error for the RLS
        selectors; NaN where a method has none).
    loo_mse : ndarray of shape (k,)
        Mean squared LOO error after each addition, summed over outputs (NaN where unknown).
    coef_path : ndarray of shape (k, k) or (k, k, t)
        Row ``s`` holds the weights of the features of step ``s`` (:meth:`subset`):
        ``selected[:s + 1]``, or ``subsets[s]`` for a path that is not nested (columns beyond
        ``s`` are zero).
    intercept_path : ndarray of shape (k,) or (k, t)
        Constant added to the decision value after each addition (``bias * w_bias`` for RLS
        with a bias feature; zero without).
    alphas : ndarray of shape (k,)
        Regularization parameter λ of the model after each addition (constant for the RLS
        selectors; re-chosen per step by e.g. Buteneers et al.'s FFS).
    info : dict
        Method-specific extras (e.g. ``{"n_candidates_scored": ...}``); never needed to score.
    subsets : tuple of k ndarrays of int, or None
        None (the default) for a nested path, in which step ``s`` holds ``selected[:s + 1]``.
        For a method whose best subsets are not nested (best-subset selection, one fit per
        size), ``subsets[s]`` holds the ``s + 1`` features of step ``s`` in the order of row
        ``s`` of ``coef_path``; ``subsets[-1]`` equals ``selected``.

    Raises
    ------
    ValueError
        ``subsets`` is given but does not hold one subset of ``s + 1`` distinct indices per
        step ``s``, or its last subset is not ``selected``.
    """

    selected: np.ndarray
    criterion: np.ndarray
    loo_mse: np.ndarray
    coef_path: np.ndarray
    intercept_path: np.ndarray
    alphas: np.ndarray
    info: dict = field(default_factory=dict)
    subsets: tuple | None = None

    def __post_init__(self):
        if self.subsets is None:
            return
        subsets = tuple(np.asarray(sub) for sub in self.subsets)
        if len(subsets) != self.n_steps:
            raise ValueError(
                f"SelectionPath.subsets holds {len(subsets)} subsets for {self.n_steps} steps"
            )
        for s, sub in enumerate(subsets):
            if sub.shape != (s + 1,) or sub.dtype.kind not in "iu" or np.unique(sub).size != s + 1:
                raise ValueError(
                    f"SelectionPath.subsets[{s}] must hold {s + 1} distinct feature indices, "
                    f"got {sub.tolist()}"
                )
        if not np.array_equal(subsets[-1], np.asarray(self.selected)):
            raise ValueError(
                f"SelectionPath.subsets[-1] ({subsets[-1].tolist()}) must equal selected "
                f"({np.asarray(self.selected).tolist()}): the last model's weights are "
                "read along selected"
            )
        object.__setattr__(self, "subsets", subsets)

    @property
    def n_steps(self) -> int:
        return int(self.selected.shape[0])

    @property
    def nested(self) -> bool:
        """Whether step ``s`` holds ``selected[:s + 1]`` (no ``subsets``)."""
        return self.subsets is None

    def subset(self, s: int) -> np.ndarray:
        """Features of the model after step ``s`` (0-based), in the order of row ``s`` of
        ``coef_path``: ndarray of shape (s + 1,)."""
        if self.subsets is None:
            return self.selected[: s + 1]
        return self.subsets[s]

    def decision_path(self, X) -> np.ndarray:
        """Decision values of the model after every addition.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
            NumPy, or the array library of ``coef_path`` (a path fitted on a GPU scores
            there). NumPy input must be finite, 2-d and hold every selected column
            (``ValueError`` naming X otherwise).

        Returns
        -------
        array of shape (k, n_samples) or (k, n_samples, t)
        """
        xp = non_numpy_namespace(X, self.coef_path)
        if xp is not None:
            if self.subsets is not None:
                raise NotImplementedError(
                    "decision_path of a path that is not nested (subsets) takes NumPy X"
                )
            return self._decision_path_xp(X, xp)
        X = check_numeric(X, "X", ensure_min_samples=0)
        if self.subsets is not None:
            return self._decision_path_subsets(X)
        if self.n_steps and X.shape[1] <= int(np.max(self.selected)):
            # indexing would fail with "index out of bounds" naming no parameter
            raise ValueError(
                f"X has {X.shape[1]} features, but the path selected feature "
                f"{int(np.max(self.selected))}: X must have the columns of the training data"
            )
        Xs = X[:, self.selected]  # (n_samples, k)
        if self.coef_path.ndim == 2:
            # Row s of coef_path is zero beyond s, so one product gives every step.
            return self.coef_path @ Xs.T + self.intercept_path[:, None]
        return np.einsum("skt,mk->smt", self.coef_path, Xs) + self.intercept_path[:, None, :]

    def _decision_path_subsets(self, X):
        """:meth:`decision_path` of a path that is not nested: one product per step."""
        widest = max(int(np.max(sub)) for sub in self.subsets)
        if X.shape[1] <= widest:
            raise ValueError(
                f"X has {X.shape[1]} features, but the path selected feature {widest}: X must "
                "have the columns of the training data"
            )
        coef = np.asarray(self.coef_path)
        out = np.empty((self.n_steps, X.shape[0], *coef.shape[2:]))
        for s, sub in enumerate(self.subsets):
            out[s] = X[:, sub] @ coef[s, : s + 1] + self.intercept_path[s]
        return out

    def _decision_path_xp(self, X, xp):
        coef = xp.asarray(self.coef_path)
        dev = device(coef)
        X = xp.asarray(X, device=dev)
        Xs = xp.take(X, xp.asarray(np.asarray(self.selected, dtype=np.int64), device=dev), axis=1)
        icpt = xp.asarray(self.intercept_path, device=dev)
        if coef.ndim == 2:
            return coef @ Xs.T + icpt[:, None]
        return xp.sum(coef[:, None, :, :] * Xs[None, :, :, None], axis=2) + icpt[:, None, :]
