"""Writing result tables, one way for every part: CSV for machines, Markdown for people
(``DataFrame.to_markdown``; the HTML view and the LaTeX file of every Markdown table come
from :mod:`rlsbench.benchmark.views`), provenance columns on every row, and the copy of a run
into ``results/paper/``.

Every writer is atomic (:mod:`rlsbench.benchmark.atomic`): a table appears under its name only
once complete.

A result is a function of its config and seed: two runs of one config must give identical
tables once the columns of :data:`RUN_DEPENDENT_COLUMNS` (what this run measured about itself,
and where and with what it ran) are dropped (:func:`deterministic_part`).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from collections.abc import Iterable, Mapping

import pandas as pd

from rlsbench.benchmark.atomic import atomic_path, atomic_write_text

log = logging.getLogger(__name__)


def _provenance_columns() -> frozenset:
    from rlsbench.benchmark.provenance import PACKAGES

    versions = {f"{name.replace('-', '_')}_version" for name in PACKAGES}
    return frozenset(
        versions
        | {"python_version", "git_commit", "host", "cpu_model", "n_cores", "blas", "blas_threads"}
    )


#: Provenance columns (:func:`rlsbench.benchmark.provenance.provenance`) that describe the
#: machine and the checkout rather than the computation (the seed and the config hash do not
#: vary between two runs of one config and are not listed).
PROVENANCE_COLUMNS = _provenance_columns()


def __getattr__(name: str):
    """``MEASUREMENT_COLUMNS`` and ``RUN_DEPENDENT_COLUMNS``, read from the installed parts
    when first asked for (never at import time: the parts are plugins).

    ``MEASUREMENT_COLUMNS``: columns holding a measurement of the run itself (times, memory)
    or a number computed only from such measurements (speed-ups, fitted time exponents): they
    differ between two runs of one config, and nothing else in a result table may. Each part
    lists its own (``Part.measurement_columns``, :mod:`rlsbench.benchmark.parts`), so that a
    comparison of two runs is not a guess by name. ``RUN_DEPENDENT_COLUMNS``: what two runs of
    one config and seed may differ in, those and :data:`PROVENANCE_COLUMNS`.
    """
    if name == "MEASUREMENT_COLUMNS":
        from rlsbench.benchmark.parts import measurement_columns

        return measurement_columns()
    if name == "RUN_DEPENDENT_COLUMNS":
        return __getattr__("MEASUREMENT_COLUMNS") | PROVENANCE_COLUMNS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def deterministic_part(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` without its :data:`RUN_DEPENDENT_COLUMNS`: what the config and seed fix."""
    dependent = __getattr__("RUN_DEPENDENT_COLUMNS")
    return frame.drop(columns=[c for c in frame.columns if c in dependent])


def write_csv(frame: pd.DataFrame, path, **to_csv) -> None:
    """Write ``frame`` as CSV without its index (``to_csv`` options pass through)."""
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False, **to_csv)


def read_csvs(paths: Iterable) -> pd.DataFrame:
    """Concatenate the CSV tables at ``paths`` in the order given (a new 0..n-1 index)."""
    return pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)


def with_provenance(frame: pd.DataFrame, info: Mapping) -> pd.DataFrame:
    """``frame`` with one constant column per provenance entry, appended in ``info``'s order
    (:func:`rlsbench.benchmark.provenance.provenance`)."""
    frame = frame.copy()
    for key, value in info.items():
        frame[key] = value
    return frame


def markdown_table(frame: pd.DataFrame, *, floatfmt: str | None = None, missing="–") -> str:
    """A GitHub-flavoured (pipe) Markdown table of ``frame``, ending in a newline.

    Parameters
    ----------
    frame : pandas.DataFrame
    floatfmt : str or None
        Format of the numbers (e.g. ``".3g"``); None: the cells are shown as they are
        (``str``), so already formatted text such as ``"0.10"`` is kept.
    missing : str
        Shown for NaN / None.
    """
    shown = frame.astype(object).where(frame.notna(), None)
    if floatfmt is None:
        text = shown.to_markdown(index=False, disable_numparse=True, missingval=missing)
    else:
        text = shown.to_markdown(index=False, floatfmt=floatfmt, missingval=missing)
    return text + "\n"


def write_markdown(path, text: str) -> None:
    """Write Markdown (or any text) atomically."""
    atomic_write_text(path, text)


#: Set to 1 to publish from a checkout with uncommitted changes (the workflow's own tests,
#: which run in copies that are no checkout); the record then says ``+dirty``.
ALLOW_DIRTY_VARIABLE = "RLSBENCH_ALLOW_DIRTY_PUBLISH"


def _commits_of(sources) -> set[str]:
    """The ``git_commit`` values of the CSV tables among ``sources``, and of the JSON records
    among them that carry one at their top (the scaling part's ``tables/provenance.json``:
    its points are JSON records without the column, and its publication named no commit)."""
    commits = set()
    for src in map(str, sources):
        if src.endswith(".csv"):
            head = pd.read_csv(src, nrows=0).columns
            if "git_commit" in head:
                commits.update(pd.read_csv(src, usecols=["git_commit"])["git_commit"].dropna())
        elif src.endswith(".json"):
            with open(src, encoding="utf-8") as handle:
                record = json.load(handle)
            if isinstance(record, dict) and isinstance(record.get("git_commit"), str):
                commits.add(record["git_commit"])
    return {str(c) for c in commits}


def _gzip_file(src, dst) -> None:
    """``dst`` = ``src`` gzip-compressed, with no file name or time in the header: the same
    file gives the same bytes (a republished table shows no change in git)."""
    import gzip

    with open(src, "rb") as raw, open(dst, "wb") as out:
        with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as packed:
            shutil.copyfileobj(raw, packed)


def publish(
    sources: Iterable,
    targets: Iterable,
    *,
    config=None,
    provenance_json=None,
    rows=(),
    stale: Iterable = (),
) -> list[str]:
    """Copy a run's tables and figures to their committed location (``results/paper/``),
    atomically per file, with a record of how they were made.

    Parameters
    ----------
    sources, targets : iterable of path-like
        The run's files and their committed copies, pairwise; a target ``x.gz`` of a source
        ``x`` is written gzip-compressed (``main.publish_gzip``).
    config : dict, optional
        The run's configuration, stored in the record.
    provenance_json : path-like, optional
        Where the record goes (:func:`rlsbench.benchmark.provenance.provenance_record`: the
        commit published from, CPU, BLAS and thread pools, Python and package versions, the
        config), with the commits the tables' rows were made from.
    rows : iterable of path-like
        Tables of the run that are not published but whose ``git_commit`` column says what
        the published ones were made from (e.g. the main part's per-step table).
    stale : iterable of path-like
        Files of an earlier publication that this one leaves out (``main.publish_exclude``,
        the uncompressed copies of ``main.publish_gzip``'s files), removed where present once
        every target is written.

    Raises
    ------
    rlsbench.benchmark.provenance.DirtyTreeError
        The checkout has uncommitted changes, or a table's rows were made from one
        (``+dirty``), unless ``$RLSBENCH_ALLOW_DIRTY_PUBLISH`` is 1.

    Returns
    -------
    list of str
        ``"source -> target"`` for each file copied.
    """
    from rlsbench.benchmark.provenance import DirtyTreeError, provenance_record

    sources, targets = list(sources), list(targets)
    if provenance_json is not None:
        allow_dirty = os.environ.get(ALLOW_DIRTY_VARIABLE) == "1"
        record = provenance_record(config or {}, require_clean=not allow_dirty)
        rows = [rows] if isinstance(rows, str | os.PathLike) else list(rows)
        made_from = sorted(_commits_of([*sources, *rows]))
        dirty = [c for c in made_from if c.endswith("+dirty")]
        if dirty and not allow_dirty:
            raise DirtyTreeError(
                f"refusing to publish tables made from a checkout with uncommitted changes "
                f"(git_commit {dirty[0]}); rerun from a clean checkout, then publish"
            )
        record["tables_made_from_commits"] = made_from
        record["files"] = [str(t) for t in targets]
        text = json.dumps(record, indent=1, sort_keys=True, default=str) + "\n"
        atomic_write_text(provenance_json, text)
    done = []
    for src, dst in zip(sources, targets, strict=True):
        with atomic_path(dst) as tmp:
            if str(dst).endswith(".gz") and not str(src).endswith(".gz"):
                _gzip_file(src, tmp)
            else:
                shutil.copyfile(src, tmp)
        done.append(f"{src} -> {dst}")
        log.info("%s", done[-1])
    for path in stale:
        if os.path.isfile(path):
            os.remove(path)
            log.info("removed %s (no longer published)", path)
    return done
