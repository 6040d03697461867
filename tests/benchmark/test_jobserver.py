"""The job server (rlsbench.benchmark.jobserver): a job runs in a fresh child of a warm
process, as it would in its own interpreter: its files, its streams, its exit status, its
signals, and nothing of another job.

Each test has its own temporary folder, hence its own server (the socket lives there), and
stops it at the end. The clients are real processes running what ``call.py`` runs.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

try:  # Snakemake >= 9
    from snakemake.iocontainers import Namedlist
except ImportError:  # pragma: no cover
    from snakemake.io import Namedlist

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or sys.platform == "win32", reason="the job server needs fork"
)

#: A client: what workflow/scripts/call.py does with the pickled Snakemake object.
CLIENT = textwrap.dedent(
    """
    import pickle, sys
    from rlsbench.benchmark.jobserver import run_script
    with open(sys.argv[1], "rb") as fh:
        smk = pickle.load(fh)
    run_script(smk)
    """
)


# ---------------------------------------------------------------------------------------------
# Job functions the tests name in params.function (imported by the server's child)
# ---------------------------------------------------------------------------------------------
LEAKED = []


def write_pid_job(out, *, text="done"):
    Path(out).write_text(f"{os.getpid()} {os.getppid()} {text} {len(LEAKED)}\n")
    LEAKED.append(text)  # a global a later job must not see
    print(f"stdout of the job: {text}")
    print(f"stderr of the job: {text}", file=sys.stderr)


def failing_job(out):
    raise ValueError("parameter 'x' must be positive, got -1")


def slow_job(out, *, seconds=60.0):
    Path(out).write_text(f"{os.getpid()}\n")
    time.sleep(seconds)
    Path(out + ".finished").write_text("no\n")


def value_job(out):
    import pkg_changing

    Path(out).write_text(f"{pkg_changing.VALUE} {os.getppid()}\n")


def environment_job(out):
    import threadpoolctl

    blas = [p["num_threads"] for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
    Path(out).write_text(
        f"{os.getcwd()}\n{os.environ.get('RLSBENCH_TEST_MARK')}\n{min(blas) if blas else -1}\n"
    )


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------
def _smk(tmp_path, function, out, threads=1, **params):
    log = tmp_path / "job.log"
    return SimpleNamespace(
        rule="test_rule",
        input=Namedlist(fromdict={}),
        output=Namedlist(fromdict={"out": str(out)}),
        params=Namedlist(fromdict={"function": f"{__name__}.{function}", **params}),
        log=Namedlist(toclone=[str(log)]),
        threads=threads,
        bench_iteration=None,
    )


@pytest.fixture
def sockets(tmp_path):
    """A short temporary folder for the server's socket (a Unix socket's path is at most 108
    bytes, and pytest's tmp_path under xdist can be longer)."""
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="js", dir="/tmp" if os.path.isdir("/tmp") else None)
    yield Path(folder)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def env(tmp_path, sockets):
    """The environment of a client whose server lives in its own temporary folder (TMPDIR),
    stopped at the end."""
    environ = {
        **os.environ,
        "TMPDIR": str(sockets),
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        "RLSBENCH_JOBSERVER": "1",
        "RLSBENCH_JOBSERVER_IDLE": "60",
    }
    yield environ
    subprocess.run(
        [sys.executable, "-m", "rlsbench.benchmark.jobserver", "stop"], env=environ, check=False
    )


def _client(tmp_path, env, smk, *, wait=True, cwd=None, **kwargs):
    job = tmp_path / f"smk-{time.monotonic_ns()}.pickle"
    job.write_bytes(pickle.dumps(smk))
    script = tmp_path / "client.py"
    script.write_text(CLIENT)
    cmd = [sys.executable, str(script), str(job)]
    if not wait:
        return subprocess.Popen(cmd, env=env, cwd=cwd or tmp_path, **kwargs)
    return subprocess.run(cmd, env=env, cwd=cwd or tmp_path, capture_output=True, text=True)


def _socket(env):
    code = "from rlsbench.benchmark.jobserver import socket_path; print(socket_path())"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


def _wait_for(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is not alive: /proc/<pid>/stat's third field
    with open(f"/proc/{pid}/stat") as fh:
        return fh.read().split(")")[-1].split()[0] != "Z"


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------
def test_the_job_bridge_and_client_import_no_heavy_library():
    """What every job's interpreter imports before it hands the job over stays light: the
    client needs the standard library only, the bridge no scikit-learn, scipy, pandas, numba
    or matplotlib (a job imports those where it needs them)."""
    code = (
        "import sys, rlsbench.benchmark.jobserver; a = set(sys.modules); "
        "import rlsbench.benchmark.workflow; b = set(sys.modules); "
        "print(' '.join(sorted(a))); print(' '.join(sorted(b)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    client, bridge = set(out[0].split()), set(out[1].split())
    heavy = ("numpy", "scipy", "sklearn", "pandas", "numba", "matplotlib", "seaborn")
    assert not {m.split(".")[0] for m in client} & set(heavy)
    assert not {m.split(".")[0] for m in bridge} & set(heavy[1:])


def test_a_socket_path_too_long_for_the_system_moves_to_tmp(tmp_path):
    deep = tmp_path / ("d" * 80)
    deep.mkdir()
    code = "from rlsbench.benchmark.jobserver import socket_path; print(socket_path())"
    path = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "TMPDIR": str(deep)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert len(path.encode()) <= 96 and os.path.basename(path).startswith("rlsbench-")


def test_each_batch_job_has_its_own_server():
    """A batch system ends every process of a job at its end: a server started by one SLURM
    job must not serve (and take down) another's jobs."""
    code = "from rlsbench.benchmark.jobserver import socket_path; print(socket_path())"

    def path(**extra):
        env = {k: v for k, v in os.environ.items() if k not in ("SLURM_JOB_ID", "PBS_JOBID")}
        return subprocess.run(
            [sys.executable, "-c", code],
            env={**env, **extra},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()

    plain, first, second = path(), path(SLURM_JOB_ID="17"), path(SLURM_JOB_ID="18")
    assert len({plain, first, second}) == 3
    assert path(SLURM_JOB_ID="17") == first


def test_a_job_runs_in_a_child_of_the_server_with_its_streams_and_status(tmp_path, env):
    out = tmp_path / "out.txt"
    done = _client(tmp_path, env, _smk(tmp_path, "write_pid_job", out, text="first"))
    assert done.returncode == 0, done.stderr
    assert "running the job in its own process" not in done.stderr  # no fallback
    pid, parent, text, leaked = out.read_text().split()
    assert text == "first" and leaked == "0"
    assert int(parent) != os.getpid()  # the server's child, not the client's
    assert "stdout of the job: first" in done.stdout
    assert "stderr of the job: first" in done.stderr
    assert "rule test_rule:" in (tmp_path / "job.log").read_text()

    # a second job: another child of the same server, which sees nothing the first left
    out2 = tmp_path / "out2.txt"
    again = _client(tmp_path, env, _smk(tmp_path, "write_pid_job", out2, text="second"))
    assert again.returncode == 0, again.stderr
    pid2, parent2, _, leaked2 = out2.read_text().split()
    assert parent2 == parent and pid2 != pid
    assert leaked2 == "0"


def test_a_failing_job_reports_one_line_and_status_1(tmp_path, env):
    done = _client(tmp_path, env, _smk(tmp_path, "failing_job", tmp_path / "out"))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "rule test_rule: ValueError: parameter 'x' must be positive, got -1"
    )


def test_the_job_gets_the_clients_folder_environment_and_thread_limit(tmp_path, env):
    work = tmp_path / "work"
    work.mkdir()
    out = tmp_path / "env.txt"
    environ = {**env, "RLSBENCH_TEST_MARK": "mark-1", "OMP_NUM_THREADS": "1"}
    done = _client(tmp_path, environ, _smk(tmp_path, "environment_job", out), cwd=work)
    assert done.returncode == 0, done.stderr
    cwd, mark, blas = out.read_text().split()
    assert Path(cwd) == work and mark == "mark-1"
    assert int(blas) in (1, -1)  # -1: no BLAS pool found by threadpoolctl


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_the_client_stops_the_job(tmp_path, env, sig):
    out = tmp_path / "slow.txt"
    client = _client(tmp_path, env, _smk(tmp_path, "slow_job", out), wait=False)
    assert _wait_for(lambda: out.exists() and out.read_text().strip()), "the job did not start"
    child = int(out.read_text())
    client.send_signal(sig)
    assert client.wait(timeout=30) != 0
    assert _wait_for(lambda: not _alive(child)), "the job's child outlived its client"
    assert not Path(str(out) + ".finished").exists()


def test_the_server_preloads_while_a_job_runs_and_then_waits_without_spinning(tmp_path, env):
    """A busy run (a job always running) once starved the preload, and the server polled
    select() with a zero timeout for as long as jobs ran: a core spun beside every job of
    ``make reproduce``, and every child imported scikit-learn itself. Now the modules load
    while the first job runs, and then the server sleeps until a job or a child's end."""
    out = tmp_path / "slow.txt"
    client = _client(tmp_path, env, _smk(tmp_path, "slow_job", out), wait=False)
    try:
        assert _wait_for(lambda: out.exists() and out.read_text().strip())
        child = int(out.read_text())
        with open(f"/proc/{child}/stat") as fh:
            server = int(fh.read().split(")")[-1].split()[1])  # the child's parent
        log = Path(_socket(env) + ".log")
        assert _wait_for(lambda: log.exists() and "preload done" in log.read_text(), 240), (
            "the preload did not finish while a job ran"
        )
        assert _alive(child)  # still the first job: it ran all along

        def cpu_seconds():
            with open(f"/proc/{server}/stat") as fh:
                fields = fh.read().split(")")[-1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

        before = cpu_seconds()
        time.sleep(2.0)
        # a poll loop takes what a core gives it (about 2 s here); a waiting server nothing
        assert cpu_seconds() - before < 0.5
    finally:
        client.kill()
        client.wait(timeout=30)


def test_a_job_whose_client_is_killed_stops_itself(tmp_path, env):
    out = tmp_path / "slow.txt"
    client = _client(tmp_path, env, _smk(tmp_path, "slow_job", out), wait=False)
    assert _wait_for(lambda: out.exists() and out.read_text().strip())
    child = int(out.read_text())
    client.kill()  # SIGKILL: nothing is forwarded
    client.wait(timeout=30)
    assert _wait_for(lambda: not _alive(child)), "an orphaned job kept running"


def test_a_changed_source_file_ends_the_server_and_the_next_job_runs_fresh_code(tmp_path, env):
    """An edited method or plugin: the server that imported its old code ends, and the job
    runs on a new one (a module only the children import is read afresh by each anyway)."""
    module = tmp_path / "lib" / "pkg_changing.py"
    module.parent.mkdir()
    module.write_text("VALUE = 'old'\n")
    environ = {
        **env,
        "PYTHONPATH": os.pathsep.join([str(module.parent), env["PYTHONPATH"]]),
        "RLSBENCH_JOBSERVER_PRELOAD": "pkg_changing",
    }
    out = tmp_path / "out.txt"
    first = _client(tmp_path, environ, _smk(tmp_path, "value_job", out))
    assert first.returncode == 0, first.stderr
    # the server imports its preload while idle: wait until it has this module too
    server = out.read_text().split()[1]
    log = Path(_socket(environ) + ".log")
    assert _wait_for(lambda: "preload done" in log.read_text(), timeout=120)
    module.write_text("VALUE = 'new'\n")
    stamp = module.stat()
    os.utime(module, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000_000))
    second = _client(tmp_path, environ, _smk(tmp_path, "value_job", out))
    assert second.returncode == 0, second.stderr
    value, parent = out.read_text().split()
    assert value == "new" and parent != server


def test_switched_off_the_job_runs_in_the_scripts_own_process(tmp_path, env, sockets):
    out = tmp_path / "out.txt"
    environ = {**env, "RLSBENCH_JOBSERVER": "0"}
    done = _client(tmp_path, environ, _smk(tmp_path, "write_pid_job", out))
    assert done.returncode == 0, done.stderr
    assert not list(sockets.glob("rlsbench-*.sock"))  # no server was started
    assert "stdout of the job: done" in done.stdout


def test_a_rule_can_ask_for_its_own_process(tmp_path, env, sockets):
    out = tmp_path / "out.txt"
    client = _client(
        tmp_path, env, _smk(tmp_path, "write_pid_job", out, own_process=True), wait=False
    )
    assert client.wait(timeout=60) == 0
    assert int(out.read_text().split()[0]) == client.pid  # the job ran in the client itself
    assert not list(sockets.glob("rlsbench-*.sock"))


# ---------------------------------------------------------------------------------------------
# Warm-up: the Snakefile starts the server while Snakemake reads the workflow
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["-n"],
        ["--dry-run", "--cores", "2"],
        ["all", "-np"],
        ["--dryrun"],
        ["--lint"],
        ["--report", "report.html"],
        ["--list-rules"],
        ["--unlock"],
        ["--profile", "profiles/slurm"],
        ["--profile=profiles/slurm"],
        ["--executor", "slurm", "--jobs", "10"],
        ["-e", "slurm"],
    ],
)
def test_warm_up_starts_nothing_where_no_job_runs_here(argv, sockets, monkeypatch):
    from rlsbench.benchmark import jobserver

    monkeypatch.setattr("tempfile.tempdir", str(sockets))
    monkeypatch.setenv("RLSBENCH_JOBSERVER", "1")
    monkeypatch.delenv("SNAKEMAKE_PROFILE", raising=False)
    assert jobserver.warm_up(argv) is None
    assert list(sockets.iterdir()) == []


@pytest.mark.parametrize("variable", [("RLSBENCH_JOBSERVER", "0"), ("SNAKEMAKE_PROFILE", "x")])
def test_warm_up_starts_nothing_when_the_server_is_off_or_a_profile_decides(
    variable, sockets, monkeypatch
):
    from rlsbench.benchmark import jobserver

    monkeypatch.setattr("tempfile.tempdir", str(sockets))
    monkeypatch.setenv("RLSBENCH_JOBSERVER", "1")
    monkeypatch.setenv(*variable)
    assert jobserver.warm_up(["--cores", "2"]) is None
    assert list(sockets.iterdir()) == []


def test_warm_up_leaves_a_listening_server_that_the_first_job_uses(tmp_path, env):
    code = (
        "from rlsbench.benchmark.jobserver import warm_up\n"
        "thread = warm_up(['all', '--cores', '2', '--executor', 'local'])\n"
        "assert thread is not None\n"
        "thread.join(120)\n"
    )
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=180)
    path = _socket(env)
    listening = os.stat(path).st_ino  # listening before any job asked for it
    out = tmp_path / "out.txt"
    done = _client(tmp_path, env, _smk(tmp_path, "write_pid_job", out))
    assert done.returncode == 0, done.stderr
    # the job's parent is a live server, and the same one: a server started later would
    # have replaced the socket with its own
    assert _alive(int(out.read_text().split()[1]))
    assert os.stat(path).st_ino == listening


# ---------------------------------------------------------------------------------------------
# Snakemake's job rate limit on a local run (the Snakefile's onstart)
# ---------------------------------------------------------------------------------------------
def _limited(rate, *, local=True):
    from snakemake.scheduling.job_scheduler import JobRateLimiter
    from snakemake.settings.types import MaxJobsPerTimespan

    limiter = JobRateLimiter(MaxJobsPerTimespan.parse_choice(rate))
    return SimpleNamespace(local_exec=local, scheduler=SimpleNamespace(job_rate_limiter=limiter))


def test_the_default_rate_limit_is_lifted_from_a_local_run_only():
    from rlsbench.benchmark.jobserver import lift_local_rate_limit

    workflow = _limited("100/1s")
    assert lift_local_rate_limit(workflow) is True
    assert workflow.scheduler.job_rate_limiter is None
    # a limit the user chose, and a cluster run, keep theirs
    for workflow in (_limited("50/1s"), _limited("100/1m"), _limited("100/1s", local=False)):
        kept = workflow.scheduler.job_rate_limiter
        assert lift_local_rate_limit(workflow) is False
        assert workflow.scheduler.job_rate_limiter is kept
    assert lift_local_rate_limit(SimpleNamespace(local_exec=True)) is False  # no scheduler


def test_a_real_local_run_has_its_rate_limit_lifted(tmp_path):
    """Against the installed Snakemake: the attributes the function reads are those its
    scheduler has (a Snakemake that renamed them would make the Snakefile's onstart a silent
    no-op), and the run's default limit (100/1s) is the one it recognises."""
    (tmp_path / "Snakefile").write_text(
        textwrap.dedent(
            """
            from rlsbench.benchmark.jobserver import lift_local_rate_limit

            onstart:
                limiter = workflow.scheduler.job_rate_limiter
                with open("before.txt", "w") as fh:
                    fh.write(f"{limiter.max_jobs} {limiter.timespan}")
                with open("lifted.txt", "w") as fh:
                    fh.write(str(lift_local_rate_limit(workflow)))
                    fh.write(f" {workflow.scheduler.job_rate_limiter}")

            rule a:
                output: "a.txt"
                shell: "echo a > {output}"
            """
        )
    )
    snakemake = Path(sys.executable).parent / "snakemake"
    subprocess.run(
        [str(snakemake), "--cores", "1", "--workflow-profile", "none", "--quiet"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    assert (tmp_path / "a.txt").read_text() == "a\n"
    max_jobs, timespan = (tmp_path / "before.txt").read_text().split()
    assert (int(max_jobs), float(timespan)) == (100, 1.0)
    assert (tmp_path / "lifted.txt").read_text() == "True None"


# ---------------------------------------------------------------------------------------------
# run: jobs (the rules' `run: JOB(...)`): a thread of Snakemake's own process hands the job over
# ---------------------------------------------------------------------------------------------
def test_a_run_job_gets_the_environment_snakemake_gives_a_jobs_process(monkeypatch):
    from rlsbench.benchmark.jobserver import job_environment

    monkeypatch.setenv("RLSBENCH_TEST_MARK", "kept")
    smk = SimpleNamespace(threads=3, resources={"tmpdir": "/scratch/x", "mem_mb": 10})
    env = job_environment(smk)
    assert env["RLSBENCH_TEST_MARK"] == "kept"
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        assert env[name] == "3"
    assert env["TMPDIR"] == env["TMP"] == "/scratch/x"


def test_switched_off_a_run_job_runs_in_a_new_interpreter(tmp_path, monkeypatch, sockets):
    from rlsbench.benchmark.jobserver import JobFailed, run_in_thread

    monkeypatch.setenv("RLSBENCH_JOBSERVER", "0")
    monkeypatch.setenv("TMPDIR", str(sockets))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    out = tmp_path / "out.txt"
    run_in_thread(_smk(tmp_path, "write_pid_job", out))
    pid, parent, text, _ = out.read_text().split()
    assert int(parent) == os.getpid() and int(pid) != os.getpid() and text == "done"
    assert not list(sockets.glob("rlsbench-*.sock"))  # no server was started
    with pytest.raises(JobFailed, match="rule test_rule: the job ended with exit status 1"):
        run_in_thread(_smk(tmp_path, "failing_job", tmp_path / "out"))


RUN_SNAKEFILE = """
import os
from snakemake.script import Snakemake
from rlsbench.benchmark.jobserver import run_in_thread, run_jobs_in_threads

run_jobs_in_threads()

rule all:
    input: "job.txt", "thread.txt"

rule thread:
    output: "thread.txt"
    run:
        open(output[0], "w").write(str(os.getpid()))

rule job:
    output: out="job.txt"
    log: "job.log"
    params: function="tests.benchmark.test_jobserver.write_pid_job", text="{text}"
    threads: 1
    run:
        run_in_thread(Snakemake(input, output, params, wildcards, threads, resources, log,
                                config, rule, bench_iteration))

rule failing:
    output: out="fail.txt"
    log: "fail.log"
    params: function="tests.benchmark.test_jobserver.failing_job"
    run:
        run_in_thread(Snakemake(input, output, params, wildcards, threads, resources, log,
                                config, rule, bench_iteration))
"""


def test_a_run_job_runs_in_a_thread_of_snakemake_and_a_child_of_the_server(tmp_path, env):
    """Against the installed Snakemake, without --force-use-threads (no workflow profile): a
    ``run:`` job runs in Snakemake's own process (run_jobs_in_threads; a Snakemake that
    renamed what it patches would start a Snakemake per job), and a job handed over runs in a
    child of the job server; a failing one fails the run with its one line."""
    (tmp_path / "Snakefile").write_text(RUN_SNAKEFILE.replace("{text}", "handed"))
    snakemake = Path(sys.executable).parent / "snakemake"
    cmd = [str(snakemake), "--cores", "1", "--workflow-profile", "none"]
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
    run = subprocess.Popen(cmd, cwd=tmp_path, env=env, **pipes)
    log, _ = run.communicate(timeout=240)
    assert run.returncode == 0, log[-3000:]
    assert int((tmp_path / "thread.txt").read_text()) == run.pid
    pid, parent, text, _ = (tmp_path / "job.txt").read_text().split()
    assert text == "handed" and int(parent) != run.pid and int(pid) != run.pid
    assert "rule job:" in (tmp_path / "job.log").read_text()

    failed = subprocess.run(
        [*cmd, "fail.txt"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert failed.returncode != 0
    assert "rule failing: ValueError: parameter 'x' must be positive, got -1" in failed.stderr
    assert not (tmp_path / "fail.txt").exists()
