"""Two clean runs of one config give identical result tables (issue 19, item 3).

A small config (``tests/configs/tiny.yaml``'s main part plus a tiny scaling section with a
budget that skips one point) runs in two temporary directories; every CSV table of the two
runs must be identical cell for cell, as written, once the columns the library names as
run-dependent (:data:`rlsbench.benchmark.tables.RUN_DEPENDENT_COLUMNS`: measured times and
memory, machine and checkout) are dropped. A third run with other seeds must differ, which
proves the comparison can fail. The fidelity ledger of both runs gives every row the same
verdict (issue 29, item 2): its ``ours`` text quotes measured times, so the ledger is compared on
its keys and verdicts, not cell for cell.
"""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rlsbench.benchmark.protocol import TIMING_COLUMNS
from rlsbench.benchmark.provenance import provenance
from rlsbench.benchmark.tables import (
    MEASUREMENT_COLUMNS,
    PROVENANCE_COLUMNS,
    RUN_DEPENDENT_COLUMNS,
)

REPO = Path(__file__).resolve().parents[1]
TINY = REPO / "tests" / "configs" / "tiny.yaml"

#: A scaling section small enough for a test: two sizes, three methods, one point over budget.
SCALING = {
    "enabled": True,
    "seed": 0,
    "alpha": 1.0,
    "repeats": 1,
    "threads": [1],
    "budget": {"max_flops": 1e10, "timeout_s": 300},
    "methods": {
        "greedy_rls": {"exponents": {"m": 1, "n": 1, "k": 1}},
        "lowrank_lssvm": {"exponents": {"m": 2, "n": 1, "k": 1}},
        # between its estimates at m = 16 (3.5e7) and m = 24 (5.3e7)
        "wrapper_blackbox": {"exponents": {"m": 2, "n": 1, "k": 3}, "max_flops": 4e7},
    },
    "sweeps": {
        "tiny": {
            "vary": "m",
            "values": [16, 24],
            "fixed": {"n": 6, "k": 2},
            "methods": ["greedy_rls", "lowrank_lssvm", "wrapper_blackbox"],
            "figures": ["log"],
        }
    },
    "paper_reference": {
        "method": "greedy_rls",
        "m": 24,
        "n": 6,
        "k": 2,
        "seconds": 720,
        "source": "paper",
        "note": "test",
    },
}

pytestmark = pytest.mark.slow


def config(main_seed=0, scaling_seed=0) -> dict:
    main = yaml.safe_load(TINY.read_text())["main"]
    main["cv_seed"] = main_seed
    return {
        "run_name": "tiny",
        "main": main,
        "scaling": {**SCALING, "seed": scaling_seed},
    }


def run(workdir: Path, cfg: dict) -> Path:
    """Run the main and scaling parts of ``cfg`` in ``workdir``; return the run directory."""
    (workdir / "config").mkdir(parents=True)
    (workdir / "config" / "config.yaml").write_text(yaml.safe_dump(cfg))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "snakemake",
            "-s",
            str(REPO / "Snakefile"),
            "--directory",
            str(workdir),
            "--cores",
            "2",
            "main_all",
            "scaling_all",
            "fidelity_all",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return workdir / "results" / "runs" / "tiny"


def deterministic_rows(path: Path) -> list[list[str]]:
    """The cells of a CSV table as written, without its run-dependent columns."""
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    keep = [i for i, name in enumerate(rows[0]) if name not in RUN_DEPENDENT_COLUMNS]
    return [[row[i] for i in keep] for row in rows]


def differences(run_a: Path, run_b: Path) -> list[str]:
    """Every table of ``run_a`` and ``run_b`` that is missing in one or differs, with the
    first differing row."""
    tables_a = {p.relative_to(run_a) for p in run_a.rglob("*.csv") if p.parent.name != "fidelity"}
    tables_b = {p.relative_to(run_b) for p in run_b.rglob("*.csv") if p.parent.name != "fidelity"}
    out = [f"{name}: only in one run" for name in sorted(tables_a ^ tables_b)]
    for name in sorted(tables_a & tables_b):
        a, b = deterministic_rows(run_a / name), deterministic_rows(run_b / name)
        if a != b:
            first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            out.append(f"{name}: differs from row {first}")
    return out


LEDGER_KEY = ["level", "paper", "item", "row", "column", "dataset", "method", "claim_id"]


def verdicts(run_dir: Path) -> list[tuple]:
    with open(run_dir / "fidelity" / "fidelity.csv", newline="") as fh:
        return [(*(r[c] for c in LEDGER_KEY), r["verdict"]) for r in csv.DictReader(fh)]


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    return run(tmp_path_factory.mktemp("run_a"), config())


@pytest.fixture(scope="module")
def second_run(tmp_path_factory):
    return run(tmp_path_factory.mktemp("run_b"), config())


def test_two_clean_runs_give_identical_tables(first_run, second_run):
    second = second_run
    tables = sorted(p.relative_to(first_run) for p in first_run.rglob("*.csv"))
    # every table of both parts is compared, the per-job tables of the main part included
    for name in (
        "main/jobs/wine/greedy_rls.csv",
        "main/tables/steps.csv",
        "main/tables/summary.csv",
        "scaling/tables/points.csv",
        "scaling/tables/timings.csv",
    ):
        assert Path(name) in tables, tables
    assert differences(first_run, second) == []
    points = deterministic_rows(first_run / "scaling" / "tables" / "points.csv")
    status = points[0].index("status")
    assert [row[status] for row in points[1:]].count("skipped") == 1


def test_two_clean_runs_give_the_same_ledger_verdicts(first_run, second_run):
    a, b = verdicts(first_run), verdicts(second_run)
    # the ledger judged this run: the main part's cells and claims and the scaling claims
    judged = {v[-1] for v in a if v[1] == "pahikkala"}
    assert judged & {"match", "same conclusion", "contradicts"}, judged
    assert a == b


def test_a_run_with_other_seeds_differs(first_run, tmp_path):
    other = run(tmp_path, config(main_seed=1, scaling_seed=1))
    found = differences(first_run, other)
    assert any(line.startswith("main/tables/steps.csv") for line in found), found
    assert any(line.startswith("scaling/tables/points.csv") for line in found), found


def test_run_dependent_columns_cover_every_measurement_and_provenance_column():
    assert set(TIMING_COLUMNS) <= MEASUREMENT_COLUMNS
    # each part's own timing columns (found by the identity check: two were not declared)
    from rlsbench.studies.buteneers.experiment import TIMING_COLUMNS as BUTENEERS_TIMING

    assert set(BUTENEERS_TIMING) <= MEASUREMENT_COLUMNS
    assert {"seconds", "seconds_min", "fit_seconds"} <= MEASUREMENT_COLUMNS  # Ramona et al.
    machine = set(provenance({}, 0)) - {"seed", "config_hash"}
    assert machine <= PROVENANCE_COLUMNS
    # what makes a result a result never counts as run-dependent
    for column in ("seed", "config_hash", "test_accuracy", "selected", "status", "reason"):
        assert column not in RUN_DEPENDENT_COLUMNS
