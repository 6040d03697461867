"""Extreme learning machine features (Huang et al. 2006) as used in Buteneers et al., Section 5.4.

The hidden layer is random and fixed; only the linear read-out is trained (here by the ridge
algorithms of this package). As in the paper, direct connections from the (standardized) inputs
to the read-out are appended to the hidden units, and a constant column carries the bias.

With ``inputs="independent"`` the inputs are first reduced to a linearly independent subset
(constant columns and exact linear combinations of earlier columns dropped, on the training
rows). Buteneers et al.'s Table 6 counts N = 100 + 31 features for Ailerons and 100 + 15 for
Elevators, whose 40 and 18 input columns span exactly 31 and 15 dimensions (after centring) on
the training rows: their read-out saw independent inputs only.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.preprocessing import StandardScaler
from sklearn.utils.validation import check_is_fitted, validate_data


class ELMFeatures(TransformerMixin, BaseEstimator):
    """Random tanh hidden layer + direct input connections + constant column.

    Parameters
    ----------
    n_hidden : int
        Number of random hidden units (100 in the paper).
    direct : bool
        Append the standardized inputs (the paper's direct connections).
    inputs : {"all", "independent"}
        ``"independent"``: use only a linearly independent subset of the (centred) input
        columns, chosen greedily in column order on the training rows, for the hidden layer
        and the direct connections.
    bias : bool
        Append a constant column of ones.
    random_state : int
        Seed of the input weights.

    Attributes
    ----------
    scaler_ : StandardScaler
    inputs_ : ndarray of shape (n_used,), int
        The input columns used (all of them with ``inputs="all"``).
    weights_ : ndarray of shape (n_used, n_hidden)
        Input weights, N(0, 1/n_used).
    offsets_ : ndarray of shape (n_hidden,)
        Hidden biases, N(0, 1).
    """

    def __init__(
        self,
        n_hidden: int = 100,
        direct: bool = True,
        bias: bool = True,
        inputs: str = "all",
        random_state: int = 0,
    ):
        self.n_hidden = n_hidden
        self.direct = direct
        self.bias = bias
        self.inputs = inputs
        self.random_state = random_state

    def fit(self, X, y=None):
        X = validate_data(self, X, dtype=np.float64)
        if self.inputs not in ("all", "independent"):
            raise ValueError(f"inputs must be 'all' or 'independent', got {self.inputs!r}")
        self.scaler_ = StandardScaler().fit(X)
        Z = self.scaler_.transform(X)
        self.inputs_ = (
            independent_columns(Z) if self.inputs == "independent" else np.arange(X.shape[1])
        )
        if self.inputs_.size == 0:
            raise ValueError("ELM inputs: every input column is constant on the training rows")
        rng = np.random.default_rng(self.random_state)
        d = self.inputs_.shape[0]
        self.weights_ = rng.standard_normal((d, self.n_hidden)) / np.sqrt(d)
        self.offsets_ = rng.standard_normal(self.n_hidden)
        return self

    def transform(self, X):
        """Features of shape (n_samples, n_hidden + direct·n_used + bias)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        Z = self.scaler_.transform(X)[:, self.inputs_]
        parts = [np.tanh(Z @ self.weights_ + self.offsets_)]
        if self.direct:
            parts.append(Z)
        if self.bias:
            parts.append(np.ones((Z.shape[0], 1)))
        return np.hstack(parts)


def independent_columns(Z, rtol: float = 1e-8) -> np.ndarray:
    """Indices of a linearly independent subset of the centred columns of ``Z``, in order.

    A column is kept when its component orthogonal to the kept ones (and to the constant) is
    longer than ``rtol`` times the column itself: constant columns and exact linear
    combinations of earlier columns (such as Ailerons' ``diffSeTime`` columns, differences of
    its ``SeTime`` columns) are dropped.

    Parameters
    ----------
    Z : ndarray of shape (n_samples, n_columns)
    rtol : float
        Relative length below which a residual counts as zero.

    Returns
    -------
    ndarray of shape (n_kept,), int
    """
    Z = np.asarray(Z, dtype=np.float64)
    Zc = Z - Z.mean(axis=0)
    basis = np.empty((Z.shape[0], 0))
    kept = []
    for j in range(Z.shape[1]):
        z = Zc[:, j]
        size = np.linalg.norm(z)
        if size == 0:
            continue
        r = z - basis @ (basis.T @ z)
        r -= basis @ (basis.T @ r)  # re-orthogonalise: one Gram-Schmidt pass loses orthogonality
        if np.linalg.norm(r) > rtol * size:
            basis = np.column_stack([basis, r / np.linalg.norm(r)])
            kept.append(j)
    return np.array(kept, dtype=np.intp)
