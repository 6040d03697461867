"""mutual_info_binned (issue 41 item 2): the plug-in mutual information of equal-frequency-binned
features, held to scikit-learn's one-column-at-a-time computations (``KBinsDiscretizer``,
``mutual_info_score``), and a budget that lets it run where the k-nearest-neighbour filter
(mutual_info) is skipped.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import feature_selection as skfs
from sklearn.metrics import mutual_info_score
from sklearn.preprocessing import KBinsDiscretizer

from rlsbench.benchmark.methods import get_method
from rlsbench.benchmark.methods import mutual_info_binned as mib
from rlsbench.benchmark.protocol import encode_targets, feasibility, standardize

OPTIONS = {"alpha": 1.0, "criterion": "squared", "bias": 1.0, "seed": 0, "n_jobs": 1}
BUDGET = {"memory_budget_mb": 2000, "time_budget_s": 10, "flops_per_second": 2e9}


@pytest.fixture
def small_blocks(monkeypatch):
    # a few columns a block, so that the tests cross the block boundaries
    monkeypatch.setattr(mib, "_BLOCK_ELEMENTS", 3 * 97)


def _with_ties(m=97, seed=0):
    rng = np.random.default_rng(seed)
    return np.column_stack(
        [
            rng.standard_normal((m, 4)),
            rng.integers(0, 3, (m, 3)).astype(np.float64),  # three values: cut points coincide
            (rng.random((m, 2)) < 0.1).astype(np.float64),  # mostly zero, like a text count
            np.exp(3 * rng.standard_normal((m, 1))),  # heavy tail
        ]
    )


def test_bins_are_scikit_learns_quantile_bins_on_continuous_columns(small_blocks):
    X = np.random.default_rng(1).standard_normal((203, 11))
    reference = KBinsDiscretizer(
        n_bins=mib.N_BINS, encode="ordinal", strategy="quantile", quantile_method="linear"
    ).fit_transform(X)
    codes = mib.equal_frequency_bins(X)
    np.testing.assert_array_equal(codes, reference)
    # equal frequency: each bin holds m / B rows, give or take one
    counts = np.stack([np.bincount(codes[:, j], minlength=mib.N_BINS) for j in range(11)])
    assert np.all(np.abs(counts - 203 / mib.N_BINS) <= 1)


def test_a_column_with_ties_keeps_equal_values_in_one_bin_right_closed_at_its_quantiles(
    small_blocks,
):
    X = _with_ties()
    codes = mib.equal_frequency_bins(X)
    levels = np.arange(1, mib.N_BINS) / mib.N_BINS
    for j in range(X.shape[1]):
        cuts = np.quantile(X[:, j], levels)
        np.testing.assert_array_equal(codes[:, j], np.searchsorted(cuts, X[:, j], side="left"))
        for value in np.unique(X[:, j]):
            assert np.unique(codes[X[:, j] == value, j]).size == 1


@pytest.mark.parametrize("classes", [2, 5])
def test_the_scores_are_scikit_learns_mutual_info_score_of_each_binned_column(
    small_blocks, classes
):
    X = _with_ties()
    labels = np.random.default_rng(2).integers(0, classes, X.shape[0])
    codes = mib.equal_frequency_bins(X)
    expected = [mutual_info_score(labels, codes[:, j]) for j in range(X.shape[1])]
    np.testing.assert_allclose(
        mib.plug_in_mutual_info(codes, labels), expected, rtol=1e-12, atol=1e-13
    )


def test_one_vs_rest_columns_score_against_their_class_and_a_real_target_against_its_bins():
    X = _with_ties()
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 4, X.shape[0])
    codes = mib.equal_frequency_bins(X)
    by_class = [mutual_info_score(labels, codes[:, j]) for j in range(X.shape[1])]
    Y = encode_targets(labels, "multiclass")
    np.testing.assert_allclose(
        mib.binned_mutual_info_scores(X, Y), by_class, rtol=1e-12, atol=1e-13
    )
    binary = np.where(labels > 1, 1.0, -1.0)
    np.testing.assert_allclose(
        mib.binned_mutual_info_scores(X, binary),
        [mutual_info_score(binary, codes[:, j]) for j in range(X.shape[1])],
        rtol=1e-12,
        atol=1e-13,
    )
    y = X[:, 0] + rng.standard_normal(X.shape[0])
    target_bins = KBinsDiscretizer(
        n_bins=mib.N_BINS, encode="ordinal", strategy="quantile", quantile_method="linear"
    ).fit_transform(y[:, None])[:, 0]
    np.testing.assert_allclose(
        mib.binned_mutual_info_scores(X, y),
        [mutual_info_score(target_bins, codes[:, j]) for j in range(X.shape[1])],
        rtol=1e-12,
        atol=1e-13,
    )


def test_a_class_set_by_the_size_of_a_feature_not_its_sign_comes_first_where_f_misses_it():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((400, 20))
    labels = (np.abs(X[:, 7]) > 0.8).astype(int)
    y = np.where(labels == 1, 1.0, -1.0)
    assert mib.binned_mutual_info_order(X, y, 1)[0] == 7
    assert np.argsort(-skfs.f_classif(X, labels)[0])[0] != 7


def test_the_method_scores_rls_along_the_order_ties_by_index_constant_columns_last():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((120, 12))
    y = np.where(X[:, 3] + 0.5 * X[:, 9] + 0.3 * rng.standard_normal(120) > 0, 1.0, -1.0)
    X = np.column_stack([X, X[:, 3], np.ones(120)])  # a copy of column 3 (a tie), a constant
    X, _ = standardize(X, X)
    path = get_method("mutual_info_binned").select(X, y, k=14, **OPTIONS)
    scores = mib.binned_mutual_info_scores(X[:, :13], y)
    assert scores[3] == scores[12]
    assert path.selected.tolist() == np.argsort(-scores, kind="stable").tolist() + [13]
    assert path.selected.tolist().index(3) + 1 == path.selected.tolist().index(12)


@pytest.mark.parametrize(
    "shape",
    [(180, 10_000, 50, 1), (54, 9712, 50, 9), (63_000, 780, 50, 1), (127_522, 22, 22, 1)],
    ids=["arcene", "nci9", "mnist5", "ijcnn1"],
)
def test_it_fits_the_ten_second_budget_where_the_nearest_neighbour_filter_is_skipped(shape):
    assert not feasibility(get_method("mutual_info"), *shape, **BUDGET).feasible
    assert feasibility(get_method("mutual_info_binned"), *shape, **BUDGET).feasible
