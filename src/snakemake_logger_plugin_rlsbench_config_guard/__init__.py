"""rlsbench's config guard, in the one place Snakemake runs code before it reads a config file.

Snakemake reads every ``--configfile`` before it parses the Snakefile, and renders a file whose
top level says ``__use_yte__: true`` through YTE templating, which evaluates the file's
``?expression`` keys and values as Python. The workflow's own check of the file
(:func:`rlsbench.benchmark.config.read_config_file`) runs in the Snakefile: too late for that.
Snakemake imports every installed module named ``snakemake_logger_plugin_*`` while it builds
its command-line options, before it reads any config file; importing this one wraps Snakemake's
config reader (:func:`rlsbench.benchmark.config.guard_snakemake_config_files`) when the command
line runs rlsbench's workflow, so that a refused file stops Snakemake with one line naming the
file and line, and its Python never runs. Other workflows' runs are left unchanged.

As a logger (``--logger rlsbench-config-guard``) it records nothing: the plugin interface asks
for a handler, and the guard is the module's whole purpose.
"""

from __future__ import annotations

import sys

from snakemake_interface_logger_plugins.base import LogHandlerBase

try:
    from rlsbench.benchmark.config import guard_snakemake_config_files

    guard_snakemake_config_files()
except Exception as exc:  # a broken rlsbench install must not break Snakemake for others
    print(f"rlsbench config guard not installed: {exc}", file=sys.stderr)


class LogHandler(LogHandlerBase):
    """A handler that records nothing (see the module's docstring)."""

    def emit(self, record) -> None:
        pass

    @property
    def writes_to_stream(self) -> bool:
        return False

    @property
    def writes_to_file(self) -> bool:
        return False

    @property
    def has_filter(self) -> bool:
        return False

    @property
    def has_formatter(self) -> bool:
        return False

    @property
    def needs_rulegraph(self) -> bool:
        return False
