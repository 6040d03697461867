"""Figures for papers, one way for every part: a seaborn theme, one colour and marker per
method across all figures, and one save function writing raster and vector files in the two
widths of a two-column paper.

Every figure of every part is drawn on :func:`subplots` (the theme, at two-column width) and
written by :func:`save_figure`, which writes the files of :func:`figure_files`:

========================  ==========================================================
``<name>.png``            two-column width (7.16 in), 150 dpi: the report and the docs
``<name>.pdf``            two-column width, vector (``figure*`` in a two-column paper)
``<name>.svg``            two-column width, vector
``<name>_1col.pdf``       one-column width (3.5 in), vector (``figure`` in one column)
``<name>_1col.svg``       one-column width, vector
========================  ==========================================================

The one-column files are the same figure re-laid out at 3.5 in: fonts keep their size in
points, the panels are stacked in one column and their legends merged into one below them.
All files are written atomically and carry no date, so the same data give the same files.
Panels that share their methods, or a legend too long for a corner, get one legend below the
panels (:func:`legend_below`) instead of a legend inside each panel that hides data.

A method has the same colour, marker and line style in every figure (:data:`METHOD_STYLES`
for the method plugins, ``Part.styles`` for the names a part's tables show besides, joined by
:func:`method_styles`; :func:`method_style`), and any two methods of the table
differ in at least two of the three, so a figure survives greyscale and colour-blind readers; a
method no part knows, such as a plugin's, gets a style derived from its name (the same in every
run).

A method is shown by its label (the ``tags["label"]`` its plugin declares,
:mod:`rlsbench.benchmark.labels`) wherever a figure shows its name: :func:`save_figure` and
:func:`legend_below` replace a legend entry or a tick label that is a method's name by its
label, so a plugin's "short name for legends" reaches every figure of every part.

Tick labels stay legible at both widths: before each width is written, :func:`save_figure`
turns the category labels of an axis that would overlap (45°, then 90°) and, where even
upright ones do not fit, makes them smaller (:func:`fit_tick_labels`). A panel with many
categories on its y axis is drawn taller in the one-column layout.
"""

from __future__ import annotations

import functools
import math
import zlib
from collections.abc import Iterable

import matplotlib
import numpy as np

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import seaborn as sns  # noqa: E402
from matplotlib import category as mcategory  # noqa: E402
from matplotlib import ticker  # noqa: E402

from rlsbench.benchmark.atomic import atomic_path  # noqa: E402
from rlsbench.benchmark.outputs import (  # noqa: E402, F401  (re-exported)
    FIGURE_SUFFIXES,
    ONE_COLUMN_IN,
    TWO_COLUMN_IN,
    figure_files,
)

#: Resolution of the PNG (two-column width: 1074 pixels).
PNG_DPI = 150

# seaborn's colour-blind-safe palette (10 colours); black for references such as "all
# features". A (colour, marker) pair is never shared by two methods.
_PALETTE = sns.color_palette("colorblind", 10).as_hex()
_BLUE, _ORANGE, _GREEN, _RED, _PURPLE, _BROWN, _PINK, _GREY, _OLIVE, _CYAN = _PALETTE
_BLACK = "#000000"

# Line styles, the third channel beside colour and marker: what tells two curves apart in
# greyscale. Nine, told apart by the length and rhythm of their dashes (matplotlib's
# (offset, (on, off, ...)) in points of line width).
_SOLID = "-"
_DASHED = (0, (4.0, 1.5))
_DOTTED = (0, (1.0, 1.2))
_DASHDOT = (0, (4.0, 1.5, 1.0, 1.5))
_DASHDOTDOT = (0, (4.0, 1.2, 1.0, 1.2, 1.0, 1.2))
_LONGDASH = (0, (8.0, 2.0))
_DENSEDASHDOT = (0, (2.5, 1.0, 1.0, 1.0))
_DENSEDASH = (0, (2.0, 1.0))
_LOOSEDASHDOTDOT = (0, (6.0, 2.5, 1.0, 2.5, 1.0, 2.5))
LINESTYLES = (
    _SOLID,
    _DASHED,
    _DOTTED,
    _DASHDOT,
    _DASHDOTDOT,
    _LONGDASH,
    _DENSEDASHDOT,
    _DENSEDASH,
    _LOOSEDASHDOTDOT,
)

#: Colour, marker and line style of every method plugin rlsbench ships. The names a part's
#: tables show besides (a study's own implementations and variants, results it quotes) bring
#: their styles in the part (``Part.styles``); :func:`method_styles` joins the two. The rule,
#: over every pair of distinct methods of the joined table (so over any set drawn together,
#: up to all of them in one figure): at least two of (colour, marker, line style) differ, so in
#: greyscale (colour lost) marker or line style still tells them apart, and two methods that
#: share a colour differ in both marker and line style. The line styles were assigned by a
#: greedy colouring (DSatur) of the graph "shares a colour or a marker", the main part's five
#: methods fixed first to the five plainest styles; a new entry takes a line style none of the
#: entries sharing its colour or marker has (tests/benchmark/test_figures.py checks the rule).
METHOD_STYLES: dict[str, dict[str, object]] = {
    # greedy RLS and its baselines
    "greedy_rls": {"color": _BLUE, "marker": "o", "linestyle": _SOLID},
    "lowrank_lssvm": {"color": _ORANGE, "marker": "s", "linestyle": _DASHED},
    "wrapper_loo": {"color": _GREEN, "marker": "^", "linestyle": _DOTTED},
    "wrapper_blackbox": {"color": _RED, "marker": "v", "linestyle": _DASHDOT},
    "random": {"color": _GREY, "marker": "X", "linestyle": _DASHDOTDOT},
    # λ search with forward/backward selection
    "ffs": {"color": _PINK, "marker": ">", "linestyle": _DOTTED},
    "bfs": {"color": _OLIVE, "marker": "<", "linestyle": _DASHDOT},
    # the plugins behind the RR and OP columns (one plugin, several columns: a style of its own)
    "ridge_kfold": {"color": _GREY, "marker": "h", "linestyle": _DENSEDASH},
    "op_elm": {"color": _RED, "marker": "*", "linestyle": _LONGDASH},
    # kernel alignment and class-separability rankers and their baselines
    "fisher_score": {"color": _BLUE, "marker": "d", "linestyle": _DASHED},
    "arom": {"color": _ORANGE, "marker": "d", "linestyle": _DASHDOTDOT},
    "r2w2": {"color": _GREEN, "marker": "d", "linestyle": _DASHDOT},
    "svm_rfe": {"color": _RED, "marker": "d", "linestyle": _DENSEDASHDOT},
    "sfs": {"color": _PURPLE, "marker": "s", "linestyle": _SOLID},
    "sas": {"color": _BROWN, "marker": "o", "linestyle": _DASHDOT},
    "scss": {"color": _PINK, "marker": "^", "linestyle": _DASHDOT},
    "kfds": {"color": _CYAN, "marker": "v", "linestyle": _DASHED},
    # marginal-likelihood forward regression
    "marglik_forward": {"color": _BLUE, "marker": "p", "linestyle": _DASHDOTDOT},
    # the baselines reviewers ask for: one marker shape, the palette's colours
    "abess_best_subset": {"color": _BLUE, "marker": "8", "linestyle": _DOTTED},
    "stability_selection": {"color": _ORANGE, "marker": "8", "linestyle": _DASHDOT},
    "mrmr": {"color": _GREEN, "marker": "8", "linestyle": _DASHED},
    "rfe_linear": {"color": _RED, "marker": "8", "linestyle": _SOLID},
    "lasso_path": {"color": _PURPLE, "marker": "8", "linestyle": _DENSEDASH},
    "enet_path": {"color": _BROWN, "marker": "8", "linestyle": _DASHDOTDOT},
    "omp": {"color": _PINK, "marker": "8", "linestyle": _LONGDASH},
    "f_test": {"color": _OLIVE, "marker": "8", "linestyle": _DENSEDASHDOT},
    "mutual_info": {"color": _CYAN, "marker": "8", "linestyle": _LOOSEDASHDOTDOT},
    # their variants that scale to 10^4 features: the original's colour, one marker shape
    "mrmr_f": {"color": _GREEN, "marker": "D", "linestyle": _DENSEDASHDOT},
    "rfe_fraction": {"color": _RED, "marker": "D", "linestyle": _DASHED},
    "stability_lars": {"color": _ORANGE, "marker": "D", "linestyle": _LONGDASH},
    "somp": {"color": _PINK, "marker": "D", "linestyle": _DASHDOTDOT},
    "ffs_rows": {"color": _PINK, "marker": "P", "linestyle": _DENSEDASH},
    "mutual_info_binned": {"color": _CYAN, "marker": "D", "linestyle": _DASHDOT},
    "abess_sis": {"color": _BLUE, "marker": "D", "linestyle": _LOOSEDASHDOTDOT},
    # Ramona et al.'s rankers at that scale: the original's colour, one marker shape
    "svm_rfe_fraction": {"color": _RED, "marker": ">", "linestyle": _DASHDOTDOT},
    "arom_l2svm": {"color": _ORANGE, "marker": ">", "linestyle": _DENSEDASH},
    "sas_primal": {"color": _BROWN, "marker": ">", "linestyle": _SOLID},
}


#: The palette's colours and the line styles by name: what a part's styles (``Part.styles``)
#: are written in.
COLORS = dict(
    zip(
        ("blue", "orange", "green", "red", "purple", "brown", "pink", "grey", "olive", "cyan"),
        _PALETTE,
        strict=True,
    ),
    black=_BLACK,
)
LINESTYLE_NAMES = dict(
    zip(
        (
            "solid",
            "dashed",
            "dotted",
            "dashdot",
            "dashdotdot",
            "longdash",
            "densedashdot",
            "densedash",
            "loosedashdotdot",
        ),
        LINESTYLES,
        strict=True,
    )
)


def resolve_style(spec, *, where: str, table=None) -> dict[str, object]:
    """A style written by name (a part's ``styles`` entry) as :func:`method_style` returns it.

    ``spec`` is ``{"color": <COLORS key>, "marker": <matplotlib marker or "">, "linestyle":
    <LINESTYLE_NAMES key>}``, or the name of a method whose style it shares (a study's own
    name of a method plugin: ``"fisher_score"``). ``where`` names the entry in the error.
    """
    table = METHOD_STYLES if table is None else table
    if isinstance(spec, str):
        if spec not in table:
            raise ValueError(f"{where}: {spec!r} names no method with a style")
        return dict(table[spec])
    if not isinstance(spec, dict) or set(spec) != {"color", "marker", "linestyle"}:
        raise ValueError(
            f"{where}: a style is a method's name or {{color, marker, linestyle}}, got {spec!r}"
        )
    if spec["color"] not in COLORS:
        raise ValueError(f"{where}: color {spec['color']!r} is not one of {sorted(COLORS)}")
    if spec["linestyle"] not in LINESTYLE_NAMES:
        raise ValueError(
            f"{where}: linestyle {spec['linestyle']!r} is not one of {sorted(LINESTYLE_NAMES)}"
        )
    return {
        "color": COLORS[spec["color"]],
        "marker": str(spec["marker"]),
        "linestyle": LINESTYLE_NAMES[spec["linestyle"]],
    }


@functools.cache
def method_styles() -> dict[str, dict[str, object]]:
    """:data:`METHOD_STYLES` and the styles every installed part brings (``Part.styles``,
    :mod:`rlsbench.benchmark.parts`). A part that restyles a name another part or the table
    styles otherwise is an error naming both."""
    from rlsbench.benchmark.parts import installed_parts

    out = {name: dict(style) for name, style in METHOD_STYLES.items()}
    owner = dict.fromkeys(out, "rlsbench's method table")
    for part in installed_parts():
        for name, spec in part.styles.items():
            where = f"part {part.name!r}: styles[{name!r}]"
            style = resolve_style(spec, where=where, table=out)
            if name in out and out[name] != style:
                raise ValueError(f"{where} differs from the style {owner[name]} gives it")
            out.setdefault(name, style)
            owner.setdefault(name, f"part {part.name!r}")
    return out


#: Marker shapes a method without an entry in :data:`METHOD_STYLES` may get: none of the
#: table's, so its points never look like a built-in method's.
_FALLBACK_MARKERS = ("H", "x", "+", "1", "2", "3", "4")


def _distinct(style: dict, other: dict) -> bool:
    """Whether two styles differ in at least two of colour, marker and line style, and in
    colour or marker (a scatter plot shows no line)."""
    same = [style[key] == other[key] for key in ("color", "marker", "linestyle")]
    return sum(same) <= 1 and not (same[0] and same[1])


def _derived_styles() -> list[dict]:
    """Every style a method without a table entry may get: each differs from every entry of
    :data:`METHOD_STYLES` as :func:`_distinct` says, in a fixed order."""
    table = list(method_styles().values())
    return [
        {"color": color, "marker": marker, "linestyle": linestyle}
        for marker in _FALLBACK_MARKERS
        for color in _PALETTE
        for linestyle in LINESTYLES
        if all(
            _distinct({"color": color, "marker": marker, "linestyle": linestyle}, t) for t in table
        )
    ]


def method_style(method: str) -> dict[str, object]:
    """Colour, marker and line style of ``method``: its entry of :func:`method_styles`, or one
    chosen by a checksum of the name (the same in every run, unlike Python's ``hash``) among
    the styles that differ from every table entry in two of the three, one of them colour or
    marker, so that a plugin's curve and points stay apart from the built-in methods'. Two
    plugins may still meet; a plugin meant for figures gets an entry.

    Returns
    -------
    dict
        ``{"color": "#rrggbb", "marker": str, "linestyle": str or (offset, dashes)}``,
        ready for ``Axes.plot(**style)``.
    """
    styles = method_styles()
    if method in styles:
        return dict(styles[method])
    choices = _derived_styles()
    return dict(choices[zlib.crc32(method.encode()) % len(choices)])


def palette(methods: Iterable[str]) -> dict[str, str]:
    """``{method: colour}`` for seaborn's ``palette=``."""
    return {m: method_style(m)["color"] for m in methods}


def markers(methods: Iterable[str]) -> dict[str, str]:
    """``{method: marker}`` for seaborn's ``markers=`` (a method without a marker gets none)."""
    return {m: method_style(m)["marker"] or "None" for m in methods}


def dashes(methods: Iterable[str]) -> dict[str, object]:
    """``{method: dash pattern}`` for seaborn's ``dashes=`` (``""`` is a solid line)."""
    out = {}
    for m in methods:
        style = method_style(m)["linestyle"]
        out[m] = "" if style == _SOLID else style[1]
    return out


def set_theme() -> None:
    """The seaborn theme of every figure: paper context (9 pt labels), white grid, the
    colour-blind palette; vector files keep their text as text (TrueType in PDF) and carry
    no date. The PDF backend's font subsets are kept per process
    (:func:`rlsbench.benchmark.pdf_fonts.memoize_font_subsets`: the same bytes, a third less
    time per figure)."""
    from rlsbench.benchmark.pdf_fonts import memoize_font_subsets

    memoize_font_subsets()
    sns.set_theme(context="paper", style="whitegrid", palette=_PALETTE)
    plt.rcParams.update(
        {
            "pdf.fonttype": 42,
            "svg.fonttype": "none",
            "svg.hashsalt": "rlsbench",
            "legend.fontsize": "small",
            "legend.framealpha": 0.8,
            "axes.titlesize": "medium",
            "lines.linewidth": 1.3,
            "lines.markersize": 4.0,
            "errorbar.capsize": 2.0,
        }
    )


def subplots(nrows: int = 1, ncols: int = 1, *, aspect: float = 0.6, **kwargs):
    """A new figure at two-column width in the theme, with a constrained layout.

    Parameters
    ----------
    nrows, ncols : int
        Grid of axes (``matplotlib.pyplot.subplots``).
    aspect : float
        Height of the figure over its width.
    **kwargs
        Passed to ``matplotlib.pyplot.subplots`` (e.g. ``squeeze``, ``sharey``).

    Returns
    -------
    fig : matplotlib.figure.Figure
    axes : Axes or array of Axes
    """
    set_theme()
    return plt.subplots(
        nrows,
        ncols,
        figsize=(TWO_COLUMN_IN, TWO_COLUMN_IN * aspect),
        layout="constrained",
        **kwargs,
    )


#: Height of one panel of a one-column figure, inches (tick labels, axis label, title).
ONE_COLUMN_PANEL_IN = 2.3
#: Height of one row of a legend below the panels of a one-column figure, inches.
_LEGEND_ROW_IN = 0.17
# at 3.5 in and the theme's fonts: the longest legend label of a two-column legend, and the
# longest y label on one line beside a panel
_ONE_COLUMN_LEGEND_CHARS = 24
_ONE_COLUMN_YLABEL_CHARS = 26


def _merge_legends(fig) -> dict[str, object]:
    """Remove the panels' legends and the figure's legends of ``fig`` and return their
    entries, one per label, in the order first seen (panels in reading order, then the
    figure's). A panel without a legend gives its labelled artists."""
    entries: dict[str, object] = {}
    for ax in _panels(fig):
        handles, labels = ax.get_legend_handles_labels()
        legend = ax.get_legend()
        if legend is not None and not labels:  # a legend made from explicit handles
            handles = legend.legend_handles
            labels = [t.get_text() for t in legend.get_texts()]
        for handle, label in zip(handles, labels):
            entries.setdefault(label, handle)
        if legend is not None:
            legend.remove()
    for legend in list(fig.legends):
        for handle, text in zip(legend.legend_handles, legend.get_texts()):
            entries.setdefault(text.get_text(), handle)
        legend.remove()
    return entries


def _panels(fig) -> list:
    """The visible axes of ``fig`` that sit in its grid (not colour bars, insets or the
    hidden cells of a grid larger than its panels)."""
    return [ax for ax in fig.axes if ax.get_subplotspec() is not None and ax.get_visible()]


def legend_below(fig, *, ncols: int | None = None, title: str | None = None) -> int:
    """One legend for all panels of ``fig``, below them, in place of the panels' own.

    Use it where the panels share their methods and a legend inside a panel would hide data.
    Entries are merged by label (first seen wins); without ``ncols``, as many columns as fit
    the two-column width (at most 5). The one-column layout of :func:`save_figure` merges
    this legend again at its own width.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    ncols : int, optional
        Columns of the legend.
    title : str, optional
        Title of the legend.

    Returns
    -------
    int
        The number of rows of the legend (0 when no panel has a labelled artist).
    """
    entries = _merge_legends(fig)
    if not entries:
        return 0
    entries = _labelled(entries)
    if ncols is None:
        longest = max(len(label) for label in entries)
        ncols = max(1, min(len(entries), 5, int(TWO_COLUMN_IN * 12 // (longest + 4))))
    _legend_under_panels(fig, entries, ncols, title)
    return math.ceil(len(entries) / ncols)


def _legend_under_panels(fig, entries, ncols, title=None, title_size=None) -> None:
    """A frameless figure legend of ``entries`` ({label: handle}) below the panels."""
    legend = fig.legend(
        list(entries.values()),
        list(entries),
        loc="outside lower center",
        ncols=ncols,
        frameon=False,
        title=title,
        title_fontsize=title_size,
    )
    setattr(legend, _LEGEND_ENTRIES, (entries, ncols))  # for fit_legends, which may redraw it


#: The attribute of a legend below the panels that holds its entries ({label: handle}) and
#: its number of columns.
_LEGEND_ENTRIES = "_rlsbench_entries"


def _labelled(entries: dict[str, object]) -> dict[str, object]:
    """Legend ``entries`` ({label: handle}) with each method's name replaced by its label,
    one entry per label shown (a panel's artist named ``greedy_rls`` and the figure legend's
    ``greedy RLS`` are one entry), in the order first seen."""
    from rlsbench.benchmark.labels import method_labels

    shown = method_labels(entries)
    out: dict[str, object] = {}
    for name, handle in entries.items():
        out.setdefault(shown[name], handle)
    return out


def label_methods(fig) -> None:
    """Show each method of ``fig`` by its label (``tags["label"]``): the legend entries and
    the fixed tick labels (``Axes.set_xticks(ticks, labels)``, a categorical axis) that are a
    method's name."""
    from rlsbench.benchmark.labels import method_labels

    legends = [ax.get_legend() for ax in fig.axes] + list(fig.legends)
    texts = [t for legend in legends if legend is not None for t in legend.get_texts()]
    # the axes whose tick labels are fixed texts: set_xticks(ticks, labels) and categories
    fixed = (ticker.FixedFormatter, ticker.FuncFormatter, mcategory.StrCategoryFormatter)
    axes_ticks = []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            formatter = axis.get_major_formatter()
            if isinstance(
                axis.get_major_locator(), ticker.FixedLocator | mcategory.StrCategoryLocator
            ) and isinstance(formatter, fixed):
                names = [str(formatter(loc, i)) for i, loc in enumerate(axis.get_majorticklocs())]
                axes_ticks.append((axis, formatter, names))
    names = [t.get_text() for t in texts] + [n for _, _, seq in axes_ticks for n in seq]
    shown = method_labels(n for n in names if n)
    for text in texts:
        text.set_text(shown.get(text.get_text(), text.get_text()))
    for axis, formatter, seq in axes_ticks:
        if any(shown.get(n, n) != n for n in seq):

            def relabel(x, pos, formatter=formatter):
                name = str(formatter(x, pos))
                return shown.get(name, name)

            axis.set_major_formatter(ticker.FuncFormatter(relabel))


#: Below this many points between two category tick labels' lines (rotated) they count as
#: touching; the smallest size a crowded tick label is shrunk to, points.
_TICK_GAP_PT = 1.5
_SMALLEST_TICK_PT = 5.0


def _visible_ticks(ax, axis):
    """(display positions, label Texts) of the labelled ticks of ``axis`` ("x" or "y") within
    the view, major and minor."""
    side = ax.xaxis if axis == "x" else ax.yaxis
    low, high = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    # the minor ticks' too: a log axis over about a decade labels 2×10⁻³, 3×10⁻³, ...
    ticks = [
        *zip(side.get_majorticklocs(), side.get_major_ticks()),
        *zip(side.get_minorticklocs(), side.get_minor_ticks()),
    ]
    pairs = [
        (loc, tick.label1)
        for loc, tick in ticks
        if low <= loc <= high and tick.label1.get_visible() and tick.label1.get_text()
    ]
    if not pairs:
        return [], []
    locs, labels = zip(*pairs)
    points = [(loc, 0.0) if axis == "x" else (0.0, loc) for loc in locs]
    display = ax.transData.transform(points)[:, 0 if axis == "x" else 1]
    return list(display), list(labels)


def _crowded(ax, axis, renderer) -> float:
    """How much the tick labels of ``axis`` must shrink to clear each other (1: they do not
    touch; below 1: the factor), at their present rotation."""
    positions, labels = _visible_ticks(ax, axis)
    if len(labels) < 2:
        return 1.0
    order = sorted(range(len(positions)), key=positions.__getitem__)
    px_per_pt = ax.figure.dpi / 72.0
    gap = _TICK_GAP_PT * px_per_pt
    angle = abs(labels[0].get_rotation()) % 180 if axis == "x" else 90.0
    factor = 1.0
    for i, j in zip(order, order[1:]):
        spacing = abs(positions[j] - positions[i])
        if angle == 0:
            # side by side: half of each label's width either side of its tick
            need = sum(labels[n].get_window_extent(renderer).width for n in (i, j)) / 2 + gap
        else:
            # parallel lines of text (a y axis's, or turned x labels): the spacing across the
            # text's direction must hold a line
            spacing *= math.sin(math.radians(angle))
            need = labels[i].get_fontsize() * px_per_pt * 1.2 + gap
        if spacing < need:
            factor = min(factor, spacing / need)
    return factor


def fit_tick_labels(fig) -> None:
    """Make the tick labels of every panel of ``fig`` clear each other at its present size.

    x labels that touch turn by 45° (anchored at their tick), then stand upright; labels that
    touch even so (x upright, or y) get smaller, down to 5 pt. Numeric axes whose labels do not
    touch are left as drawn. Each width of :func:`save_figure` starts from upright labels.
    """
    panels = _panels(fig)
    for ax in panels:
        ax.tick_params(axis="x", which="both", labelrotation=0)
        for label in ax.get_xticklabels(which="both"):
            label.set_horizontalalignment("center")
            label.set_rotation_mode("default")
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    for rotation in (45, 90):
        crowded = [ax for ax in panels if _crowded(ax, "x", renderer) < 1.0]
        if not crowded:
            break
        for ax in crowded:
            ax.tick_params(axis="x", which="both", labelrotation=rotation)
            for label in ax.get_xticklabels(which="both"):
                label.set_horizontalalignment("right" if rotation == 45 else "center")
                label.set_rotation_mode("anchor" if rotation == 45 else "default")
        fig.draw_without_rendering()
    changed = False
    for ax in panels:
        for axis in ("x", "y"):
            factor = _crowded(ax, axis, renderer)
            if factor < 1.0:
                side = ax.xaxis if axis == "x" else ax.yaxis
                size = side.get_major_ticks()[0].label1.get_fontsize()
                ax.tick_params(
                    axis=axis, which="both", labelsize=max(_SMALLEST_TICK_PT, size * factor)
                )
                changed = True
    if changed:
        fig.draw_without_rendering()


def _settle_layout(fig, max_draws=3) -> None:
    """Draw ``fig`` again until its panels stay where they are.

    The constrained layout places the panels from the sizes of the texts around them as last
    drawn; after the tick labels of :func:`fit_tick_labels` turn or shrink, and with a title
    wrapped over three lines, one more pass can move them (a one-column figure of the
    reference benchmark kept its y label 8 points left of the page: cut off in the file).
    Settled means no panel edge moved by :data:`_SETTLED_PX` or more: the solver's own
    rounding moves them by 10⁻¹³ pixel at every pass, which an exact comparison took for a
    move (three passes where one sufficed).
    """
    tolerance = _SETTLED_PX / max(fig.bbox.width, fig.bbox.height)  # in figure fractions
    before = np.array([ax.get_position().bounds for ax in fig.axes])
    # here and in fit_tick_labels the layout passes lay the figure out and measure its texts
    # without rasterising it (a third of a figure job's time went to pixels never kept); the
    # files come out the same bytes
    for _ in range(max_draws):
        fig.draw_without_rendering()
        after = np.array([ax.get_position().bounds for ax in fig.axes])
        if after.shape == before.shape and np.all(np.abs(after - before) < tolerance):
            return
        before = after


#: A layout pass that moves no panel edge by this much (pixels at the figure's dpi) has
#: settled (:func:`_settle_layout`).
_SETTLED_PX = 0.01


def fit_legends(fig) -> None:
    """Give each legend below the panels of ``fig`` (:func:`legend_below`, and the merged
    legend of the one-column layout) as many columns as fit its width, and the figure the
    height of the rows this adds.

    The columns are chosen from the labels' lengths before anything is drawn; a label of wide
    letters, or markers with error bars, can make a row wider than the figure, and its ends
    are cut off in the file. Here the legend is drawn and loses a column at a time until it
    fits (one column is kept whatever its width).
    """
    width_px = fig.bbox.width
    renderer = fig.canvas.get_renderer()
    for legend in [lg for lg in fig.legends if hasattr(lg, _LEGEND_ENTRIES)]:
        entries, ncols = getattr(legend, _LEGEND_ENTRIES)
        rows = math.ceil(len(entries) / ncols)
        title = legend.get_title()
        while ncols > 1 and legend.get_window_extent(renderer).width > 0.98 * width_px:
            ncols -= 1
            legend.remove()
            _legend_under_panels(
                fig, entries, ncols, title.get_text() or None, title.get_fontsize()
            )
            legend = fig.legends[-1]
        added = math.ceil(len(entries) / ncols) - rows
        if added:
            width, height = fig.get_size_inches()
            fig.set_size_inches(width, height + added * _LEGEND_ROW_IN)


def _categories(ax) -> int:
    """The number of fixed ticks on the y axis of ``ax`` (categories drawn as rows)."""
    locator = ax.yaxis.get_major_locator()
    return len(locator.locs) if isinstance(locator, ticker.FixedLocator) else 0


#: Height per category row of a one-column panel, and what a panel needs besides its rows
#: (title, axis label, tick labels of x), inches.
_ROW_IN = 0.19
_PANEL_FRAME_IN = 0.8


def _one_column_layout(fig) -> float:
    """Re-lay ``fig`` out for one column and return its height in inches.

    At 3.5 in, panels side by side and legends inside the axes leave no room for the data:
    the panels are stacked in one column (reading order), the legends of the panels and of
    the figure are merged (one entry per label) into one legend below them (two entries a
    row where they fit), and a long y label breaks before its bracket.
    """
    panels = _panels(fig)
    for ax in fig.axes:  # the hidden cells of the grid would keep their rows in one column
        if ax.get_subplotspec() is not None and not ax.get_visible():
            ax.remove()
    legends = [ax.get_legend() for ax in panels if ax.get_legend() is not None] + fig.legends
    titles = [(lg.get_title().get_text(), lg.get_title().get_fontsize()) for lg in legends]
    had_legend = bool(legends)
    entries = _labelled(_merge_legends(fig)) if had_legend else {}
    for ax in panels:
        # a y label longer than a panel is high, or an x label longer than it is wide, breaks
        # before its bracket
        for get, put in ((ax.get_ylabel, ax.set_ylabel), (ax.get_xlabel, ax.set_xlabel)):
            label = get()
            if len(label) > _ONE_COLUMN_YLABEL_CHARS and " (" in label and "\n" not in label:
                head, _, tail = label.rpartition(" (")
                put(f"{head}\n({tail}")
    # a panel of many category rows (datasets on the y axis) gets the height they need
    heights = [
        max(ONE_COLUMN_PANEL_IN, _categories(ax) * _ROW_IN + _PANEL_FRAME_IN) for ax in panels
    ]
    if len(panels) > 1:
        grid = fig.add_gridspec(len(panels), 1, height_ratios=heights)
        for i, ax in enumerate(panels):
            ax.set_subplotspec(grid[i, 0])
    # two entries a row when they fit in half the width
    short = all(len(label) <= _ONE_COLUMN_LEGEND_CHARS for label in entries)
    ncols = 2 if len(entries) > 3 and short else 1 if len(entries) > 3 else max(len(entries), 1)
    title, title_size = next((t for t in titles if t[0]), (None, None))
    if entries:
        _legend_under_panels(fig, entries, ncols, title, title_size)
    rows = math.ceil(len(entries) / ncols) + (title.count("\n") + 1 if title else 0)
    return (sum(heights) or ONE_COLUMN_PANEL_IN) + rows * _LEGEND_ROW_IN + 0.1


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


class PlainLogFormatter(ticker.LogFormatterSciNotation):
    """Matplotlib's log-axis labels (10⁻³, 2×10⁻³) as plain text with superscript digits
    instead of mathtext: the same labels, where parsing mathtext took about a third of the
    time of a figure with log axes (each label is parsed again at each resolution)."""

    def __call__(self, x, pos=None):
        label = super().__call__(x, pos)
        inner = label.removeprefix("$\\mathdefault{").removesuffix("}$")
        if inner == label or not inner:
            return label
        head, hat, exponent = inner.partition("^{")
        if not hat:  # a plain number (an exponent under axes.formatter.min_exponent)
            return inner.replace("-", "\N{MINUS SIGN}") if "{" not in inner else label
        exponent = exponent.removesuffix("}")
        if not exponent.lstrip("-").isdigit() or "{" in head:
            return label  # a fractional exponent (the base formatter's): as matplotlib has it
        head = head.replace("\\times", "×").replace("-", "\N{MINUS SIGN}")
        return head + exponent.translate(_SUPERSCRIPT)


def plain_log_labels(fig) -> None:
    """Every log axis of ``fig`` that labels its ticks with matplotlib's mathtext
    formatter gets :class:`PlainLogFormatter`, with the same settings (which ticks it
    labels)."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for get, put in (
                (axis.get_major_formatter, axis.set_major_formatter),
                (axis.get_minor_formatter, axis.set_minor_formatter),
            ):
                old = get()
                if type(old) is ticker.LogFormatterSciNotation:
                    put(
                        PlainLogFormatter(
                            base=old._base,
                            labelOnlyBase=old.labelOnlyBase,
                            minor_thresholds=old.minor_thresholds,
                            linthresh=getattr(old, "_linthresh", None),
                        )
                    )


#: The attribute of a figure that holds its :func:`at_each_width` callbacks.
_WIDTH_CALLBACKS = "_rlsbench_at_each_width"


def at_each_width(fig, callback) -> None:
    """Have :func:`save_figure` call ``callback(fig, width_in)`` once the figure has each of
    its widths (two-column, then one-column), before it is laid out and saved there: for a
    figure whose text must fit the width in a way the layout engine cannot (the labels of a
    critical-difference diagram, which run outside its axes). The callback may set the
    figure's height (``fig.set_size_inches(width_in, height)``); both files of that width
    keep it."""
    callbacks = getattr(fig, _WIDTH_CALLBACKS, [])
    callbacks.append(callback)
    setattr(fig, _WIDTH_CALLBACKS, callbacks)


def save_figure(fig, png) -> list[str]:
    """Write ``fig`` as PNG, PDF and SVG at two-column width and as PDF and SVG at one-column
    width (the files of :func:`figure_files`), atomically, then close it.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        Drawn at two-column width (:func:`subplots`); another width is rescaled to it,
        keeping its aspect; its :func:`at_each_width` callbacks run at each width.
    png : str or Path
        The PNG file; the others are named after it.

    Returns
    -------
    list of str
        The files written.
    """
    files = figure_files(png)
    plain_log_labels(fig)
    if fig.get_layout_engine() is None:
        fig.set_layout_engine("constrained")
    label_methods(fig)
    for text in [ax.title for ax in fig.axes] + list(fig.texts):
        text.set_wrap(True)  # long titles break into lines at the one-column width
    width, height = fig.get_size_inches()
    two_column = (TWO_COLUMN_IN, TWO_COLUMN_IN * height / width)
    one_column = None
    engine = fig.get_layout_engine()
    # the two-column files first: the one-column layout changes the figure
    for path, (suffix, target_width) in zip(files, FIGURE_SUFFIXES.items(), strict=True):
        if target_width == TWO_COLUMN_IN:
            fig.set_size_inches(*two_column)
        else:
            if one_column is None:
                fig.set_layout_engine(engine)  # lay the figure out again at this width
                one_column = (ONE_COLUMN_IN, _one_column_layout(fig))
            fig.set_size_inches(*one_column)
        if suffix in (".png", "_1col.pdf"):
            for callback in getattr(fig, _WIDTH_CALLBACKS, ()):
                callback(fig, target_width)
            # a callback may have set the height: the other file of this width keeps it
            if target_width == TWO_COLUMN_IN:
                two_column = tuple(fig.get_size_inches())
            else:
                one_column = tuple(fig.get_size_inches())
            fit_legends(fig)
            fit_tick_labels(fig)  # once per width: the svg of a width is drawn like its pdf
            _settle_layout(fig)
            # _settle_layout ended on a drawing laid out at this width with the final tick
            # labels: the files of this width keep that layout instead of solving it again
            # at every save (a third of a figure's time); with no engine at all (not
            # matplotlib's placeholder for "none") savefig also skips the dry draw it makes
            # before printing when a figure has one: a draw per file that changed nothing
            with matplotlib.rc_context(
                {"figure.autolayout": False, "figure.constrained_layout.use": False}
            ):
                fig.set_layout_engine(None)
        fmt = suffix.rsplit(".", 1)[-1]
        # no date or software version in the files: the same figure gives the same bytes
        metadata = {"png": {"Software": None}, "pdf": {"CreationDate": None}}.get(
            fmt, {"Date": None}
        )
        with atomic_path(path, suffix=f".tmp.{fmt}") as tmp:
            fig.savefig(tmp, format=fmt, dpi=PNG_DPI, metadata=metadata)
    plt.close(fig)
    return files
