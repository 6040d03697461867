"""The sparse-path baselines on the high-dimensional and multiclass sets (issue 41 item 2): the
coordinate-descent paths stop once k features have entered and still give the order of the
whole path, and OMP runs one pursuit per class on one-vs-rest targets.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import linear_model as sklm
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import ConvergenceWarning

from rlsbench.benchmark.methods import get_method
from rlsbench.benchmark.methods.ranking import centered_targets, complete, correlation_scores
from rlsbench.benchmark.methods.sparse import (
    N_ALPHAS,
    alpha_grid,
    enet_entry_path,
    enet_order,
    entry_order,
    lasso_order,
)
from rlsbench.benchmark.protocol import encode_targets, standardize


def _wide(m=40, n=120, seed=0):
    X, y = make_regression(m, n, n_informative=30, noise=1.0, random_state=seed)
    X, _ = standardize(X, X)
    return X, y


def _multiclass(m=90, n=60, classes=4, seed=0):
    X, labels = make_classification(
        m, n, n_informative=10, n_redundant=5, n_classes=classes, random_state=seed
    )
    X, _ = standardize(X, X)
    return X, encode_targets(labels, "multiclass")


def _multiclass_wide():
    """More columns than rows: the multi-task path on X itself."""
    return _multiclass(m=60, n=90)


def _whole_path(X, Y, l1_ratio):
    """One call of scikit-learn's enet_path over the whole grid (the method before the stop)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        alphas, coefs, _ = sklm.enet_path(
            X, Y if Y.shape[1] > 1 else Y[:, 0], l1_ratio=l1_ratio, alphas=N_ALPHAS
        )
    return alphas, coefs


@pytest.mark.parametrize("data", [_wide, _multiclass])
def test_the_grid_is_the_one_enet_path_computes(data):
    X, y = data()
    Y = centered_targets(y)
    alphas, _ = _whole_path(X, Y, 0.5)
    np.testing.assert_allclose(alpha_grid(X, Y, l1_ratio=0.5), alphas, rtol=1e-12)


@pytest.mark.parametrize(
    ("data", "l1_ratio"), [(_wide, 0.5), (_multiclass_wide, 0.5), (_multiclass_wide, 1.0)]
)
def test_the_stopped_path_solves_each_lambda_it_reaches_as_the_whole_path_does(data, l1_ratio):
    X, y = data()
    Y = centered_targets(y)
    _, whole = _whole_path(X, Y, l1_ratio)
    stopped = enet_entry_path(X, Y, 10, l1_ratio=l1_ratio)
    steps = stopped.shape[-1]
    assert steps < N_ALPHAS  # it did stop
    np.testing.assert_array_equal(stopped, whole[..., :steps])
    rows = np.abs(stopped[..., -1]).sum(axis=0) if Y.shape[1] > 1 else np.abs(stopped[:, -1])
    assert np.count_nonzero(rows) >= 10


def _objective(X, Y, W, alpha, l1_ratio):
    """scikit-learn's multi-task elastic-net objective, times the number of rows (the scale
    of its duality gap): ½‖Y − XWᵀ‖² + m·α·(l1_ratio·‖W‖₂,₁ + ½(1 − l1_ratio)‖W‖²)."""
    m = X.shape[0]
    penalty = l1_ratio * np.linalg.norm(W, axis=0).sum() + 0.5 * (1 - l1_ratio) * np.sum(W**2)
    return 0.5 * np.sum((Y - X @ W.T) ** 2) + m * alpha * penalty


@pytest.mark.parametrize("l1_ratio", [0.5, 1.0])
def test_the_multi_task_path_on_more_rows_than_columns_solves_the_same_problem(l1_ratio):
    """Where m > n the multi-task solver runs on X's QR factors (R and QᵀY): at every λ it
    reaches, the objective on X is within scikit-learn's tolerance of the path on X itself
    (1e-4 · ‖Y‖², the duality gap both stop at), and it reaches the same λ."""
    X, y = _multiclass(m=300, n=40)
    Y = centered_targets(y)
    alphas, whole = _whole_path(X, Y, l1_ratio)
    stopped = enet_entry_path(X, Y, 10, l1_ratio=l1_ratio)
    steps = stopped.shape[-1]
    assert 1 < steps < N_ALPHAS
    assert np.count_nonzero(np.abs(whole[..., steps - 2]).sum(axis=0)) < 10  # the same stop
    tolerance = 1e-4 * np.sum(Y**2)
    for step in range(steps):
        ours = _objective(X, Y, stopped[..., step], alphas[step], l1_ratio)
        theirs = _objective(X, Y, whole[..., step], alphas[step], l1_ratio)
        assert abs(ours - theirs) <= tolerance
    np.testing.assert_array_equal(entry_order(stopped)[:10], entry_order(whole[..., :steps])[:10])


@pytest.mark.parametrize("k", [1, 5, 25])
@pytest.mark.parametrize(
    ("order", "data", "l1_ratio"),
    [
        (enet_order, _wide, 0.5),
        (enet_order, _multiclass_wide, 0.5),
        (lasso_order, _multiclass_wide, 1.0),
    ],
)
def test_the_first_k_of_the_order_are_those_of_the_whole_path(order, data, l1_ratio, k):
    X, y = data()
    Y = centered_targets(y)
    _, whole = _whole_path(X, Y, l1_ratio)
    expected = complete(entry_order(whole), correlation_scores(X, Y))
    np.testing.assert_array_equal(order(X, y, k)[:k], expected[:k])


# -- OMP, one-vs-rest -------------------------------------------------------------------------
def _one_vs_rest_omp(X, Y, k):
    """The union of the classes' OMP supports, by the step at which a feature first joins any
    of them (ties by the norm of its coefficients over the classes there, then by index)."""
    per_class = []
    for column in centered_targets(Y).T:
        coefs = sklm.orthogonal_mp(X, column, n_nonzero_coefs=k, return_path=True)
        per_class.append([coefs[:, min(step, coefs.shape[1] - 1)] for step in range(k)])
    order = []
    for step in range(k):
        at_step = np.array([class_path[step] for class_path in per_class])  # (t, n)
        joined = [j for j in np.flatnonzero(at_step.any(axis=0)) if j not in order]
        norms = np.linalg.norm(at_step[:, joined], axis=0)
        order += [joined[i] for i in np.lexsort((joined, -norms))]
    return order


def test_omp_takes_multiclass_targets():
    assert "multiclass" in get_method("omp").tasks


def test_omp_on_one_vs_rest_columns_orders_the_union_of_the_classes_supports():
    X, Y = _multiclass()
    k = 6
    path = get_method("omp").select(
        X, Y, alpha=1.0, k=k, criterion="squared", bias=1.0, seed=0, n_jobs=1
    )
    expected = _one_vs_rest_omp(X, Y, k)
    np.testing.assert_array_equal(path.selected, expected[:k])
    assert path.coef_path.shape == (k, k, Y.shape[1])


def test_omp_on_one_column_is_unchanged_by_the_one_vs_rest_form():
    X, y = _wide()
    coefs = sklm.orthogonal_mp(X, y - y.mean(), n_nonzero_coefs=8, return_path=True)
    expected = []
    for step in range(8):
        expected += [j for j in np.flatnonzero(coefs[:, step]) if j not in expected]
    path = get_method("omp").select(
        X, y, alpha=1.0, k=8, criterion="squared", bias=1.0, seed=0, n_jobs=1
    )
    np.testing.assert_array_equal(path.selected, expected)
