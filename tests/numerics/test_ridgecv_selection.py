"""Buteneers et al. Section 3: FFS/BFS (covariance and eigen variants) against brute force;
the baselines OP-LR/OP-RR/LARS; ELM and fixed-size LS-SVM features; the registered methods."""

import itertools

import numpy as np
import pytest
from sklearn.metrics.pairwise import rbf_kernel

from rlsbench.benchmark.methods import get_method
from rlsbench.estimators import ELMFeatures, NystromFeatures
from rlsbench.numerics.ridgecv.baselines import lars_ranking, op_lr, op_rr
from rlsbench.numerics.ridgecv.ffs_bfs import VARIANTS, backward_selection, forward_selection
from rlsbench.numerics.ridgecv.fixed_size_lssvm import renyi_prototypes
from rlsbench.numerics.ridgecv.kfold_lambda import (
    cv_errors_covariance,
    cv_errors_naive,
    fold_statistics,
    lambda_grid,
    make_folds,
)


def small_problem(seed, ill=False):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((70, 6))
    if ill:  # a near-duplicate column: cond(XᵀX) > 1e10
        X[:, 4] = X[:, 1] + 1e-6 * rng.standard_normal(70)
    y = X[:, :3] @ [1.5, -1.0, 0.5] + 0.6 * rng.standard_normal(70)
    folds = make_folds(70, 5, seed=seed)
    stats = fold_statistics(X, y, folds)
    return X, y, folds, stats, lambda_grid(stats.A, 12)


def brute_force_scores(X, y, folds, lambdas):
    """Best-λ validation error of every subset, each refitted from scratch (sklearn Ridge)."""
    n = X.shape[1]
    total = np.sum(y**2)
    scores = {(): total}
    for size in range(1, n + 1):
        for S in itertools.combinations(range(n), size):
            scores[S] = cv_errors_naive(X[:, list(S)], y, folds, lambdas).min()
    return scores


def greedy_from_table(scores, n, direction):
    S = set() if direction == "forward" else set(range(n))
    order, path = [], [scores[tuple(sorted(S))]]
    for _ in range(n):
        moves = sorted(set(range(n)) - S) if direction == "forward" else sorted(S)
        cand = {j: scores[tuple(sorted(S ^ {j}))] for j in moves}
        j = min(cand, key=lambda c: (cand[c], c))
        S ^= {j}
        order.append(j)
        path.append(cand[j])
    return order, np.array(path)


@pytest.mark.parametrize("ill", [False, True], ids=["well", "ill_conditioned"])
def test_ffs_and_bfs_match_brute_force_search(ill):
    X, y, folds, stats, lambdas = small_problem(0, ill)
    if ill:
        assert np.linalg.cond(X.T @ X) > 1e10
    scores = brute_force_scores(X, y, folds, lambdas)
    for direction, run in (("forward", forward_selection), ("backward", backward_selection)):
        order, path = greedy_from_table(scores, 6, direction)
        for variant in VARIANTS:
            res = run(stats, lambdas, variant=variant)
            assert res.order.tolist() == order, (direction, variant)
            np.testing.assert_allclose(res.cv_sse, path, rtol=1e-6)
            assert res.complete and not res.cut_by_budget


def test_stop_step_is_first_step_without_improvement_and_early_stop_is_a_prefix():
    for seed in range(3):
        X, y, folds, stats, lambdas = small_problem(seed)
        for run in (forward_selection, backward_selection):
            full = run(stats, lambdas)
            worse = np.flatnonzero(~(full.cv_sse[1:] < full.cv_sse[:-1]))
            expected = int(worse[0]) if worse.size else full.order.shape[0]
            assert full.stop_step == expected
            early = run(stats, lambdas, run_to_end=False)
            assert early.stop_step == full.stop_step
            assert early.order.tolist() == full.order[: early.order.shape[0]].tolist()
            assert np.array_equal(early.selected, full.selected)


def test_lambda_recorded_per_set_is_that_sets_best():
    X, y, folds, stats, lambdas = small_problem(2)
    res = forward_selection(stats, lambdas)
    for step in range(1, 7):
        idx = res.set_after(step)
        errs = cv_errors_covariance(stats.subset(idx), lambdas)
        assert res.lambda_index[step] == np.argmin(errs)


def test_fixed_features_stay_in_every_model():
    X, y, folds, _, _ = small_problem(1)
    Xb = np.hstack([X, np.ones((70, 1))])
    stats = fold_statistics(Xb, y + 5.0, folds)
    lambdas = lambda_grid(stats.A, 12)
    fwd = forward_selection(stats, lambdas, fixed=[6])
    bwd = backward_selection(stats, lambdas, fixed=[6])
    assert 6 not in fwd.order and 6 not in bwd.order
    assert fwd.order.shape == (6,) and bwd.order.shape == (6,)
    assert 6 in fwd.selected and 6 in bwd.selected


def test_op_rr_and_op_lr_score_lars_prefixes():
    X, y, folds, stats, lambdas = small_problem(3)
    ranking = lars_ranking(X, y)
    assert sorted(ranking.tolist()) == list(range(6))
    assert ranking[0] == np.argmax(np.abs(X.T @ y))
    rr = op_rr(stats, ranking, lambdas)
    lr = op_lr(stats, ranking, lambdas)
    for p in range(1, 7):
        sub = ranking[:p]
        np.testing.assert_allclose(
            rr.cv_sse[p], cv_errors_naive(X[:, sub], y, folds, lambdas).min(), rtol=1e-7
        )
        np.testing.assert_allclose(
            lr.cv_sse[p], cv_errors_naive(X[:, sub], y, folds, lambdas[:1])[0], rtol=1e-7
        )
    assert rr.cv_sse[rr.n_selected] <= lr.cv_sse[lr.n_selected] + 1e-9


def test_elm_features_have_hidden_direct_and_bias_columns():
    rng = np.random.default_rng(0)
    U = rng.standard_normal((30, 4)) * 5 + 2
    elm = ELMFeatures(n_hidden=7, random_state=1).fit(U)
    F = elm.transform(U)
    assert F.shape == (30, 7 + 4 + 1)
    np.testing.assert_allclose(F[:, 7:11].mean(axis=0), 0, atol=1e-12)  # standardized inputs
    np.testing.assert_array_equal(F[:, -1], 1.0)
    np.testing.assert_array_equal(F, ELMFeatures(n_hidden=7, random_state=1).fit_transform(U))


def test_renyi_search_raises_entropy_and_nystrom_maps_prototypes_to_eigenvectors():
    rng = np.random.default_rng(0)
    U = np.vstack([rng.standard_normal((300, 2)) * 0.3, rng.standard_normal((30, 2)) * 0.3 + 4])
    sigma = 1.0
    start = np.sort(np.random.default_rng(5).choice(330, 20, replace=False))
    chosen = renyi_prototypes(U, 20, sigma, n_iter=1500, seed=5)
    ksum = lambda idx: rbf_kernel(U[idx], gamma=0.5 / sigma**2).sum()  # noqa: E731
    assert ksum(chosen) < ksum(start)  # quadratic Rényi entropy −log(Σk/N²) went up
    nys = NystromFeatures(n_prototypes=20, sigma=sigma, n_iter=1500, random_state=5).fit(U)
    F = nys.transform(nys.prototypes_)
    # K̃ C = C D, so the features of the prototypes are √N C (Section 5.3)
    np.testing.assert_allclose(F, np.sqrt(20) * nys.eigvecs_, atol=1e-6)


@pytest.mark.parametrize("name", ["ffs", "bfs"])
def test_registered_method_path_is_the_selection_run(name):
    X, y, _, _, _ = small_problem(4)
    method = get_method(name)
    assert method.own_alpha
    path = method.run(X, y + 2.0, alpha=1.0, k=4, criterion="squared", bias=1.0, seed=0, n_jobs=1)
    Xb = np.hstack([X, np.ones((70, 1))])
    stats = fold_statistics(Xb, y + 2.0, make_folds(70, 10, seed=0))
    lambdas = lambda_grid(stats.A, 50)
    run = forward_selection if name == "ffs" else backward_selection
    res = run(stats, lambdas, fixed=[6])
    expected = res.order[:4] if name == "ffs" else res.order[::-1][:4]
    assert path.selected.tolist() == expected.tolist()
    for s in range(4):  # model of size s+1 = ridge on those features + bias at the recorded λ
        idx = list(path.selected[: s + 1]) + [6]
        w = np.linalg.solve(
            stats.A[np.ix_(idx, idx)] + path.alphas[s] * np.eye(s + 2), stats.B[idx, 0]
        )
        np.testing.assert_allclose(path.decision_path(X)[s], Xb[:, idx] @ w, atol=1e-8)
        assert path.alphas[s] in lambdas


def test_selection_with_several_outputs_scores_the_summed_error():
    rng = np.random.default_rng(6)
    X = rng.standard_normal((60, 5))
    Y = np.stack([X[:, 0] - X[:, 1], X[:, 2]], 1) + 0.5 * rng.standard_normal((60, 2))
    stats = fold_statistics(X, Y, make_folds(60, 4, seed=0))
    lambdas = lambda_grid(stats.A, 10)
    for run in (forward_selection, backward_selection):
        res = run(stats, lambdas)
        for step in range(res.order.shape[0] + 1):
            idx = res.set_after(step)
            expected = cv_errors_covariance(stats.subset(idx), lambdas).min()
            np.testing.assert_allclose(res.cv_sse[step], expected, rtol=1e-8)


@pytest.mark.parametrize("run", [forward_selection, backward_selection])
def test_a_step_budget_cuts_the_run_to_a_prefix_of_the_full_run(run):
    X, y, folds, stats, lambdas = small_problem(0)
    full = run(stats, lambdas, variant="covariance")
    for budget in (0, 2):
        res = run(stats, lambdas, variant="covariance", step_budget=budget)
        assert res.cut_by_budget and not res.complete
        assert res.order.tolist() == full.order[:budget].tolist()
        np.testing.assert_allclose(res.cv_sse, full.cv_sse[: budget + 1], rtol=1e-12)
    # a budget the run does not reach changes nothing
    same = run(stats, lambdas, variant="covariance", step_budget=6)
    assert same.order.tolist() == full.order.tolist() and not same.cut_by_budget
    early = run(stats, lambdas, run_to_end=False)
    stopped = run(stats, lambdas, run_to_end=False, step_budget=early.order.shape[0])
    assert not stopped.cut_by_budget and stopped.stop_step == early.stop_step


@pytest.mark.parametrize("budget", [-1, 1.5, True])
def test_a_step_budget_must_be_a_count(budget):
    X, y, folds, stats, lambdas = small_problem(0)
    with pytest.raises(ValueError, match="step_budget"):
        forward_selection(stats, lambdas, step_budget=budget)


def test_table_experiment_rows_agree_across_equivalent_methods():
    from rlsbench.studies.buteneers.experiment import TABLE_METHODS, run_task

    rng = np.random.default_rng(7)
    X = np.hstack([rng.standard_normal((120, 8)), np.ones((120, 1))])
    y = X[:, :2] @ [1.0, -1.0] + 0.3 * rng.standard_normal(120)
    rows = run_task(
        X[:80],
        y[:80],
        X[80:],
        y[80:],
        task="regression",
        n_folds=4,
        n_lambdas=10,
        seed=0,
        fixed=[8],
    )
    by = {r["method"]: r for r in rows}
    assert list(by) == list(TABLE_METHODS)
    assert len({by[m]["alpha"] for m in ("rr_naive", "rr_covariance", "rr_eigen")}) == 1
    assert len({by[m]["error"] for m in ("rr_naive", "rr_covariance", "rr_eigen")}) == 1
    for fs in ("ffs", "bfs"):
        cov, eig = by[f"{fs}_covariance"], by[f"{fs}_eigen"]
        assert (cov["n_selected"], cov["alpha"]) == (eig["n_selected"], eig["alpha"])
        np.testing.assert_allclose(cov["error"], eig["error"], rtol=1e-8)
    assert all(0 <= r["pct_removed"] <= 100 for r in rows)


@pytest.mark.parametrize("select", [forward_selection, backward_selection])
@pytest.mark.parametrize("variant", VARIANTS)
def test_ffs_bfs_refuse_when_no_candidate_has_a_finite_error(select, variant):
    """Features scaled to ~1e160 overflow every validation error: the search says so instead
    of adding the first NaN candidate (np.argmin's choice)."""
    from rlsbench.numerics.ridgecv.kfold_lambda import fold_statistics
    from rlsbench.numerics.selection import SelectionError

    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((40, 6)) * 1e160, rng.standard_normal(40)
    stats = fold_statistics(X, y, np.arange(40) % 4)
    with np.errstate(all="ignore"), pytest.raises(SelectionError, match="round 1: none of the 6"):
        select(stats, np.logspace(-3, 3, 5), variant=variant)
