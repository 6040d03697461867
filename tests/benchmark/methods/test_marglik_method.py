"""The marginal-likelihood forward selector registered for the main protocol."""

import numpy as np
import pytest

from rlsbench.benchmark.methods import get_method
from rlsbench.benchmark.methods.marglik import SIGMA2
from rlsbench.numerics.marglik import forward_marglik, marginal_loss


def _regression(seed=0, m=50, n=12):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n))
    y = X[:, [2, 5]] @ [1.5, -1.0] + 3.0 + 0.3 * rng.standard_normal(m)
    return X, y


def test_marglik_forward_is_registered_for_regression_only():
    method = get_method("marglik_forward")
    assert method.tasks == ("regression",)
    assert not method.own_alpha


@pytest.mark.parametrize("bias", [0.0, 1.0, 2.5])
def test_selection_path_models_are_ridge_fits_on_the_selected_features(bias):
    X, y = _regression()
    if bias == 0.0:
        y = y - 3.0  # without a bias feature the model has no intercept
    alpha = 0.7
    path = get_method("marglik_forward").run(
        X, y, alpha=alpha, k=5, criterion="squared", bias=bias, seed=0, n_jobs=1
    )
    assert path.selected.shape == (5,) and len(set(path.selected)) == 5
    assert set(path.selected[:2]) == {2, 5}
    for s in range(5):
        Xs = X[:, path.selected[: s + 1]]
        if bias:
            Xs = np.column_stack([Xs, np.full(len(y), bias)])
        w = np.linalg.solve(Xs.T @ Xs + alpha * np.eye(Xs.shape[1]), Xs.T @ y)
        decision = path.decision_path(X)[s]
        np.testing.assert_allclose(decision, Xs @ w, rtol=1e-9, atol=1e-9)
        assert np.isclose(path.criterion[s], marginal_loss(Xs, y, alpha, SIGMA2), rtol=1e-10)
    np.testing.assert_array_equal(path.alphas, np.full(5, alpha))
    assert np.all(np.isfinite(path.loo_mse))


def test_without_bias_the_selector_is_forward_marglik_on_raw_features():
    X, y = _regression(1)
    path = get_method("marglik_forward").run(
        X, y, alpha=2.0, k=4, criterion="squared", bias=0.0, seed=0, n_jobs=1
    )
    ref = forward_marglik(X, y, 4, 2.0, sigma2=SIGMA2)
    np.testing.assert_array_equal(path.selected, ref.selected)
    assert np.all(path.intercept_path == 0)


def test_multi_output_targets_are_rejected():
    X, y = _regression()
    with pytest.raises(ValueError, match="one output"):
        get_method("marglik_forward").run(
            X,
            np.column_stack([y, y]),
            alpha=1.0,
            k=2,
            criterion="squared",
            bias=0.0,
            seed=0,
            n_jobs=1,
        )
