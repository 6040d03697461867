"""Ramona et al.'s SVM-RFE, AROM and SAS at the wide benchmark's scale (issue 41, item 2):
``svm_rfe_fraction``, ``arom_l2svm``, ``sas_primal``. The L2-loss SVM solver against
liblinear's, SAS's feature-space sums against the original SAS, the wrappers against plain
loops over ``LinearSVC``, and the budget model on the shapes where the originals are skipped.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from rlsbench.benchmark.methods import get_method
from rlsbench.benchmark.methods import ramona_scalable as rs
from rlsbench.benchmark.methods.rfe_fraction import elimination_sizes
from rlsbench.benchmark.protocol import encode_targets, feasibility, standardize
from rlsbench.numerics.kernel.alignment import encode_labels
from rlsbench.numerics.kernel.selectors import SAS
from rlsbench.numerics.kernel.wrappers import joachims_C

NEW = ("sas_primal", "svm_rfe_fraction", "arom_l2svm")
OPTIONS = {"alpha": 1.0, "criterion": "squared", "bias": 1.0, "seed": 0, "n_jobs": 1}


def _data(m, n, classes=2, informative=4, seed=0, flip_y=0.05):
    X, labels = make_classification(
        m,
        n,
        n_informative=informative,
        n_redundant=0,
        n_classes=classes,
        n_clusters_per_class=1,
        flip_y=flip_y,
        random_state=seed,
    )
    X, _ = standardize(X, X)
    return X, labels


def _liblinear(X, y, C, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return LinearSVC(
            C=C, loss="squared_hinge", dual=False, tol=1e-12, max_iter=100_000, **kw
        ).fit(X, y)


# -- the L2-loss SVM --------------------------------------------------------------------------
@pytest.mark.parametrize(("m", "n"), [(200, 12), (40, 150)], ids=["primal", "dual"])
def test_the_newton_l2svm_solves_liblinears_primal_problem(m, n):
    X, labels = _data(m, n, flip_y=0.2)
    y = np.where(labels == 1, 1.0, -1.0)
    C = joachims_C(X)
    alpha = rs.l2svm_dual_coef(X, y, C)
    ref = _liblinear(X, y, C)
    np.testing.assert_allclose(X.T @ alpha, ref.coef_[0], rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(alpha.sum(), ref.intercept_[0], rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize(("m", "n"), [(200, 12), (40, 150)], ids=["primal", "dual"])
def test_a_warm_start_and_a_shared_gram_matrix_reach_the_same_solution(m, n):
    X, labels = _data(m, n, flip_y=0.2, seed=1)
    y = np.where(labels == 1, 1.0, -1.0)
    Xt = np.hstack([X, np.ones((m, 1))])
    cold = rs.l2svm_dual_coef(X, y, 0.05)
    start = np.random.default_rng(0).normal(scale=0.05, size=m)
    warm = rs.l2svm_dual_coef(X, y, 0.05, gram=Xt.T @ Xt, kernel=Xt @ Xt.T, alpha0=start)
    np.testing.assert_allclose(warm, cold, rtol=1e-9, atol=1e-12)


def test_the_line_search_finds_the_minimiser_of_the_piecewise_quadratic():
    rng = np.random.default_rng(3)
    for _ in range(20):
        u, du = rng.normal(size=60), rng.normal(size=60)
        wd, dd = -abs(rng.normal()) - 0.5, abs(rng.normal()) + 0.1

        def phi(t, u=u, du=du, wd=wd, dd=dd, C=0.4):
            return wd * t + 0.5 * dd * t * t + C * np.sum(np.maximum(0.0, 1.0 - u - t * du) ** 2)

        best = minimize_scalar(phi, bounds=(0.0, 50.0), method="bounded", options={"xatol": 1e-12})
        t = rs._line_search(wd, dd, u, du, 0.4)
        assert phi(t) <= best.fun + 1e-9


# -- sas_primal -------------------------------------------------------------------------------
@pytest.mark.parametrize("feature_space", [True, False], ids=["feature", "sample"])
@pytest.mark.parametrize(
    ("m", "n", "classes", "target"),
    [(80, 15, 2, "plain"), (30, 60, 2, "plain"), (90, 12, 4, "plain"), (60, 20, 3, "balanced")],
)
def test_sas_primal_scores_equal_sas_up_to_round_off(m, n, classes, target, feature_space):
    X, labels = _data(m, n, classes, seed=m)
    original = SAS(target=target).fit(X, labels)
    variant = rs._SASPrimal(target=target, feature_space=feature_space).fit(X, labels)
    np.testing.assert_allclose(variant.scores_, original.scores_, rtol=1e-9)
    np.testing.assert_allclose(variant.history_, original.history_, rtol=1e-12)
    assert variant.order_.tolist() == original.order_.tolist()


def test_the_alignment_in_feature_space_is_the_one_in_sample_space():
    X, labels = _data(40, 25, 3, seed=5)
    codes, _, counts = encode_labels(labels)
    w = np.random.default_rng(0).uniform(0.2, 2.0, size=25)
    feature = rs.alignment_value_grad(X, codes, counts, feature_space=True)(w)
    sample = rs.alignment_value_grad(X, codes, counts, feature_space=False)(w)
    np.testing.assert_allclose(feature[0], sample[0], rtol=1e-13)
    np.testing.assert_allclose(feature[1], sample[1], rtol=1e-10, atol=1e-15)


def test_sas_primal_sums_in_feature_space_on_tall_and_text_like_data_only():
    assert rs.feature_space_is_cheaper(29305, 123)  # adult
    assert rs.feature_space_is_cheaper(1793, 4862)  # BASEHOCK: n > m, still cheaper
    assert not rs.feature_space_is_cheaper(180, 10_000)  # arcene: the m x m Gram matrix


# -- svm_rfe_fraction -------------------------------------------------------------------------
def _reference_svm_rfe(X, labels):
    """One feature per round by the smallest squared weight summed over LinearSVC's
    one-vs-rest problems (C = 1/R̄² of the survivors)."""
    surviving = list(range(X.shape[1]))
    eliminated = []
    while len(surviving) > 1:
        Xs = X[:, surviving]
        coef = _liblinear(Xs, labels, joachims_C(Xs)).coef_
        eliminated.append(surviving.pop(int(np.argmin(np.sum(coef**2, axis=0)))))
    return surviving + eliminated[::-1]


@pytest.mark.parametrize("classes", [2, 3])
def test_svm_rfe_fraction_dropping_one_per_round_is_svm_rfe_on_liblinear(classes):
    X, labels = _data(120, 10, classes, seed=7)
    codes, _, counts = encode_labels(labels)
    order = rs.svm_rfe_fraction_order(X, codes, counts.size, k=10, fraction=1e-9)
    assert order.tolist() == _reference_svm_rfe(X, labels)


def test_svm_rfe_fraction_drops_half_the_survivors_down_to_k_then_one_at_a_time(monkeypatch):
    X, labels = _data(60, 200, seed=2)
    codes, _, counts = encode_labels(labels)
    seen = []

    def recording_C(Xs):
        seen.append(Xs.shape[1])
        return joachims_C(Xs)

    monkeypatch.setattr(rs, "joachims_C", recording_C)
    order = rs.svm_rfe_fraction_order(X, codes, counts.size, k=8)
    assert seen == elimination_sizes(200, 8, rs.STEP_FRACTION)
    assert sorted(order.tolist()) == list(range(200))


def test_svm_rfe_fraction_orders_the_first_k_by_single_eliminations_among_the_last_k():
    X, labels = _data(60, 40, seed=4)
    codes, _, counts = encode_labels(labels)
    k = 6
    order = rs.svm_rfe_fraction_order(X, codes, counts.size, k=k)
    last = order[:k]
    sub = rs.svm_rfe_fraction_order(X[:, last], codes, counts.size, k=k)
    assert order[:k].tolist() == last[sub].tolist()


# -- arom_l2svm -------------------------------------------------------------------------------
def _reference_arom(X, labels, max_iter=50, tol=1e-6):
    """AROM's loop on LinearSVC (one-vs-rest, root sum of squares), in log space."""
    log_z = np.zeros(X.shape[1])
    z = np.ones(X.shape[1])
    for _ in range(max_iter):
        Xz = X * z
        coef = _liblinear(Xz, labels, joachims_C(Xz)).coef_
        wh = np.sqrt(np.sum((coef * z) ** 2, axis=0))
        log_z = log_z + np.log(np.maximum(wh, np.finfo(float).tiny))
        log_z -= log_z.max()
        z_new = np.exp(log_z)
        done = np.max(np.abs(z_new - z)) < tol
        z = z_new
        if done:
            break
    return log_z


@pytest.mark.parametrize(("m", "n", "classes"), [(150, 12, 2), (40, 60, 2), (150, 10, 3)])
def test_arom_l2svm_is_aroms_loop_on_liblinear(m, n, classes):
    X, labels = _data(m, n, classes, seed=n)
    codes, _, counts = encode_labels(labels)
    log_z, _ = rs.arom_l2svm_log_scale_factors(X, codes, counts.size)
    ref = _reference_arom(X, labels)
    alive = ref > np.log(1e-3)
    np.testing.assert_allclose(log_z[alive], ref[alive], atol=1e-4)
    top = int(alive.sum())
    assert np.argsort(-log_z)[:top].tolist() == np.argsort(-ref)[:top].tolist()


def test_arom_l2svm_keeps_ranking_the_features_whose_scale_fell_below_the_dead_threshold():
    X, labels = _data(100, 30, informative=3, seed=9)
    codes, _, counts = encode_labels(labels)
    log_z, _ = rs.arom_l2svm_log_scale_factors(X, codes, counts.size)
    dead = log_z < np.log(rs.DEAD_SCALE)
    assert dead.any()
    # still moving after they left the fit: no two dead features share a scale
    assert np.unique(log_z[dead]).size == dead.sum()


# -- the methods ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NEW)
def test_the_new_methods_rank_the_informative_features_first_on_multiclass_targets(name):
    X, labels = make_classification(
        150,
        20,
        n_informative=3,
        n_redundant=0,
        n_classes=3,
        n_clusters_per_class=1,
        shuffle=False,
        random_state=0,
    )
    X, _ = standardize(X, X)
    path = get_method(name).select(X, encode_targets(labels, "multiclass"), k=3, **OPTIONS)
    assert sorted(path.selected) == [0, 1, 2]


@pytest.mark.parametrize(
    ("shape", "old", "new"),
    [
        ((29305, 123, 50, 1), "sas", "sas_primal"),
        ((1794, 4862, 50, 1), "sas", "sas_primal"),
        ((29305, 123, 50, 1), "svm_rfe", "svm_rfe_fraction"),
        ((127522, 22, 22, 1), "svm_rfe", "svm_rfe_fraction"),
        ((56, 2000, 50, 1), "svm_rfe", "svm_rfe_fraction"),
        ((8369, 256, 50, 10), "arom", "arom_l2svm"),
        ((1749, 3289, 50, 1), "arom", "arom_l2svm"),
    ],
)
def test_the_new_method_fits_the_budget_where_the_original_is_skipped(shape, old, new):
    m, n, k, t = shape
    budget = {"memory_budget_mb": 2000, "time_budget_s": 10, "flops_per_second": 2e9}
    assert not feasibility(get_method(old), m, n, k, t, **budget).feasible
    assert feasibility(get_method(new), m, n, k, t, **budget).feasible
