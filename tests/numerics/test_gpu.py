"""Greedy RLS, the LOO λ grid and the LOO path on a CUDA GPU give the CPU's selections and
values (runs where a GPU and CuPy or torch are present; skipped with the reason elsewhere).

CI has no GPU: there the kernels run in numba's CUDA simulator (``test_gpu_simulator.py``)
and the namespace-generic code through array-api-strict (``test_array_api.py``).
"""

import importlib.util

import numpy as np
import pytest

from rlsbench.numerics.rls import choose_alpha, loo_grid, ridge_prefix_path
from rlsbench.numerics.selection import cuda, greedy_rls, wrapper
from rlsbench.numerics.selection.order import ridge_path
from tests.numerics.test_selection_exact import SWEEP, K, make_problem


def _libraries():
    libs = []
    if importlib.util.find_spec("torch") is not None:
        import torch

        if torch.cuda.is_available():
            libs.append(
                ("torch", lambda a: torch.asarray(a, device="cuda"), lambda a: a.cpu().numpy())
            )
    if importlib.util.find_spec("cupy") is not None:
        try:
            import cupy

            if cupy.cuda.runtime.getDeviceCount() > 0:
                libs.append(("cupy", cupy.asarray, cupy.asnumpy))
        except Exception:  # noqa: BLE001 - no driver
            pass
    return libs


LIBS = _libraries()
pytestmark = pytest.mark.skipif(
    not LIBS or cuda.simulator_enabled() or not cuda.available(),
    reason="needs a CUDA GPU with CuPy or torch and numba's CUDA target",
)
LIB_IDS = [name for name, *_ in LIBS] or ["none"]
LIBS = LIBS or [("none", None, None)]


@pytest.mark.parametrize("lib", LIBS, ids=LIB_IDS)
@pytest.mark.parametrize("backend", ["cuda", "array_api"])
@pytest.mark.parametrize("shape,bias,outputs,criterion,seed", SWEEP)
def test_gpu_selection_equals_the_exact_wrapper(
    lib, backend, shape, bias, outputs, criterion, seed
):
    _, dev, host = lib
    X, y, alpha = make_problem(shape, outputs, criterion, seed)
    ref = wrapper(X, y, K, alpha, bias=bias, criterion=criterion, loo="blackbox")
    p = greedy_rls(dev(X), dev(y), K, alpha, bias=bias, criterion=criterion, backend=backend)
    assert p.info["backend"] == backend
    np.testing.assert_array_equal(p.selected, ref.selected)
    np.testing.assert_allclose(p.loo_mse, ref.loo_mse, rtol=1e-8)
    np.testing.assert_allclose(p.criterion, ref.criterion, rtol=1e-8)
    np.testing.assert_allclose(host(p.coef_path), ref.coef_path, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(host(p.intercept_path), ref.intercept_path, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("lib", LIBS, ids=LIB_IDS)
@pytest.mark.parametrize("outputs,criterion", [("single", "squared"), ("multi", "zero_one")])
def test_gpu_long_run_with_write_backs_equals_cpu(lib, outputs, criterion):
    """More rounds than pending updates: the deferred write-back of the cache is exercised."""
    _, dev, host = lib
    rng = np.random.default_rng(4)
    m, n = 3000, 300
    X = rng.normal(size=(m, n))
    if criterion == "zero_one":
        y = -np.ones((m, 3))
        y[np.arange(m), np.argmax(X[:, :3] + rng.normal(size=(m, 3)), axis=1)] = 1.0
    else:
        y = X[:, :20] @ rng.normal(size=20) + rng.normal(size=m)
    cpu = greedy_rls(X, y, 25, 0.5, bias=1.0, criterion=criterion)
    gpu = greedy_rls(dev(X), dev(y), 25, 0.5, bias=1.0, criterion=criterion, backend="cuda")
    np.testing.assert_array_equal(gpu.selected, cpu.selected)
    np.testing.assert_allclose(gpu.loo_mse, cpu.loo_mse, rtol=1e-9)
    np.testing.assert_allclose(host(gpu.coef_path), cpu.coef_path, rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("lib", LIBS, ids=LIB_IDS)
@pytest.mark.parametrize("shape", ["m<n", "m>n"])
def test_gpu_lambda_grid_and_loo_path_equal_cpu(lib, shape):
    _, dev, host = lib
    X, y, _ = make_problem(shape, "multi", "squared", 3)
    alphas = 2.0 ** np.arange(-6, 7)
    for a, b in zip(loo_grid(dev(X), dev(y), alphas, bias=1.0), loo_grid(X, y, alphas, bias=1.0)):
        np.testing.assert_allclose(a, b, rtol=1e-8)
    assert choose_alpha(dev(X), dev(y), alphas, bias=1.0) == choose_alpha(X, y, alphas, bias=1.0)
    order = np.array([3, 0, 5, 1])
    got = ridge_prefix_path(dev(X), dev(y), order, 0.7, bias=1.5)
    ref = ridge_prefix_path(X, y, order, 0.7, bias=1.5)
    np.testing.assert_allclose(host(got[0]), ref[0], rtol=1e-8, atol=1e-10)
    for r_got, r_ref in zip(got[2], ref[2]):
        np.testing.assert_allclose(host(r_got), r_ref, rtol=1e-8, atol=1e-10)
    p = ridge_path(dev(X), dev(y), order, 0.7, bias=1.5)
    np.testing.assert_allclose(p.loo_mse, ridge_path(X, y, order, 0.7, bias=1.5).loo_mse, rtol=1e-8)
