"""The Friedman test on few datasets (issue 45, item 14): two datasets ranking three methods
alike gave p_f = 0.0 (Iman-Davenport F = inf), where the exact p is 1/6. Small designs
((k!)^N ≤ EXACT_MAX_ASSIGNMENTS) now report the exact permutation p, checked against SciPy's
own permutation test; χ²_F at its maximum never gives F = inf or p = 0; and the committed
reference benchmark (12 and 10 datasets) keeps its asymptotic p values.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from rlsbench.benchmark import statistics as st

REPO = Path(__file__).resolve().parents[2]
TABLES = REPO / "results" / "benchmark" / "tables" / "statistics"


def _alike(n_datasets, n_methods):
    """Every dataset ranks the methods in the same order (χ²_F at its maximum N(k−1))."""
    return pd.DataFrame(
        np.tile(np.linspace(0.9, 0.6, n_methods), (n_datasets, 1)),
        columns=[f"m{j}" for j in range(n_methods)],
    )


def _sum_of_squared_rank_sums(*samples, axis=-1):
    ranks = stats.rankdata(np.stack(samples, axis=0), axis=0)
    return (ranks.sum(axis=-1) ** 2).sum(axis=0)


def _scipy_exact_p(values):
    """SciPy's exact permutation p of the Friedman statistic: every order of every row."""
    return stats.permutation_test(
        tuple(values.T),
        _sum_of_squared_rank_sums,
        permutation_type="samples",
        n_resamples=np.inf,
        vectorized=True,
        alternative="greater",
    ).pvalue


def test_two_datasets_ranking_three_methods_alike_give_p_one_sixth_not_zero():
    result = st.friedman(_alike(2, 3))
    assert result.chi2 == pytest.approx(4.0)  # N(k−1), the maximum
    assert result.p_f == pytest.approx(1 / 6) and result.p_chi2 == pytest.approx(1 / 6)
    assert math.isnan(result.iman_davenport_f)
    from_ranks = st.friedman_from_ranks([1.0, 2.0, 3.0], 2)
    assert from_ranks.p_f == pytest.approx(1 / 6) and math.isnan(from_ranks.iman_davenport_f)


@pytest.mark.parametrize(("n_datasets", "n_methods"), [(2, 3), (3, 3), (7, 3), (2, 4), (4, 4)])
def test_alike_rankings_have_the_exact_p_of_all_rows_agreeing(n_datasets, n_methods):
    # only the k! assignments where every dataset repeats the first one's order reach the max
    expected = math.factorial(n_methods) ** (1 - n_datasets)
    assert st.friedman(_alike(n_datasets, n_methods)).p_f == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("ties", [False, True], ids=["no-ties", "ties"])
@pytest.mark.parametrize(("n_datasets", "n_methods"), [(2, 3), (5, 3), (3, 4), (2, 5)])
def test_the_exact_p_is_scipys_permutation_test(n_datasets, n_methods, ties):
    rng = np.random.default_rng(n_datasets * 10 + n_methods)
    for _ in range(3):
        values = rng.random((n_datasets, n_methods))
        if ties:  # midranks within a dataset
            values = np.round(values * 2) / 2
        if np.all(values == values[:, :1]):
            continue
        result = st.friedman(pd.DataFrame(values))
        want = _scipy_exact_p(values)
        assert result.p_chi2 == pytest.approx(want, rel=1e-9)
        assert result.p_f == pytest.approx(want, rel=1e-9)


def test_the_rule_exact_only_where_few_assignments():
    assert st.exact_friedman_applies(7, 3) and not st.exact_friedman_applies(8, 3)
    assert st.exact_friedman_applies(4, 4) and not st.exact_friedman_applies(5, 4)
    assert st.exact_friedman_applies(2, 6) and not st.exact_friedman_applies(2, 7)
    assert not st.exact_friedman_applies(12, 16) and not st.exact_friedman_applies(10, 13)


def test_at_the_maximum_of_a_large_design_p_f_is_the_chi2_p_not_zero():
    result = st.friedman(_alike(12, 5))  # 120^12 assignments: the asymptotic path
    assert math.isnan(result.iman_davenport_f)
    assert result.p_f == result.p_chi2 == pytest.approx(stats.chi2.sf(12 * 4, 4))
    assert result.p_f > 0


def test_the_committed_reference_benchmarks_friedman_rows_are_reproduced():
    scores = pd.read_csv(TABLES / "scores.csv")
    committed = pd.read_csv(TABLES / "friedman.csv")
    for row in committed.itertuples():
        table = scores[
            (scores.group == row.group) & (scores.operating_point == row.operating_point)
        ]
        matrix = st.complete_cases(table.pivot(index="dataset", columns="method", values="score"))
        result = st.friedman(matrix.scores)
        assert (result.n_datasets, result.n_methods) == (row.n_datasets, row.n_methods)
        assert not st.exact_friedman_applies(result.n_datasets, result.n_methods)
        for column in ("chi2", "p_chi2", "iman_davenport_f", "p_f"):
            assert getattr(result, column) == pytest.approx(getattr(row, column), rel=1e-12)
