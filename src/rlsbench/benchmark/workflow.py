"""The bridge between a Snakemake rule and the library or study function it runs.

Every rule that runs Python names its function and runs the one generic script
``workflow/scripts/call.py`` (``CALL`` in a rule file, its absolute path)::

    rule my_paper_table:
        output:
            table=f"{MY_PAPER_DIR}/{{dataset}}/{{method}}.csv",
        log: ...
        params:
            function="my_paper.jobs.table_job",
            dataset="{dataset}",
            ...
        script:
            CALL

:func:`run_rule` calls ``function`` with keyword arguments: the rule's named inputs, named
outputs and params (lists of files as lists of str), plus ``threads`` (and
``bench_iteration``, the repeat of ``benchmark: repeat(...)``) when the function takes them.
The function never sees Snakemake, so it runs and is tested without it. It logs with
:mod:`logging`, which goes to the rule's log.

No traceback reaches the user (the default profile prints a failed job's log): a failure ends
the job with one line on stderr and in the log, ``rule <name>: <what is wrong>``, and exit
status 1. An error of :data:`KNOWN_ERRORS` (a bad config, a bad input file, a failed check, a
value the library refuses, the file system refusing a write) is that line alone; anything
else is an internal error, and the line says where its traceback was written
(``<log>.traceback``).
"""

from __future__ import annotations

import importlib
import inspect
import logging
import sys
import traceback
from collections.abc import Callable

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.datasets.errors import DatasetError
from rlsbench.benchmark.provenance import DirtyTreeError
from rlsbench.errors import RLSBenchError

log = logging.getLogger(__name__)


class JobError(RLSBenchError):
    """A job that cannot produce its outputs for a reason it can state in one line."""


#: Errors that say what is wrong with the job's input or environment: their message is the
#: whole report (:class:`OSError`: a missing or unreadable file, a read-only folder, a full
#: disk; :class:`ValueError`: a value the library refuses, naming the parameter).
KNOWN_ERRORS = (JobError, ConfigError, DatasetError, DirtyTreeError, OSError, ValueError)

#: Params of a rule that are the bridge's, not the function's: the function's name, and
#: whether the job needs an interpreter of its own (:mod:`rlsbench.benchmark.jobserver`).
BRIDGE_PARAMS = ("function", "own_process")

#: Attributes of the Snakemake job passed to a function that has a parameter of that name
#: (``workflow_config``: the run's whole config; ``log_file``: the rule's first log file).
JOB_ATTRIBUTES = ("threads", "bench_iteration", "wildcards", "workflow_config", "log_file")


def _job_attribute(smk, name: str):
    if name == "bench_iteration":
        return int(getattr(smk, name, None) or 0)
    if name == "workflow_config":
        return smk.config
    if name == "log_file":
        return str(smk.log[0])
    return getattr(smk, name, None)


def resolve(name: str) -> Callable:
    """The function ``package.module.function``."""
    module, _, attribute = name.rpartition(".")
    if not module:
        raise ValueError(f"params.function must be 'package.module.function', got {name!r}")
    return getattr(importlib.import_module(module), attribute)


def _files(value):
    # Snakemake's Namedlist of files -> list of str; a single file stays a str
    return [str(v) for v in value] if isinstance(value, list) else str(value)


def rule_arguments(smk, function: Callable) -> dict:
    """Keyword arguments of ``function`` for a Snakemake job ``smk`` (see the module text).

    Raises
    ------
    TypeError
        Two of input, output and params share a name, or ``function`` lacks one of them.
    """
    kwargs: dict = {}
    for kind in ("input", "output", "params"):
        for name, value in getattr(smk, kind).items():
            if kind == "params" and name in BRIDGE_PARAMS:
                continue
            if name in kwargs:
                raise TypeError(f"rule {smk.rule}: {kind} {name!r} repeats a name given before")
            kwargs[name] = value if kind == "params" else _files(value)
    accepted = inspect.signature(function).parameters
    for name in JOB_ATTRIBUTES:
        if name in accepted:
            kwargs[name] = _job_attribute(smk, name)
    missing = [n for n in kwargs if n not in accepted]
    if missing and not any(p.kind is p.VAR_KEYWORD for p in accepted.values()):
        raise TypeError(
            f"rule {smk.rule}: {function.__module__}.{function.__name__} takes no "
            f"argument(s) {missing} (named input, output or params of the rule)"
        )
    return kwargs


def _log_to(path: str, append: bool) -> None:
    handler = logging.FileHandler(path, mode="a" if append else "w")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    logging.captureWarnings(True)


def failure_line(rule: str, exc: BaseException, log_path=None) -> str:
    """The one line that reports a failed job; the traceback goes to ``<log_path>.traceback``.

    Parameters
    ----------
    rule : str
    exc : BaseException
    log_path : str, optional
        The job's log. An internal error (not in :data:`KNOWN_ERRORS`) names the traceback
        file, written beside it.

    Returns
    -------
    str
        ``rule <rule>: <message>`` on one line (a multi-line message is joined with "; ").
    """
    message = ""
    for line in (line.strip() for line in str(exc).splitlines()):
        if line:
            message += ("" if not message else " " if message.endswith(":") else "; ") + line
    if not isinstance(exc, (JobError, ConfigError, DatasetError)):
        message = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    line = f"rule {rule}: {message}"
    if log_path:
        trace = f"{log_path}.traceback"
        try:
            with open(trace, "w") as fh:
                traceback.print_exception(exc, file=fh)
        except OSError:
            trace = None
        if not isinstance(exc, KNOWN_ERRORS):
            line += (
                f" (internal error, please report it with its traceback: {trace})"
                if trace
                else " (internal error, please report it)"
            )
    return line


def run_rule(smk) -> None:
    """Run the function a Snakemake job names (``params.function``), logging to its log.

    Parameters
    ----------
    smk : snakemake.script.Snakemake
        The ``snakemake`` object of a ``script:`` job.

    Raises
    ------
    SystemExit
        Status 1 after any failure of the function, reported in one line
        (:func:`failure_line`) on stderr and in the log.
    """
    function = resolve(smk.params.function)
    kwargs = rule_arguments(smk, function)
    log_path = str(smk.log[0])
    # repeats of `benchmark: repeat(...)` run the script again: keep the earlier ones' lines
    _log_to(log_path, append=int(getattr(smk, "bench_iteration", 0) or 0) > 0)
    log.info("rule %s: %s(%s)", smk.rule, smk.params.function, ", ".join(kwargs))
    try:
        function(**kwargs)
    except Exception as exc:
        line = failure_line(smk.rule, exc, log_path)
        log.error("%s", line)
        print(line, file=sys.stderr)
        raise SystemExit(1) from None
