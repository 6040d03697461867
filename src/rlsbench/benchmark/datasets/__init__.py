"""Benchmark datasets: registry, verified download, preparation into one canonical file each.

The data path is the registry (``registry.yaml``, package data, plus the user's own registries;
:mod:`.registry`) -> :func:`fetch` (:mod:`.download`, :mod:`.integrity`, :mod:`.locking`) ->
:func:`prepare` (:mod:`.readers`, :mod:`.prepare`) -> ``results/datasets/prepared/<name>.npz`` ->
:func:`load_prepared`. The Snakemake rules ``download`` and ``prepare``
(``workflow/rules/datasets.smk``) and the ``rlsbench datasets`` CLI call the same functions.

Python users who do not run the workflow can call :func:`load`::

    from rlsbench.benchmark.datasets import load
    ds = load("australian", mirrors=["file:///path/to/shared/datasets"])
    ds.X.shape, ds.y  # (690, 14), ±1
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from rlsbench.benchmark.datasets.download import (
    DEFAULT_BACKOFF,
    DEFAULT_DEADLINE,
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    MANIFEST_NAME,
    candidate_urls,
    download,
    mirror_list,
    resolve_mirror,
)
from rlsbench.benchmark.datasets.errors import (
    DatasetError,
    DownloadError,
    FormatError,
    IntegrityError,
    RegistryError,
)
from rlsbench.benchmark.datasets.locking import dataset_lock
from rlsbench.benchmark.datasets.prepare import (
    Dataset,
    build,
    load_prepared,
    prepare,
    prepared_problem,
    save_prepared,
)
from rlsbench.benchmark.datasets.registry import (
    DatasetSpec,
    FileSpec,
    Registry,
    load_registry,
)

__all__ = [
    "Dataset",
    "DatasetSpec",
    "FileSpec",
    "Registry",
    "DatasetError",
    "DownloadError",
    "FormatError",
    "IntegrityError",
    "RegistryError",
    "load_registry",
    "fetch",
    "download",
    "prepare",
    "build",
    "load_prepared",
    "save_prepared",
    "load",
    "default_cache_dir",
    "candidate_urls",
    "mirror_list",
    "resolve_mirror",
    "MANIFEST_NAME",
]

log = logging.getLogger("rlsbench.benchmark.datasets")


def default_cache_dir() -> Path:
    """``$RLSBENCH_DATA`` if set, else ``$XDG_CACHE_HOME/rlsbench`` (``~/.cache/rlsbench``)."""
    if os.environ.get("RLSBENCH_DATA"):
        return Path(os.environ["RLSBENCH_DATA"])
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rlsbench"


def fetch(
    name,
    *,
    cache_dir=None,
    mirrors=(),
    registry=None,
    timeout=DEFAULT_TIMEOUT,
    retries=DEFAULT_RETRIES,
    backoff=DEFAULT_BACKOFF,
    deadline=DEFAULT_DEADLINE,
    force=False,
) -> Path:
    """Download (if needed) and prepare ``name`` into ``cache_dir``; return the ``.npz`` path.

    Layout mirrors the workflow's: ``<cache_dir>/raw/<name>/`` and
    ``<cache_dir>/prepared/<name>.npz``. Concurrent fetches of one dataset into one cache take
    turns (:func:`~rlsbench.benchmark.datasets.locking.dataset_lock`). A cached ``.npz`` is used
    only if it belongs to the registry entry (name, task, shape, raw content digests); otherwise
    it is made again, as are raw files that no longer verify.

    Parameters
    ----------
    name : str
        Registry name.
    cache_dir : path-like, optional
        Default :func:`default_cache_dir`.
    mirrors : str, path-like or sequence of them
        Mirror base URLs/paths tried before the upstream URLs (relative paths: against the
        current directory); one str or path is one mirror.
    registry : Registry or path-like, optional
        Default: the built-in registry.
    timeout, retries, backoff, deadline
        Network settings (see :func:`download`).
    force : bool
        Prepare again even if the ``.npz`` exists.
    """
    mirrors = mirror_list(mirrors)
    if not isinstance(registry, Registry):
        registry = load_registry(registry)
    spec = registry.get_spec(name)
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    output = cache_dir / "prepared" / f"{name}.npz"
    raw_dir = cache_dir / "raw" / name
    with dataset_lock(raw_dir, timeout=deadline, dataset=name):
        if output.exists() and not force:
            problem = prepared_problem(output, spec)
            if problem is None:
                return output
            log.warning("%s: cached %s is not usable (%s); making it again", name, output, problem)
        if spec.needs_download:
            download(
                spec,
                raw_dir,
                mirrors=mirrors,
                timeout=timeout,
                retries=retries,
                backoff=backoff,
                deadline=deadline,
            )
        prepare(spec, raw_dir, output)
    return output


def load(name, *, cache_dir=None, mirrors=(), registry=None, **kwargs) -> Dataset:
    """Fetch and prepare ``name`` (cached) and return the :class:`Dataset`.

    A cached file that cannot be read is made again once. See :func:`fetch` for the parameters.
    """
    path = fetch(name, cache_dir=cache_dir, mirrors=mirrors, registry=registry, **kwargs)
    try:
        return load_prepared(path)
    except IntegrityError as exc:
        log.warning("%s: %s; making it again", name, exc.reason)
        kwargs["force"] = True
        return load_prepared(
            fetch(name, cache_dir=cache_dir, mirrors=mirrors, registry=registry, **kwargs)
        )
