"""Provenance: what made a result — code, machine, numeric environment and configuration.

Every tidy result row carries cheap provenance columns (:func:`provenance`: versions, the git
commit, the configuration's hash, host, CPU, BLAS, seed), computed once per process. A published
result (``results/paper/**``) also records the full picture (:func:`provenance_record`: every
BLAS/OpenMP pool with its thread count, the thread environment variables, the config itself) and
is made only from a clean tree (:func:`require_clean_tree`), so its commit is never ``+dirty``.

The commit is that of the checkout holding the *workflow* (``$RLSBENCH_SOURCE_DIR`` if set,
else the current directory, which Snakemake sets to the working directory), never found from
where the package is installed. Nothing here depends on the time of day: the same config, code,
machine and seed give the same provenance.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from rlsbench.errors import RLSBenchError

#: Distributions whose versions are recorded, as ``<name>_version`` columns.
PACKAGES = ("rlsbench", "numpy", "scipy", "scikit-learn", "pandas", "numba", "snakemake")
#: More distributions recorded in a published result's full record.
RECORD_PACKAGES = PACKAGES + ("threadpoolctl", "joblib", "seaborn", "matplotlib", "pyyaml")
#: Environment variables that set thread counts, recorded with a published result.
THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "NUMBA_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)
#: Paths (relative to the checkout) whose changes do not make a tree dirty: the workflow's own
#: outputs, published results included.
OUTPUT_PATHS = ("results/",)
#: Untracked files with these endings count as changes to the code.
CODE_SUFFIXES = (".py", ".smk", "Snakefile", ".pyx", ".c", ".h")


class DirtyTreeError(RuntimeError, RLSBenchError):
    """The checkout has changes (or is no checkout), so a result cannot name its exact commit."""


def config_hash(config) -> str:
    """Short, order-independent hash of a configuration.

    Parameters
    ----------
    config : dict or list or scalar
        Anything JSON-serialisable (non-serialisable leaves are rendered with ``str``).

    Returns
    -------
    str
        The first 16 hex digits of the SHA-256 of the canonical JSON form (sorted keys).
    """
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not-installed"


@lru_cache(maxsize=1)
def _versions() -> dict:
    out = {"python_version": platform.python_version()}
    for name in PACKAGES:
        out[f"{name.replace('-', '_')}_version"] = _version(name)
    return out


# ----------------------------------------------------------------------------------- git
def source_dir() -> Path:
    """The checkout whose commit results record: ``$RLSBENCH_SOURCE_DIR``, else the current
    directory (the workflow's working directory inside a Snakemake job)."""
    return Path(os.environ.get("RLSBENCH_SOURCE_DIR") or Path.cwd())


def _git(directory, *args):
    return subprocess.run(
        ["git", "-C", str(directory), *args], capture_output=True, text=True, timeout=20
    )


@lru_cache(maxsize=8)
def _git_state(directory: str) -> tuple:
    """``(commit or None, changed paths)`` of the checkout containing ``directory``.

    Changed paths are tracked files with edits and untracked code that is not ignored (a new
    module changes the code as much as an edit; an untracked config file does not, the config
    is recorded itself), both outside :data:`OUTPUT_PATHS`.
    """
    try:
        head = _git(directory, "rev-parse", "HEAD")
        if head.returncode != 0:
            return None, ()
        top = _git(directory, "rev-parse", "--show-toplevel").stdout.strip()
        status = _git(top or directory, "status", "--porcelain", "--untracked-files=normal")
    except (OSError, subprocess.SubprocessError):
        return None, ()
    changed = []
    for line in status.stdout.splitlines():
        path = line[3:].split(" -> ")[-1].strip('"')
        if path.startswith(OUTPUT_PATHS):
            continue
        if line.startswith("??") and not path.endswith(CODE_SUFFIXES):
            continue
        changed.append(path)
    return head.stdout.strip(), tuple(changed)


def git_commit(directory=None) -> str:
    """Commit of the checkout at ``directory`` (default :func:`source_dir`), ``+dirty`` if it
    has changes outside the workflow's outputs; ``"unknown"`` outside a git checkout.

    Cached per process and directory (a job's code does not change while it runs).
    """
    commit, changed = _git_state(str(Path(directory or source_dir()).resolve()))
    if commit is None:
        return "unknown"
    return commit + ("+dirty" if changed else "")


def require_clean_tree(directory=None) -> str:
    """The commit of a clean checkout; refuse a dirty one (for publishing results).

    Parameters
    ----------
    directory : path-like, optional
        A directory inside the checkout (default :func:`source_dir`).

    Returns
    -------
    str
        The full commit hash.

    Raises
    ------
    DirtyTreeError
        ``directory`` is not in a git checkout, or the checkout has edited tracked files or
        untracked (not ignored) code outside ``results/``; the message names them.
    """
    directory = Path(directory or source_dir()).resolve()
    _git_state.cache_clear()  # publishing asks about now, not about when the process started
    commit, changed = _git_state(str(directory))
    if commit is None:
        raise DirtyTreeError(
            f"{directory} is not in a git checkout: a published result must name the commit "
            "it was made from"
        )
    if changed:
        shown = ", ".join(changed[:10]) + (
            f" and {len(changed) - 10} more" if len(changed) > 10 else ""
        )
        raise DirtyTreeError(
            f"refusing to publish from a checkout with uncommitted changes ({shown}); commit or "
            "stash them, then publish again"
        )
    return commit


# ----------------------------------------------------------------------------------- machine
def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    if platform.system() == "Darwin":
        try:
            out = subprocess.run(
                ["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True, text=True
            )
            if out.returncode == 0 and out.stdout.strip():
                return out.stdout.strip()
        except OSError:
            pass
    return platform.processor() or platform.machine() or "unknown"


@lru_cache(maxsize=1)
def machine() -> dict:
    """CPU model, logical cores (all, and those this process may use), OS and architecture."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count()
    return {
        "cpu_model": _cpu_model(),
        "n_cores": os.cpu_count(),
        "n_cores_usable": usable,
        "platform": platform.platform(),
        "machine": platform.machine(),
    }


def thread_pools() -> list:
    """Every BLAS/OpenMP pool of the numeric stack, with its library, version and thread count
    (:func:`threadpoolctl.threadpool_info`, install paths left out), in a fixed order.

    numpy and scipy each bundle their own OpenBLAS; both are loaded first, so the list does not
    depend on what the caller happened to import before.
    """
    import numpy  # noqa: F401
    import scipy.linalg  # noqa: F401
    from threadpoolctl import threadpool_info

    keys = ("user_api", "internal_api", "version", "num_threads", "threading_layer", "architecture")
    pools = [{k: pool.get(k) for k in keys if k in pool} for pool in threadpool_info()]
    return sorted(pools, key=lambda p: tuple(str(p.get(k)) for k in keys))


@lru_cache(maxsize=1)
def _blas_columns() -> dict:
    blas = [p for p in thread_pools() if p.get("user_api") == "blas"]
    if not blas:
        return {"blas": "none", "blas_threads": 0}
    return {
        "blas": "; ".join(sorted({f"{p.get('internal_api')} {p.get('version')}" for p in blas})),
        "blas_threads": int(max(p.get("num_threads") or 0 for p in blas)),
    }


def environment() -> dict:
    """The full record of the machine and numeric environment (for a published result)."""
    return {
        "python": {
            "version": platform.python_version(),
            "implementation": platform.python_implementation(),
        },
        "packages": {name: _version(name) for name in RECORD_PACKAGES},
        "machine": machine(),
        "thread_pools": thread_pools(),
        "thread_variables": {k: os.environ[k] for k in THREAD_VARIABLES if k in os.environ},
    }


def relative_source_dir(directory=None) -> str:
    """The workflow's directory relative to the top of its git checkout (``"."`` when it is
    the top): a record names no path of the machine it was made on. Outside a checkout, the
    directory's own name."""
    path = Path(directory or source_dir()).resolve()
    try:
        top = _git(path, "rev-parse", "--show-toplevel").stdout.strip()
    except (OSError, subprocess.SubprocessError):
        top = ""
    if not top:
        return path.name
    return Path(os.path.relpath(path, Path(top).resolve())).as_posix()


def provenance_record(config, *, directory=None, require_clean=True) -> dict:
    """What a published result records about how it was made.

    Parameters
    ----------
    config : dict
        The configuration that produced the result (stored in full, and hashed).
    directory : path-like, optional
        A directory in the checkout (default :func:`source_dir`).
    require_clean : bool
        Refuse a dirty tree (:func:`require_clean_tree`); False records ``+dirty`` instead
        (working copies, never ``results/paper``).

    Returns
    -------
    dict
        ``{"git_commit", "source_dir", "config_hash", "config", "environment"}`` (JSON-able);
        ``source_dir`` relative to the checkout's top (:func:`relative_source_dir`).
    """
    commit = require_clean_tree(directory) if require_clean else git_commit(directory)
    return {
        "git_commit": commit,
        "source_dir": relative_source_dir(directory),
        "config_hash": config_hash(config),
        "config": config,
        "environment": environment(),
    }


def provenance(config, seed) -> dict:
    """Provenance columns for one result row (cheap: everything but the config hash is
    computed once per process).

    Parameters
    ----------
    config : dict
        The configuration (section) that produced the result; only its hash is stored.
    seed : int or None
        The seed of the run (``None`` for deterministic computations without one).

    Returns
    -------
    dict
        ``{"<package>_version": ..., "python_version", "git_commit", "config_hash", "host",
        "cpu_model", "n_cores", "blas", "blas_threads", "seed"}``, all plain str/int values.
    """
    info = machine()
    return {
        **_versions(),
        "git_commit": git_commit(),
        "config_hash": config_hash(config),
        "host": platform.node(),
        "cpu_model": info["cpu_model"],
        "n_cores": info["n_cores"],
        **_blas_columns(),
        "seed": None if seed is None else int(seed),
    }
