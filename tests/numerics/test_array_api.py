"""The namespace-generic greedy RLS, LOO λ grid and LOO path, run through array-api-strict
(the standard's reference namespace, as scikit-learn tests its array API support): the same
exactness checks as the NumPy code (``test_selection_exact.py``, ``test_rls.py``), so that the
code that runs on GPUs is checked on every test run without one."""

import numpy as np
import pytest
import sklearn

from rlsbench.estimators import GreedyRLS, LowRankLSSVM, RandomSelector, WrapperRLS
from rlsbench.numerics.rls import choose_alpha, loo_grid, ridge_prefix_path
from rlsbench.numerics.selection import greedy as greedy_module
from rlsbench.numerics.selection import (
    greedy_rls,
    lowrank_lssvm,
    random_selection,
    ridge_path,
    wrapper,
)
from tests.numerics.test_rls import CASES, _brute_force_loo, _direct_ridge, _problem
from tests.numerics.test_selection_exact import SWEEP, K, direct_ridge, make_problem

xps = pytest.importorskip("array_api_strict")


def strict(a):
    return xps.asarray(np.asarray(a))


def host(a):
    return np.from_dlpack(a)


@pytest.mark.parametrize("shape,bias,outputs,criterion,seed", SWEEP)
def test_strict_greedy_equals_the_exact_wrapper(shape, bias, outputs, criterion, seed):
    X, y, alpha = make_problem(shape, outputs, criterion, seed)
    ref = wrapper(X, y, K, alpha, bias=bias, criterion=criterion, loo="blackbox")
    p = greedy_rls(strict(X), strict(y), K, alpha, bias=bias, criterion=criterion)
    assert p.info["backend"] == "array_api"
    assert isinstance(p.coef_path, type(strict(X)))  # fitted weights stay in the namespace
    np.testing.assert_array_equal(p.selected, ref.selected)
    np.testing.assert_allclose(p.loo_mse, ref.loo_mse, rtol=1e-8)
    np.testing.assert_allclose(p.criterion, ref.criterion, rtol=1e-8)
    np.testing.assert_allclose(host(p.coef_path), ref.coef_path, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(host(p.intercept_path), ref.intercept_path, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("criterion", ["squared", "zero_one"])
def test_array_api_backend_on_numpy_input_equals_numba(criterion):
    X, y, alpha = make_problem("m>n", "multi", criterion, 4)
    ref = greedy_rls(X, y, 6, alpha, bias=1.0, criterion=criterion)
    p = greedy_rls(X, y, 6, alpha, bias=1.0, criterion=criterion, backend="array_api")
    np.testing.assert_array_equal(p.selected, ref.selected)
    np.testing.assert_allclose(p.loo_mse, ref.loo_mse, rtol=1e-9)
    np.testing.assert_allclose(p.coef_path, ref.coef_path, rtol=1e-8, atol=1e-10)


def test_strict_greedy_weights_equal_direct_ridge():
    X, y, alpha = make_problem("m>n", "multi", "squared", seed=7)
    path = greedy_rls(strict(X), strict(y), K, alpha, bias=1.5)
    coef, icpt = host(path.coef_path), host(path.intercept_path)
    for s in range(K):
        w = direct_ridge(X[:, path.selected[: s + 1]], y, alpha, 1.5)
        np.testing.assert_allclose(coef[s, : s + 1], w[: s + 1], rtol=1e-8, atol=1e-10)
        assert np.all(coef[s, s + 1 :] == 0)
        np.testing.assert_allclose(icpt[s], 1.5 * w[s + 1], rtol=1e-8, atol=1e-10)


def test_strict_greedy_picks_the_brute_force_loo_minimum_each_round():
    X, y, alpha = make_problem("m>n", "single", "squared", seed=3)
    path = greedy_rls(strict(X), strict(y), 3, alpha, bias=1.0)
    chosen = []
    for s in range(3):
        errs = [
            np.inf
            if i in chosen
            else np.mean(np.square(y - _brute_force_loo(X[:, chosen + [i]], y, alpha, 1.0)))
            for i in range(X.shape[1])
        ]
        chosen.append(int(np.argmin(errs)))
        assert path.selected[s] == chosen[-1]
        assert path.loo_mse[s] == pytest.approx(min(errs), rel=1e-9)


def test_strict_exact_duplicate_columns_go_to_lower_index():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(30, 5))
    y = X[:, 2] + 0.1 * rng.normal(size=30)
    X = np.hstack([X, X[:, [2]]])
    assert greedy_rls(strict(X), strict(y), 2, 1.0).selected[0] == 2


def test_a_round_without_a_finite_winner_raises(monkeypatch):
    """The rule of the NumPy selectors: the winner must be finite and not chosen yet."""
    X, y, alpha = make_problem("m>n", "single", "squared", 0)

    def nan_pass(self, C, *args):
        nan = xps.full((C.shape[1],), float("nan"), dtype=xps.float64)
        return nan, nan

    monkeypatch.setattr(greedy_module.ArrayAPIScorer, "score", nan_pass)
    with pytest.raises(FloatingPointError, match="round 1 has no candidate with a finite"):
        greedy_rls(strict(X), strict(y), 2, alpha)


def test_strict_input_errors_name_the_parameter():
    X, y, alpha = make_problem("m>n", "single", "squared", 0)
    Xn = X.copy()
    Xn[3, 2] = np.nan
    with pytest.raises(ValueError, match="X contains NaN or infinity"):
        greedy_rls(strict(Xn), strict(y), 2, alpha)
    with pytest.raises(ValueError, match="y has 21 samples but X has 22"):
        greedy_rls(strict(X), strict(y[:-1]), 2, alpha)
    with pytest.raises(ValueError, match="k=99 is larger"):
        greedy_rls(strict(X), strict(y), 99, alpha)
    with pytest.raises(ValueError, match="backend='numba' runs on NumPy arrays only"):
        greedy_rls(strict(X), strict(y), 2, alpha, backend="numba")
    with pytest.raises(ValueError, match="backend='cuda' needs X in GPU memory|needs numba"):
        greedy_rls(strict(X), strict(y), 2, alpha, backend="cuda")
    with pytest.raises(ValueError, match="zero_one' needs labels"):
        greedy_rls(strict(X), strict(y), 2, alpha, criterion="zero_one")


@pytest.mark.parametrize(
    "f,name",
    [
        (lambda X, y: lowrank_lssvm(X, y, 2, 1.0), "lowrank_lssvm"),
        (lambda X, y: wrapper(X, y, 2, 1.0), "wrapper"),
        (lambda X, y: random_selection(X, y, 2, 1.0), "random_selection"),
    ],
)
def test_numpy_only_selectors_refuse_other_arrays(f, name):
    X, y, _ = make_problem("m>n", "single", "squared", 0)
    with pytest.raises(TypeError, match=f"{name} supports NumPy input only; greedy_rls runs"):
        f(strict(X), strict(y))


# -- the LOO λ grid search -------------------------------------------------------------------
@pytest.mark.parametrize("shape,bias,multi", CASES)
def test_strict_loo_grid_equals_numpy(shape, bias, multi):
    X, y = _problem(*shape, multi, seed=3)
    alphas = 2.0 ** np.arange(-8, 9, 2)
    got = loo_grid(strict(X), strict(y), alphas, bias=bias)
    ref = loo_grid(X, y, alphas, bias=bias)
    for a, b in zip(got, ref):
        assert isinstance(a, np.ndarray)
        np.testing.assert_allclose(a, b, rtol=1e-8)
    # and the definition of LOO at one λ
    r = y - _brute_force_loo(X, y, alphas[4], bias)
    np.testing.assert_allclose(got[1][4], np.sum(r * r) / X.shape[0], rtol=1e-8)


def test_strict_choose_alpha_and_zero_one_grid_equal_numpy():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(30, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    X[:, 0] += 3 * y
    alphas = np.array([100.0, 1.0, 0.01])
    for criterion in ("squared", "zero_one"):
        got = loo_grid(strict(X), strict(y), alphas, bias=1.0, criterion=criterion)
        ref = loo_grid(X, y, alphas, bias=1.0, criterion=criterion)
        np.testing.assert_allclose(got, ref, rtol=1e-8)
        assert choose_alpha(strict(X), strict(y), alphas, criterion=criterion) == choose_alpha(
            X, y, alphas, criterion=criterion
        )


# -- the LOO path of a given order -----------------------------------------------------------
@pytest.mark.parametrize("m", [6, 30])  # dual side (m < k + 1) and primal side
@pytest.mark.parametrize("bias", [0.0, 1.5])
@pytest.mark.parametrize("multi", [False, True])
def test_strict_ridge_prefix_path_equals_numpy_and_direct_ridge(m, bias, multi):
    X, y = _problem(m, 9, multi, seed=8)
    order = np.array([4, 0, 7, 2, 8, 1, 3])
    coef, icpt, res = ridge_prefix_path(strict(X), strict(y), order, 0.4, bias=bias)
    rcoef, ricpt, rres = ridge_prefix_path(X, y, order, 0.4, bias=bias)
    np.testing.assert_allclose(host(coef), rcoef, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(host(icpt), ricpt, rtol=1e-8, atol=1e-10)
    for s, (r, rr) in enumerate(zip(res, rres, strict=True)):
        np.testing.assert_allclose(host(r), rr, rtol=1e-8, atol=1e-10)
        w = _direct_ridge(X[:, order[: s + 1]], y, 0.4, bias)
        np.testing.assert_allclose(host(coef)[s, : s + 1], w[: s + 1], rtol=1e-8, atol=1e-10)


def test_strict_ridge_path_equals_numpy():
    X, y, alpha = make_problem("m<n", "single", "squared", seed=2)
    order = np.array([3, 0, 7, 1])
    got = ridge_path(strict(X), strict(y), order, alpha, bias=1.5)
    ref = ridge_path(X, y, order, alpha, bias=1.5)
    np.testing.assert_array_equal(got.selected, ref.selected)
    np.testing.assert_allclose(got.loo_mse, ref.loo_mse, rtol=1e-8)
    np.testing.assert_allclose(host(got.coef_path), ref.coef_path, rtol=1e-8, atol=1e-10)


# -- the estimator under scikit-learn's array_api_dispatch -----------------------------------
@pytest.fixture
def dispatch(monkeypatch):
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with sklearn.config_context(array_api_dispatch=True):
        yield


@pytest.mark.parametrize("task", ["binary", "multiclass", "regression"])
def test_greedy_estimator_fits_strict_arrays_and_keeps_them(dispatch, task):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 12))
    if task == "regression":
        y = X[:, 1] * 2 + rng.normal(size=40)
    elif task == "binary":
        y = np.where(X[:, 0] + 0.3 * rng.normal(size=40) > 0, 3, 7)
    else:
        y = np.argmax(X[:, :3] + 0.3 * rng.normal(size=(40, 3)), axis=1)
    with sklearn.config_context(array_api_dispatch=False):
        ref = GreedyRLS(4, alpha="loo").fit(X, y)
    est = GreedyRLS(4, alpha="loo").fit(strict(X), strict(y))
    for name in ("coef_", "selected_", "loo_path_", "loo_mse_path_"):  # kept in the namespace
        assert isinstance(getattr(est, name), type(strict(X))), name
    np.testing.assert_array_equal(host(est.selected_), ref.selected_)
    np.testing.assert_allclose(host(est.loo_path_), ref.loo_path_, rtol=1e-8)
    assert est.alpha_ == ref.alpha_
    np.testing.assert_allclose(host(est.coef_), ref.coef_, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(host(est.intercept_), ref.intercept_, rtol=1e-8, atol=1e-12)
    pred = est.predict(strict(X))
    np.testing.assert_allclose(host(pred), ref.predict(X), rtol=1e-8, atol=1e-12)
    np.testing.assert_array_equal(est.get_support(), ref.get_support())


@pytest.mark.parametrize("cls", [LowRankLSSVM, WrapperRLS, RandomSelector])
def test_other_estimators_refuse_strict_arrays(dispatch, cls):
    X, y, _ = make_problem("m>n", "single", "squared", 0)
    with pytest.raises(TypeError, match=f"{cls.__name__} supports NumPy input only"):
        cls(2).fit(strict(X), strict(y))


@pytest.mark.parametrize("outputs", ["single", "multi"])
def test_a_strict_path_scores_new_data_in_its_namespace(outputs):
    X, y, alpha = make_problem("m>n", outputs, "squared", 5)
    Xt = np.random.default_rng(0).normal(size=(5, X.shape[1]))
    ref = greedy_rls(X, y, K, alpha, bias=1.0).decision_path(Xt)
    got = greedy_rls(strict(X), strict(y), K, alpha, bias=1.0).decision_path(strict(Xt))
    np.testing.assert_allclose(host(got), ref, rtol=1e-8, atol=1e-10)


SKLEARN_CHECKS = """
from sklearn.utils.estimator_checks import (
    check_array_api_input,
    check_array_api_same_namespace,
)
from rlsbench.estimators import GreedyRLS

for est in (GreedyRLS(), GreedyRLS(alpha="loo", criterion="zero_one")):
    for dtype in ("float64", "float32"):
        check_array_api_input(
            "GreedyRLS", est, "array_api_strict", device_name="CPU_DEVICE", dtype_name=dtype
        )
    check_array_api_same_namespace("GreedyRLS", est, "array_api_strict")
print("ok")
"""


def test_scikit_learn_array_api_checks_pass():
    """scikit-learn's own checks of an array-API estimator (they need SCIPY_ARRAY_API=1 before
    scipy is imported, hence the subprocess)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, SCIPY_ARRAY_API="1")
    proc = subprocess.run(
        [sys.executable, "-c", SKLEARN_CHECKS], env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "ok"


def test_numpy_only_functions_refuse_other_arrays_in_one_line():
    from rlsbench.numerics.rls import fit_rls, loo_residuals

    X, y, _ = make_problem("m>n", "single", "squared", 0)
    for f in (fit_rls, loo_residuals):
        with pytest.raises(TypeError, match=r"^X: NumPy input only here; greedy_rls, the LOO"):
            f(strict(X), y, 1.0)
