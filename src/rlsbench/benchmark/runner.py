"""``rlsbench run``: the Snakemake workflow from any directory, from a checkout or a wheel.

The workflow (``Snakefile``, ``workflow/``, the embedded default config, the workflow profile)
lives at the top of a checkout; a wheel ships a copy as ``rlsbench/_workflow/`` (setup.py).
:func:`workflow_root` finds whichever this install has. :func:`snakemake_command` builds the
command line: the packaged Snakefile, the current directory as the results root
(``--directory``), the targets *before* ``--configfile`` (which takes every word after it as
a file), and a config whose relative paths resolve against the config file's own directory
(:func:`resolve_config_paths`), so that ``rlsbench run --configfile ../exp/my.yaml`` means the
same from any directory.

Snakemake runs as ``python -m snakemake`` in a subprocess rather than through
``snakemake.api``: the API leaves to its caller what the command line does on its own — the
workflow profile (``profiles/default``: ``rerun-incomplete``, ``show-failed-logs``, ...) and
the parsing of the extra Snakemake options a user passes after ``--`` — so a run through the
API would differ from the documented ``snakemake`` command.

Signals (:func:`run_snakemake`)
    Snakemake runs in a process group of its own, and SIGINT, SIGTERM and SIGHUP to
    ``rlsbench run`` (Ctrl-C, ``timeout``, a batch system, a closed terminal) are passed on to
    that group once: Snakemake and its running jobs receive the signal as they would when
    Snakemake itself ran in the foreground (the job server's clients pass it on to their
    jobs), Snakemake removes the outputs of the jobs it stopped and its lock, and the command
    waits for it and exits with its status, so that nothing of the run outlives the command
    and a rerun resumes. SIGHUP goes on as SIGTERM, which Snakemake handles (it has no
    handler for SIGHUP and would die leaving its lock). In its own group, Snakemake is not
    reached a second time by a signal sent to the command's group (Ctrl-C, ``timeout``). On
    Linux, Snakemake also receives SIGTERM if the command dies without passing a signal on
    (SIGKILL).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
from importlib.resources import files
from pathlib import Path

import yaml

from rlsbench.benchmark.config import ConfigError, read_config_file

#: The embedded default config, relative to :func:`workflow_root`.
DEFAULT_CONFIG = "config/config.yaml"

#: Where a config with resolved paths is written, relative to the results root.
RESOLVED_DIR = ".rlsbench/config"


def workflow_root() -> Path:
    """The directory holding the workflow's ``Snakefile``.

    Returns
    -------
    Path
        The checkout's top directory when rlsbench is imported from a checkout (``src/``
        layout, an editable install included), else the copy packaged in the wheel.

    Raises
    ------
    ConfigError
        Neither holds a ``Snakefile`` (an install built without setup.py's build step).
    """
    package = Path(files("rlsbench"))
    checkout = package.parent.parent
    if package.parent.name == "src" and (checkout / "Snakefile").is_file():
        return checkout
    packaged = package / "_workflow"
    if (packaged / "Snakefile").is_file():
        return packaged
    raise ConfigError(
        f"no workflow: neither {checkout / 'Snakefile'} (a checkout) nor "
        f"{packaged / 'Snakefile'} (a wheel) exists; reinstall rlsbench from a wheel or a clone"
    )


def _is_local(value: str) -> bool:
    return "://" not in value


def _resolved(value, base: Path):
    """``value`` against ``base`` when it is a relative local path; else ``value`` unchanged."""
    if not isinstance(value, str) or not _is_local(value):
        return value
    path = Path(value).expanduser()
    return value if path.is_absolute() else str(base / path)


def resolve_config_paths(config: dict, base) -> dict:
    """A copy of ``config`` whose relative paths are made absolute against ``base``.

    The workflow resolves these keys against its working directory (``dataset_registries``,
    inline ``datasets`` entries' ``files[].path``) or its own directory (``mirrors``): against
    the config file's directory they mean what the file's author saw.

    Parameters
    ----------
    config : dict
        A workflow config (as read from the file).
    base : path-like
        The config file's directory.

    Returns
    -------
    dict
        The same config with ``dataset_registries``, ``mirrors`` (local paths, not URLs) and
        ``datasets.<name>.files[].path`` absolute; everything else shared with ``config``.
    """
    base = Path(base).resolve()
    out = dict(config)
    for key in ("dataset_registries", "mirrors"):
        value = config.get(key)
        if isinstance(value, str):
            out[key] = _resolved(value, base)
        elif isinstance(value, list):
            out[key] = [_resolved(v, base) for v in value]
    inline = config.get("datasets")
    if isinstance(inline, dict):
        out["datasets"] = {}
        for name, entry in inline.items():
            if isinstance(entry, dict) and isinstance(entry.get("files"), list):
                entry = dict(entry)
                entry["files"] = [
                    {**f, "path": _resolved(f["path"], base)}
                    if isinstance(f, dict) and "path" in f
                    else f
                    for f in entry["files"]
                ]
            out["datasets"][name] = entry
    return out


def prepare_configfile(configfile, workdir) -> Path:
    """The config file to hand to Snakemake for ``configfile``, its paths resolved.

    Parameters
    ----------
    configfile : path-like
        The user's config file.
    workdir : path-like
        The results root; a resolved copy goes to ``<workdir>/.rlsbench/config/<same name>``
        (same name: the run name defaults to the file's stem).

    Returns
    -------
    Path
        ``configfile`` itself (absolute) when it names no relative path, else the copy.

    Raises
    ------
    ConfigError
        The file is missing or unreadable as YAML/JSON (naming file, line and column).
    """
    configfile = Path(configfile).resolve()
    config = read_config_file(configfile)
    resolved = resolve_config_paths(config, configfile.parent)
    if resolved == config:
        return configfile
    copy = Path(workdir).resolve() / RESOLVED_DIR / configfile.name
    copy.parent.mkdir(parents=True, exist_ok=True)
    header = f"# {configfile} with its relative paths resolved against its directory\n"
    copy.write_text(header + yaml.safe_dump(resolved, sort_keys=False))
    return copy


def snakemake_command(
    *, configfile=None, targets=(), cores=None, dry_run=False, extra=(), workdir="."
) -> list[str]:
    """The ``python -m snakemake`` command line ``rlsbench run`` executes.

    Parameters
    ----------
    configfile : path-like, optional
        The user's config; default: the embedded default config of the workflow.
    targets : sequence of str
        Rules or files to build (default: the workflow's default target).
    cores : str or int, optional
        ``--cores`` (default: the workflow profile's, all cores).
    dry_run : bool
        Add ``--dry-run``.
    extra : sequence of str
        More Snakemake options, passed as given, last.
    workdir : path-like
        The results root.

    Returns
    -------
    list of str
    """
    root = workflow_root()
    workdir = Path(workdir).resolve()
    if configfile is None:
        config = root / DEFAULT_CONFIG
    else:
        config = prepare_configfile(configfile, workdir)
    cmd = [sys.executable, "-m", "snakemake", "--snakefile", str(root / "Snakefile")]
    cmd += ["--directory", str(workdir)]
    if cores is not None:
        cmd += ["--cores", str(cores)]
    if dry_run:
        cmd.append("--dry-run")
    # targets before --configfile: that option takes every following word as a file
    cmd += [*targets, "--configfile", str(config), *extra]
    return cmd


#: The signals that stop a run, and the signal each is passed on to Snakemake as.
FORWARDED_SIGNALS = {
    signal.SIGINT: signal.SIGINT,
    signal.SIGTERM: signal.SIGTERM,
    signal.SIGHUP: signal.SIGTERM,
}

#: prctl(2) option: the signal a process receives when its parent ends (Linux).
_PR_SET_PDEATHSIG = 1


def _stop_with_parent(parent: int):
    """Preexec function: SIGTERM to the child once ``parent`` has ended (Linux only)."""

    def preexec():
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent ended before prctl took effect
            os.kill(os.getpid(), signal.SIGTERM)

    return preexec


def run_snakemake(cmd) -> int:
    """Run ``cmd`` in a process group of its own, passing stop signals on to that group.

    Parameters
    ----------
    cmd : list of str
        A Snakemake command line (:func:`snakemake_command`).

    Returns
    -------
    int
        The command's exit status; ``128 + N`` when signal N ended it (the shell's convention).

    Notes
    -----
    The signals of :data:`FORWARDED_SIGNALS` received while ``cmd`` runs are sent to its
    process group (the module's docstring says why), one received while it starts once it
    has. The previous handlers are restored on return. Outside the main thread, where Python
    cannot handle signals, ``cmd`` runs as a plain child.
    """
    if threading.current_thread() is not threading.main_thread():
        return _exit_status(subprocess.run(cmd).returncode)
    proc = None
    pending = []

    def forward(signum, frame):
        if proc is None:
            pending.append(signum)
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, FORWARDED_SIGNALS[signum])

    previous = {signum: signal.signal(signum, forward) for signum in FORWARDED_SIGNALS}
    try:
        proc = subprocess.Popen(
            cmd,
            start_new_session=True,
            preexec_fn=_stop_with_parent(os.getpid()) if sys.platform == "linux" else None,
        )
        for signum in pending:
            forward(signum, None)
        return _exit_status(proc.wait())
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _exit_status(returncode: int) -> int:
    return 128 - returncode if returncode < 0 else returncode


def run(**kwargs) -> int:
    """Run :func:`snakemake_command` (same parameters) with :func:`run_snakemake`.

    Returns
    -------
    int
        Snakemake's exit status (``128 + N`` when signal N ended it).
    """
    return run_snakemake(snakemake_command(**kwargs))
