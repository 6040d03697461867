"""Warm job processes: a job costs what its function costs, not an interpreter start.

A rule that runs Python through ``script:`` starts ``workflow/scripts/call.py`` in a new
interpreter. Importing what a job needs (numpy, scipy, scikit-learn, pandas, numba, matplotlib
and rlsbench itself) takes seconds, many times the work of most jobs. Here the script is a thin
client instead, and rlsbench's own rules (``run: JOB(...)``, :func:`run_in_thread`) skip even
that: a thread of Snakemake's process is the client. Either hands its job to a *job server* on
the same machine, a process that imported all of that once and forks a fresh child for every
job. The child
runs the job exactly as the script would (:func:`rlsbench.benchmark.workflow.run_rule`, in the
client's working directory, environment, standard streams and thread limits) and reports its
exit status; the client exits with it. A job therefore still runs in a process of its own: a
crash or a leaked global in one job never reaches another, and Snakemake's wall time of the
job (its ``benchmark:``) stays the job's wall time.

Life cycle
    The first client on a machine starts the server (under a lock, so that concurrent jobs
    start one) and waits until it listens; it listens on a Unix socket in the temporary folder,
    named after the user, the machine, the Python, the rlsbench installation, the batch job
    (``SLURM_JOB_ID`` and the like) and the ``PYTHON*`` variables an interpreter reads at start
    (``PYTHONHASHSEED``, ``PYTHONPATH``, ...), so a cluster job serves its own jobs (a group
    of them under the SLURM profile), two checkouts never share one, and a job sees the
    interpreter its own would have been. A path another user owns is never connected to or
    removed: the job then runs in its own process. The server ends after
    :data:`IDLE_SECONDS` without a job, and at once when a source file it imported has changed
    since (an edited method or plugin): the client then starts a new one, so a job never runs
    stale code. The Snakefile starts one before the first job (:func:`warm_up`): the server
    imports while Snakemake reads the rule files and builds its graph.

Signals
    SIGINT, SIGTERM and SIGHUP to the client (Snakemake stopping a job, ``timeout``, a batch
    system) are passed on to the job's child, and a child whose client has gone (killed with
    SIGKILL) stops itself. The server reaps its children: a child that ends without reporting
    (``os._exit(n)`` in a job, a signal) is answered for, and the client ends as the job's own
    process would have, with status ``n`` or by the same signal.

What a child does as a new interpreter would
    It seeds numpy's global random state from the OS (a fork copies the server's; Python's
    ``random`` reseeds itself), and it waits for the threads the job left running (not
    daemons) before it exits, as an interpreter does at exit.

Where it is off
    ``RLSBENCH_JOBSERVER=0`` runs every job in the script's own interpreter, as before; so do
    platforms without ``fork`` and Unix sockets, and a rule whose params set
    ``own_process=True`` (a job whose table reports Snakemake's benchmark of the whole
    process, interpreter start included: the scaling study's timing points).
    ``RLSBENCH_JOBSERVER_PRELOAD`` (comma-separated module names) adds modules for the server
    to import, a plugin's for example.

This module imports only the standard library at the top: it is the client's whole cost.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import pickle
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

from rlsbench.errors import RLSBenchError  # standard library only

#: Seconds a server waits for a job before it ends (``RLSBENCH_JOBSERVER_IDLE`` overrides).
IDLE_SECONDS = 120.0
#: Seconds a client waits for a server it started to listen.
START_SECONDS = 120.0
#: What the server imports before it listens: what nearly every job needs (a job that starts
#: while the server imports would import it too, twice the work on a busy machine).
CORE = (
    "numpy",
    "pandas",
    "snakemake.script",
    "rlsbench.benchmark.workflow",
    "rlsbench.benchmark.results",
    "rlsbench.benchmark.jobs",
)
#: What the server imports next, most needed first, while no job waits. A job that starts
#: before a module is loaded imports it itself (slower, not wrong). ``module:function`` also
#: calls the function: the built-in dataset registry, validated once for every child.
PRELOAD = (
    "rlsbench.benchmark.datasets.registry:load_registry",
    "sklearn.base",
    "sklearn.model_selection",
    "sklearn.preprocessing",
    "scipy.linalg",
    "scipy.sparse",
    "scipy.stats",
    "scipy.optimize",
    "sklearn.linear_model",
    "sklearn.feature_selection",
    "numba",
    "threadpoolctl",
    "joblib",
    "matplotlib",
    "matplotlib.pyplot",
    "seaborn",
    "yaml",
    "rlsbench.benchmark.methods",
    "rlsbench.benchmark.datasets",
    "rlsbench.benchmark.figures",
    "rlsbench.benchmark.views",
    "rlsbench.numerics.rls",
    # the package loads its members on first use: the selectors and their numba kernels
    "rlsbench.numerics.selection.greedy",
    "rlsbench.numerics.selection.lowrank",
    "rlsbench.numerics.selection.standard_wrapper",
    "rlsbench.numerics.selection.order",
    "rlsbench.numerics.selection.random",
    "rlsbench.numerics._scan",
)

_HEADER = struct.Struct("!I")
_ENVIRONMENT_SWITCH = "RLSBENCH_JOBSERVER"


class JobServerUnavailable(RuntimeError, RLSBenchError):
    """No server could be reached or started: the job runs in the client's own process."""


# ---------------------------------------------------------------------------------------------
# Messages: a 4-byte length, then a pickle (the first client message also carries the client's
# standard streams as file descriptors)
# ---------------------------------------------------------------------------------------------
def _send(sock, message, fds=()):
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    payload = _HEADER.pack(len(data)) + data
    if fds:
        sent = socket.send_fds(sock, [payload], list(fds))
        payload = payload[sent:]
    if payload:
        sock.sendall(payload)


def _recv_exact(sock, size, fds=None):
    chunks, got = [], 0
    while got < size:
        if fds is not None and not chunks:
            data, received, _, _ = socket.recv_fds(sock, size - got, 8)
            fds.extend(received)
        else:
            data = sock.recv(size - got)
        if not data:
            raise EOFError("the other end closed the connection")
        chunks.append(data)
        got += len(data)
    return b"".join(chunks)


def _recv(sock, fds=None):
    (size,) = _HEADER.unpack(_recv_exact(sock, _HEADER.size, fds))
    return pickle.loads(_recv_exact(sock, size))


# ---------------------------------------------------------------------------------------------
# Where a server listens
# ---------------------------------------------------------------------------------------------
def enabled() -> bool:
    """Whether jobs go to a job server here (``RLSBENCH_JOBSERVER`` not ``0``, and the
    platform has ``fork`` and Unix sockets)."""
    if os.environ.get(_ENVIRONMENT_SWITCH, "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    return hasattr(os, "fork") and hasattr(socket, "AF_UNIX") and hasattr(socket, "send_fds")


#: Environment variables naming the batch job a process runs in (SLURM, PBS/Torque, LSF,
#: Grid Engine).
_BATCH_JOB_VARIABLES = ("SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "JOB_ID")

#: Longest path a Unix socket may have here (108 bytes on Linux, with room for the suffix the
#: server binds to before it renames).
_MAX_SOCKET_PATH = 96


def socket_path() -> str:
    """The server's socket for this user, machine, Python and rlsbench installation, in the
    temporary folder (``/tmp`` where that folder's path is too long for a socket)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # one server per batch job: a batch system ends every process of a job when it ends,
    # and a server shared with another job would take that job's running children with it
    batch_job = next((os.environ[v] for v in _BATCH_JOB_VARIABLES if os.environ.get(v)), "")
    # the interpreter reads PYTHONHASHSEED, PYTHONPATH, PYTHONOPTIMIZE, ... once, at start: a
    # job whose values differ from the server's needs a server started with its own
    interpreter = sorted((k, v) for k, v in os.environ.items() if k.startswith("PYTHON"))
    key = "\0".join(
        (socket.gethostname(), os.path.realpath(sys.executable), package, batch_job)
        + tuple(f"{k}={v}" for k, v in interpreter)
    )
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    name = f"rlsbench-{os.getuid()}-{digest}.sock"
    path = os.path.join(tempfile.gettempdir(), name)
    if len(os.fsencode(path)) > _MAX_SOCKET_PATH and os.path.isdir("/tmp"):
        path = os.path.join("/tmp", name)
    return path


def _connect(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        raise
    return sock


def _start_server(path):
    """Start a server on ``path`` (detached: its own session, so a terminal's Ctrl-C or the
    end of the first job does not reach it) and wait until it listens."""
    log_path = path + ".log"
    with open(log_path, "ab") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "rlsbench.benchmark.jobserver", "serve", path],
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=log_file,
            start_new_session=True,
            close_fds=True,
            env=_server_environment(),
        )
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            return _connect(path)
        if process.poll() is not None:
            raise JobServerUnavailable(
                f"the job server ended at start with status {process.returncode} (see {log_path})"
            )
        time.sleep(0.02)
    raise JobServerUnavailable(f"the job server did not listen within {START_SECONDS:.0f} s")


def _server_environment():
    # The server's libraries read their thread counts once, at import: start them on one
    # thread; each job sets its own limits (threadpoolctl) from its environment.
    env = dict(os.environ)
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = "1"
    return env


def connect(*, start: bool = True):
    """A connection to this machine's server, starting one (under a file lock) if none
    listens.

    Raises
    ------
    JobServerUnavailable
        No server listens and ``start`` is false, or the one started failed.
    """
    path = socket_path()
    _check_owner(path)
    with contextlib.suppress(OSError):
        return _connect(path)
    if not start:
        raise JobServerUnavailable(f"no job server listens on {path}")
    _check_owner(path + ".lock")
    try:
        lock = open(path + ".lock", "a")  # noqa: SIM115 (held across the start below)
    except OSError as exc:
        raise JobServerUnavailable(f"cannot open the lock file {path}.lock: {exc}") from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            _check_owner(path)
            with contextlib.suppress(OSError):
                return _connect(path)  # another client started it while we waited
            try:
                os.unlink(path)  # a server that died without cleaning up
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise JobServerUnavailable(f"cannot remove the stale {path}: {exc}") from None
            return _start_server(path)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _check_owner(path) -> None:
    """Refuse a path another user owns: a server there would get this user's jobs (their
    environment and standard streams), and removing it is not ours to do."""
    try:
        owner = os.lstat(path).st_uid
    except FileNotFoundError:
        return
    except OSError as exc:
        raise JobServerUnavailable(f"cannot inspect {path}: {exc}") from None
    if owner != os.getuid():
        raise JobServerUnavailable(f"{path} is owned by uid {owner}, not this user")


#: Snakemake's options under which no job runs (a dry run, a listing, a report, a lock
#: removal, ...): :func:`warm_up` starts no server for them.
_NO_JOB_OPTIONS = frozenset(
    """-n --dry-run --dryrun -t --touch -l --list --list-rules -lt --list-target-rules
    --lt -S --summary -D --detailed-summary --dag --rulegraph --filegraph --d3dag --lint
    --report --report-stylesheet --unlock --cleanup-metadata --cm --cleanup-shadow
    --delete-all-output --delete-temp-output --list-changes --lc --list-input-changes --li
    --list-params-changes --lp --list-code-changes --list-untracked --lu --archive
    --export-cwl --containerize --print-compilation --generate-unit-tests -h --help
    --version -v --conda-create-envs-only --conda-cleanup-envs --create-envs-only""".split()
)


def warm_up(argv=None):
    """Start this machine's server in the background, so that it imports what jobs need
    while Snakemake reads the workflow and builds its graph (the Snakefile calls this).

    A daemon thread connects once, starting a server under the lock as a job's client would
    (a job that starts meanwhile waits on that lock, then connects); nothing happens when
    the server is off (:func:`enabled`), when one already listens, or when ``argv``
    (Snakemake's command line, ``sys.argv`` by default) asks for no jobs: a dry run, a
    listing, a report.

    Returns
    -------
    threading.Thread or None
        The thread, or None where nothing was started.
    """
    import threading

    argv = list(sys.argv[1:] if argv is None else argv)
    if not enabled() or os.environ.get("SNAKEMAKE_PROFILE"):
        return None
    for i, arg in enumerate(argv):
        option, _, value = arg.partition("=")
        if option in _NO_JOB_OPTIONS:
            return None
        if arg.startswith("-") and not arg.startswith("--") and "n" in arg[1:]:
            return None  # -n among combined short options (-np, -pn)
        # jobs that run elsewhere (a cluster executor, maybe set by a profile) need no
        # server here: their own machines start theirs
        if option == "--profile":
            return None
        if option in ("--executor", "-e"):
            value = value or (argv[i + 1] if i + 1 < len(argv) else "")
            if value != "local":
                return None

    def connect_once():
        with contextlib.suppress(JobServerUnavailable, OSError):
            connect().close()  # the server reads the empty request as a client gone

    thread = threading.Thread(target=connect_once, name="rlsbench-jobserver-warm-up", daemon=True)
    thread.start()
    return thread


#: Snakemake's default ``--max-jobs-per-timespan`` (100 jobs a second), as (jobs, seconds).
SNAKEMAKE_DEFAULT_RATE = (100, 1)


def lift_local_rate_limit(workflow) -> bool:
    """Drop Snakemake's default job rate limit from a run whose jobs run on this machine
    (the Snakefile's ``onstart:``).

    The limit exists for cluster submissions. On a local run it never binds (at most
    ``--cores`` jobs run at once), yet the scheduler keeps it by starting a timer thread of
    the timespan after every pass that leaves jobs waiting: each tick plans the run again
    over every ready job (a second pass a second over the reference benchmark's ~2400 ready
    jobs), and the process waits for the last timer before it exits (1 s after every run,
    the small run's tenth). A limit the user set (any other value), a cluster executor and a
    Snakemake without these attributes are left as they are.

    Parameters
    ----------
    workflow : snakemake.workflow.Workflow
        The running workflow (``workflow`` in the Snakefile), its scheduler built.

    Returns
    -------
    bool
        Whether the limit was dropped.
    """
    scheduler = getattr(workflow, "scheduler", None)
    limiter = getattr(scheduler, "job_rate_limiter", None)
    if limiter is None or not getattr(workflow, "local_exec", False):
        return False
    if (getattr(limiter, "max_jobs", None), getattr(limiter, "timespan", None)) != (
        SNAKEMAKE_DEFAULT_RATE
    ):
        return False
    scheduler.job_rate_limiter = None
    return True


# ---------------------------------------------------------------------------------------------
# Client: the job script's side
# ---------------------------------------------------------------------------------------------
_FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def submit(smk, *, attempts: int = 3, env=None, in_thread: bool = False) -> int:
    """Run the Snakemake job ``smk`` in a child of the job server; its exit status, or minus
    the signal that ended it (as :class:`subprocess.Popen` gives).

    Raises
    ------
    JobServerUnavailable
        No server could be reached or started (the caller runs the job itself).
    """
    for _ in range(attempts):
        sock = connect()
        with sock:
            streams = [fd for fd in (0, 1, 2) if _is_open(fd)]
            request = {
                "smk": smk,
                "cwd": os.getcwd(),
                "env": dict(os.environ) if env is None else env,
                "path": list(sys.path),
                "streams": streams,
            }
            try:
                _send(sock, request, fds=streams)
                reply = _recv(sock)
            except (EOFError, OSError):
                continue  # a server that was ending: start another
            if reply.get("stale"):
                continue  # the server's code changed on disk: it ends, the next one is fresh
            if in_thread:
                return _wait_in_thread(sock, reply["pid"])
            return _wait_for_child(sock, reply["pid"])
    raise JobServerUnavailable(f"no job server accepted the job in {attempts} attempts")


def _is_open(fd):
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _await_status(sock, pid, *, still_wanted=None):
    """The job's status from the server: the child's own report (or the server's for a child
    that called ``os._exit``), minus the signal that killed it, or 1 where neither answered.
    With a timeout on ``sock``, ``still_wanted()`` is asked at each; false ends the wait."""
    while True:
        try:
            reply = _recv(sock)
        except InterruptedError:
            continue
        except TimeoutError:
            if still_wanted is not None and not still_wanted():
                return -signal.SIGTERM
            continue
        except (EOFError, OSError):
            # neither the child nor the server answered (the server was killed)
            print(
                f"rlsbench: the job's process ({pid}) ended without reporting a status",
                file=sys.stderr,
            )
            return 1
        if "signal" in reply:
            # the server's answer for a child killed by a signal (ours, forwarded, or the
            # kernel's): a negative status, as subprocess gives
            number = int(reply["signal"])
            print(
                f"rlsbench: the job's process ({pid}) ended without reporting a status: "
                f"killed by {_signal_name(number)}",
                file=sys.stderr,
            )
            return -number
        return int(reply["status"])


def _wait_for_child(sock, pid):
    def forward(signum, _frame):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)

    previous = {sig: signal.signal(sig, forward) for sig in _FORWARDED}
    try:
        return _await_status(sock, pid)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


#: Seconds between a thread's checks that Snakemake's main thread still runs.
_THREAD_POLL_SECONDS = 0.5

#: The server's children that run the ``run:`` jobs of this process now (their pids).
_THREAD_CHILDREN: set = set()
#: The stop signals this process received (:func:`forward_stop_signals`).
_STOPPED: list = []


def _wait_in_thread(sock, pid):
    """:func:`_wait_for_child` for a job of a thread of Snakemake's own process: no signal
    handlers there (only the main thread has them; :func:`forward_stop_signals` passes them
    on); when Snakemake's main thread ends, the wait ends and the connection closes, and the
    child stops itself."""
    import threading

    sock.settimeout(_THREAD_POLL_SECONDS)
    _THREAD_CHILDREN.add(pid)
    try:
        return _await_status(sock, pid, still_wanted=threading.main_thread().is_alive)
    finally:
        _THREAD_CHILDREN.discard(pid)


def forward_stop_signals() -> bool:
    """Pass the stop signals Snakemake's process receives on to the children of its ``run:``
    jobs, then to the handler it had (the Snakefile's ``onstart:``, in the main thread).

    A ``script:`` job's process is in Snakemake's process group, and a Ctrl-C, ``timeout`` or
    ``rlsbench run`` reaches it with Snakemake; a server's child is not, so the signal is
    passed on here. Returns whether the handlers were installed (only the main thread can).
    """
    import threading

    if threading.current_thread() is not threading.main_thread():
        return False
    for sig in _FORWARDED:
        previous = signal.getsignal(sig)

        def handler(signum, frame, previous=previous):
            _STOPPED.append(signum)
            for pid in list(_THREAD_CHILDREN):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signum)
            if callable(previous):
                previous(signum, frame)
            elif previous == signal.SIG_DFL:
                signal.signal(signum, signal.SIG_DFL)
                os.kill(os.getpid(), signum)

        signal.signal(sig, handler)
    return True


#: What Snakemake sets in the environment of a job's process from its threads
#: (``snakemake.shell``), and from its ``tmpdir`` resource.
_THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "GOTO_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
_TMPDIR_VARIABLES = ("TMPDIR", "TMP", "TEMPDIR", "TEMP")


def job_environment(smk) -> dict:
    """The environment Snakemake gives a ``script:`` job's process: its own, with the job's
    thread count for the BLAS and OpenMP pools and its ``tmpdir`` resource."""
    env = dict(os.environ)
    threads = str(getattr(smk, "threads", 1) or 1)
    env.update(dict.fromkeys(_THREAD_VARIABLES, threads))
    tmpdir = dict(getattr(smk, "resources", {}) or {}).get("tmpdir")
    if tmpdir:
        env.update(dict.fromkeys(_TMPDIR_VARIABLES, str(tmpdir)))
    return env


class JobFailed(RuntimeError, RLSBenchError):
    """A ``run:`` job ended with a non-zero status (its one-line reason is on stderr)."""


def run_in_thread(smk) -> None:
    """What a rule's ``run:`` does (Snakemake's own process, one of its threads): the job in a
    child of the job server, else in a new interpreter, as a ``script:`` job would run.

    Raises
    ------
    JobFailed
        The job's status was not 0.
    """
    own_process = bool(getattr(smk.params, "own_process", False)) if smk.params else False
    env = job_environment(smk)
    status = None
    if enabled() and not own_process:
        try:
            status = submit(smk, env=env, in_thread=True)
        except JobServerUnavailable as exc:
            print(f"rlsbench: running the job in its own process ({exc})", file=sys.stderr)
    if status is None:
        status = _run_in_new_interpreter(smk, env)
    if status == 0 and _STOPPED:
        # Snakemake stops and no longer records jobs as finished: a job that ended meanwhile
        # leaves no output, as a script: job's process stopped by the signal would not
        import shutil

        for path in smk.output:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(path)
        status = -_STOPPED[0]
    if status != 0:
        how = f"killed by {_signal_name(-status)}" if status < 0 else f"exit status {status}"
        raise JobFailed(f"rule {smk.rule}: the job ended with {how}")


def run_jobs_in_threads() -> bool:
    """Have Snakemake's local executor run ``run:`` jobs in its own threads, as
    ``--force-use-threads`` does, in every Snakemake process that reads the workflow (the
    Snakefile calls this).

    Without the flag the executor starts a new Snakemake for every ``run:`` job (a second or
    two each), and the flag cannot be given everywhere: a cluster executor passes it to a
    single job's Snakemake but not to a group's, and a local run without the workflow profile
    has none. The executor reads the setting once, when it is made, so it is set there.
    Returns whether Snakemake's executor was found (a Snakemake without it runs the jobs as
    before: correct, only slower; ``tests/benchmark/test_jobserver.py`` checks).
    """
    try:
        from snakemake.executors.local import Executor
    except ImportError:
        return False
    original = getattr(Executor, "__post_init__", None)
    if original is None:
        return False
    if getattr(original, "_rlsbench_threads", False):
        return True

    def __post_init__(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.use_threads = True

    __post_init__._rlsbench_threads = True
    Executor.__post_init__ = __post_init__
    return True


def _run_in_new_interpreter(smk, env) -> int:
    fd, path = tempfile.mkstemp(prefix="rlsbench-job-", suffix=".pickle")
    try:
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(smk, fh, protocol=pickle.HIGHEST_PROTOCOL)
        cmd = [sys.executable, "-m", "rlsbench.benchmark.jobserver", "run", path]
        return subprocess.call(cmd, env=env)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _signal_name(number) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def run_script(smk) -> None:
    """What ``workflow/scripts/call.py`` does: the job in a child of the job server where
    one can run, else here; exits with the job's status."""
    own_process = bool(getattr(smk.params, "own_process", False)) if smk.params else False
    if enabled() and not own_process:
        try:
            status = submit(smk)
        except JobServerUnavailable as exc:
            print(f"rlsbench: running the job in its own process ({exc})", file=sys.stderr)
        else:
            sys.stdout.flush()
            sys.stderr.flush()
            if status < 0:
                # end as the job's own interpreter ended: by the same signal
                signal.signal(-status, signal.SIG_DFL)
                os.kill(os.getpid(), -status)
                status = 128 - status  # a signal that cannot end this process
            os._exit(status)
    from rlsbench.benchmark.workflow import run_rule

    run_rule(smk)


# ---------------------------------------------------------------------------------------------
# Server
# ---------------------------------------------------------------------------------------------
def _source_files():
    """(path, mtime) of every module file loaded now outside the standard library."""
    stdlib = os.path.dirname(os.__file__)
    files = {}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if not path or path.startswith(stdlib + os.sep) and "site-packages" not in path:
            continue
        with contextlib.suppress(OSError):
            files[path] = os.stat(path).st_mtime_ns
    return files


def _stale(files) -> bool:
    for path, mtime in files.items():
        try:
            if os.stat(path).st_mtime_ns != mtime:
                return True
        except OSError:
            return True
    return False


def serve(path: str, *, idle_seconds: float | None = None) -> None:
    """Import :data:`CORE`, listen on ``path`` and fork a child for every job; import
    :data:`PRELOAD` one module at a time while no job waits, so that the first jobs need not
    wait for all of it."""
    import importlib
    import select
    import warnings

    if idle_seconds is None:
        idle_seconds = float(os.environ.get("RLSBENCH_JOBSERVER_IDLE", IDLE_SECONDS))
    os.chdir("/")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in CORE:
            importlib.import_module(name)
    files = _source_files()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    partial = f"{path}.{os.getpid() % 100000}"
    listener.bind(partial)
    listener.listen(64)
    os.replace(partial, path)  # appears when it listens
    inode = os.stat(path).st_ino
    # A child reports its own status; one that ends without (os._exit in the job, a signal)
    # is answered for by the server, which reaps its children: SIGCHLD wakes the loop
    wake_read, wake_write = os.pipe()
    for fd in (wake_read, wake_write):
        os.set_blocking(fd, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_write)
    running: dict[int, socket.socket] = {}  # pid of a job's child: its client's connection
    extra = os.environ.get("RLSBENCH_JOBSERVER_PRELOAD", "")
    preload = list(PRELOAD) + [name for name in extra.split(",") if name.strip()]
    try:
        while True:
            waiting = [listener, wake_read]
            # a job that waits comes first; else the next module is loaded, jobs running or
            # not (their children are forked already; later ones inherit it); with nothing
            # left to load, wait for a job or a child's end, and end when idle. (Loading only
            # while no job ran starved the preload on a busy run, and polled: the server spun
            # a core at select(timeout=0) for as long as jobs ran.)
            timeout = 0 if preload else (None if running else idle_seconds)
            ready, _, _ = select.select(waiting, [], [], timeout)
            if wake_read in ready:
                with contextlib.suppress(BlockingIOError):
                    while os.read(wake_read, 512):
                        pass
                _reap(running)
                continue
            if not ready:
                if not preload:
                    if running:
                        continue  # not idle while a job runs
                    return  # idle
                name = preload.pop(0)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        module, _, function = name.partition(":")
                        loaded = importlib.import_module(module)
                        if function:
                            getattr(loaded, function)()
                    except Exception as exc:  # a job that needs it reports the error itself
                        print(f"preload {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
                if name == "matplotlib":
                    import matplotlib

                    matplotlib.use("Agg")  # as a job without a display would
                files = _source_files()
                if not preload:
                    print(f"preload done ({len(files)} source files watched)", file=sys.stderr)
                    sys.stderr.flush()
                continue
            conn, _ = listener.accept()
            end, pid = _serve_one(listener, conn, files, [wake_read, wake_write, *running.values()])
            if pid:
                running[pid] = conn  # answered for if the child ends without a status
            else:
                conn.close()
            if end:
                return
    finally:
        # not a newer server's socket that replaced ours
        with contextlib.suppress(OSError):
            if os.stat(path).st_ino == inode:
                os.unlink(path)
        listener.close()


def _serve_one(listener, conn, files, inherited) -> tuple[bool, int]:
    """Fork a child for the job on ``conn``: whether the server should end (asked to, or its
    code changed on disk), and the child's pid (0 where none was forked). ``inherited``: the
    server's descriptors and sockets a child closes (other jobs' connections, the wake-up
    pipe)."""
    fds: list[int] = []
    try:
        conn.settimeout(10.0)
        request = _recv(conn, fds=fds)
        conn.settimeout(None)
    except (EOFError, OSError, pickle.UnpicklingError):
        for fd in fds:
            os.close(fd)
        return False, 0
    if request.get("shutdown") or _stale(files):
        for fd in fds:
            os.close(fd)
        with contextlib.suppress(OSError):
            _send(conn, {"stale": True})
        return True, 0
    pid = os.fork()
    if pid == 0:
        signal.set_wakeup_fd(-1)
        listener.close()
        for other in inherited:
            with contextlib.suppress(OSError):
                other.close() if isinstance(other, socket.socket) else os.close(other)
        _child(conn, request, fds)  # never returns
    for fd in fds:
        os.close(fd)
    return False, pid


def _reap(running) -> None:
    """Collect the server's ended children; answer the client of each with its exit status
    (``{"status": n}``) or the signal that ended it (``{"signal": n}``). A child that reported
    its status itself has a client that no longer reads: the answer goes nowhere."""
    while True:
        try:
            pid, wait_status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        conn = running.pop(pid, None)
        if conn is None:
            continue
        with conn, contextlib.suppress(OSError):
            if os.WIFSIGNALED(wait_status):
                _send(conn, {"signal": os.WTERMSIG(wait_status)})
            else:
                _send(conn, {"status": os.waitstatus_to_exitcode(wait_status)})


def _child(conn, request, fds) -> None:
    """One job in a fresh child of the server: the client's streams, folder, environment
    and thread limits, then :func:`rlsbench.benchmark.workflow.run_rule`."""
    status = 1
    try:
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for target, fd in zip(request["streams"], fds, strict=True):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        for entry in request["path"]:
            if entry not in sys.path:
                sys.path.append(entry)
        _send(conn, {"pid": os.getpid()})
        _watch_client(conn)
        _fresh_random_state()
        smk = request["smk"]
        _limit_threads(smk)
        from rlsbench.benchmark.workflow import run_rule

        try:
            run_rule(smk)
            status = 0
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
        _join_threads()  # as an interpreter does at exit
    except KeyboardInterrupt:
        status = 130
    except BaseException:
        import traceback

        traceback.print_exc()
        status = 1
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        with contextlib.suppress(Exception):
            _send(conn, {"status": status})
        os._exit(status)


def _fresh_random_state() -> None:
    # Python's `random` reseeds itself in a forked child; numpy's global RandomState does not,
    # and every child would draw the server's numbers: seed it from the OS as a new
    # interpreter's import of numpy does.
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed()


def _join_threads() -> None:
    import threading

    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()


def _limit_threads(smk) -> None:
    # What the job's environment (Snakemake sets OMP/OPENBLAS/MKL_NUM_THREADS to the job's
    # threads) would have given a fresh interpreter's BLAS and OpenMP pools.
    threads = os.environ.get("OMP_NUM_THREADS") or getattr(smk, "threads", None) or 1
    with contextlib.suppress(Exception):
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=int(threads))


def _watch_client(conn) -> None:
    # The client never writes after its request: any end of its connection means it is gone
    # (killed, or its job stopped), and the job stops with it.
    import threading

    def watch():
        try:
            data = conn.recv(1)
        except OSError:
            data = b""
        if not data:
            os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="rlsbench-client-watch", daemon=True).start()


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) == 2 and argv[0] == "serve":
        serve(argv[1])
        return 0
    if argv == ["stop"]:
        return stop()
    if len(argv) == 2 and argv[0] == "run":  # a run: job outside the server (run_in_thread)
        with open(argv[1], "rb") as fh:
            smk = pickle.load(fh)
        from rlsbench.benchmark.workflow import run_rule

        run_rule(smk)
        return 0
    print(
        "usage: python -m rlsbench.benchmark.jobserver serve PATH | stop | run JOB.pickle",
        file=sys.stderr,
    )
    return 2


def stop() -> int:
    """End this machine's server, if one listens (0 either way)."""
    try:
        sock = connect(start=False)
    except JobServerUnavailable:
        return 0
    with sock, contextlib.suppress(EOFError, OSError):
        _send(sock, {"shutdown": True})
        _recv(sock)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
