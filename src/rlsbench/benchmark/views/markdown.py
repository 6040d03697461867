"""A Markdown file read once (markdown-it-py) into blocks: prose as HTML, pipe tables as
:class:`Table` of :class:`Cell` (plain text, HTML and LaTeX of every cell).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt

from rlsbench.benchmark.views.latex_text import latex_escape


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
