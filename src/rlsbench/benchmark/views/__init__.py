"""Result tables for people: an HTML view of every published table for the report, and a
booktabs LaTeX file of it that fits a two-column paper, both derived from the table the part
writes, for every part the same way.

A part writes its tables for people as Markdown (``*.md``: headings, notes and pipe tables,
with the paper's numbers beside ours where a table has them) and its data as CSV. This package
reads a Markdown file once (markdown-it-py) into blocks, prose and tables, and writes

* ``<stem>.html``: the whole file as one HTML page (pandas ``Styler``), every table sortable
  by a click on its header, long ones with a filter box, numbers right-aligned; headed by how
  the table was made (run, config file, the part's folds, splits, repeats and seeds, and the
  part's whole config section);
* ``<stem>.tex``: every table of the file as a booktabs float (``Styler.to_latex``; packages
  ``booktabs`` and ``array``) laid out by :func:`fit_latex` for ``\\documentclass[twocolumn]
  {article}``: one column (``table``) when it fits 229.5 pt at ``\\small`` or
  ``\\footnotesize``; otherwise the full text width (``table*``, 469 pt) at ``\\small``,
  ``\\footnotesize`` or ``\\scriptsize``; otherwise, at ``\\footnotesize``, the widest text
  columns wrap (ragged-right ``p`` columns, breaks at spaces, ``_`` and ``/``); a table whose
  columns cannot fit even so is split into several floats by columns (each repeats the columns
  that name a row, ``key_columns``: dataset and method in the main summary), and one taller
  than a page into several floats by rows (each repeats the header).

A CSV table (the parts' data files that the report shows, such as the fidelity ledger) gets an
HTML view only: its numbers formatted per column, the columns that are the same in every row
(provenance) listed once above it.

Widths are estimated from the characters of each cell with the glyph widths of Computer Modern
at the chosen size, rounded up, so an estimate that fits is a table that fits (the test suite
compiles every table with ``pdflatex`` and checks the log for overfull boxes).

The package holds one module per step: :mod:`~rlsbench.benchmark.views.markdown` (Markdown to
blocks), :mod:`~rlsbench.benchmark.views.latex_text` (plain text as LaTeX),
:mod:`~rlsbench.benchmark.views.fit` (widths and floats on a two-column page),
:mod:`~rlsbench.benchmark.views.latex` (the booktabs floats),
:mod:`~rlsbench.benchmark.views.html` (the HTML pages), :mod:`~rlsbench.benchmark.views.made`
(how a table was made) and :mod:`~rlsbench.benchmark.views.job` (the workflow's views rules);
their public names are importable from here.
"""

from rlsbench.benchmark.views.fit import (
    COLUMN_PT,
    NO_WRAP_EM,
    SIZES,
    TABCOLSEP_PT,
    TEXT_HEIGHT_PT,
    TEXT_PT,
    Layout,
    fit_latex,
    text_width,
)
from rlsbench.benchmark.views.html import FILTER_ROWS, frame_view, markdown_view, page
from rlsbench.benchmark.views.job import latex_path, view_path, viewed_tables, views_job
from rlsbench.benchmark.views.latex import markdown_latex, table_latex
from rlsbench.benchmark.views.latex_text import latex_escape
from rlsbench.benchmark.views.made import made_line, protocol_settings
from rlsbench.benchmark.views.markdown import MISSING, Cell, Table, markdown_blocks

__all__ = [
    "COLUMN_PT",
    "FILTER_ROWS",
    "MISSING",
    "NO_WRAP_EM",
    "SIZES",
    "TABCOLSEP_PT",
    "TEXT_HEIGHT_PT",
    "TEXT_PT",
    "Cell",
    "Layout",
    "Table",
    "fit_latex",
    "frame_view",
    "latex_escape",
    "latex_path",
    "made_line",
    "markdown_blocks",
    "markdown_latex",
    "markdown_view",
    "page",
    "protocol_settings",
    "table_latex",
    "text_width",
    "view_path",
    "viewed_tables",
    "views_job",
]
