"""max |x|'s numba kernel is compiled when its module is imported, for writable and read-only
arrays alike: a timed selection (the scaling study's points) never pays for its compilation,
whatever small problem warmed the selector up (below 2^18 entries numpy answers instead)."""

from __future__ import annotations

import numpy as np
import pytest

scan = pytest.importorskip("rlsbench.numerics._scan")
if not scan.HAVE_NUMBA:  # pragma: no cover
    pytest.skip("numba is not installed", allow_module_level=True)


def test_the_kernel_is_compiled_at_import_for_both_kinds_of_array():
    assert len(scan._max_abs_bits.signatures) == 2
    X = np.random.default_rng(0).standard_normal((600, 500))
    X[3, 7] = -9.0
    assert scan.max_abs(X) == 9.0
    X.flags.writeable = False  # as the protocol hands a method its training split
    assert scan.max_abs(X) == 9.0
    # nothing new was compiled for these calls
    assert len(scan._max_abs_bits.signatures) == 2
