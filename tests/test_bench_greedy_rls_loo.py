"""The LOO-search benchmark runs on a small problem: both searches and the fits choose one λ
(on the BLAS's threads and on one) and the report prints every ratio, wall and CPU seconds,
and the search's phases (no time is asserted: times depend on the load)."""

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_greedy_rls_loo.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_greedy_rls_loo", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_small_run_chooses_one_alpha_and_prints_the_ratios(bench, tmp_path, capsys):
    out = tmp_path / "loo.json"
    result = bench.main(
        ["--m", "60", "--n", "150", "--k", "4", "--repeats", "1", "--json", str(out)]
    )
    assert result["same_alpha"] and result["same_selection"]
    assert json.loads(out.read_text())["alpha"] == result["alpha"]
    printed = capsys.readouterr().out
    for label in (
        "alpha='loo' fit",
        "search (tridiagonal)",
        "search (eigh, before)",
        "ratio",
        "one BLAS thread, CPU seconds",
        "search phases",
    ):
        assert label in printed
    assert set(result["best_seconds"]) == {
        "fixed",
        "loo",
        "search_tridiagonal",
        "search_eigh",
        "search_eigh_1thread",
    }
    assert set(result["best_cpu_seconds_1thread"]) == {"fixed", "loo", "search_tridiagonal"}
    assert set(result["search_phases_cpu_seconds_1thread"]) == {
        "syrk",
        "sytrd",
        "orghr",
        "tridiagonalize",
        "grid",
    }
    assert result["cpu_ratio_loo_over_fixed_1thread"] > 0
