"""Helpers for ``workflow/rules/datasets.smk`` (kept here so the rule file holds only rules)."""

from __future__ import annotations

import re
import shlex
import sys

RAW = "results/datasets/raw/{dataset}"
MANIFEST = RAW + "/verified.json"
PREPARED = "results/datasets/prepared/{dataset}.npz"


def name_constraint(names) -> str:
    """Regex matching exactly the given dataset names (a ``wildcard_constraints`` value)."""
    return "|".join(re.escape(n) for n in names)


def mirrors(config) -> list:
    """The ``mirrors`` config key as a list (a single string is accepted)."""
    value = config.get("mirrors") or []
    return [value] if isinstance(value, str) else list(value)


def download_options(config) -> str:
    """Shell-quoted ``--mirror``/``--timeout``/``--retries``/``--backoff`` options from config.

    Read when the job runs rather than declared as ``params``, so that switching mirrors does not
    invalidate downloads whose content already verified.
    """
    args = []
    for mirror in mirrors(config):
        args += ["--mirror", str(mirror)]
    for key, value in (config.get("download") or {}).items():
        if key not in ("timeout", "retries", "backoff"):
            raise ValueError(f"config download.{key}: unknown key (timeout, retries, backoff)")
        args += [f"--{key}", str(value)]
    return " ".join(shlex.quote(a) for a in args)


def raw_input(registry, dataset) -> list:
    """Input of rule ``prepare``: the download manifest, or nothing for sklearn/synthetic sets."""
    return [MANIFEST.format(dataset=dataset)] if registry[dataset].needs_download else []


def cli(registry_path) -> str:
    """The ``rlsbench datasets`` command line, with this interpreter and registry."""
    return (
        f"{shlex.quote(sys.executable)} -m rlsbench.benchmark.cli -v datasets "
        f"--registry {shlex.quote(str(registry_path))}"
    )
