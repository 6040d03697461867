"""`make install` fills numba's cache (rlsbench.benchmark.compile_cache): what it compiles is
there afterwards, and a second process loads it instead of compiling."""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def _run(cache, *args):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    return subprocess.run(
        [sys.executable, "-m", "rlsbench.benchmark.compile_cache", *args],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )


def test_the_kernels_of_the_workflows_methods_are_cached(tmp_path):
    cache = tmp_path / "numba"
    first = _run(cache)
    for name in ("greedy_rls", "ffs_rows", "scaling point of greedy_rls"):
        assert f"compile_cache: {name} " in first.stdout
    compiled = sorted(p.name for p in cache.rglob("*.nbc"))
    kernels = {name.split("-")[0] for name in compiled}
    # the greedy selection's kernels (all four), the FFS rows kernel, the input scan and the
    # LOO λ search's kernel of GreedyRLS(alpha="loo")
    for kernel in (
        "_scoring._init_sums_kernel",
        "_scoring._make_single_output_kernel.locals.kernel",
        "_scoring._multi_output_kernel",
        "_scoring._transpose_kernel",
        "ffs_rows._add_candidate_errors",
        "_scan._max_abs_bits",
        "loo_grid._ldl_inverse_diagonal_kernel",
    ):
        assert kernel in kernels, compiled
    # a second run compiles nothing new: every signature came from the cache
    _run(cache, "--quiet")
    assert sorted(p.name for p in cache.rglob("*.nbc")) == compiled
