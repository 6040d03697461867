"""Writing result tables, one way for every part: CSV for machines, Markdown for people
(``DataFrame.to_markdown``; the HTML view and the LaTeX file of every Markdown table come
from :mod:`rlsbench.benchmark.views`), provenance columns on every row, and the copy of a run
into ``results/paper/``.

Every writer is atomic (:mod:`rlsbench.benchmark._io`): a table appears under its name only
once complete.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterable, Mapping

import pandas as pd

from rlsbench.benchmark._io import atomic_path, atomic_write_text

log = logging.getLogger(__name__)


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


def publish(sources: Iterable, targets: Iterable) -> list[str]:
    """Copy a run's tables and figures to their committed location (``results/paper/``),
    atomically per file.

    Returns
    -------
    list of str
        ``"source -> target"`` for each file copied.
    """
    done = []
    for src, dst in zip(sources, targets, strict=True):
        with atomic_path(dst) as tmp:
            shutil.copyfile(src, tmp)
        done.append(f"{src} -> {dst}")
        log.info("%s", done[-1])
    return done
