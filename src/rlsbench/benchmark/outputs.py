"""The names of the files derived from a result file: a figure's vector and one-column
files, a table's HTML view and LaTeX file.

Light on purpose (standard library only): the workflow's rule files call these while Snakemake
reads them, before any job runs, and a plotting or table library imported there would delay
every run's start (:mod:`rlsbench.benchmark.figures` and :mod:`rlsbench.benchmark.views`
re-export them).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

#: Text widths of a two-column paper (IEEE/ACM/Elsevier two-column layouts), inches.
ONE_COLUMN_IN = 3.5
TWO_COLUMN_IN = 7.16

#: The files :func:`rlsbench.benchmark.figures.save_figure` writes, as suffixes of the
#: figure's name, with their width.
FIGURE_SUFFIXES = {
    ".png": TWO_COLUMN_IN,
    ".pdf": TWO_COLUMN_IN,
    ".svg": TWO_COLUMN_IN,
    "_1col.pdf": ONE_COLUMN_IN,
    "_1col.svg": ONE_COLUMN_IN,
}


def figure_files(png) -> list[str]:
    """The files :func:`rlsbench.benchmark.figures.save_figure` writes for the figure whose
    PNG is ``png`` (str or Path ending in ``.png``), PNG first."""
    png = str(png)
    if not png.endswith(".png"):
        raise ValueError(f"a figure is named by its PNG file (*.png), got {png!r}")
    stem = png[: -len(".png")]
    return [stem + suffix for suffix in FIGURE_SUFFIXES]


def view_path(table: str) -> str:
    """The HTML view of a table file (``x.md`` or ``x.csv`` -> ``x.html``)."""
    return str(Path(table).with_suffix(".html"))


def latex_path(table: str) -> str:
    """The LaTeX file of a Markdown table (``x.md`` -> ``x.tex``)."""
    return str(Path(table).with_suffix(".tex"))


def viewed_tables(paths: Iterable[str], csv_views: Iterable[str] = ()) -> list[str]:
    """The tables of a part that get views: every Markdown file among ``paths``, and the CSV
    files named in ``csv_views`` (data tables the report shows), in ``paths``' order."""
    csv_views = set(csv_views)
    return [p for p in dict.fromkeys(paths) if p.endswith(".md") or p in csv_views]
