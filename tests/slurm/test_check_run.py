"""The checker of `make test-slurm` (tests/slurm/check_run.py) catches what it claims to catch.

These run in `make test` without SLURM: they feed the checker logs and tables that a run through
the scheduler would produce, and ones it must reject.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd
import pytest

_SPEC = importlib.util.spec_from_file_location(
    "check_run", Path(__file__).with_name("check_run.py")
)
check_run = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(check_run)

JOB_STATS = """\
Job stats:
job               count
--------------  -------
prepare               2
main_select           3
total                 5
"""


def slurm_log(tmp_path, groups):
    """A controller log plus one SLURM log per submission; groups: [[rule, ...], ...]."""
    lines = [JOB_STATS]
    for i, rules in enumerate(groups, start=100):
        log = tmp_path / f"{i}.log"
        log.write_text("".join(f"localrule {r}:\n    jobid: 0\n" for r in rules))
        lines.append(f"Job {i} has been submitted with SLURM jobid {i} (log: {log}).")
    path = tmp_path / "slurm.log"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def all_completed(monkeypatch):
    monkeypatch.setattr(check_run, "slurm_states", lambda ids: {i: "COMPLETED" for i in ids})


def test_job_stats_reads_the_plan_up_to_total():
    assert check_run.job_stats("noise\n" + JOB_STATS + "later\n") == {
        "prepare": 2,
        "main_select": 3,
    }


def test_every_planned_job_executed_in_slurm_passes(tmp_path, all_completed):
    log = slurm_log(tmp_path, [["prepare"], ["prepare"], ["main_select"] * 3])
    n_jobs, n_submissions, ids = check_run.check_scheduler(log)
    assert (n_jobs, n_submissions, ids) == (5, 3, ["100", "101", "102"])


def test_a_job_missing_from_the_slurm_logs_fails(tmp_path, all_completed):
    log = slurm_log(tmp_path, [["prepare"], ["prepare"], ["main_select"] * 2])
    with pytest.raises(check_run.CheckFailed, match="executed inside SLURM"):
        check_run.check_scheduler(log)


def test_a_job_run_by_the_controller_fails(tmp_path, all_completed):
    log = slurm_log(tmp_path, [["prepare"], ["prepare"], ["main_select"] * 3])
    log.write_text(log.read_text() + "localrule main_select:\n")
    with pytest.raises(check_run.CheckFailed, match="ran jobs itself"):
        check_run.check_scheduler(log)


def test_a_slurm_job_not_completed_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(check_run, "slurm_states", lambda ids: {i: "FAILED" for i in ids})
    log = slurm_log(tmp_path, [["prepare"], ["prepare"], ["main_select"] * 3])
    with pytest.raises(check_run.CheckFailed, match="is FAILED"):
        check_run.check_scheduler(log)


def write_tables(root, accuracy, host, elapsed):
    tables = root / "results" / "runs" / "r" / "main" / "tables"
    tables.mkdir(parents=True)
    pd.DataFrame(
        {
            "dataset": ["wine"],
            "k": [1],
            "test_accuracy": [accuracy],
            "host": [host],
            "elapsed_s": [elapsed],
            "fit time (s)": [elapsed],
        }
    ).to_csv(tables / "steps.csv", index=False)


def test_tables_differing_only_in_timing_and_host_are_equal(tmp_path):
    write_tables(tmp_path / "a", 0.9, "login1", 1.0)
    write_tables(tmp_path / "b", 0.9, "node7", 2.5)
    assert check_run.check_tables(tmp_path / "b", tmp_path / "a", "r") == ["steps.csv"]


def test_tables_differing_in_a_result_fail(tmp_path):
    write_tables(tmp_path / "a", 0.9, "login1", 1.0)
    write_tables(tmp_path / "b", 0.9 + 1e-12, "login1", 1.0)
    with pytest.raises(check_run.CheckFailed, match="steps.csv differs"):
        check_run.check_tables(tmp_path / "b", tmp_path / "a", "r")
