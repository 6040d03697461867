"""Rankers of Ramona et al. (2012): toy-problem behaviour, ascent, sklearn contract, registry."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks
from threadpoolctl import threadpool_limits

from rlsbench.estimators import AROM, KFDS, R2W2, SAS, SCSS, SFS, SVMRFE, FisherScore
from rlsbench.numerics.kernel.alignment import encode_labels
from rlsbench.numerics.kernel.kernels import ScaledKernel
from rlsbench.numerics.kernel.selectors import (
    criterion_value_grad,
    fisher_scores,
    scale_factor_ascent,
)
from rlsbench.numerics.kernel.wrappers import (
    enclosing_ball,
    enclosing_ball_qp,
    joachims_C,
    radius_margin_value_grad,
)
from rlsbench.numerics.synthetic import make_weston_linear, make_weston_nonlinear


@pytest.fixture(autouse=True)
def _one_blas_thread():
    # small matrices: BLAS threads only add contention on the shared CI machine
    with threadpool_limits(limits=1):
        yield


SEEDS = range(10)


def _complementary(order):
    """One feature of each redundant group {0,1,2} and {3,4,5} of the linear toy problem."""
    a, b = sorted(order[:2])
    return a < 3 <= b < 6


def _rate(make, problem, n, hit):
    gen = make_weston_linear if problem == "linear" else make_weston_nonlinear
    return np.mean([hit(make().fit(*gen(n, seed=s)).order_) for s in SEEDS])


def test_kfds_finds_the_complementary_pair_where_sas_picks_redundant_features():
    # Fig. 1(a): KFDS (like AROM and R2W2) selects one feature from each redundant group;
    # the scaled alignment mostly takes two features of the same group.
    kfds = _rate(KFDS, "linear", 100, _complementary)
    sas = _rate(SAS, "linear", 100, _complementary)
    assert kfds >= 0.8
    assert sas <= 0.6


@pytest.mark.parametrize("make", [AROM, SVMRFE], ids=["arom", "rfe"])
def test_svm_wrappers_find_the_complementary_pair(make):
    assert _rate(make, "linear", 50, _complementary) >= 0.8


def test_scss_with_rbf_kernel_finds_the_nonlinear_pair_that_fisher_misses():
    # Fig. 1(b): the two XOR-like features are invisible to the Fisher criterion.
    def both(order):
        return set(order[:2].tolist()) == {0, 1}

    assert _rate(lambda: SCSS(kernel="rbf"), "nonlinear", 100, both) >= 0.7
    assert _rate(FisherScore, "nonlinear", 100, both) <= 0.2


@pytest.mark.parametrize("criterion", ["alignment", "separability", "frobenius"])
def test_ascent_never_lowers_the_criterion(criterion):
    X, y = make_weston_nonlinear(40, seed=3, n_features=8)
    X = (X - X.mean(0)) / X.std(0)
    codes, _, counts = encode_labels(y)
    kernel = ScaledKernel("rbf", sigma=2.0)
    w, hist = scale_factor_ascent(X, codes, counts, kernel, criterion, epsilon=4.0, max_iter=30)
    assert hist.size > 2
    assert np.all(np.diff(hist) >= 0)
    assert hist[-1] > hist[0]
    value, _ = criterion_value_grad(X, codes, counts, w, kernel, criterion, epsilon=4.0)
    assert value == pytest.approx(hist[-1])


def test_block_size_does_not_change_the_ranking():
    X, y = make_weston_linear(60, seed=1, n_features=30)
    a = SAS(kernel="rbf", block_size=7).fit(X, y)
    b = SAS(kernel="rbf", block_size=None).fit(X, y)
    np.testing.assert_allclose(a.scale_factors_, b.scale_factors_, rtol=1e-8)
    np.testing.assert_array_equal(a.order_, b.order_)


def test_multiclass_ranking_prefers_informative_features():
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(4), 30)
    X = rng.normal(size=(120, 10))
    X[:, 7] += 2.0 * y  # the only informative feature
    for est in [SAS(), SCSS(), SAS(kernel="poly", degree=2), KFDS(), AROM(), FisherScore()]:
        assert est.fit(X, y).order_[0] == 7, est


def test_fisher_score_is_eq_1_for_two_classes():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 4))
    y = np.r_[np.zeros(12), np.ones(18)]
    codes, _, counts = encode_labels(y)
    a, b = X[y == 0], X[y == 1]
    expected = (a.mean(0) - b.mean(0)) ** 2 / (a.var(0) + b.var(0))
    np.testing.assert_allclose(fisher_scores(X, codes, counts), expected)


def test_joachims_c_is_inverse_squared_mean_radius():
    X = np.array([[3.0, 4.0], [0.0, 1.0]])
    assert joachims_C(X) == pytest.approx(1.0 / 3.0**2)  # mean norm (5 + 1) / 2
    # RBF: ||φ(x) − φ(0)||² = 2 − 2 exp(−||x||²/2σ²)
    r = np.sqrt(2 - 2 * np.exp(-np.array([25.0, 1.0]) / 2))
    assert joachims_C(X, ScaledKernel("rbf")) == pytest.approx(1 / r.mean() ** 2)


def test_sfs_refuses_the_linear_kernel():
    X, y = make_weston_linear(20, seed=0, n_features=8)
    with pytest.raises(ValueError, match="SFS kernel='linear'"):
        SFS(kernel="linear").fit(X, y)


def test_transform_keeps_the_top_ranked_features():
    X, y = make_weston_linear(50, seed=0, n_features=12)
    est = FisherScore(n_features_to_select=3).fit(X, y)
    np.testing.assert_array_equal(est.transform(X), X[:, np.sort(est.order_[:3])])
    assert sorted(est.ranking_[est.order_[:3]]) == [1, 2, 3]


def test_enclosing_ball_radius_solves_the_qp():
    from scipy.optimize import minimize

    two = np.array([[0.0, 0.0], [2.0, 0.0]])
    assert enclosing_ball(two @ two.T)[0] == pytest.approx(1.0)
    X = np.random.default_rng(0).normal(size=(25, 3))
    K = X @ X.T
    d = np.diag(K)
    ref = minimize(
        lambda b: b @ K @ b - b @ d,
        np.full(25, 1 / 25),
        jac=lambda b: 2 * K @ b - d,
        bounds=[(0, 1)] * 25,
        method="SLSQP",
        options={"ftol": 1e-14},
        constraints=[{"type": "eq", "fun": lambda b: b.sum() - 1}],
    )
    r2, beta = enclosing_ball(K)
    assert r2 == pytest.approx(-ref.fun, rel=1e-8)
    assert beta.min() >= 0 and beta.sum() == pytest.approx(1.0)


def _soft_rbf_gram(n, seed):
    # R2W2's matrix K + I/C: positive definite, so the ball's β is unique
    X = np.random.default_rng(seed).normal(size=(n, 4))
    return ScaledKernel("rbf", sigma=1.5).gram(X, X, np.ones(4)) + np.eye(n) / 2.0


@pytest.mark.parametrize("n", [15, 40])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dense_qp_and_frank_wolfe_give_the_same_radius_and_multipliers(n, seed):
    K = _soft_rbf_gram(n, seed)
    r2_fw, beta_fw = enclosing_ball(K)
    r2_qp, beta_qp = enclosing_ball_qp(K)
    # both reach the optimum to rounding: 1e-9 relative on R², 1e-7 on every β_i
    assert r2_qp == pytest.approx(r2_fw, rel=1e-9)
    np.testing.assert_allclose(beta_qp, beta_fw, atol=1e-7)
    assert beta_qp.min() >= 0 and beta_qp.sum() == pytest.approx(1.0)
    assert 1 < np.count_nonzero(beta_qp) < n  # a sparse support: the bounds are active


def test_dense_qp_ball_on_a_rank_deficient_gram_has_the_same_centre():
    # a linear Gram of rank 3: β is not unique, the radius and the centre Kβ are
    Z = np.random.default_rng(3).normal(size=(30, 3))
    K = Z @ Z.T
    r2_fw, beta_fw = enclosing_ball(K)
    r2_qp, beta_qp = enclosing_ball_qp(K)
    assert r2_qp == pytest.approx(r2_fw, rel=1e-9)
    np.testing.assert_allclose(K @ beta_qp, K @ beta_fw, atol=1e-7)
    two = np.array([[0.0, 0.0], [2.0, 0.0]])
    assert enclosing_ball_qp(two @ two.T)[0] == pytest.approx(1.0)


def test_dense_qp_ball_does_not_depend_on_the_kernel_scale():
    K = _soft_rbf_gram(25, 4)
    r2, beta = enclosing_ball_qp(K)
    r2_big, beta_big = enclosing_ball_qp(1e6 * K)
    assert r2_big == pytest.approx(1e6 * r2, rel=1e-9)
    np.testing.assert_allclose(beta_big, beta, atol=1e-9)


@pytest.mark.parametrize("radius", ["frank_wolfe", "qp"])
@pytest.mark.parametrize(
    "kernel", [ScaledKernel("linear"), ScaledKernel("rbf", sigma=1.5)], ids=["linear", "rbf"]
)
def test_radius_margin_gradient_matches_finite_differences(kernel, radius):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = np.r_[np.ones(15), -np.ones(15)]
    X[:15, 0] += 1.0
    codes, _, counts = encode_labels(y)
    w = rng.uniform(0.5, 1.5, size=3)

    def bound(v):
        return radius_margin_value_grad(X, codes, counts, v, kernel, 0.7, radius=radius)

    _, grad = bound(w)
    # the SVM and the ball are solved numerically: a wider step keeps their tolerance out
    fd = [(bound(w + e)[0] - bound(w - e)[0]) / 2e-3 for e in np.eye(3) * 1e-3]
    np.testing.assert_allclose(grad, fd, rtol=1e-2, atol=1e-3)


def test_r2w2_selects_the_same_features_with_either_radius_solver():
    X, y = make_weston_nonlinear(30, seed=2, n_features=8)
    fw = R2W2(max_iter=5).fit(X, y)
    qp = R2W2(max_iter=5, radius="qp").fit(X, y)
    np.testing.assert_array_equal(qp.order_, fw.order_)
    np.testing.assert_allclose(qp.history_, fw.history_, rtol=1e-6)


def test_r2w2_rejects_an_unknown_radius_solver():
    X, y = make_weston_nonlinear(20, seed=0, n_features=4)
    with pytest.raises(ValueError, match="'radius' parameter of R2W2 must be"):
        R2W2(radius="cvxopt").fit(X, y)


def test_r2w2_finds_the_nonlinear_pair():
    hits = [
        set(R2W2().fit(*make_weston_nonlinear(50, seed=s, n_features=12)).order_[:2]) == {0, 1}
        for s in range(5)
    ]
    assert np.mean(hits) >= 0.6


@parametrize_with_checks(
    [
        SAS(max_iter=5),
        SCSS(max_iter=5),
        SFS(max_iter=5),
        KFDS(max_iter=5),
        FisherScore(),
        AROM(max_iter=3),
        SVMRFE(),
        R2W2(max_iter=3),
    ]
)
def test_sklearn_estimator_contract(estimator, check):
    check(estimator)


def test_registered_methods_score_their_order_with_ridge_path():
    pytest.importorskip("rlsbench.numerics.selection")
    from rlsbench.benchmark.methods import get_method

    rng = np.random.default_rng(0)
    classes = np.arange(60) % 3
    X = rng.normal(size=(60, 15))
    X[:, 9] += 2.0 * classes
    y = np.where(classes == 0, 1.0, -1.0)
    Y = np.where(np.arange(3)[None, :] == classes[:, None], 1.0, -1.0)
    for name in ["sas", "scss", "sfs", "kfds", "fisher_score", "svm_rfe", "arom", "r2w2"]:
        method = get_method(name)
        assert method.tasks == ("binary", "multiclass")
        for target in (y, Y):
            path = method.run(
                X, target, alpha=1.0, k=4, criterion="squared", bias=1.0, seed=0, n_jobs=1
            )
            assert path.selected.shape == (4,)
            np.testing.assert_array_equal(path.selected, path.info["order"][:4])
            assert np.all(np.isfinite(path.loo_mse))
            assert path.selected[0] == 9, name  # the informative feature comes first


def test_a_ranking_puts_non_finite_scores_last_and_refuses_when_none_is_finite():
    from rlsbench.numerics.kernel.selectors import order_from_scores
    from rlsbench.numerics.selection import SelectionError

    order = order_from_scores([0.5, np.nan, 2.0, np.inf, 0.5])
    assert list(order) == [2, 0, 4, 1, 3]  # a permutation: finite by score, then the rest
    with pytest.raises(SelectionError, match="none of the 3 features"):
        order_from_scores([np.nan, np.inf, -np.inf])
