"""A timed selection pays for no compilation its warm-up could have done, and the warm-up
compiles nothing the point does not use.

The small warm-up problem does not reach the compiled one-pass scan of a large X's input check
(in a fresh clone the point m = 250, n = 2000, k = 50 once paid 2.7 s of compilation inside a
0.05 s timing), so the warm-up compiles that too, where X is large enough to take it, for X as
it is and for the read-only view the selectors check (numba compiles the two kinds apart;
compiling both in every point, small ones included, cost a cold ``make reproduce`` ~13 s in
each of its first two points). Each case runs in a fresh
interpreter, whose numba dispatcher starts with no signature (the disk cache fills it when
loaded, so that a signature counted here was loaded or compiled in that process).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

scan = pytest.importorskip("rlsbench.numerics._scan")

SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    from rlsbench.numerics import _scan
    from rlsbench.studies.scaling.experiment import get_scaling_method, time_selection

    m, n, writeable = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
    rng = np.random.default_rng(0)
    X = rng.standard_normal((m, n))
    X.flags.writeable = writeable
    y = np.sign(rng.standard_normal(m))
    inner = get_scaling_method("greedy_rls").select
    seen = []

    def select(X, y, k, alpha, threads):
        before = len(_scan._max_abs_bits.signatures)
        out = inner(X, y, k, alpha, threads)
        seen.append((X.shape[0], before, len(_scan._max_abs_bits.signatures)))
        return out

    result = time_selection(select, X, y, k=2, alpha=1.0, threads=1)
    print(json.dumps({
        "status": result["status"],
        "timed": seen[-1],
        "mutable": sorted({bool(sig[0].mutable) for sig in _scan._max_abs_bits.signatures}),
    }))
    """
)


def _run(m, n, writeable):
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(m), str(n), "1" if writeable else "0"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not scan.HAVE_NUMBA, reason="numba is not installed")
@pytest.mark.parametrize("writeable", [True, False])
def test_a_large_point_compiles_its_scan_in_the_warm_up_for_its_own_kind_of_array(writeable):
    n = 64
    m = scan.MIN_ELEMENTS // n
    got = _run(m, n, writeable)
    assert got["status"] == "ok"
    rows, before, after = got["timed"]
    assert rows == m
    assert before == after >= 1  # the timed selection found the scan compiled
    assert got["mutable"] == sorted({writeable, False})  # and no kind it does not use


@pytest.mark.skipif(not scan.HAVE_NUMBA, reason="numba is not installed")
def test_a_small_point_compiles_no_scan():
    got = _run(30, 8, True)
    assert got["status"] == "ok"
    assert got["timed"][1:] == [0, 0]
    assert got["mutable"] == []
