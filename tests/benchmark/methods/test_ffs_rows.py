"""ffs_rows (Buteneers et al.'s FFS from the covariance rows of the selected features) makes
ffs's choices with the same errors, λ and refits, and never holds an N × N matrix (issue 41,
item 2)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression

from rlsbench.benchmark.methods import get_method
from rlsbench.benchmark.methods.ffs import run as ffs_run
from rlsbench.benchmark.methods.ffs_rows import forward_rows
from rlsbench.benchmark.methods.ffs_rows import run as rows_run
from rlsbench.benchmark.protocol import encode_targets, feasibility, standardize

OPTIONS = {"alpha": 1.0, "criterion": "squared", "n_jobs": 1}


def _regression(m, n, seed=0):
    X, y = make_regression(m, n, n_informative=5, noise=1.0, random_state=seed)
    return standardize(X, X)[0], y


def _classes(m, n, classes, seed=0):
    X, labels = make_classification(
        m, n, n_informative=6, n_redundant=2, n_classes=classes, random_state=seed
    )
    task = "binary" if classes == 2 else "multiclass"
    return standardize(X, X)[0], encode_targets(labels, task)


def _with_zero_column(X, y):
    return np.column_stack([X[:, :3], np.zeros(X.shape[0]), X[:, 3:]]), y


CASES = {
    "regression, bias": (_regression(60, 30), 30, 1.0, 0),
    "regression, no bias": (_regression(60, 30, seed=1), 12, 0.0, 3),
    "four classes": (_classes(90, 25, 4), 12, 1.0, 0),
    "wide, two classes": (_classes(40, 200, 2, seed=1), 15, 1.0, 5),
    "a zero column": (_with_zero_column(*_regression(50, 20, seed=2)), 20, 1.0, 1),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_ffs_rows_selects_what_ffs_selects_with_the_same_errors_lambdas_and_models(case):
    (X, y), k, bias, seed = CASES[case]
    old = ffs_run(X, y, k=k, bias=bias, seed=seed, **OPTIONS)
    new = rows_run(X, y, k=k, bias=bias, seed=seed, **OPTIONS)
    np.testing.assert_array_equal(new.selected, old.selected)
    np.testing.assert_allclose(new.criterion, old.criterion, rtol=1e-9)
    # the same grid point (neighbours are 1.6x apart); the grid's scale, tr(A)/N, is summed
    # in another order
    np.testing.assert_allclose(new.alphas, old.alphas, rtol=1e-12)
    np.testing.assert_allclose(new.coef_path, old.coef_path, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(new.intercept_path, old.intercept_path, rtol=1e-8, atol=1e-10)
    assert new.info["stop_size"] == old.info["stop_size"]


def test_ffs_rows_keeps_the_rows_of_the_selected_features_only():
    X, y = _classes(40, 3000, 2)
    tracemalloc.start()
    forward_rows(X, y, 3, bias=1.0, seed=0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    n = X.shape[1]
    assert peak < 8 * n * n  # one N × N matrix; ffs holds 2K + 1 of them


@pytest.mark.parametrize("k", [0, 31])
def test_ffs_rows_refuses_a_path_length_outside_the_features(k):
    X, y = _regression(40, 30)
    with pytest.raises(ValueError, match="k must be in"):
        forward_rows(X, y, k, bias=1.0, seed=0)


@pytest.mark.parametrize(
    "shape",
    [(180, 10000, 50, 1), (54, 9712, 50, 9), (1794, 4862, 50, 1)],
    ids=["arcene", "nci9", "BASEHOCK"],
)
def test_ffs_rows_fits_the_memory_budget_where_ffs_does_not(shape):
    m, n, k, t = shape
    budget = {"memory_budget_mb": 2000, "time_budget_s": 1e9, "flops_per_second": 2e9}
    assert not feasibility(get_method("ffs"), m, n, k, t, **budget).feasible
    assert feasibility(get_method("ffs_rows"), m, n, k, t, **budget).feasible
