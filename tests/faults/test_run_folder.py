"""The run folder under three faults the earlier rounds did not try (issue 45, "what must
hold" 2): two runs at once on one results folder, an interrupt in the middle of a table write,
and a results folder that cannot be written.

* The second of two ``rlsbench run`` on one folder is refused by Snakemake's directory lock,
  naming the folder. The first run is held (SIGSTOP) as soon as its lock exists, so that the
  second meets it whatever the machine's speed; both are ended by their process group.
* A SIGINT while a table is being written leaves the table as it was: the writers write a
  temporary file beside it and rename it only when complete
  (:mod:`rlsbench.benchmark.atomic`), and the temporary file is removed.
* A results folder that is a file, or that the user may not write, is named in one line
  before any job (:func:`rlsbench.benchmark.run_folder.unwritable`). The tests run as root, who
  may write anywhere: the permission case runs the command without the capabilities that let
  root ignore file permissions (``setpriv --bounding-set=-dac_override,-dac_read_search``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rlsbench.benchmark.run_folder import unwritable
from rlsbench.benchmark.tables import write_markdown

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "configs" / "tiny.yaml"
RUN = [sys.executable, "-m", "rlsbench", "run", "--configfile", "tiny.yaml", "--cores", "1"]


def _workdir(tmp_path) -> Path:
    shutil.copy(TINY, tmp_path / "tiny.yaml")
    return tmp_path


# ------------------------------------------------------------------ two runs on one folder
def test_a_second_run_on_a_locked_results_folder_is_refused(tmp_path):
    workdir = _workdir(tmp_path)
    locks = workdir / ".snakemake" / "locks"
    log = (workdir / "first.log").open("w")
    first = subprocess.Popen(
        [*RUN, "main_all"], cwd=workdir, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 600
        while not any(locks.glob("*.lock")):
            assert first.poll() is None, (workdir / "first.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "the first run never locked its folder"
            time.sleep(0.05)
        os.killpg(first.pid, signal.SIGSTOP)  # hold the lock while the second run starts
        second = subprocess.run(
            [*RUN, "main_all"], cwd=workdir, capture_output=True, text=True, timeout=600
        )
    finally:
        os.killpg(first.pid, signal.SIGCONT)
        os.killpg(first.pid, signal.SIGTERM)
        try:
            first.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(first.pid, signal.SIGKILL)
            first.wait()
        log.close()
    out = second.stdout + second.stderr
    assert second.returncode != 0, out[-3000:]
    assert "Directory cannot be locked" in out, out[-3000:]
    assert str(workdir.resolve()) in out, out[-3000:]
    assert "--unlock" in out


# ------------------------------------------------------------------ an interrupted write
CHILD = """\
import os, signal, sys, time
import pandas as pd
from rlsbench.benchmark.tables import write_csv

# as in a terminal: an ignored SIGINT (pytest-xdist's workers ignore it, and a child inherits
# that) would let the write finish, and nothing would be interrupted
signal.signal(signal.SIGINT, signal.default_int_handler)

def half_then_sigint(self, path, *args, **kwargs):
    with open(path, "w") as fh:
        fh.write("a\\n0\\n1\\n")  # the first rows of the new table
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(60)  # the KeyboardInterrupt arrives here, mid-write

pd.DataFrame.to_csv = half_then_sigint
write_csv(pd.DataFrame({"a": range(1000)}), sys.argv[1])
"""


def test_a_sigint_in_the_middle_of_a_table_write_leaves_the_old_table(tmp_path):
    table = tmp_path / "tables" / "summary.csv"
    table.parent.mkdir()
    table.write_text("a\nold\n")
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(table)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode != 0 and "KeyboardInterrupt" in proc.stderr, proc.stderr[-3000:]
    assert table.read_text() == "a\nold\n"
    assert sorted(p.name for p in table.parent.iterdir()) == ["summary.csv"]


def test_an_interrupt_in_a_first_write_leaves_no_table(tmp_path, monkeypatch):
    target = tmp_path / "summary.md"

    def half_then_interrupt(self, text, *args, **kwargs):
        with open(self, "w") as fh:
            fh.write(text[: len(text) // 2])
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "write_text", half_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_markdown(target, "| a |\n|---|\n| 1 |\n")
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ a folder it cannot write
def _dry_run(workdir, *prefix):
    proc = subprocess.run(
        [*prefix, *RUN, "-n"], cwd=workdir, capture_output=True, text=True, timeout=600
    )
    return proc, proc.stdout + proc.stderr


@pytest.mark.parametrize("blocker", ["results", "results/runs/tiny"])
def test_a_results_folder_that_is_a_file_is_named_in_one_line(tmp_path, blocker):
    workdir = _workdir(tmp_path)
    (workdir / blocker).parent.mkdir(parents=True, exist_ok=True)
    (workdir / blocker).write_text("not a folder\n")
    proc, out = _dry_run(workdir)
    assert proc.returncode == 1, out[-3000:]
    expected = (
        f"results folder results/runs/tiny cannot be written: {blocker} is a file, not a folder"
    )
    assert expected in out.splitlines(), out[-3000:]
    assert "Traceback" not in out


def _without_permission_override():
    """The command prefix under which this process is subject to file permissions."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("root ignores file permissions, and setpriv is not installed to drop that")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def test_a_results_folder_the_user_cannot_write_is_named_in_one_line(tmp_path):
    workdir = _workdir(tmp_path)
    results = workdir / "results"
    results.mkdir()
    if os.geteuid() == 0:
        os.chown(results, 65534, 65534)  # someone else's folder, 0755
    results.chmod(0o555 if os.geteuid() != 0 else 0o755)
    try:
        proc, out = _dry_run(workdir, *_without_permission_override())
    finally:
        results.chmod(0o755)
    assert proc.returncode == 1, out[-3000:]
    assert (
        "results folder results/runs/tiny cannot be written: results is not writable by this "
        "user (or is on a read-only disk)"
    ) in out.splitlines(), out[-3000:]
    assert list(results.iterdir()) == [] and "Traceback" not in out


def test_the_check_creates_nothing_and_passes_a_writable_folder(tmp_path):
    assert unwritable(tmp_path / "results" / "runs" / "x") is None
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "results").write_text("")
    why = unwritable(tmp_path / "results" / "runs" / "x")
    assert why == (
        f"results folder {tmp_path}/results/runs/x cannot be written: {tmp_path}/results is a "
        "file, not a folder"
    )
