"""Fitting a table to a two-column page: the glyph widths of Computer Modern, the width of a
cell's text, and the floats (environment, font size, wrapped columns, split by columns or
rows) that hold a table (:func:`fit_latex`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from rlsbench.benchmark.views.markdown import Cell, Table

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


def key_columns(table: Table) -> list[int]:
    """The columns that name a row: the shortest run of leading non-numeric columns whose
    values tell every row apart (column 0 alone if none does: text columns that are no key,
    such as a claim and its verdict, are not worth repeating).

    A summary whose rows are (dataset, method) pairs has the key [0, 1]: a part of it split by
    columns that repeated the dataset alone could not be matched to a method.

    Parameters
    ----------
    table : Table

    Returns
    -------
    list of int
        Column indices 0..j.
    """
    numeric = table.numeric()
    leading = 1
    while leading < len(numeric) and not numeric[leading]:
        leading += 1
    for width in range(1, leading + 1):
        names = [tuple(row[j].text for j in range(width)) for row in table.rows]
        if len(set(names)) == len(names):
            return list(range(width))
    return [0]


def fit_latex(table: Table, *, keys: Sequence[int] | None = None) -> list[Layout]:
    """The floats that typeset ``table`` within a two-column page (see
    :mod:`rlsbench.benchmark.views`).

    Parameters
    ----------
    table : Table
    keys : sequence of int, optional
        The columns that name a row, repeated first in every part of a table split by columns
        (default :func:`key_columns`, or column 0 alone where that key leaves no room for
        another column).

    Returns
    -------
    list of Layout
        One per float; several when the table is split by columns or by rows.

    Raises
    ------
    ValueError
        ``keys`` names a column the table lacks, or the key columns and one more cannot fit
        the text width.
    """
    n = len(table.header)
    default_keys = keys is None
    keys = key_columns(table) if default_keys else list(keys)
    if not keys or any(not 0 <= j < n for j in keys) or len(set(keys)) != len(keys):
        raise ValueError(f"keys {keys} are not distinct columns of a table of {n} columns")
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
        try:
            groups = _column_groups(cols, TEXT_PT, keys)
        except ValueError:
            if not default_keys or keys == [0]:
                raise
            # a key as wide as the page (a ledger row named by paper, item, claim and scope)
            # leaves no room beside it: the first column names the row, as best it can
            groups = _column_groups(cols, TEXT_PT, [0])
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


def _column_groups(cols: Sequence[_Column], width: float, keys: Sequence[int]) -> list[list[int]]:
    """Columns in groups that each fit ``width`` when wrapped, every group led by the key
    columns (the row's name)."""
    keys = list(keys)
    groups, current = [], list(keys)

    def fits(group):
        return _wrapped_widths([cols[j] for j in group], _available(len(group), width))

    for j in (j for j in range(len(cols)) if j not in keys):
        if fits(current + [j]) is not None:
            current.append(j)
        else:
            if len(current) > len(keys):
                groups.append(current)
            current = keys + [j]
    groups.append(current)
    for group in groups:
        if fits(group) is None:
            raise ValueError(
                "a column is too wide for a two-column page even wrapped at its words: "
                + ", ".join(str(j) for j in group)
            )
    return groups


def fitting_size(table: Table, width: float) -> str | None:
    """The largest font size (of :data:`SIZES`) at which ``table`` fits ``width`` pt without
    wrapping a cell, or None if it does not fit even at ``\\scriptsize``.

    Parameters
    ----------
    table : Table
    width : float
        The float's width in pt (:data:`COLUMN_PT` or :data:`TEXT_PT`).
    """
    n = len(table.header)
    numeric = table.numeric()
    for size, (size_pt, _) in SIZES.items():
        cols = _columns(table.header, table.rows, size_pt, numeric)
        if sum(c.natural for c in cols) + n * 2 * TABCOLSEP_PT <= width:
            return size
    return None
