"""A signal that stops ``rlsbench run`` stops its Snakemake run (issue 44, item 3).

SIGTERM, SIGINT or SIGHUP to the command (a batch system, ``timeout``, Ctrl-C, a closed
terminal) reaches Snakemake and its running jobs once; the command waits for Snakemake and
exits with its status. Nothing of the run is left running or writing, nothing half-written is
left in ``results/``, and a plain rerun finishes the run.

The processes of a run are found through ``/proc`` (Linux): Snakemake is the command's child,
and every process of the run (Snakemake, its jobs, the job server's child running a job) works
in the run's directory.
"""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import yaml

from tests.faults.test_interrupted_runs import SMALL, STEPS, partial_files

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="finds a run's processes through Linux's /proc"
)

#: Seconds a stopped run may take to end (a loaded 2-core machine; not a timing assertion).
PATIENCE = 240


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(p) for p in (task / "children").read_text().split()]
    return found


def processes_working_in(directory: Path) -> list[int]:
    """Every process whose working directory is ``directory`` or below it."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:  # ended meanwhile, or another user's
            continue
        if cwd == directory or directory in cwd.parents:
            found.append(int(entry.name))
    return found


def _records(workdir: Path, kind: str) -> set[Path]:
    """The files Snakemake keeps a record of in ``.snakemake/<kind>/`` (its base64 names)."""
    records = workdir / ".snakemake" / kind
    if not records.is_dir():
        return set()
    found = set()
    for record in records.rglob("*"):
        if record.is_file() and record.name != "migration_underway":
            parts = record.relative_to(records).parts
            key = "".join(part.removeprefix("@") for part in parts)
            found.add(workdir / base64.urlsafe_b64decode(key).decode())
    return found


def running_outputs(workdir: Path) -> set[Path]:
    """The outputs of the jobs Snakemake has marked as started and not finished."""
    return _records(workdir, "incomplete")


def finished_outputs(workdir: Path) -> set[Path]:
    """The outputs of the jobs Snakemake has recorded as finished."""
    return _records(workdir, "metadata")


def tree(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file()
    }


def rlsbench_run(workdir: Path, **kwargs):
    cmd = [sys.executable, "-m", "rlsbench", "run", "--configfile", "small.yaml", "--cores", "1"]
    return subprocess.Popen([*cmd, STEPS], cwd=workdir, start_new_session=True, text=True, **kwargs)


def kill_run(run: subprocess.Popen, workdir: Path) -> None:
    """Clean-up after a failed test: nothing of the run may outlive it."""
    for pid in [run.pid, *processes_working_in(workdir)]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    run.wait()


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_signal_to_rlsbench_run_stops_snakemake_and_a_rerun_finishes(tmp_path, signum):
    workdir = tmp_path.resolve()
    (workdir / "small.yaml").write_text(yaml.safe_dump(SMALL))
    run = rlsbench_run(workdir, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + PATIENCE
        started = set()
        while not started and run.poll() is None and time.monotonic() < deadline:
            started = running_outputs(workdir)
            time.sleep(0.02)
        assert started, "no job started: " + (run.stderr.read() if run.poll() is not None else "")
        (snakemake,) = children(run.pid)
        run.send_signal(signum)  # the command alone, as `timeout` or a batch system sends it
        _, err = run.communicate(timeout=PATIENCE)
        after = tree(workdir / "results")

        # Snakemake ended before the command, with the jobs it ran
        assert run.returncode != 0, err[-3000:]
        with pytest.raises(ProcessLookupError):
            os.kill(snakemake, 0)
        assert processes_working_in(workdir) == []
        # the stopped jobs' outputs are removed (one that finished before the signal came is
        # recorded as finished), and nothing else is half-written (after SIGINT, Snakemake
        # keeps its marks of the stopped jobs: the rerun redoes them)
        stopped = (started - finished_outputs(workdir)) | running_outputs(workdir)
        assert [p for p in stopped if p.exists()] == []
        assert partial_files(workdir / "results") == []
        # nothing of the run writes on (a job server's child outliving its client would)
        time.sleep(2)
        assert tree(workdir / "results") == after
    except BaseException:
        kill_run(run, workdir)
        raise

    rerun = rlsbench_run(workdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output, _ = rerun.communicate(timeout=600)
    assert rerun.returncode == 0, output[-3000:]
    assert (workdir / STEPS).is_file()


#: A stand-in for Snakemake: records each stop signal it receives, ends with status 3.
RECORDER = textwrap.dedent(
    """
    import os, signal, sys, time
    log = sys.argv[1]
    def record(signum, frame):
        with open(log, "a") as f:
            f.write(signal.Signals(signum).name + "\\n")
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, record)
    open(log + ".ready", "w").close()
    while not os.path.exists(log) or not open(log).read():
        time.sleep(0.01)
    time.sleep(0.5)  # a second copy of the signal would arrive meanwhile
    sys.exit(3)
    """
)

COMMAND = textwrap.dedent(
    """
    import sys
    from rlsbench.benchmark.runner import run_snakemake
    sys.exit(run_snakemake([sys.executable, "-c", sys.argv[1], sys.argv[2]]))
    """
)


@pytest.mark.parametrize(
    ("signum", "received"),
    [(signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "SIGINT"), (signal.SIGHUP, "SIGTERM")],
    ids=["SIGTERM", "SIGINT", "SIGHUP"],
)
def test_a_signal_to_the_command_group_reaches_snakemake_once(tmp_path, signum, received):
    """``timeout`` and a terminal signal the command's whole process group, the command then
    passes it on: Snakemake must not receive it twice (a second SIGINT interrupts its
    clean-up). SIGHUP goes on as SIGTERM, which Snakemake handles."""
    log = tmp_path / "signals.log"
    command = subprocess.Popen(
        [sys.executable, "-c", COMMAND, RECORDER, str(log)],
        start_new_session=True,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + PATIENCE
        while not Path(f"{log}.ready").exists() and time.monotonic() < deadline:
            assert command.poll() is None, command.stderr.read()
            time.sleep(0.01)
        os.killpg(command.pid, signum)
        _, err = command.communicate(timeout=PATIENCE)
    except BaseException:
        command.kill()
        raise
    assert command.returncode == 3, err  # Snakemake's status
    assert log.read_text().split() == [received]


def test_the_command_exits_128_plus_n_when_signal_n_ended_snakemake(tmp_path):
    from rlsbench.benchmark.runner import run_snakemake

    killed = "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"
    assert run_snakemake([sys.executable, "-c", killed]) == 128 + signal.SIGKILL
    assert run_snakemake([sys.executable, "-c", "raise SystemExit(7)"]) == 7
