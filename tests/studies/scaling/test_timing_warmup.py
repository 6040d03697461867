"""A timed selection pays for no compilation its warm-up could have done: the small warm-up
problem does not reach the compiled one-pass scan of a large X's input check, so the warm-up
compiles that too, for writable and read-only arrays (in a fresh clone the point m = 250,
n = 2000, k = 50 once paid 2.7 s of compilation inside a 0.05 s timing)."""

from __future__ import annotations

import numpy as np
import pytest

from rlsbench.studies.scaling.experiment import get_scaling_method, time_selection

scan = pytest.importorskip("rlsbench.numerics._scan")


@pytest.mark.skipif(not scan.HAVE_NUMBA, reason="numba is not installed")
def test_the_warm_up_compiles_the_large_input_scan_for_both_kinds_of_array():
    X = np.random.default_rng(0).standard_normal((30, 8))
    y = np.sign(np.random.default_rng(1).standard_normal(30))
    result = time_selection(
        get_scaling_method("greedy_rls").select, X, y, k=3, alpha=1.0, threads=1
    )
    assert result["status"] == "ok"
    layouts = {sig[0].mutable for sig in scan._max_abs_bits.signatures}
    assert layouts == {True, False}  # writable and read-only bits
