"""abess_sis (issue 41 item 2): sure independence screening to ``max(2k, ⌊m / ln m⌋)`` columns
by their marginal least-squares fit, then abess's best subset of each size among them. The
screening is checked against one least-squares fit per column, the subsets against abess run
directly on the kept columns and against abess_best_subset where nothing is screened out, and
the budget lets it run where abess_best_subset is skipped.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression

from rlsbench.benchmark.methods import abess_sis as sis
from rlsbench.benchmark.methods import get_method
from rlsbench.benchmark.protocol import encode_targets, feasibility, standardize

OPTIONS = {"alpha": 1.0, "criterion": "squared", "bias": 1.0, "seed": 0, "n_jobs": 1}
BUDGET = {"memory_budget_mb": 2000, "time_budget_s": 10, "flops_per_second": 2e9}


def _wide(m=60, n=300, seed=0):
    X, y = make_regression(m, n, n_informative=4, noise=0.5, random_state=seed)
    X, _ = standardize(X, X)
    return X, y


@pytest.mark.parametrize(
    ("m", "n", "k", "expected"),
    [
        (180, 10_000, 50, 100),  # m / ln m = 34: twice k
        (1794, 4862, 50, 239),  # Fan and Lv's m / ln m
        (1794, 4862, 5, 239),
        (29_304, 122, 50, 122),  # every column: abess_best_subset itself
        (60, 30, 20, 30),
    ],
)
def test_the_screening_keeps_m_over_ln_m_columns_at_least_2k_at_most_all(m, n, k, expected):
    assert sis.screening_size(m, n, k) == expected


def test_the_screening_score_is_the_drop_in_residual_sum_of_squares_of_each_column_alone():
    X, labels = make_classification(80, 12, n_informative=4, n_classes=3, random_state=1)
    X = X * np.arange(1, 13) + 5.0  # unequal scales and means: a centred, scaled fit
    Y = encode_targets(labels, "multiclass")
    expected = []
    for j in range(12):
        design = np.column_stack([np.ones(80), X[:, j]])
        fitted = design @ np.linalg.lstsq(design, Y, rcond=None)[0]
        expected.append(((Y - Y.mean(axis=0)) ** 2).sum() - ((Y - fitted) ** 2).sum())
    np.testing.assert_allclose(sis.marginal_fit_scores(X, Y), expected, rtol=1e-10)


def test_the_subsets_are_abess_fits_on_the_screened_columns_and_hold_no_other():
    pytest.importorskip("abess")
    from rlsbench.benchmark.methods.abess import best_subsets

    X, y = _wide()
    k = 6
    kept = sis.screened_columns(X, y, sis.screening_size(60, 300, k))
    assert kept.size == 14 < 300  # m / ln m = 14.7 > 2k
    path = get_method("abess_sis").select(X, y, k=k, **OPTIONS)
    expected = [set(kept[subset]) for subset in best_subsets(X[:, kept], y, k)]
    assert [set(subset) for subset in path.subsets] == expected
    assert set(np.concatenate(path.subsets)) <= set(kept)
    assert not path.nested and len(path.subsets) == k


def test_where_nothing_is_screened_out_it_is_abess_best_subset():
    pytest.importorskip("abess")
    X, y = make_regression(400, 12, n_informative=4, noise=1.0, random_state=2)
    X = np.column_stack([X, np.ones(400)])  # a constant column: last, as abess_best_subset
    X, _ = standardize(X, X)
    assert sis.screening_size(400, 12, 13) == 12
    ours = get_method("abess_sis").select(X, y, k=13, **OPTIONS)
    theirs = get_method("abess_best_subset").select(X, y, k=13, **OPTIONS)
    for a, b in zip(ours.subsets, theirs.subsets, strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ours.coef_path, theirs.coef_path)


def test_without_abess_the_error_names_this_method(monkeypatch):
    monkeypatch.setitem(sys.modules, "abess.linear", None)
    X, y = _wide()
    with pytest.raises(ImportError, match="method 'abess_sis' needs the abess package"):
        get_method("abess_sis").select(X, y, k=3, **OPTIONS)


@pytest.mark.parametrize(
    "shape",
    [(1794, 4862, 50, 1), (1749, 3289, 50, 1), (1284, 4322, 50, 1)],
    ids=["BASEHOCK", "PCMAC", "RELATHE"],
)
def test_it_fits_the_ten_second_budget_where_abess_best_subset_is_skipped(shape):
    assert not feasibility(get_method("abess_best_subset"), *shape, **BUDGET).feasible
    assert feasibility(get_method("abess_sis"), *shape, **BUDGET).feasible
