"""Provenance columns stamped on every result row (benchopt style).

Every tidy result table carries the versions of the numeric stack, the git commit of the
code, a hash of the configuration that produced it, the host and the seed, so that a row can
always be traced back to what made it. Nothing here depends on the time of day: the same
config, code and seed give the same provenance, which keeps result tables reproducible.
"""

from __future__ import annotations

import hashlib
import json
import platform
import subprocess
from functools import lru_cache
from importlib import metadata
from pathlib import Path

#: Distributions whose versions are recorded, as ``<name>_version`` columns.
PACKAGES = ("rlsbench", "numpy", "scipy", "scikit-learn", "pandas", "numba", "snakemake")


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


@lru_cache(maxsize=1)
def _versions() -> dict:
    out = {"python_version": platform.python_version()}
    for name in PACKAGES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "not-installed"
        out[f"{name.replace('-', '_')}_version"] = version
    return out


@lru_cache(maxsize=1)
def git_commit() -> str:
    """Commit of the repository holding this package, ``+dirty`` if the tree has edits.

    Returns ``"unknown"`` outside a git checkout (e.g. an installed wheel).
    """
    root = Path(__file__).resolve().parents[3]

    def git(*args):
        return subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=20
        )

    try:
        head = git("rev-parse", "HEAD")
        if head.returncode != 0:
            return "unknown"
        dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head.stdout.strip() + ("+dirty" if dirty else "")


def provenance(config, seed) -> dict:
    """Provenance columns for one result row.

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
        "seed"}``, all plain str/int values.
    """
    return {
        **_versions(),
        "git_commit": git_commit(),
        "config_hash": config_hash(config),
        "host": platform.node(),
        "seed": None if seed is None else int(seed),
    }
