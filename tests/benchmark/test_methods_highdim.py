"""The methods that scale to the high-dimensional sets (issue 41, item 2): mRMR's FCQ form in
O(kmn) (mrmr_f), OMP on several targets (somp), RFE dropping a fraction per round
(rfe_fraction) and stability selection on LARS paths (stability_lars). Each computes what its
definition says (against a direct, slow reference), the original methods keep theirs, and the
budget model lets the new ones run on the shapes where the old ones are skipped.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import feature_selection as skfs
from sklearn.datasets import make_classification, make_regression

from rlsbench.benchmark.methods import get_method
from rlsbench.benchmark.methods.mrmr_f import REDUNDANCY_FLOOR, mrmr_f_order
from rlsbench.benchmark.methods.rfe import rfe_order
from rlsbench.benchmark.methods.rfe_fraction import elimination_sizes, rfe_fraction_order
from rlsbench.benchmark.methods.somp import somp_order
from rlsbench.benchmark.methods.sparse import omp_order
from rlsbench.benchmark.methods.stability_lars import stability_lars_order
from rlsbench.benchmark.protocol import encode_targets, feasibility, standardize

NEW = ("mrmr_f", "somp", "rfe_fraction", "stability_lars")
BUDGET = {"memory_budget_mb": 2000, "time_budget_s": 30, "flops_per_second": 2e9}


def _regression(m=60, n=30, informative=5, seed=0):
    X, y, coef = make_regression(
        m, n, n_informative=informative, coef=True, noise=1.0, random_state=seed
    )
    X, _ = standardize(X, X)
    return X, y, np.flatnonzero(coef)


def _multiclass(m=90, n=25, classes=4, seed=0):
    X, labels = make_classification(
        m, n, n_informative=6, n_redundant=0, n_classes=classes, random_state=seed
    )
    X, _ = standardize(X, X)
    return X, encode_targets(labels, "multiclass"), labels


# -- mrmr_f -----------------------------------------------------------------------------------
def _fcq_reference(X, relevance, k):
    corr = np.abs(np.corrcoef(X, rowvar=False))
    order = [int(np.argmax(relevance))]
    while len(order) < k:
        redundancy = np.maximum(corr[:, order].mean(axis=1), REDUNDANCY_FLOOR)
        score = relevance / redundancy
        score[order] = -np.inf
        order.append(int(np.argmax(score)))
    return order


def test_mrmr_f_follows_the_fcq_quotient_of_f_and_mean_absolute_correlation():
    X, y, _ = _regression()
    relevance = skfs.f_regression(X, y)[0]
    assert mrmr_f_order(X, y, 10).tolist() == _fcq_reference(X, relevance, 10)


def test_mrmr_f_on_one_vs_rest_columns_takes_anova_f_of_the_classes():
    X, Y, labels = _multiclass()
    relevance = skfs.f_classif(X, labels)[0]
    assert mrmr_f_order(X, Y, 8).tolist() == _fcq_reference(X, relevance, 8)


def test_mrmr_f_passes_over_a_copy_of_its_first_pick_that_the_f_test_takes_second():
    X, y, _ = _regression()
    top = int(np.argmax(skfs.f_regression(X, y)[0]))
    noisy = X[:, top] + 1e-3 * np.random.default_rng(0).standard_normal(X.shape[0])
    Xd, _ = standardize(np.column_stack([X, noisy]), np.column_stack([X, noisy]))
    copy = Xd.shape[1] - 1
    f_order = np.argsort(-skfs.f_regression(Xd, y)[0], kind="stable")
    assert f_order[:2].tolist() in ([top, copy], [copy, top])
    first, second = mrmr_f_order(Xd, y, 2).tolist()
    assert first == f_order[0] and second not in (top, copy)


# -- somp -------------------------------------------------------------------------------------
def _somp_reference(X, Y, k):
    """S-OMP by refitting least squares on the selected columns at every step."""
    order = []
    residual = Y - Y.mean(axis=0)
    for _ in range(k):
        score = ((X.T @ residual) ** 2).sum(axis=1)
        score[order] = -np.inf
        order.append(int(np.argmax(score)))
        coef = np.linalg.lstsq(X[:, order], Y - Y.mean(axis=0), rcond=None)[0]
        residual = Y - Y.mean(axis=0) - X[:, order] @ coef
    return order


def test_somp_with_one_target_selects_as_scikit_learns_orthogonal_mp():
    X, y, _ = _regression(n=40)
    assert somp_order(X, y, 12)[:12].tolist() == omp_order(X, y, 12)[:12].tolist()


def test_somp_on_one_vs_rest_columns_picks_by_the_summed_squared_residual_correlations():
    X, Y, _ = _multiclass()
    assert somp_order(X, Y, 10)[:10].tolist() == _somp_reference(X, Y, 10)


def test_somp_runs_on_multiclass_targets_with_one_simultaneous_pursuit():
    assert "multiclass" in get_method("somp").tasks
    X, Y, _ = _multiclass()
    path = get_method("somp").select(
        X, Y, alpha=1.0, k=5, criterion="squared", bias=1.0, seed=0, n_jobs=1
    )
    assert path.selected.tolist() == _somp_reference(X, Y, 5)


def test_somp_never_picks_a_column_in_the_span_of_the_selected_ones():
    X, y, _ = _regression(n=10)
    Xd = np.column_stack([X, X[:, 0] + X[:, 1]])
    order = somp_order(Xd, y, Xd.shape[1]).tolist()
    assert sorted(order) == list(range(Xd.shape[1]))
    picked = order[: order.index(10)]
    assert not {0, 1} <= set(picked)


# -- rfe_fraction -----------------------------------------------------------------------------
def test_rfe_fraction_that_drops_one_per_round_is_rfe_linear():
    X, y, _ = _regression(n=20)
    np.testing.assert_array_equal(
        rfe_fraction_order(X, y, 5, alpha=1.0, fraction=1e-9), rfe_order(X, y, 1.0)
    )


def test_rfe_fraction_drops_a_tenth_down_to_k_then_one_at_a_time():
    sizes = elimination_sizes(10_000, 50)
    assert sizes[:3] == [10_000, 9_000, 8_100]
    assert sizes[sizes.index(50) :] == list(range(50, 1, -1))
    assert len(sizes) < 10_000 / 50


def test_rfe_fraction_orders_the_first_k_by_single_eliminations_among_the_last_k():
    X, y, _ = _regression(n=40)
    k = 6
    order = rfe_fraction_order(X, y, k, alpha=1.0)
    last_k = order[:k]
    np.testing.assert_array_equal(order[:k], last_k[rfe_order(X[:, last_k], y, 1.0)])


# -- stability_lars ---------------------------------------------------------------------------
def test_stability_lars_ranks_the_informative_features_first():
    X, y, informative = _regression(m=80, n=60, informative=4)
    order = stability_lars_order(X, y, 4, seed=0)
    assert sorted(order[:4].tolist()) == informative.tolist()


def test_stability_lars_on_one_vs_rest_columns_is_seeded():
    X, Y, _ = _multiclass()
    first = stability_lars_order(X, Y, 5, seed=3)
    np.testing.assert_array_equal(first, stability_lars_order(X, Y, 5, seed=3))
    assert sorted(first.tolist()) == list(range(X.shape[1]))


# -- the budget model -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("shape", "old", "new"),
    [
        ((180, 10_000, 50, 1), "mrmr", "mrmr_f"),  # arcene's training split
        ((180, 10_000, 50, 1), "rfe_linear", "rfe_fraction"),
        ((1794, 4862, 50, 1), "stability_selection", "stability_lars"),  # BASEHOCK
        ((1404, 617, 50, 26), "stability_selection", "stability_lars"),  # Isolet
    ],
)
def test_the_new_method_fits_the_budget_where_the_original_is_skipped(shape, old, new):
    assert not feasibility(get_method(old), *shape, **BUDGET).feasible
    assert feasibility(get_method(new), *shape, **BUDGET).feasible


@pytest.mark.parametrize("name", NEW)
def test_the_cost_grows_at_most_linearly_in_the_features_at_fixed_m_and_k(name):
    method = get_method(name)
    small = method.estimate_flops(200, 10_000, 50, 1)
    large = method.estimate_flops(200, 100_000, 50, 1)
    assert 1 < large / small <= 10
