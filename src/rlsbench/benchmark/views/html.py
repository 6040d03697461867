"""Standalone HTML pages (one file, inline CSS and JavaScript, no external resources): a
Markdown document with sortable tables (:func:`markdown_view`) and a CSV data table
(:func:`frame_view`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from rlsbench.benchmark.views._styler import _literal
from rlsbench.benchmark.views.markdown import Table, markdown_blocks
from rlsbench.lazy import lazy_module

# pandas on first use: Snakemake reads this module with the rule files before any job
pd = lazy_module("pandas")

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
    from pandas.io.formats.style import Styler

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
