"""``benchmarks/bench_gpu.py`` where no GPU is present: one line saying so, exit status 2,
nothing measured (where a GPU is present the test is skipped: the benchmark takes minutes)."""

import subprocess
import sys
from pathlib import Path

import pytest

from rlsbench.numerics.selection import cuda

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_gpu.py"


@pytest.mark.skipif(cuda.gpu_unavailable_reason() is None, reason="a GPU is present here")
@pytest.mark.parametrize("library", ["torch", "cupy"])
def test_bench_gpu_without_a_gpu_exits_2_with_one_line(library, tmp_path):
    out = tmp_path / "t.md"
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--sizes", "100x10", "--library", library]
        + ["--markdown", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert proc.stderr.startswith("bench_gpu: no CUDA GPU to measure on:")
    assert len(proc.stderr.strip().splitlines()) == 1
    assert proc.stdout == ""
    assert not out.exists()
