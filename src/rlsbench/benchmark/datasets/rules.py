"""Helpers for ``workflow/rules/datasets.smk`` (kept here so the rule file holds only rules).

The workflow reads the dataset registry through :func:`registry_from_config`: the built-in
registry (package data) plus the config's ``dataset_registries`` (user registry files, relative
to the working directory) and ``datasets`` (entries given inline). The jobs run in the working
directory too, so parse time and job time see the same registry.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path

RAW = "results/datasets/raw/{dataset}"
MANIFEST = RAW + "/verified.json"
PREPARED = "results/datasets/prepared/{dataset}.npz"

#: Keys of the config's ``download`` section (same meaning as the CLI options).
DOWNLOAD_KEYS = ("timeout", "retries", "backoff", "deadline")

_cache: dict = {}


def registry_from_config(config, workdir=None):
    """The registry a workflow config sees: built-in + ``dataset_registries`` + ``datasets``.

    Parameters
    ----------
    config : dict
        The workflow config.
    workdir : path-like, optional
        Directory relative registry files and inline ``path:`` entries resolve against
        (default: the current directory, which Snakemake sets to the working directory).

    Returns
    -------
    Registry
        Shared per process for equal inputs: do not modify it.

    Raises
    ------
    RegistryError
        A user registry is missing, invalid, or reuses a registered name without
        ``override: true``; the message names the file (or config key) and line.
    """
    from rlsbench.benchmark.datasets.registry import load_registry

    workdir = Path(workdir) if workdir is not None else Path.cwd()
    files = config.get("dataset_registries") or []
    if isinstance(files, str):
        files = [files]
    inline = config.get("datasets") or None
    key = (str(workdir.resolve()), json.dumps([files, inline], sort_keys=True, default=str))
    if key not in _cache:
        paths = [p if Path(p).expanduser().is_absolute() else workdir / p for p in files]
        _cache[key] = load_registry(extra=paths, inline=inline, inline_base=workdir)
    return _cache[key]


def registry_entries(config, workdir=None) -> dict:
    """``{name: entry dict}`` of :func:`registry_from_config` (for the config checks)."""
    return registry_from_config(config, workdir).as_dicts()


def name_constraint(names) -> str:
    """Regex matching exactly the given dataset names (a ``wildcard_constraints`` value)."""
    return "|".join(re.escape(n) for n in names)


def mirrors(config) -> list:
    """The ``mirrors`` config key as a list (a single string is accepted)."""
    value = config.get("mirrors") or []
    return [value] if isinstance(value, str) else list(value)


def download_settings(config) -> dict:
    """Keyword arguments of :func:`~rlsbench.benchmark.datasets.download` from the config.

    Read when the job runs rather than declared as ``params``, so that switching mirrors does not
    invalidate downloads whose content already verified. Keys the config leaves out keep the
    library's defaults (which ``RLSBENCH_DOWNLOAD_*`` environment variables set).
    """
    section = config.get("download") or {}
    unknown = sorted(set(section) - set(DOWNLOAD_KEYS))
    if unknown:
        raise ValueError(
            f"config key download.{unknown[0]}: unknown key (known: {', '.join(DOWNLOAD_KEYS)})"
        )
    return {"mirrors": mirrors(config), **{k: section[k] for k in DOWNLOAD_KEYS if k in section}}


def raw_input(registry, dataset) -> list:
    """Input of rule ``prepare``: the download manifest, or nothing for sklearn/synthetic sets."""
    return [MANIFEST.format(dataset=dataset)] if registry[dataset].needs_download else []


def _run_job(log_path, work, rule) -> int:
    """Run ``work()`` with the library's log going to ``log_path``; a dataset error becomes one
    line in the log and exit status 1 (Snakemake then names the log), never a traceback; so
    does any other failure (a full disk, a read-only folder), its traceback in
    ``<log>.traceback`` (:func:`rlsbench.benchmark.workflow.failure_line`)."""
    from rlsbench.benchmark.datasets.errors import DatasetError
    from rlsbench.benchmark.workflow import failure_line

    with open(log_path, "w") as log:
        handler = logging.StreamHandler(log)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger = logging.getLogger("rlsbench")
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        try:
            print(work(), file=log)
            return 0
        except DatasetError as exc:
            print(f"rlsbench: error: {exc}", file=log)
            print(f"rlsbench: error: {exc}", file=sys.stderr)
            return 1
        except Exception as exc:
            line = failure_line(rule, exc, log_path)
            print(line, file=log)
            print(line, file=sys.stderr)
            return 1
        finally:
            logger.removeHandler(handler)


def download_job(config, dataset, raw_dir, root, log_path) -> int:
    """The ``download`` rule: fetch and verify ``dataset``'s raw files into ``raw_dir``."""
    from rlsbench.benchmark.datasets.download import download

    def work():
        spec = registry_from_config(config).get_spec(dataset)
        return download(spec, raw_dir, root=root, **download_settings(config))

    return _run_job(log_path, work, "download")


def _exit_with(status: int) -> None:
    # the job bridge has already pointed the root logger at the log, which the job writes
    # itself (its one-line errors are the rule's report): leave the file to it
    if status:
        raise SystemExit(status)


def download_rule(wildcards, workflow_config, raw_dir, root, log_file) -> None:
    """The ``download`` rule's function (:mod:`rlsbench.benchmark.workflow`'s job bridge, so
    that it runs in a warm child of the job server): :func:`download_job`."""
    logging.getLogger().handlers.clear()
    _exit_with(download_job(workflow_config, wildcards.dataset, raw_dir, root, log_file))


def prepare_rule(wildcards, workflow_config, raw_dir, prepared, log_file) -> None:
    """The ``prepare`` rule's function (the job bridge): :func:`prepare_job`."""
    logging.getLogger().handlers.clear()
    _exit_with(prepare_job(workflow_config, wildcards.dataset, raw_dir, prepared, log_file))


def prepare_job(config, dataset, raw_dir, output, log_path) -> int:
    """The ``prepare`` rule: verified raw files of ``dataset`` -> ``output`` (.npz)."""
    from rlsbench.benchmark.datasets.prepare import prepare

    def work():
        spec = registry_from_config(config).get_spec(dataset)
        prepared = prepare(spec, raw_dir, output)
        counts = prepared.class_counts() or "-"
        return f"{prepared.name}: X {prepared.X.shape}, class counts {counts} -> {output}"

    return _run_job(log_path, work, "prepare")
