"""Jobs forked from one warm job server (:mod:`rlsbench.benchmark.jobserver`) must not reach each
other: a job that leaks global state, crashes, leaves a thread, floods its stdout or loses its
client leaves the next job's output byte-identical to the same job run in its own interpreter
(``RLSBENCH_JOBSERVER=0``); a stale or foreign file at the server's socket path and two
workflows sharing one server behave.

The clients are real processes running what ``workflow/scripts/call.py`` runs; each test has its
own server (its socket in its own temporary folder), stopped at the end.
"""

from __future__ import annotations

import os
import pickle
import socket
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
# Job functions (imported by the server's child by name)
# ---------------------------------------------------------------------------------------------
def leak_job(out):
    """Change every process-wide setting a job can reach."""
    import random
    import threading

    import numpy as np
    from threadpoolctl import threadpool_limits

    import rlsbench.benchmark.jobs as jobs

    np.set_printoptions(precision=2, floatmode="fixed")
    np.seterr(all="raise")
    np.random.seed(12345)  # noqa: NPY002 (the legacy global state is the leak)
    random.seed(12345)
    threadpool_limits(limits=1)
    os.environ["RLSBENCH_LEAK"] = "leaked"
    os.chdir("/")
    sys.path.insert(0, "/leaked-path")
    jobs.PARALLEL_MIN_FLOPS = -1.0  # a module-level setting
    sys.modules["json"].LEAKED = True  # a cached module's state
    threading.Thread(target=time.sleep, args=(0.2,), daemon=True).start()
    Path(out).write_text("leaked\n")


def probe_job(out):
    """What a job sees of the process-wide state, as text."""
    import json

    import numpy as np

    import rlsbench.benchmark.jobs as jobs

    lines = [
        repr(np.array([1 / 3, 2 / 3])),
        repr(sorted(np.geterr().items())),
        repr(os.environ.get("RLSBENCH_LEAK")),
        os.getcwd(),
        repr("/leaked-path" in sys.path),
        repr(jobs.PARALLEL_MIN_FLOPS),
        repr(hasattr(json, "LEAKED")),
    ]
    if os.environ.get("PYTHONHASHSEED"):
        lines.append(repr(hash("rlsbench")))  # what a set of strings iterates by
    Path(out).write_text("\n".join(lines) + "\n")


def random_job(out):
    import random

    import numpy as np

    Path(out).write_text(f"{np.random.random()!r} {random.random()!r}\n")  # noqa: NPY002


def exit_job(out, *, code=3):
    Path(out).write_text("before\n")
    os._exit(code)


def segfault_job(out):
    import ctypes

    Path(out).write_text("before\n")
    ctypes.string_at(0)  # reads address 0: SIGSEGV


def thread_job(out):
    import threading

    def late():
        time.sleep(0.5)
        Path(out).write_text("written by the thread\n")

    threading.Thread(target=late).start()  # not a daemon: the interpreter waits for it


def flood_job(out, *, size=4_000_000):
    sys.stdout.write("x" * size)  # no newline: a buffered tail
    sys.stdout.write("end")
    Path(out).write_text("done\n")


def slow_job(out, *, seconds=30.0):
    Path(out).write_text(f"{os.getpid()}\n")
    time.sleep(seconds)


def relative_job(out, *, tag="", seconds=0.5):
    time.sleep(seconds)
    Path(out).write_text(f"{tag} {os.getcwd()}\n")  # `out` is relative to the job's folder


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------
def _smk(tmp_path, function, out, **params):
    return SimpleNamespace(
        rule="fault_rule",
        input=Namedlist(fromdict={}),
        output=Namedlist(fromdict={"out": str(out)}),
        params=Namedlist(fromdict={"function": f"{__name__}.{function}", **params}),
        log=Namedlist(toclone=[str(tmp_path / f"{function}.log")]),
        threads=1,
        bench_iteration=None,
    )


@pytest.fixture
def sockets():
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="jsf", dir="/tmp" if os.path.isdir("/tmp") else None)
    yield Path(folder)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def env(sockets):
    environ = {
        **os.environ,
        "TMPDIR": str(sockets),
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        "RLSBENCH_JOBSERVER": "1",
        "RLSBENCH_JOBSERVER_IDLE": "60",
    }
    environ.pop("PYTHONHASHSEED", None)
    yield environ
    for seed in (None, "1", "2"):
        stop_env = dict(environ) if seed is None else {**environ, "PYTHONHASHSEED": seed}
        subprocess.run(
            [sys.executable, "-m", "rlsbench.benchmark.jobserver", "stop"],
            env=stop_env,
            check=False,
        )


def _client(tmp_path, env, smk, *, wait=True, cwd=None):
    job = tmp_path / f"smk-{time.monotonic_ns()}.pickle"
    job.write_bytes(pickle.dumps(smk))
    script = tmp_path / "client.py"
    script.write_text(CLIENT)
    cmd = [sys.executable, str(script), str(job)]
    if not wait:
        return subprocess.Popen(
            cmd, env=env, cwd=cwd or tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    return subprocess.run(cmd, env=env, cwd=cwd or tmp_path, capture_output=True)


def _own(env):
    return {**env, "RLSBENCH_JOBSERVER": "0"}


def _socket(env):
    code = "from rlsbench.benchmark.jobserver import socket_path; print(socket_path())"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


def _server_pid(tmp_path, env):
    """The pid of the server that runs jobs now (the parent of a job's process)."""
    out = tmp_path / f"pid-{time.monotonic_ns()}.txt"
    done = _client(tmp_path, env, _smk(tmp_path, "relative_job", out, tag="x", seconds=0.0))
    assert done.returncode == 0, done.stderr
    return done


def _wait_for(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def _probe(tmp_path, env, name):
    out = tmp_path / name
    done = _client(tmp_path, env, _smk(tmp_path, "probe_job", out))
    assert done.returncode == 0, done.stderr
    return out.read_bytes()


# ---------------------------------------------------------------------------------------------
# Leaked state
# ---------------------------------------------------------------------------------------------
def test_a_job_leaking_global_state_leaves_the_next_jobs_output_as_in_its_own_process(
    tmp_path, env
):
    leak = _client(tmp_path, env, _smk(tmp_path, "leak_job", tmp_path / "leak.txt"))
    assert leak.returncode == 0, leak.stderr
    assert b"running the job in its own process" not in leak.stderr
    served = _probe(tmp_path, env, "served.txt")
    own = _probe(tmp_path, _own(env), "own.txt")
    assert served == own


def test_unseeded_random_numbers_differ_between_jobs_as_between_interpreters(tmp_path, env):
    draws = []
    for i in range(2):
        out = tmp_path / f"random-{i}.txt"
        done = _client(tmp_path, env, _smk(tmp_path, "random_job", out))
        assert done.returncode == 0, done.stderr
        draws.append(out.read_text().split())
    numpy_draws, python_draws = zip(*draws, strict=True)
    assert len(set(python_draws)) == 2
    assert len(set(numpy_draws)) == 2, "two jobs drew the same unseeded numpy numbers"


@pytest.mark.parametrize("seeds", [("1", "2")])
def test_a_jobs_pythonhashseed_is_honoured_as_in_its_own_interpreter(tmp_path, env, seeds):
    first, second = ({**env, "PYTHONHASHSEED": seed} for seed in seeds)
    _probe(tmp_path, first, "first.txt")  # starts a server with the first seed
    served = _probe(tmp_path, second, "served.txt")
    own = _probe(tmp_path, _own(second), "own.txt")
    assert served == own


# ---------------------------------------------------------------------------------------------
# Crashes
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("function", ["exit_job", "segfault_job"])
def test_a_job_that_dies_fails_alone_and_the_server_runs_the_next_job(tmp_path, env, function):
    before = _client(tmp_path, env, _smk(tmp_path, "relative_job", "a.txt", seconds=0.0))
    assert before.returncode == 0, before.stderr
    died = _client(tmp_path, env, _smk(tmp_path, function, tmp_path / "died.txt"))
    # the status its own process would have: os._exit(3) exits 3, a segfault is SIGSEGV
    own = _client(tmp_path, _own(env), _smk(tmp_path, function, tmp_path / "own.txt"))
    assert died.returncode == own.returncode == {"exit_job": 3, "segfault_job": -11}[function]
    if function == "segfault_job":
        assert b"ended without reporting a status: killed by SIGSEGV" in died.stderr
    served = _probe(tmp_path, env, "served.txt")
    assert served == _probe(tmp_path, _own(env), "own.txt")
    log = Path(_socket(env) + ".log")
    assert "Traceback" not in log.read_text()


def test_a_thread_the_job_leaves_running_finishes_as_in_its_own_process(tmp_path, env):
    own_out = tmp_path / "own.txt"
    own = _client(tmp_path, _own(env), _smk(tmp_path, "thread_job", own_out))
    assert own.returncode == 0 and own_out.exists()  # the interpreter waited for it
    served_out = tmp_path / "served.txt"
    served = _client(tmp_path, env, _smk(tmp_path, "thread_job", served_out))
    assert served.returncode == 0, served.stderr
    assert served_out.read_bytes() == own_out.read_bytes()


def test_a_job_that_floods_its_stdout_delivers_every_byte(tmp_path, env):
    served = _client(tmp_path, env, _smk(tmp_path, "flood_job", tmp_path / "a.txt"))
    own = _client(tmp_path, _own(env), _smk(tmp_path, "flood_job", tmp_path / "b.txt"))
    assert served.returncode == own.returncode == 0
    assert served.stdout == own.stdout
    assert served.stdout.endswith(b"end") and len(served.stdout) == 4_000_003


def test_a_job_killed_with_sigkill_leaves_another_running_job_unchanged(tmp_path, env):
    slow_out = tmp_path / "slow.txt"
    slow = _client(tmp_path, env, _smk(tmp_path, "slow_job", slow_out), wait=False)
    other = _client(
        tmp_path, env, _smk(tmp_path, "relative_job", "other.txt", tag="b", seconds=2.0),
        wait=False,
    )  # fmt: skip
    assert _wait_for(lambda: slow_out.exists() and slow_out.read_text().strip())
    slow.kill()
    slow.wait(timeout=30)
    assert other.wait(timeout=60) == 0, other.stderr.read()
    own = _client(
        tmp_path, _own(env), _smk(tmp_path, "relative_job", "own.txt", tag="b", seconds=0.0)
    )
    assert own.returncode == 0
    assert (tmp_path / "other.txt").read_bytes() == (tmp_path / "own.txt").read_bytes()


# ---------------------------------------------------------------------------------------------
# The socket path
# ---------------------------------------------------------------------------------------------
def test_a_stale_socket_file_is_replaced_by_a_new_server(tmp_path, env):
    path = _socket(env)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(path)
    dead.close()  # the file stays, nothing listens
    done = _client(tmp_path, env, _smk(tmp_path, "relative_job", "a.txt", seconds=0.0))
    assert done.returncode == 0, done.stderr
    assert b"running the job in its own process" not in done.stderr
    assert (tmp_path / "a.txt").exists()


def test_a_regular_file_of_ours_at_the_socket_path_is_replaced(tmp_path, env):
    path = Path(_socket(env))
    path.write_text("not a socket\n")
    done = _client(tmp_path, env, _smk(tmp_path, "relative_job", "a.txt", seconds=0.0))
    assert done.returncode == 0, done.stderr
    assert b"running the job in its own process" not in done.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
@pytest.mark.parametrize("kind", ["file", "listening-socket"])
def test_a_socket_path_owned_by_another_user_is_never_used(tmp_path, env, kind):
    path = _socket(env)
    foreign = None
    if kind == "file":
        Path(path).write_text("someone else's\n")
    else:
        foreign = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        foreign.bind(path)
        foreign.listen(4)
        foreign.settimeout(0.1)
    os.chown(path, 65534, 65534)
    try:
        done = _client(tmp_path, env, _smk(tmp_path, "relative_job", "a.txt", seconds=0.0))
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "a.txt").exists()
        error = done.stderr.decode()
        assert "running the job in its own process" in error and path in error
        assert "owned by" in error
        assert os.stat(path).st_uid == 65534  # not removed or replaced
        if foreign is not None:
            with pytest.raises(TimeoutError):
                foreign.accept()  # no job (environment, streams) was handed to it
    finally:
        if foreign is not None:
            foreign.close()
        os.unlink(path)


def test_two_workflows_in_two_folders_share_the_server_at_once(tmp_path, env):
    folders = [tmp_path / "one", tmp_path / "two"]
    clients = []
    for i, folder in enumerate(folders):
        folder.mkdir()
        smk = _smk(folder, "relative_job", "out.txt", tag=f"run{i}", seconds=1.5)
        clients.append(_client(tmp_path, env, smk, wait=False, cwd=folder))
    for client in clients:
        assert client.wait(timeout=120) == 0, client.stderr.read()
    for i, folder in enumerate(folders):
        assert (folder / "out.txt").read_text() == f"run{i} {folder}\n"
