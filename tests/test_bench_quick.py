"""The benchmark's quick mode runs and prints its ratio table; selections agree (no timing is
asserted: times depend on the machine and its load)."""

import importlib.util
import re
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_greedy_rls.py"


def _installed(module):
    return importlib.util.find_spec(module) is not None


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_greedy_rls", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_quick_benchmark_prints_the_ratio_table(bench, tmp_path, capsys):
    md = tmp_path / "table.md"
    fig = bench.main(
        ["--quick", "--repeats", "1", "--markdown", str(md), "--json", str(tmp_path / "f.json")]
    )
    table = md.read_text()
    assert table in capsys.readouterr().out
    header = [
        "implementation",
        "run on",
        "measured (s)",
        "at full size (s)",
        "× rlsbench (2 threads)",
        "how",
        "same selection",
    ]
    head = next(line for line in table.splitlines() if line.startswith("| implementation"))
    assert [c.strip() for c in head.strip("|").split("|")] == header
    names = [r["name"] for r in fig["rows"]]
    expected = [
        "memory bound: np.copyto of X",
        "memory bound: one read of X, 2 threads",
        "memory bound: one read of X, 1 thread",
        f"bandwidth floor of greedy RLS: {fig['sizes']['k']} reads of the live cache, 2 threads",
        "rlsbench greedy_rls, 2 threads",
        "rlsbench greedy_rls, 1 thread",
        "plain vectorised numpy (Algorithm 3)",
        "low-rank updated LS-SVM (Algorithm 2), 2 BLAS threads",
        "scikit-learn SequentialFeatureSelector(Ridge), cv=5, 1 thread",
    ]
    assert names[: len(expected)] == expected
    assert any(n.startswith("abess") for n in names) == _installed("abess")
    assert any(n.startswith("RLScore") for n in names) == _installed("rlscore")
    assert names[-3:] == [
        "random baseline (RLS path along k random features)",
        "protocol LOO path along greedy's k features",
        "λ grid search (31 λ, all n features)",
    ]
    for r in fig["rows"]:
        cells = rf"\|\s*{re.escape(r['name'])}\s*\|\s*{re.escape(str(r['size']))}\s*\|"
        assert re.search(cells, table), r["name"]
        if r["name"].startswith(("rlsbench greedy_rls, 1", "plain", "low-rank", "RLScore")):
            assert r["agrees"] == "yes", r["name"]
    assert "copies of X" in table and "two threads against one" in table
    assert "bandwidth floor" in table and fig["read_floor_seconds"] > 0
    assert set(fig["read_seconds"]) == {1, 2}
