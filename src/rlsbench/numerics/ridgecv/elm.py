"""Extreme learning machine features (Huang et al. 2006) as used in Buteneers et al., Section 5.4.

The hidden layer is random and fixed; only the linear read-out is trained (here by the ridge
algorithms of this package). As in the paper, direct connections from the (standardized) inputs
to the read-out are appended to the hidden units, and a constant column carries the bias.
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
    bias : bool
        Append a constant column of ones.
    random_state : int
        Seed of the input weights.

    Attributes
    ----------
    scaler_ : StandardScaler
    weights_ : ndarray of shape (n_inputs, n_hidden)
        Input weights, N(0, 1/n_inputs).
    offsets_ : ndarray of shape (n_hidden,)
        Hidden biases, N(0, 1).
    """

    def __init__(
        self, n_hidden: int = 100, direct: bool = True, bias: bool = True, random_state: int = 0
    ):
        self.n_hidden = n_hidden
        self.direct = direct
        self.bias = bias
        self.random_state = random_state

    def fit(self, X, y=None):
        X = validate_data(self, X, dtype=np.float64)
        self.scaler_ = StandardScaler().fit(X)
        rng = np.random.default_rng(self.random_state)
        d = X.shape[1]
        self.weights_ = rng.standard_normal((d, self.n_hidden)) / np.sqrt(d)
        self.offsets_ = rng.standard_normal(self.n_hidden)
        return self

    def transform(self, X):
        """Features of shape (n_samples, n_hidden + direct·n_inputs + bias)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        Z = self.scaler_.transform(X)
        parts = [np.tanh(Z @ self.weights_ + self.offsets_)]
        if self.direct:
            parts.append(Z)
        if self.bias:
            parts.append(np.ones((Z.shape[0], 1)))
        return np.hstack(parts)
