"""GreedyRLS with ``sample_weight`` and ``class_weight`` (issue 44 item 7): weighted least
squares as RLS on rows scaled by sqrt(w), and the weighted LOO criterion (an example left out
with all of its weight)."""

import numpy as np
import pytest
from sklearn.utils.class_weight import compute_sample_weight

from rlsbench import GreedyRLS
from rlsbench.numerics.ridgecv.loo_grid import choose_alpha_gram, loo_grid_gram
from rlsbench.numerics.rls import fit_rls, ridge_prefix_path
from rlsbench.numerics.selection import greedy_rls

ALPHAS = 2.0 ** np.arange(-6, 7)


def _regression(m=30, n=12, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n))
    y = X[:, :3] @ np.array([1.0, -2.0, 0.5]) + 0.5 * rng.standard_normal(m)
    return X, y


def _labels(m=40, n=10, n_classes=2, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n))
    y = rng.integers(0, n_classes, m)
    X[:, 0] += 1.5 * y
    return X, y


def _weighted_loo_by_refits(X, y, features, alpha, weights, bias):
    """Σ w_j (y_j - p_j)² / Σ w: p_j from the weighted RLS fit (as repeated rows) without j."""
    counts = weights.astype(int)
    residuals = np.empty(X.shape[0])
    for j in range(X.shape[0]):
        keep = np.arange(X.shape[0]) != j
        coef, intercept = fit_rls(
            np.repeat(X[keep][:, features], counts[keep], axis=0),
            np.repeat(y[keep], counts[keep]),
            alpha,
            bias=bias,
        )
        residuals[j] = y[j] - X[j, features] @ coef - intercept
    return float(np.sum(weights * residuals**2) / weights.sum())


# -- what weights equal ---------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["numba", "numpy"])
@pytest.mark.parametrize("alpha", [1.0, "loo"])
@pytest.mark.parametrize("bias", [0.0, 1.0])
def test_weights_of_one_are_no_weights(backend, alpha, bias):
    X, y = _regression()
    est = dict(alpha=alpha, alphas=ALPHAS, bias=bias, backend=backend)
    plain = GreedyRLS(6, **est).fit(X, y)
    ones = GreedyRLS(6, **est).fit(X, y, sample_weight=np.ones(len(y)))
    assert ones.alpha_ == plain.alpha_
    np.testing.assert_array_equal(ones.selected_, plain.selected_)
    np.testing.assert_allclose(ones.coef_, plain.coef_, rtol=1e-10, atol=1e-12)
    assert ones.intercept_ == pytest.approx(plain.intercept_, rel=1e-10, abs=1e-12)
    np.testing.assert_allclose(ones.loo_path_, plain.loo_path_, rtol=1e-10)


@pytest.mark.parametrize("alpha", [0.5, "loo"])
def test_zero_weight_is_dropping_the_example(alpha):
    X, y = _labels(m=50)
    weights = np.ones(len(y))
    weights[[3, 17, 18, 40]] = 0.0
    keep = weights > 0
    est = dict(alpha=alpha, alphas=ALPHAS)
    weighted = GreedyRLS(5, **est).fit(X, y, sample_weight=weights)
    dropped = GreedyRLS(5, **est).fit(X[keep], y[keep])
    assert weighted.alpha_ == dropped.alpha_
    np.testing.assert_array_equal(weighted.selected_, dropped.selected_)
    np.testing.assert_allclose(weighted.coef_, dropped.coef_, rtol=1e-10, atol=1e-12)
    assert weighted.intercept_ == pytest.approx(dropped.intercept_, rel=1e-10)
    # the weighted mean over Σw examples is the plain mean over the kept ones
    np.testing.assert_allclose(weighted.loo_mse_path_, dropped.loo_mse_path_, rtol=1e-10)


def test_integer_weights_fit_the_rls_model_of_repeated_rows():
    X, y = _regression(m=25, n=8, seed=3)
    counts = np.random.default_rng(4).integers(1, 4, len(y))
    X_rep, y_rep = np.repeat(X, counts, axis=0), np.repeat(y, counts)
    # every feature selected: the orders may differ, the final model may not
    weighted = GreedyRLS(8, alpha=0.7).fit(X, y, sample_weight=counts)
    repeated = GreedyRLS(8, alpha=0.7).fit(X_rep, y_rep)
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=1e-10, atol=1e-12)
    assert weighted.intercept_ == pytest.approx(repeated.intercept_, rel=1e-10)
    # along the weighted selection's order, every step's weights are the repeated rows' fit
    coef, intercept, _ = ridge_prefix_path(X_rep, y_rep, weighted.selected_, 0.7, bias=1.0)
    np.testing.assert_allclose(weighted.path_.coef_path, coef, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weighted.path_.intercept_path, intercept, rtol=1e-10)


def test_weighted_loo_leaves_an_example_out_with_all_of_its_weight():
    X, y = _regression(m=18, n=7, seed=5)
    weights = np.random.default_rng(6).integers(0, 4, len(y)).astype(float)
    weights[0] = 2.0
    path = greedy_rls(X, y, 4, 0.8, bias=1.0, sample_weight=weights)
    direct = [
        _weighted_loo_by_refits(X, y, path.selected[: s + 1], 0.8, weights, 1.0) for s in range(4)
    ]
    np.testing.assert_allclose(path.loo_mse, direct, rtol=1e-10)
    np.testing.assert_allclose(path.criterion, direct, rtol=1e-10)
    # each round took the feature whose addition gave the lowest weighted LOO error
    chosen = list(path.selected[:2])
    rivals = {
        f: _weighted_loo_by_refits(X, y, chosen + [f], 0.8, weights, 1.0)
        for f in range(X.shape[1])
        if f not in chosen
    }
    assert min(rivals, key=rivals.get) == path.selected[2]


@pytest.mark.parametrize(("m", "n"), [(14, 30), (30, 5)], ids=["dual", "primal"])
def test_weighted_alpha_search_is_the_weighted_loo_on_all_features(m, n):
    rng = np.random.default_rng(m + n)
    X = rng.standard_normal((m, n))
    y = X[:, 0] - X[:, 1] + rng.standard_normal(m)
    weights = rng.integers(0, 3, m).astype(float)
    weights[:2] = 1.0
    crit, mse = loo_grid_gram(X, y, ALPHAS, bias=1.0, sample_weight=weights)
    direct = [_weighted_loo_by_refits(X, y, np.arange(n), a, weights, 1.0) for a in ALPHAS]
    np.testing.assert_allclose(crit, direct, rtol=1e-8)
    np.testing.assert_allclose(mse, direct, rtol=1e-8)
    assert (
        choose_alpha_gram(X, y, ALPHAS, bias=1.0, sample_weight=weights)
        == ALPHAS[int(np.argmin(direct))]
    )


# -- class_weight ---------------------------------------------------------------------------------
@pytest.mark.parametrize("class_weight", ["balanced", {0: 1.0, 1: 3.0, 2: 0.5}])
def test_class_weight_is_compute_sample_weight(class_weight):
    X, y = _labels(m=45, n_classes=3)
    by_class = GreedyRLS(4, class_weight=class_weight).fit(X, y)
    by_sample = GreedyRLS(4).fit(X, y, sample_weight=compute_sample_weight(class_weight, y))
    np.testing.assert_array_equal(by_class.selected_, by_sample.selected_)
    np.testing.assert_allclose(by_class.coef_, by_sample.coef_, rtol=1e-12)


def test_class_weight_multiplies_sample_weight():
    X, y = _labels()
    sw = np.random.default_rng(2).uniform(0.5, 2.0, len(y))
    both = GreedyRLS(3, class_weight="balanced").fit(X, y, sample_weight=sw)
    product = GreedyRLS(3).fit(X, y, sample_weight=sw * compute_sample_weight("balanced", y))
    np.testing.assert_array_equal(both.selected_, product.selected_)
    np.testing.assert_allclose(both.coef_, product.coef_, rtol=1e-12)


def test_balanced_class_weight_changes_the_fit_on_unbalanced_classes():
    X, y = _labels(m=60)
    y = np.where(np.arange(60) < 48, 0, y)  # mostly class 0
    plain = GreedyRLS(3).fit(X, y)
    balanced = GreedyRLS(3, class_weight="balanced").fit(X, y)
    assert not np.allclose(plain.coef_, balanced.coef_)


# -- refused ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(lambda m: -np.ones(m), id="negative"),
        pytest.param(lambda m: np.r_[np.nan, np.ones(m - 1)], id="nan"),
        pytest.param(lambda m: np.r_[np.inf, np.ones(m - 1)], id="inf"),
        pytest.param(lambda m: np.ones(m - 1), id="too-short"),
        pytest.param(lambda m: np.ones((m, 2)), id="2-d"),
        pytest.param(lambda m: np.zeros(m), id="all-zero"),
    ],
)
def test_bad_sample_weight_is_refused_naming_it(bad):
    X, y = _regression()
    with pytest.raises(ValueError, match="GreedyRLS: sample_weight"):
        GreedyRLS(3).fit(X, y, sample_weight=bad(len(y)))


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(lambda m: -np.ones(m), id="negative"),
        pytest.param(lambda m: np.r_[np.nan, np.ones(m - 1)], id="nan"),
        pytest.param(lambda m: np.ones(m + 1), id="too-long"),
        pytest.param(lambda m: np.zeros(m), id="all-zero"),
    ],
)
def test_numerics_refuse_bad_sample_weight_naming_it(bad):
    X, y = _regression()
    with pytest.raises(ValueError, match="greedy_rls: sample_weight"):
        greedy_rls(X, y, 3, 1.0, sample_weight=bad(len(y)))
    with pytest.raises(ValueError, match="loo_grid_gram: sample_weight"):
        loo_grid_gram(X, y, ALPHAS, sample_weight=bad(len(y)))


def test_zero_one_criterion_takes_no_weights():
    X, y = _labels()
    with pytest.raises(ValueError, match="sample_weight and class_weight need criterion"):
        GreedyRLS(3, criterion="zero_one").fit(X, y, sample_weight=np.ones(len(y)))
    with pytest.raises(ValueError, match="sample_weight needs criterion='squared'"):
        greedy_rls(
            X,
            np.where(y > 0, 1.0, -1.0),
            3,
            1.0,
            criterion="zero_one",
            sample_weight=np.ones(len(y)),
        )


def test_class_weight_on_real_targets_is_refused():
    X, y = _regression()
    with pytest.raises(ValueError, match="class_weight needs class labels"):
        GreedyRLS(3, class_weight="balanced").fit(X, y)


def test_weights_leaving_one_class_are_refused_naming_the_class():
    X, y = _labels()
    with pytest.raises(ValueError, match="single class"):
        GreedyRLS(3).fit(X, y, sample_weight=(y == 1).astype(float))


def test_weights_on_the_array_api_path_are_refused():
    X, y = _regression()
    with pytest.raises(ValueError, match="sample_weight is supported for NumPy input"):
        greedy_rls(X, y, 3, 1.0, backend="array_api", sample_weight=np.ones(len(y)))


def test_weights_do_not_change_the_arrays_given():
    X, y = _regression()
    weights = np.linspace(0.5, 2.0, len(y))
    copies = X.copy(), y.copy(), weights.copy()
    GreedyRLS(3, alpha="loo", alphas=ALPHAS).fit(X, y, sample_weight=weights)
    for given, copy in zip((X, y, weights), copies):
        np.testing.assert_array_equal(given, copy)


def test_tol_stops_on_the_weighted_criterion():
    X, y = _regression(m=40, n=15)
    weights = np.linspace(0.2, 3.0, len(y))
    est = GreedyRLS("auto", tol=1e-3).fit(X, y, sample_weight=weights)
    full = greedy_rls(X, y, 15, 1.0, bias=1.0, sample_weight=weights)
    k = est.n_features_to_select_
    np.testing.assert_array_equal(est.selected_, full.selected[:k])
    np.testing.assert_allclose(est.loo_path_, full.criterion[:k], rtol=1e-12)


def test_several_real_targets_take_weights():
    X, y = _regression(m=30, n=10, seed=8)
    Y = np.column_stack([y, X[:, 4] - y])
    weights = np.random.default_rng(9).integers(0, 3, len(y)).astype(float)
    weights[:3] = 1.0
    keep = weights > 0
    est = dict(alpha="loo", alphas=ALPHAS, task="regression")
    weighted = GreedyRLS(4, **est).fit(X, Y, sample_weight=(weights > 0).astype(float))
    dropped = GreedyRLS(4, **est).fit(X[keep], Y[keep])
    assert weighted.alpha_ == dropped.alpha_
    np.testing.assert_array_equal(weighted.selected_, dropped.selected_)
    np.testing.assert_allclose(weighted.coef_, dropped.coef_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weighted.intercept_, dropped.intercept_, rtol=1e-10)
