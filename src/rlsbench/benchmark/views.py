"""Result tables for people: an HTML view of every published table for the report, and a
booktabs LaTeX file of it that fits a two-column paper, both derived from the table the part
writes, for every part the same way.

A part writes its tables for people as Markdown (``*.md``: headings, notes and pipe tables,
with the paper's numbers beside ours where a table has them) and its data as CSV. This module
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
  columns cannot fit even so is split into several floats by columns (each repeats the first
  column), and one taller than a page into several floats by rows (each repeats the header).

A CSV table (the parts' data files that the report shows, such as the fidelity ledger) gets an
HTML view only: its numbers formatted per column, the columns that are the same in every row
(provenance) listed once above it.

Widths are estimated from the characters of each cell with the glyph widths of Computer Modern
at the chosen size, rounded up, so an estimate that fits is a table that fits (the test suite
compiles every table with ``pdflatex`` and checks the log for overfull boxes).
"""

from __future__ import annotations

import html
import logging
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import yaml
from markdown_it import MarkdownIt
from pandas.io.formats.style import Styler

from rlsbench.benchmark._io import atomic_write_text

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------------------
# Markdown -> blocks
# ---------------------------------------------------------------------------------------------


@dataclass
class Cell:
    """One table cell as plain text (widths, sorting), HTML and LaTeX."""

    text: str
    html: str
    latex: str
    bold: bool = False


@dataclass
class Table:
    """A pipe table of a Markdown file, with the heading it sits under."""

    title: str
    header: list[Cell]
    rows: list[list[Cell]]
    align: list[str] = field(default_factory=list)  # "left" / "right" / "center" / ""

    def numeric(self) -> list[bool]:
        """Per column: right-aligned in the file, or mostly cells that start with a number."""
        flags = []
        for j in range(len(self.header)):
            if j < len(self.align) and self.align[j] == "right":
                flags.append(True)
                continue
            values = [r[j].text for r in self.rows if r[j].text.strip() not in MISSING]
            flags.append(bool(values) and sum(map(_starts_numeric, values)) >= 0.8 * len(values))
        return flags


#: Cell texts that mean "no value".
MISSING = {"", "–", "—", "-", "nan", "NaN", "None"}

_NUMBER = re.compile(r"^[<>~≈]?\s*\(?[-+−]?(\d[\d,]*\.?\d*|\.\d+)([eE][-+]?\d+)?")


def _starts_numeric(text: str) -> bool:
    return bool(_NUMBER.match(text.strip().lstrip("*")))


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _inline(token) -> Cell:
    """An inline token (a cell or a heading) as text, HTML and LaTeX."""
    text, latex, bold = [], [], False
    for child in token.children or []:
        kind = child.type
        if kind == "text":
            text.append(child.content)
            latex.append(latex_escape(child.content))
        elif kind == "code_inline":
            text.append(child.content)
            latex.append(r"\texttt{" + latex_escape(child.content) + "}")
        elif kind in ("softbreak", "hardbreak"):
            text.append(" ")
            latex.append(" ")
        elif kind == "strong_open":
            bold = True
            latex.append(r"\textbf{")
        elif kind == "em_open":
            latex.append(r"\emph{")
        elif kind in ("strong_close", "em_close"):
            latex.append("}")
    rendered = _markdown().renderer.renderInline(token.children or [], {}, {})
    return Cell("".join(text).strip(), rendered.strip(), "".join(latex).strip(), bold)


def markdown_blocks(text: str) -> list[str | Table]:
    """The blocks of a Markdown document: HTML strings for prose, :class:`Table` for tables.

    Parameters
    ----------
    text : str
        GitHub-flavoured Markdown (pipe tables).

    Returns
    -------
    list of str or Table
        In document order; a table's title is the text of the last heading before it.
    """
    md = _markdown()
    tokens = md.parse(text)
    blocks: list[str | Table] = []
    prose: list = []
    title = ""
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open":
            title = _inline(tokens[i + 1]).text
        if tok.type != "table_open":
            prose.append(tok)
            i += 1
            continue
        if prose:
            blocks.append(md.renderer.render(prose, md.options, {}))
            prose = []
        header, rows, align, row, in_head = [], [], [], [], False
        while tokens[i].type != "table_close":
            tok = tokens[i]
            if tok.type == "thead_open":
                in_head = True
            elif tok.type == "thead_close":
                in_head = False
            elif tok.type in ("th_open", "td_open"):
                style = str(tok.attrs.get("style", ""))
                cell = _inline(tokens[i + 1])
                if in_head:
                    header.append(cell)
                    align.append(style.removeprefix("text-align:"))
                else:
                    row.append(cell)
            elif tok.type == "tr_close" and not in_head:
                rows.append(row + [Cell("", "", "")] * (len(header) - len(row)))
                row = []
            i += 1
        blocks.append(Table(title, header, rows, align))
        i += 1
    if prose:
        blocks.append(md.renderer.render(prose, md.options, {}))
    return blocks


# ---------------------------------------------------------------------------------------------
# LaTeX text
# ---------------------------------------------------------------------------------------------
_LATEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_\allowbreak{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "/": r"/\allowbreak{}",
}
#: Characters beyond ASCII in the parts' tables, in a form plain pdflatex typesets.
_LATEX_UNICODE = {
    "±": r"$\pm$",
    "×": r"$\times$",
    "−": r"$-$",
    "–": "--",
    "—": "---",
    "≤": r"$\le$",
    "≥": r"$\ge$",
    "≈": r"$\approx$",
    "≠": r"$\ne$",
    "→": r"$\to$",
    "…": r"\ldots{}",
    "·": r"$\cdot$",
    "°": r"$^\circ$",
    "²": r"$^2$",
    "³": r"$^3$",
    "ᵀ": r"$^{\mathrm{T}}$",
    "√": r"$\surd$",
    "∞": r"$\infty$",
    "‖": r"$\|$",
    "’": "'",
    "‘": "`",
    "“": "``",
    "”": "''",
    "\u00a0": "~",
    "α": r"$\alpha$",
    "β": r"$\beta$",
    "γ": r"$\gamma$",
    "δ": r"$\delta$",
    "Δ": r"$\Delta$",
    "ε": r"$\varepsilon$",
    "η": r"$\eta$",
    "θ": r"$\theta$",
    "κ": r"$\kappa$",
    "λ": r"$\lambda$",
    "μ": r"$\mu$",
    "π": r"$\pi$",
    "ρ": r"$\rho$",
    "σ": r"$\sigma$",
    "Σ": r"$\Sigma$",
    "τ": r"$\tau$",
    "ω": r"$\omega$",
}


def latex_escape(text: str) -> str:
    """Plain text as LaTeX text for pdflatex: special characters escaped, the symbols and
    Greek letters of the tables as math, line breaks allowed after ``_`` and ``/``; a letter
    with a combining macron (R̄) as ``$\\bar{R}$``."""
    out = []
    # "0.91 ± 0.02" stays on one line in a wrapped column
    chars = unicodedata.normalize("NFC", re.sub(r" ?± ?", "\u00a0±\u00a0", text))
    for k, ch in enumerate(chars):
        if ch == "\u0304":
            continue  # drawn with the letter before it
        if k + 1 < len(chars) and chars[k + 1] == "\u0304":
            out.append(r"$\bar{" + ch + "}$")
        elif ch in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[ch])
        elif ch in _LATEX_UNICODE:
            out.append(_LATEX_UNICODE[ch])
        elif ord(ch) < 128 or unicodedata.category(ch).startswith("L") and ord(ch) < 0x250:
            out.append(ch)  # ASCII and Latin letters (pdflatex's utf8 input handles these)
        else:
            out.append(f"[U+{ord(ch):04X}]")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Fitting a table to a two-column page
# ---------------------------------------------------------------------------------------------
#: ``\documentclass[twocolumn]{article}`` (10 pt, letter paper): column and text width, text
#: height, in TeX points.
COLUMN_PT = 229.5
TEXT_PT = 469.0
TEXT_HEIGHT_PT = 550.0
#: ``\tabcolsep`` inside our floats (LaTeX's default is 6 pt).
TABCOLSEP_PT = 4.0
#: Font size commands: (command, size in pt, baseline skip in pt).
SIZES = {"small": (9.0, 11.0), "footnotesize": (8.0, 9.5), "scriptsize": (7.0, 8.0)}
#: Columns at most this many em wide keep their width when wider ones wrap.
NO_WRAP_EM = 5.0
# Room a float needs besides its rows: caption (two lines), rules, separation.
_FLOAT_EXTRA_PT = 80.0


def _glyph_em(ch: str) -> float:
    # Computer Modern widths in em, rounded up: digits 0.5, lower case ~0.52, upper case
    # ~0.76, space 0.33; math symbols and dashes ~0.8.
    if ch == " ":
        return 0.34
    if ch.isdigit() or ch in ".,:;()[]'!|-+/*=_%":
        return 0.55
    if ch.isascii() and ch.islower():
        return 0.56
    if ch.isascii() and ch.isupper():
        return 0.78
    return 0.85


def text_width(text: str, size_pt: float, *, bold: bool = False) -> float:
    """Estimated width in pt of ``text`` typeset at ``size_pt`` (an upper bound in practice)."""
    width = sum(_glyph_em(ch) for ch in text) * size_pt
    return width * (1.15 if bold else 1.0) * 1.04


def _words(text: str) -> list[str]:
    # where a wrapped (p) column may break a line: spaces, and after "_" and "/"
    return [
        w for w in re.split(r"(?<=[_/])|[ \t\n]+", re.sub(r" ?± ?", "\u00a0±\u00a0", text)) if w
    ]


@dataclass
class _Column:
    natural: float  # width of the widest cell on one line
    minimum: float  # width of the widest word
    numeric: bool


def _columns(header: Sequence[Cell], rows: Sequence[Sequence[Cell]], size_pt, numeric):
    columns = []
    for j, head in enumerate(header):
        cells = [head] + [r[j] for r in rows]
        natural = max(text_width(c.text, size_pt, bold=c.bold) for c in cells)
        minimum = max(
            (text_width(w, size_pt, bold=c.bold) for c in cells for w in _words(c.text)),
            default=0.0,
        )
        # a narrow column (a row label such as "t_fixed") is not worth a line break
        minimum = max(minimum, min(natural, NO_WRAP_EM * size_pt))
        columns.append(_Column(natural, minimum, numeric[j]))
    return columns


def _wrapped_widths(columns: Sequence[_Column], available: float) -> list[float] | None:
    """Widths that fit ``available`` pt: columns no wider than a cap keep their natural width,
    wider ones wrap at the cap (never below their widest word); None if even the widest words
    do not fit."""
    if sum(c.minimum for c in columns) > available:
        return None
    natural = [c.natural for c in columns]
    if sum(natural) <= available:
        return natural
    lo, hi = 0.0, max(natural)
    for _ in range(60):  # bisection on the cap
        cap = (lo + hi) / 2
        total = sum(min(c.natural, max(cap, c.minimum)) for c in columns)
        lo, hi = (cap, hi) if total <= available else (lo, cap)
    return [min(c.natural, max(lo, c.minimum)) for c in columns]


def _available(n_columns: int, width: float = TEXT_PT) -> float:
    # room for the columns' text: the width less the column separations, less 1 % so that
    # the widths rounded for LaTeX stay inside
    return 0.99 * (width - n_columns * 2 * TABCOLSEP_PT)


@dataclass
class Layout:
    """How one table is typeset: float environment, font size, column widths (None = natural
    width), which columns it holds (a split table) and which rows."""

    environment: str
    size: str
    widths: list[float | None]
    columns: list[int]
    rows: list[int]


def _row_lines(row: Sequence[Cell], columns: Sequence[int], widths, size_pt) -> int:
    lines = 1
    for j, width in zip(columns, widths):
        if width is not None:
            cell = row[j]
            # greedy line breaking leaves the ends of lines empty: 20 % more lines than text
            need = 1.2 * text_width(cell.text, size_pt, bold=cell.bold) / width
            lines = max(lines, math.ceil(need))
    return lines


def _split_rows(table: Table, columns, widths, size) -> list[list[int]]:
    size_pt, skip = SIZES[size]
    budget = TEXT_HEIGHT_PT - _FLOAT_EXTRA_PT
    head = _row_lines(table.header, columns, widths, size_pt) * skip
    chunks, current, used = [], [], head
    for i, row in enumerate(table.rows):
        height = _row_lines(row, columns, widths, size_pt) * skip
        if current and used + height > budget:
            chunks.append(current)
            current, used = [], head
        current.append(i)
        used += height
    return chunks + [current] if current or not chunks else chunks


def fit_latex(table: Table) -> list[Layout]:
    """The floats that typeset ``table`` within a two-column page (see the module text).

    Returns
    -------
    list of Layout
        One per float; several when the table is split by columns or by rows.
    """
    n = len(table.header)
    numeric = table.numeric()
    every = list(range(n))
    seps = n * 2 * TABCOLSEP_PT
    for environment, width, sizes in (
        ("table", COLUMN_PT, ("small", "footnotesize")),
        ("table*", TEXT_PT, ("small", "footnotesize", "scriptsize")),
    ):
        for size in sizes:
            cols = _columns(table.header, table.rows, SIZES[size][0], numeric)
            if sum(c.natural for c in cols) + seps <= width:
                widths = [None] * n
                return [
                    Layout(environment, size, widths, every, rows)
                    for rows in _split_rows(table, every, widths, size)
                ]
    for size in ("footnotesize", "scriptsize"):
        cols = _columns(table.header, table.rows, SIZES[size][0], numeric)
        if _wrapped_widths(cols, _available(n)) is not None:
            groups = [every]
            break
    else:
        size = "footnotesize"
        cols = _columns(table.header, table.rows, SIZES[size][0], numeric)
        groups = _column_groups(cols, TEXT_PT)
    layouts = []
    for group in groups:
        sub = [cols[j] for j in group]
        fitted = _wrapped_widths(sub, _available(len(group)))
        assert fitted is not None  # _column_groups only makes groups that fit
        widths = [w if w < c.natural else None for w, c in zip(fitted, sub)]
        layouts += [
            Layout("table*", size, widths, group, rows)
            for rows in _split_rows(table, group, widths, size)
        ]
    return layouts


def _column_groups(cols: Sequence[_Column], width: float) -> list[list[int]]:
    """Columns in groups that each fit ``width`` when wrapped, every group led by column 0."""
    groups, current = [], [0]

    def fits(group):
        return _wrapped_widths([cols[j] for j in group], _available(len(group), width))

    for j in range(1, len(cols)):
        if fits(current + [j]) is not None:
            current.append(j)
        else:
            if len(current) > 1:
                groups.append(current)
            current = [0, j]
    groups.append(current)
    for group in groups:
        if fits(group) is None:
            raise ValueError(
                "a column is too wide for a two-column page even wrapped at its words: "
                + ", ".join(str(j) for j in group)
            )
    return groups


def _column_format(layout: Layout, numeric: Sequence[bool]) -> str:
    spec = []
    for j, width in zip(layout.columns, layout.widths):
        if width is None:
            spec.append("r" if numeric[j] else "l")
        else:
            align = r"\raggedleft" if numeric[j] else r"\raggedright"
            spec.append(rf">{{{align}\arraybackslash}}p{{{math.floor(width)}pt}}")
    return "".join(spec)


def table_latex(table: Table, *, caption: str, label: str) -> str:
    """``table`` as booktabs LaTeX floats (``Styler.to_latex``), laid out by :func:`fit_latex`.

    Parameters
    ----------
    table : Table
    caption : str
        LaTeX caption text (already escaped); a split table adds "(part i of n)".
    label : str
        ``\\label`` of the first float; the others add ``-2``, ``-3``...

    Returns
    -------
    str
    """
    numeric = table.numeric()
    layouts = fit_latex(table)
    out = []
    for k, layout in enumerate(layouts, start=1):
        frame = pd.DataFrame(
            [[table.rows[i][j].latex for j in layout.columns] for i in layout.rows],
            columns=range(len(layout.columns)),
        )
        if frame.empty:  # a table without rows still shows its header
            frame = pd.DataFrame(columns=range(len(layout.columns)))
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


def _literal(label: str) -> str:
    # Styler.relabel_index reads a label as a str.format template
    return label.replace("{", "{{").replace("}", "}}")


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


# ---------------------------------------------------------------------------------------------
# HTML views
# ---------------------------------------------------------------------------------------------
#: Rows above which a table view gets a filter box.
FILTER_ROWS = 20

_CSS = """
.rlsbench-view { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #1f2933; max-width: 100%; }
.rlsbench-view h1 { font-size: 1.35em; margin: .2em 0 .4em; }
.rlsbench-view h2 { font-size: 1.15em; margin: 1.2em 0 .4em; }
.rlsbench-view h3 { font-size: 1.05em; margin: 1em 0 .3em; }
.rlsbench-view p { margin: .4em 0; max-width: 60em; }
.rlsbench-view code { font-size: .92em; background: #f1f3f5; padding: 0 .2em; border-radius: 3px; }
.rlsbench-view .made { color: #52606d; font-size: .92em; }
.rlsbench-view details { margin: .5em 0; }
.rlsbench-view summary { cursor: pointer; color: #364fc7; }
.rlsbench-view pre { background: #f8f9fa; padding: .6em; font-size: .85em; overflow: auto; }
.rlsbench-view .table-wrap { overflow-x: auto; margin: .5em 0 1em; }
.rlsbench-view table { border-collapse: collapse; font-size: .9em; width: max-content; }
.rlsbench-view th, .rlsbench-view td { padding: .25em .6em; border-bottom: 1px solid #e4e7eb;
  vertical-align: top; text-align: left; max-width: 36em; }
.rlsbench-view thead th { position: sticky; top: 0; background: #e8edf3;
  border-bottom: 2px solid #9aa5b1; white-space: nowrap; }
.rlsbench-view table.sortable thead th { cursor: pointer; }
.rlsbench-view table.sortable thead th::after { content: " \\2195"; color: #9aa5b1; }
.rlsbench-view table.sortable thead th[aria-sort="ascending"]::after { content: " \\25B2"; }
.rlsbench-view table.sortable thead th[aria-sort="descending"]::after { content: " \\25BC"; }
.rlsbench-view tbody tr:nth-child(even) { background: #f8f9fb; }
.rlsbench-view td.num, .rlsbench-view th.num { text-align: right;
  font-variant-numeric: tabular-nums; white-space: nowrap; }
.rlsbench-view input.filter { margin: .3em 0; padding: .2em .4em; width: 20em; }
.rlsbench-view dl.constant { display: grid; grid-template-columns: max-content auto;
  gap: 0 1em; font-size: .88em; color: #52606d; }
.rlsbench-view dl.constant dt { font-weight: 600; }
.rlsbench-view dl.constant dd { margin: 0; }
"""

# Sorting: a click on a header cell sorts the body by that column (numbers by their leading
# number, so "0.91 ± 0.02" and "3.1 s (×12)" sort as numbers; text otherwise), a second
# click reverses; the filter box hides rows that do not contain its text.
_JS = """
(function () {
  function key(cell) {
    var t = cell.textContent.trim().replace(/^[*>~≈<]+\\s*/, "").replace("−", "-");
    var m = t.match(/^[-+]?(\\d[\\d,]*\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?/);
    return m ? parseFloat(m[0].replace(/,/g, "")) : t.toLowerCase();
  }
  function sortBy(table, col, th) {
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    var asc = th.getAttribute("aria-sort") !== "ascending";
    rows.sort(function (a, b) {
      var x = key(a.cells[col]), y = key(b.cells[col]);
      var c = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0)
                                      : (typeof x === "number" ? -1 : 1);
      return asc ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) {
      h.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.addEventListener("click", function () { sortBy(table, col, th); });
    });
  });
  document.querySelectorAll("input.filter").forEach(function (box) {
    var table = document.getElementById(box.dataset.table);
    box.addEventListener("input", function () {
      var q = box.value.toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
        r.style.display = r.textContent.toLowerCase().indexOf(q) >= 0 ? "" : "none";
      });
    });
  });
})();
"""


def _styled_html(frame: pd.DataFrame, header: Sequence[str], numeric: Sequence[bool], ident):
    """A frame of HTML cells as a sortable ``<table>`` (pandas Styler), with a filter box
    when it is long."""
    columns = range(frame.shape[1])
    frame = frame.set_axis(columns, axis=1)
    styler = Styler(frame, uuid=ident, cell_ids=False)
    styler.hide(axis="index")
    styler.relabel_index([_literal(h) for h in header], axis="columns")
    classes = pd.DataFrame(
        [["num" if numeric[j] else "" for j in columns]] * len(frame), index=frame.index
    )
    styler.set_td_classes(classes.set_axis(columns, axis=1))
    styler.set_table_styles(
        [{"selector": f"th.col{j}", "props": "text-align: right;"} for j in columns if numeric[j]]
    )
    styler.set_table_attributes(f'id="{ident}" class="sortable"')
    table = styler.to_html()
    box = (
        f'<input class="filter" data-table="{ident}" placeholder="filter rows" '
        f'aria-label="filter rows">'
        if len(frame) > FILTER_ROWS
        else ""
    )
    return f'{box}<div class="table-wrap">{table}</div>'


def page(title: str, body: str, *, made: str = "") -> str:
    """A standalone HTML page (one file, no external resources) holding ``body``."""
    made_html = f'<p class="made">{made}</p>' if made else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f'<main class="rlsbench-view">\n<h1>{html.escape(title)}</h1>\n{made_html}\n{body}\n'
        f"</main>\n<script>{_JS}</script>\n</body>\n</html>\n"
    )


def markdown_view(text: str, *, title: str, made: str = "") -> str:
    """A Markdown document as one HTML page: its prose as HTML, its tables sortable.

    Parameters
    ----------
    text : str
        The Markdown document.
    title : str
        Page title; a first-level heading of the document equal to it is not repeated.
    made : str
        HTML line saying how the table was made (:func:`made_line`).
    """
    parts, repeated = [], True
    for i, block in enumerate(markdown_blocks(text)):
        if isinstance(block, Table):
            frame = pd.DataFrame([[c.html for c in row] for row in block.rows])
            if frame.empty:
                frame = pd.DataFrame(columns=range(len(block.header)))
            parts.append(
                _styled_html(frame, [c.html for c in block.header], block.numeric(), f"t{i}")
            )
        else:
            # the page's title is the document's first heading: not shown twice
            heading = re.match(r"\s*<h1>(.*?)</h1>\s*", block, re.S)
            if repeated and heading and html.unescape(heading.group(1)).strip() == title:
                block = block[heading.end() :]
            repeated = False
            parts.append(block)
    return page(title, "\n".join(parts), made=made)


def _format_column(series: pd.Series):
    """Per-column number format: integers as integers, other numbers to 4 significant
    digits; missing values as a dash."""
    if pd.api.types.is_bool_dtype(series):
        return lambda v: "–" if pd.isna(v) else str(v)
    if pd.api.types.is_numeric_dtype(series):
        values = series.dropna()
        integral = values.empty or bool(
            (values == values.round()).all() and values.abs().max() < 1e15
        )
        return lambda v: "–" if pd.isna(v) else (f"{v:,.0f}" if integral else f"{v:.4g}")
    return lambda v: "–" if pd.isna(v) or v == "" else html.escape(str(v))


def frame_view(frame: pd.DataFrame, *, title: str, made: str = "", note: str = "") -> str:
    """A data table (CSV) as one HTML page: numbers formatted per column, sortable, the
    columns with one value in every row listed once above it.

    Parameters
    ----------
    frame : pandas.DataFrame
    title : str
    made : str
        HTML line saying how the table was made.
    note : str
        HTML shown above the table.
    """
    constant = [c for c in frame if len(frame) > 1 and frame[c].nunique(dropna=False) == 1]
    shown = frame.drop(columns=constant)
    cells = pd.DataFrame({c: shown[c].map(_format_column(shown[c])) for c in shown})
    numeric = [pd.api.types.is_numeric_dtype(shown[c]) for c in shown]
    table = _styled_html(cells, [html.escape(str(c)) for c in shown], numeric, "t0")
    same = ""
    if constant:
        items = "".join(
            f"<dt>{html.escape(str(c))}</dt><dd>{html.escape(str(frame[c].iloc[0]))}</dd>"
            for c in constant
        )
        same = (
            f"<details><summary>{len(constant)} column(s) with the same value in every row"
            f'</summary><dl class="constant">{items}</dl></details>'
        )
    count = f"<p>{len(frame)} rows × {len(frame.columns)} columns.</p>"
    return page(title, note + count + same + table, made=made)


# ---------------------------------------------------------------------------------------------
# How a table was made
# ---------------------------------------------------------------------------------------------
#: Config keys that say how a part's numbers were drawn: folds, splits, repeats and seeds.
_PROTOCOL_KEYS = re.compile(r"seed|fold|split|repeat", re.I)


def protocol_settings(section: Mapping, prefix: str = "") -> list[tuple[str, object]]:
    """``(dotted key, value)`` of every setting of a config section whose name mentions
    seeds, folds, splits or repeats, at any depth, in the section's order."""
    found = []
    items = section.items() if isinstance(section, Mapping) else enumerate(section)
    for key, value in items:
        name = f"{prefix}.{key}" if isinstance(key, str) else f"{prefix}[{key}]"
        if isinstance(value, Mapping) or (
            isinstance(value, list) and value and isinstance(value[0], (Mapping, list))
        ):
            found += protocol_settings(value, name)
        elif isinstance(key, str) and _PROTOCOL_KEYS.search(key):
            found.append((name.lstrip("."), value))
    return found


def made_line(*, part: str, run: str, configfiles: Sequence[str], section: Mapping, source: str):
    """One HTML line: the run, its config file(s), the part's folds, splits, repeats and
    seeds, and the file the view shows; the whole config section follows, folded."""
    settings = "; ".join(
        f"<code>{k}</code> = {html.escape(str(v))}" for k, v in protocol_settings(section, part)
    )
    config = ", ".join(f"<code>{html.escape(str(c))}</code>" for c in configfiles) or "–"
    text = (
        f"Run <code>{html.escape(run)}</code>, config {config}, part <code>{part}</code>. "
        + (f"Folds, splits, repeats and seeds: {settings}. " if settings else "")
        + f"Source: <code>{html.escape(source)}</code>."
    )
    if section:
        dump = yaml.safe_dump({part: dict(section)}, sort_keys=False, allow_unicode=True)
        text += (
            f"<details><summary>the part's config section</summary><pre>{html.escape(dump)}"
            "</pre></details>"
        )
    return text


# ---------------------------------------------------------------------------------------------
# The job of the workflow's views rules
# ---------------------------------------------------------------------------------------------
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
