"""Fault injection: runs that are killed, disks that fill up, folders that cannot be written
(issue 19, item 7).

* A small workflow killed with SIGKILL mid-way stays locked; after ``--unlock`` a rerun
  finishes with tables identical to an uninterrupted run and leaves nothing partial.
* A write that fails (no space left, no directory) leaves neither the file nor a temporary
  one, and a job that hits it ends with one line and exit status 1.
* A temporary file left by a writer killed between writing and renaming is removed by the
  next write of the same file; a live writer's is not.
"""

from __future__ import annotations

import errno
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
import yaml

from rlsbench.benchmark.atomic import atomic_path, atomic_write_text, remove_stale_temporaries
from rlsbench.benchmark.tables import RUN_DEPENDENT_COLUMNS, publish, write_csv
from rlsbench.benchmark.workflow import run_rule

try:  # Snakemake >= 9
    from snakemake.iocontainers import Namedlist
except ImportError:  # pragma: no cover
    from snakemake.io import Namedlist

REPO = Path(__file__).resolve().parents[2]

#: One dataset, one method, three folds: a workflow of a few seconds whose λ and selection
#: jobs run in Snakemake's own process, between two script jobs (prepare, aggregate).
SMALL = {
    "run_name": "small",
    "main": {
        "enabled": True,
        "datasets": ["wine"],
        "methods": ["greedy_rls"],
        "n_folds": 3,
        "k_max": 3,
        "alphas": {"base": 2, "min_exp": -2, "max_exp": 2},
        "report_k": [1, 2],
    },
}
STEPS = "results/runs/small/main/tables/steps.csv"


def snakemake(workdir: Path, *args, wait=True):
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "-s",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--cores",
        "2",
        "--force-use-threads",
        *args,
    ]
    if not wait:
        return subprocess.Popen(
            cmd,
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)


def workdir_with_config(path: Path) -> Path:
    (path / "config").mkdir(parents=True)
    (path / "config" / "config.yaml").write_text(yaml.safe_dump(SMALL))
    return path


def deterministic(path: Path) -> pd.DataFrame:
    frame = pd.read_csv(path)
    return frame.drop(columns=[c for c in frame if c in RUN_DEPENDENT_COLUMNS])


def partial_files(root: Path) -> list[Path]:
    """Hidden temporary files (atomic writes) anywhere under ``root``."""
    return sorted(p for p in root.rglob(".*") if p.is_file() and ".tmp" in p.name)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    workdir = workdir_with_config(tmp_path_factory.mktemp("uninterrupted"))
    proc = snakemake(workdir, STEPS)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return workdir


@pytest.mark.slow
def test_a_run_killed_mid_way_resumes_after_unlock_to_identical_tables(reference, tmp_path):
    workdir = workdir_with_config(tmp_path)
    run = snakemake(workdir, STEPS, wait=False)
    first_job = workdir / "results" / "datasets" / "prepared" / "wine.npz"
    deadline = time.monotonic() + 240
    while not first_job.exists() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait(timeout=30)
    assert first_job.exists(), "the run ended before its first job finished"
    assert not (workdir / STEPS).exists(), "the kill came after the last job"

    refused = snakemake(workdir, STEPS)
    assert refused.returncode != 0 and "cannot be locked" in refused.stdout + refused.stderr
    assert snakemake(workdir, "--unlock").returncode == 0
    resumed = snakemake(workdir, STEPS)
    assert resumed.returncode == 0, resumed.stderr[-3000:]

    pd.testing.assert_frame_equal(
        deterministic(workdir / STEPS), deterministic(reference / STEPS), check_exact=True
    )
    assert partial_files(workdir / "results") == []
    incomplete = workdir / ".snakemake" / "incomplete"
    assert not incomplete.exists() or list(incomplete.rglob("*")) == []


# --------------------------------------------------------------------------- failed writes
def _no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_leaves_neither_the_file_nor_a_temporary(tmp_path, monkeypatch):
    monkeypatch.setattr(pd.DataFrame, "to_csv", _no_space)
    with pytest.raises(OSError) as info:
        write_csv(pd.DataFrame({"a": [1]}), tmp_path / "t.csv")
    assert info.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []


def test_a_write_below_a_file_fails_cleanly(tmp_path):
    (tmp_path / "results").write_text("a file where a folder should be")
    with pytest.raises(FileExistsError, match=str(tmp_path / "results")):
        atomic_write_text(tmp_path / "results" / "table.csv", "a\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]


@pytest.fixture(autouse=True)
def _root_logger_restored():
    """run_rule points the root logger at the job's log, as in a job's own process."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)


def writes_a_table(out):
    write_csv(pd.DataFrame({"a": [1, 2]}), out)


def _job(tmp_path, out):
    return SimpleNamespace(
        rule="demo",
        input=Namedlist(),
        output=Namedlist(fromdict={"out": str(out)}),
        params=Namedlist(fromdict={"function": f"{__name__}.writes_a_table"}),
        log=Namedlist([str(tmp_path / "demo.log")]),
        threads=1,
        bench_iteration=None,
    )


def test_a_job_that_hits_a_full_disk_ends_with_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(pd.DataFrame, "to_csv", _no_space)
    with pytest.raises(SystemExit) as info:
        run_rule(_job(tmp_path, tmp_path / "out" / "table.csv"))
    assert info.value.code == 1
    assert capsys.readouterr().err == "rule demo: OSError: [Errno 28] No space left on device\n"
    assert list((tmp_path / "out").iterdir()) == []


def test_a_job_whose_results_folder_cannot_be_written_ends_with_one_line(tmp_path, capsys):
    (tmp_path / "out").write_text("not a folder")
    with pytest.raises(SystemExit) as info:
        run_rule(_job(tmp_path, tmp_path / "out" / "table.csv"))
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert err == f"rule demo: FileExistsError: [Errno 17] File exists: '{tmp_path / 'out'}'\n"
    assert "Traceback" not in (tmp_path / "demo.log").read_text()


def test_publishing_into_an_unwritable_place_copies_nothing_partial(tmp_path):
    source = tmp_path / "run" / "a.csv"
    source.parent.mkdir()
    source.write_text("a\n1\n")
    (tmp_path / "paper").write_text("not a folder")
    with pytest.raises(FileExistsError, match=str(tmp_path / "paper")):
        publish([source], [tmp_path / "paper" / "a.csv"])
    assert (tmp_path / "paper").read_text() == "not a folder"


# --------------------------------------------------------------------------- killed writers
def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_killed_writers_temporary_is_removed_by_the_next_write(tmp_path):
    host = socket.gethostname().replace(".", "_")
    target = tmp_path / "table.csv"
    dead = tmp_path / f".table.csv.{host}-{_dead_pid()}.abc123.tmp.csv"
    dead.write_text("half a ta")
    live = tmp_path / f".table.csv.{host}-{os.getpid()}.def456.tmp.csv"
    live.write_text("being written")
    atomic_write_text(target, "a\n1\n")
    assert target.read_text() == "a\n1\n"
    assert not dead.exists() and live.exists()  # a live writer's file is left alone
    assert remove_stale_temporaries(target) == []


def test_an_exception_inside_an_atomic_write_removes_its_temporary(tmp_path):
    with pytest.raises(RuntimeError), atomic_path(tmp_path / "x.json") as tmp:
        tmp.write_text("{")
        raise RuntimeError("the writer failed")
    assert list(tmp_path.iterdir()) == []
