"""The job of the workflow's views rules: the HTML view of every table a part writes and the
LaTeX file of every Markdown table.
"""

from __future__ import annotations

import logging
from pathlib import Path

from rlsbench.benchmark.atomic import atomic_write_text
from rlsbench.benchmark.outputs import latex_path, view_path, viewed_tables  # noqa: F401
from rlsbench.benchmark.views.html import frame_view, markdown_view
from rlsbench.benchmark.views.latex import markdown_latex
from rlsbench.benchmark.views.made import made_line
from rlsbench.lazy import lazy_module

# pandas on first use: Snakemake reads this module with the rule files before any job
pd = lazy_module("pandas")

log = logging.getLogger(__name__)


def _title(path: Path, part: str, text: str | None) -> str:
    """The first heading of a Markdown table, else ``<part>: <file stem>``."""
    for line in (text or "").splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip()
    return f"{part}: {path.stem}"


def views_job(tables, views, latex, *, part, run, configfiles, section, titles=None):
    """Write the HTML view of every table and the LaTeX file of every Markdown table.

    Parameters
    ----------
    tables : list of str
        The part's tables (``.md``, or ``.csv`` for data tables).
    views : list of str
        Their HTML views, in the same order.
    latex : list of str
        The LaTeX files of the Markdown tables, in their order.
    part, run : str
        The part's name and the run's name.
    configfiles : list of str
        The config file(s) of the run.
    section : dict
        The part's config section.
    titles : dict, optional
        Title of a table (by its path in ``tables``) whose file has no heading.
    """
    titles = titles or {}
    if len(tables) != len(views):
        raise ValueError(f"{len(tables)} tables but {len(views)} views")
    markdown = [t for t in tables if t.endswith(".md")]
    if len(markdown) != len(latex):
        raise ValueError(f"{len(markdown)} Markdown tables but {len(latex)} LaTeX files")
    for table, view in zip(tables, views):
        path = Path(table)
        made = made_line(part=part, run=run, configfiles=configfiles, section=section, source=table)
        if path.suffix == ".md":
            text = path.read_text()
            title = titles.get(table) or _title(path, part, text)
            atomic_write_text(view, markdown_view(text, title=title, made=made))
        else:
            frame = pd.read_csv(path, keep_default_na=True)
            title = titles.get(table) or _title(path, part, None)
            atomic_write_text(view, frame_view(frame, title=title, made=made))
        log.info("%s -> %s", table, view)
    for table, tex in zip(markdown, latex):
        name = f"{part}/{Path(table).stem}"
        text = Path(table).read_text()
        atomic_write_text(tex, markdown_latex(text, name=name, title=titles.get(table, "")))
        log.info("%s -> %s", table, tex)
