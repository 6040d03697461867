"""The numba-cuda kernels of greedy RLS in numba's CUDA simulator (no GPU needed): the same
selections, LOO values and weights as the numba CPU kernels, with the deferred write-back of
the cache exercised (more rounds than pending updates).

The simulator is chosen by ``NUMBA_ENABLE_CUDASIM=1`` before numba is imported, so the
checks run in a subprocess; they are skipped, with the reason, where the installed numba has
no CUDA target (numba >= 0.61 without numba-cuda may lack the simulator).
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    try:
        from numba import cuda
        assert cuda.is_available()
    except Exception as exc:
        print(json.dumps({"skip": f"numba's CUDA simulator is not available: {exc!r}"}))
        sys.exit(0)
    from rlsbench.numerics.selection import cuda, greedy_rls
    from test_selection_exact import make_problem

    out = []
    cases = [
        ("m<n", 0.0, "single", "squared", 0, 11),
        ("m<n", 1.5, "multi", "zero_one", 1, 11),
        ("m>n", 1.5, "single", "zero_one", 2, 7),
        ("m>n", 0.0, "multi", "squared", 0, 4),
    ]
    for shape, bias, outputs, criterion, seed, k in cases:
        X, y, alpha = make_problem(shape, outputs, criterion, seed)
        ref = greedy_rls(X, y, k, alpha, bias=bias, criterion=criterion, backend="numba")
        got = greedy_rls(X, y, k, alpha, bias=bias, criterion=criterion, backend="cuda")
        out.append(dict(
            case=[shape, bias, outputs, criterion, seed, k],
            backend=got.info["backend"],
            same=bool(np.array_equal(got.selected, ref.selected)),
            mse=float(np.max(np.abs(got.loo_mse / ref.loo_mse - 1))),
            crit=float(np.max(np.abs(got.criterion - ref.criterion))),
            coef=float(np.max(np.abs(got.coef_path - ref.coef_path))),
        ))
    print(json.dumps({"results": out, "max_pending": cuda.MAX_PENDING}))
    """
)


@pytest.mark.slow
def test_cuda_kernels_in_the_simulator_equal_the_cpu_kernels():
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=str(TESTS))
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    if "skip" in report:
        pytest.skip(report["skip"])
    assert max(r["case"][-1] for r in report["results"]) > report["max_pending"] + 1
    for r in report["results"]:
        assert r["backend"] == "cuda"
        assert r["same"], r
        assert r["mse"] < 1e-9, r
        assert r["crit"] < 1e-9, r
        assert r["coef"] < 1e-8, r
