"""Booktabs LaTeX floats (``Styler.to_latex``) of a Markdown document's tables, laid out by
:func:`~rlsbench.benchmark.views.fit.fit_latex`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from rlsbench.benchmark.views._styler import _literal
from rlsbench.benchmark.views.fit import TABCOLSEP_PT, Layout, fit_latex
from rlsbench.benchmark.views.latex_text import latex_escape
from rlsbench.benchmark.views.markdown import Table, markdown_blocks
from rlsbench.lazy import lazy_module

# pandas on first use: Snakemake reads this module with the rule files before any job
pd = lazy_module("pandas")


def _column_format(layout: Layout, numeric: Sequence[bool]) -> str:
    spec = []
    for j, width in zip(layout.columns, layout.widths):
        if width is None:
            spec.append("r" if numeric[j] else "l")
        else:
            align = r"\raggedleft" if numeric[j] else r"\raggedright"
            spec.append(rf">{{{align}\arraybackslash}}p{{{math.floor(width)}pt}}")
    return "".join(spec)


def table_latex(
    table: Table, *, caption: str, label: str, keys: Sequence[int] | None = None
) -> str:
    """``table`` as booktabs LaTeX floats (``Styler.to_latex``), laid out by :func:`fit_latex`.

    Parameters
    ----------
    table : Table
    caption : str
        LaTeX caption text (already escaped); a split table adds "(part i of n)".
    label : str
        ``\\label`` of the first float; the others add ``-2``, ``-3``...
    keys : sequence of int, optional
        The columns that name a row, repeated in every part of a table split by columns
        (default: :func:`~rlsbench.benchmark.views.fit.key_columns`).

    Returns
    -------
    str
    """
    numeric = table.numeric()
    layouts = fit_latex(table, keys=keys)
    out = []
    for k, layout in enumerate(layouts, start=1):
        frame = pd.DataFrame(
            [[table.rows[i][j].latex for j in layout.columns] for i in layout.rows],
            columns=range(len(layout.columns)),
        )
        if frame.empty:  # a table without rows still shows its header
            frame = pd.DataFrame(columns=range(len(layout.columns)))
        from pandas.io.formats.style import Styler

        styler = Styler(frame, uuid="rlsbench")
        styler.hide(axis="index")
        styler.relabel_index(
            [_literal(table.header[j].latex) for j in layout.columns], axis="columns"
        )
        styler.set_table_styles(
            [
                {"selector": layout.size, "props": ":;"},
                {"selector": "setlength", "props": r":{\tabcolsep}{" + f"{TABCOLSEP_PT:g}pt}};"},
            ],
            overwrite=False,
        )
        part = f" (part {k} of {len(layouts)})" if len(layouts) > 1 else ""
        out.append(
            styler.to_latex(
                column_format=_column_format(layout, numeric),
                position="htbp",
                position_float="centering",
                hrules=True,
                environment=layout.environment,
                caption=caption + part,
                label=label if k == 1 else f"{label}-{k}",
            )
        )
    return "\n".join(out)


def _label(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9:-]+", "-", text).strip("-").lower()


def markdown_latex(text: str, *, name: str, title: str = "") -> str:
    """Every table of a Markdown document as LaTeX floats (:func:`table_latex`).

    Parameters
    ----------
    text : str
        The Markdown document.
    name : str
        Its name (``<part>/<file>``), for the labels ``tab:<name>-<i>``.
    title : str
        Caption of a table under no heading (default: ``name``).
    """
    tables = [b for b in markdown_blocks(text) if isinstance(b, Table)]
    header = (
        f"% {name}: {len(tables)} table(s), booktabs floats for a two-column article\n"
        "% (\\usepackage{booktabs,array}); written by rlsbench.benchmark.views\n"
    )
    body = [
        table_latex(
            t,
            caption=latex_escape(t.title or title or name),
            label=f"tab:{_label(name)}" + (f"-{i}" if len(tables) > 1 else ""),
        )
        for i, t in enumerate(tables, start=1)
    ]
    return header + "\n".join(body)
