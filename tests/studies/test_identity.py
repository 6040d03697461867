"""The identity check (rlsbench.studies.identity): a run laid out like the committed tree is
identical, and a changed cell, a missing table, a changed verdict are each found and named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from rlsbench.studies import identity

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "results" / "paper"


def as_run(committed: Path, run: Path) -> Path:
    """``committed`` laid out as a run writes it: parts in their folders, the ledger's files
    in ``fidelity/``."""
    for path in committed.iterdir():
        if path.is_dir():
            shutil.copytree(path, run / path.name)
        elif path.suffix == ".csv":
            (run / "fidelity").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, run / "fidelity" / path.name)
    return run


@pytest.fixture
def trees(tmp_path):
    committed = tmp_path / "committed"
    for part in ("main", "sunyao"):
        shutil.copytree(COMMITTED / part, committed / part)
    for name in ("fidelity.csv", "fidelity_summary.csv"):
        shutil.copyfile(COMMITTED / name, committed / name)
    return committed, as_run(committed, tmp_path / "run")


def test_the_committed_tree_laid_out_as_a_run_is_identical(trees, capsys):
    committed, run = trees
    assert identity.main([str(run), "--committed", str(committed)]) == 0
    out = capsys.readouterr().out
    tables = identity.committed_tables(committed)
    # every part table and the ledger's two, investigations left out
    assert Path("main/tables/summary.csv") in tables
    assert Path("sunyao/table1/splits.csv") in tables
    assert Path("fidelity.csv") in tables and Path("fidelity_summary.csv") in tables
    assert not any("investigations" in t.parts for t in tables)
    assert f"{len(tables)} of {len(tables)} tables identical" in out


def test_a_changed_cell_is_named_with_its_line_and_column(trees, capsys):
    committed, run = trees
    path = run / "sunyao" / "table1" / "splits.csv"
    frame = pd.read_csv(path)
    frame.loc[3, "mse"] = frame.loc[3, "mse"] * (1 + 1e-12)  # a last-digit change is found
    frame.to_csv(path, index=False)
    assert identity.main([str(run), "--committed", str(committed), "--parts", "sunyao"]) == 1
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "splits.csv" in line)
    assert "differs" in line and "line 5, column 'mse'" in line


def test_a_measured_time_is_set_aside_and_a_missing_table_is_reported(trees):
    committed, run = trees
    path = run / "main" / "tables" / "alphas.csv"
    frame = pd.read_csv(path)
    frame["alpha_time_s"] = frame["alpha_time_s"] * 3  # the run was slower: no difference
    frame.to_csv(path, index=False)
    (run / "main" / "tables" / "curves.csv").unlink()
    results = {r.table: r for r in identity.compare(run, committed, {"main"})}
    assert results["main/tables/alphas.csv"].ok
    assert "alpha_time_s" in results["main/tables/alphas.csv"].aside
    assert results["main/tables/curves.csv"].status == "missing in the run"


def test_the_ledger_is_compared_on_its_verdicts_not_on_quoted_times(trees):
    committed, run = trees
    path = run / "fidelity" / "fidelity.csv"
    ledger = identity._read(path)
    timed = ledger.index[ledger["unit"] == "s"][0]
    ledger.loc[timed, "ours_value"] = 123.0
    ledger.to_csv(path, index=False)
    (result,) = identity.compare(run, committed, {"fidelity"})[:1]
    assert result.ok and "1 rows quote other numbers of ours" in result.detail

    judged = ledger.index[ledger["verdict"] == "match"][0]
    ledger.loc[judged, "verdict"] = "contradicts"
    ledger.to_csv(path, index=False)
    result = next(
        r for r in identity.compare(run, committed, {"fidelity"}) if r.table == "fidelity.csv"
    )
    assert result.status == "differs" and "'verdict'" in result.detail


def test_a_run_directory_that_does_not_exist_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        identity.main([str(tmp_path / "nope")])
    assert "is not a directory" in capsys.readouterr().err


def test_a_condition_number_past_float64s_precision_compares_as_one_value(tmp_path, capsys):
    """cond ≥ 1/ε has no reproducible digits (it changes with the CPU's BLAS); below that limit
    a difference is still found."""
    committed = tmp_path / "committed" / "buteneers"
    run = tmp_path / "run" / "buteneers"
    committed.mkdir(parents=True)
    run.mkdir(parents=True)
    table = pd.DataFrame({"task": ["cancer", "servo"], "cond": [4.87452e17, 4.70371e11]})
    table.to_csv(committed / "results.csv", index=False)
    table.assign(cond=[1.24326e18, 4.70371e11]).to_csv(run / "results.csv", index=False)
    argv = [str(tmp_path / "run"), "--committed", str(tmp_path / "committed")]
    assert identity.main(argv) == 0
    table.assign(cond=[1.24326e18, 4.70372e11]).to_csv(run / "results.csv", index=False)
    assert identity.main(argv) == 1
    assert "column 'cond'" in capsys.readouterr().out
