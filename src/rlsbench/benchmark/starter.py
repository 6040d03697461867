"""``rlsbench init``: a starter project from what the installed package ships.

A pip install has no clone, so the files the documentation works with (the embedded default
config, the SLURM profile of ``docs/cluster.rst``, the next-paper example of
``docs/getting_started.rst``) come from the workflow shipped with the package
(:func:`rlsbench.benchmark.runner.workflow_root`: the checkout's top directory, or the wheel's
``rlsbench/_workflow/`` copy made by setup.py) and are written into a project folder:

* ``config.yaml``: ``config/config.yaml``, the embedded default config;
* ``profiles/slurm/``: ``profiles/slurm/`` (``--profile profiles/slurm``);
* ``next_paper.yaml``, ``make_my_data.py``, ``my-ranker/``: ``docs/examples/next_paper/``.

Nothing is overwritten unless asked: every file is checked before the first is written, and
each is written atomically (:mod:`rlsbench.benchmark.atomic`).
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

from rlsbench.benchmark.atomic import atomic_path
from rlsbench.benchmark.runner import DEFAULT_CONFIG, workflow_root
from rlsbench.errors import RLSBenchError

#: What a starter project holds: (source under the workflow root, destination in the project).
#: A directory is copied file by file, below its destination.
STARTER = (
    (DEFAULT_CONFIG, "config.yaml"),
    ("profiles/slurm", "profiles/slurm"),
    ("docs/examples/next_paper", "."),
)

#: Build and cache files a checkout's example folder may hold (``pip install -e ./my-ranker``).
IGNORED = ("__pycache__", "*.pyc", "*.egg-info", "build", ".snakemake", "results")


class ProjectExistsError(FileExistsError, RLSBenchError):
    """A file of the starter project exists already (``--force`` overwrites)."""


def starter_files(root=None) -> dict[Path, Path]:
    """The files of a starter project.

    Parameters
    ----------
    root : path-like, optional
        The workflow root (default: :func:`~rlsbench.benchmark.runner.workflow_root`).

    Returns
    -------
    dict of Path to Path
        Each file's path relative to the project folder -> its source, in :data:`STARTER`
        order.

    Raises
    ------
    FileNotFoundError
        A source of :data:`STARTER` is missing (a wheel built without setup.py's build step).
    """
    root = Path(workflow_root() if root is None else root)
    ignored = shutil.ignore_patterns(*IGNORED)
    files: dict[Path, Path] = {}
    for source, destination in STARTER:
        source = root / source
        if source.is_file():
            files[Path(destination)] = source
            continue
        if not source.is_dir():
            raise FileNotFoundError(errno.ENOENT, "missing from this install", str(source))
        for folder, names, file_names in os.walk(source):  # Path.walk: Python >= 3.12
            skip = ignored(folder, names + file_names)
            names[:] = sorted(n for n in names if n not in skip)
            for name in sorted(n for n in file_names if n not in skip):
                path = Path(folder, name)
                files[Path(destination) / path.relative_to(source)] = path
    return files


def init_project(directory, *, force: bool = False, root=None) -> list[Path]:
    """Write a starter project into ``directory`` (created if missing).

    Parameters
    ----------
    directory : path-like
        The project folder.
    force : bool
        Overwrite files that exist.
    root : path-like, optional
        The workflow root to copy from (default: the installed package's).

    Returns
    -------
    list of Path
        The files written, in ``directory``.

    Raises
    ------
    ProjectExistsError
        ``force`` is false and a file of the project exists; nothing is written.
    """
    directory = Path(directory)
    files = {directory / path: source for path, source in starter_files(root).items()}
    existing = [path for path in files if path.exists() or path.is_symlink()]
    if existing and not force:
        more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
        raise ProjectExistsError(
            errno.EEXIST,
            f"exists{more}; nothing written (rlsbench init --force overwrites)",
            str(existing[0]),
        )
    for path, source in files.items():
        with atomic_path(path) as tmp:
            shutil.copyfile(source, tmp)
            shutil.copymode(source, tmp)
    return list(files)
