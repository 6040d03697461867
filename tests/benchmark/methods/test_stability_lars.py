"""stability_lars's halves, written into two buffers reused across halves, give the numbers of
the plain loop (a new weighted, centred copy per half and lars_path's own copy and Xᵀy): the
selection probabilities and earliness are equal to the last bit (issue 41, item 2)."""

from __future__ import annotations

import types
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import lars_path

from rlsbench.benchmark.methods import stability_lars
from rlsbench.benchmark.methods.ranking import centered_targets
from rlsbench.benchmark.methods.somp import somp_support
from rlsbench.benchmark.protocol import encode_targets, standardize


def _scores_one_copy_per_half(X, y, q, seed):
    """The loop as first written (before the buffers)."""
    rng = np.random.default_rng(seed)
    m, n = X.shape
    Y = centered_targets(y)
    half = max(m // 2, 2)
    probability, earliness = np.zeros(n), np.zeros(n)
    for _ in range(stability_lars.N_SUBSAMPLES):
        rows = rng.choice(m, size=half, replace=False)
        weights = rng.choice([stability_lars.WEAKNESS, 1.0], size=n)
        Xs = X[rows] * weights
        Xs -= Xs.mean(axis=0)
        Ys = Y[rows] - Y[rows].mean(axis=0)
        first = np.full(n, np.inf)
        if Ys.shape[1] > 1:
            order = np.asarray(somp_support(Xs, Ys, q), dtype=np.intp)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                coefs = lars_path(Xs, Ys[:, 0], method="lasso", max_iter=q)[2]
            order = stability_lars._entries(coefs)[:q]
        first[order] = np.arange(order.size)
        entered = np.isfinite(first)
        probability[entered] += 1.0
        earliness[entered] += 1.0 - first[entered] / q
    return probability / stability_lars.N_SUBSAMPLES, earliness / stability_lars.N_SUBSAMPLES


def _regression(m, n, seed=0):
    X, y = make_regression(m, n, n_informative=8, noise=5.0, random_state=seed)
    return standardize(X, X)[0], y


def _collinear(m, n, seed=0):
    """One-hot blocks (their sum is constant: LARS meets degenerate regressors) and copies."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 4, size=(m, n // 8))
    onehot = np.concatenate([codes == c for c in range(4)], axis=1).astype(np.float64)
    X = np.column_stack([onehot, onehot[:, :5], rng.standard_normal((m, n - onehot.shape[1] - 5))])
    y = np.where(onehot[:, :3].sum(axis=1) + 0.3 * rng.standard_normal(m) > 0.5, 1.0, -1.0)
    return standardize(X, X)[0], y


def _classes(m, n, classes, seed=0):
    X, labels = make_classification(m, n, n_informative=6, n_classes=classes, random_state=seed)
    return standardize(X, X)[0], encode_targets(labels, "multiclass")


CASES = {
    "tall regression": (_regression(400, 40), 20),
    "wide regression": (_regression(60, 300, seed=1), 25),
    "collinear binary": (_collinear(300, 64), 30),
    "three classes": (_classes(120, 50, 3), 10),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_reused_buffers_give_the_plain_loops_scores_bit_for_bit(case, monkeypatch):
    monkeypatch.setattr(stability_lars, "N_SUBSAMPLES", 20)
    (X, y), q = CASES[case]
    expected = _scores_one_copy_per_half(X, y, q, seed=7)
    got = stability_lars.selection_scores(X, y, q, seed=7)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


def test_a_half_whose_lars_path_fails_takes_the_same_path_from_the_gram_matrix(monkeypatch):
    """scikit-learn's lars_path without a Gram matrix can raise on a rank-deficient half (PMLB's
    4544_GeographicalOriginalofMusic stopped the reference benchmark's run); such a half is
    computed again from the precomputed Gram matrix, the same LARS-lasso path: on data where
    both forms work they select the same features in the same order."""
    X, y = make_regression(n_samples=80, n_features=15, n_informative=6, random_state=0)
    expected = stability_lars.selection_scores(X, y, 6, seed=3)
    calls = {"failed": 0, "gram": 0}

    def flaky(X, y, **kwargs):
        if kwargs.get("Gram") is None:
            calls["failed"] += 1
            raise ValueError("shapes (40,5) and (4,) not aligned: 5 (dim 1) != 4 (dim 0)")
        calls["gram"] += 1
        return lars_path(X, y, **kwargs)

    monkeypatch.setattr(stability_lars, "sklm", types.SimpleNamespace(lars_path=flaky))
    probability, earliness = stability_lars.selection_scores(X, y, 6, seed=3)
    assert calls["failed"] == calls["gram"] == stability_lars.N_SUBSAMPLES
    np.testing.assert_array_equal(probability, expected[0])
    np.testing.assert_array_equal(earliness, expected[1])
