"""Figures for papers (rlsbench.benchmark.figures): one colour and marker per method across every
part, files in PNG, PDF and SVG at the two widths of a two-column paper, written the same way
by every part."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
import yaml

from rlsbench.benchmark import figures
from rlsbench.benchmark.methods import method_names
from rlsbench.studies.buteneers.experiment import TABLE_METHODS
from rlsbench.studies.ramona.report import LABELS as RAMONA_METHODS
from rlsbench.studies.scaling.experiment import SCALING_METHODS
from rlsbench.studies.sunyao.experiments import METHODS as SUNYAO_METHODS

REPO = Path(__file__).resolve().parents[2]
#: Plugin names of methods a study implements under its own name (one method, one style).
ALIASES = {"fisher_score": "fisher", "svm_rfe": "rfe", "marglik_forward": "forward"}


def every_method_of_every_part():
    return sorted(
        set(method_names())
        | set(SCALING_METHODS)
        | set(RAMONA_METHODS)
        | set(SUNYAO_METHODS)
        | set(TABLE_METHODS)
    )


def test_every_method_of_every_part_has_its_own_colour_and_marker():
    methods = every_method_of_every_part()
    missing = [m for m in methods if m not in figures.method_styles()]
    assert not missing, f"methods without a style (METHOD_STYLES or a Part.styles): {missing}"
    owners = {}
    for method, style in figures.method_styles().items():
        key = (style["color"], style["marker"])
        owners.setdefault(key, set()).add(ALIASES.get(method, method))
    shared = {key: names for key, names in owners.items() if len(names) > 1}
    assert not shared, f"methods sharing a colour and marker: {shared}"
    for plugin, study_name in ALIASES.items():
        assert figures.method_style(plugin) == figures.method_style(study_name)


@pytest.mark.parametrize(
    "together",
    [
        ("greedy_rls", "lowrank_lssvm", "wrapper_loo", "wrapper_blackbox", "random"),
        tuple(yaml.safe_load((REPO / "config" / "paper.yaml").read_text())["scaling"]["methods"]),
        ("fisher", "arom", "r2w2", "rfe", "sfs", "sas", "scss", "kfds", "svm"),
        SUNYAO_METHODS,
    ],
)
def test_methods_drawn_in_one_figure_have_different_colours(together):
    colours = [figures.method_style(m)["color"] for m in together]
    assert len(set(colours)) == len(colours), dict(zip(together, colours))


@pytest.mark.parametrize("plugin", ["corr_ranker", "my_plugin_method", "x", "rank_by_svd"])
def test_an_unknown_methods_style_stays_apart_from_every_built_in_one(plugin):
    # issue 30: a user's corr_ranker was drawn in mrmr's colour with a look-alike marker
    style = figures.method_style(plugin)
    used = {entry["marker"] for entry in figures.method_styles().values()}
    assert style["marker"] not in used  # its points never look like a built-in method's
    for name, entry in figures.method_styles().items():
        assert _differences(style, entry) >= 2, name


def test_an_unknown_method_gets_the_same_style_in_every_process():
    style = figures.method_style("my_plugin_method")
    assert style["color"] in figures._PALETTE
    assert style["marker"] in figures._FALLBACK_MARKERS
    code = (
        "from rlsbench.benchmark.figures import method_style; "
        "print(method_style('my_plugin_method'))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={"PYTHONHASHSEED": seed, "PATH": ""},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in ("1", "2")
    }
    assert outputs == {str(style)}
    assert (
        figures.palette(["a", "greedy_rls"])["greedy_rls"]
        == figures.method_styles()["greedy_rls"]["color"]
    )


def test_figure_files_are_named_after_the_png():
    assert figures.figure_files("out/fig_a.png") == [
        "out/fig_a.png",
        "out/fig_a.pdf",
        "out/fig_a.svg",
        "out/fig_a_1col.pdf",
        "out/fig_a_1col.svg",
    ]
    with pytest.raises(ValueError, match="PNG"):
        figures.figure_files("out/fig_a.pdf")


def _draw():
    fig, ax = figures.subplots()
    x = np.arange(1, 11)
    for method in ("greedy_rls", "random"):
        ax.plot(x, np.log(x) + len(method), label=method, **figures.method_style(method))
    ax.set_title("a title long enough to need two lines at the width of one column of a paper")
    ax.legend()
    return fig


def _pdf_width_pt(path: Path) -> float:
    box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", path.read_bytes())
    return float(box.group(1))


def test_save_figure_writes_raster_and_vector_files_at_both_widths(tmp_path):
    from matplotlib.image import imread

    files = [Path(p) for p in figures.save_figure(_draw(), tmp_path / "f.png")]
    assert [p.name for p in files] == ["f.png", "f.pdf", "f.svg", "f_1col.pdf", "f_1col.svg"]
    png = imread(files[0])
    assert png.shape[1] == round(figures.TWO_COLUMN_IN * figures.PNG_DPI)
    assert _pdf_width_pt(files[1]) == pytest.approx(figures.TWO_COLUMN_IN * 72, abs=0.5)
    assert _pdf_width_pt(files[3]) == pytest.approx(figures.ONE_COLUMN_IN * 72, abs=0.5)
    svg_width = re.search(r'<svg[^>]* width="([\d.]+)pt"', files[2].read_text()).group(1)
    assert float(svg_width) == pytest.approx(figures.TWO_COLUMN_IN * 72, abs=0.5)
    one_col = re.search(r'<svg[^>]* width="([\d.]+)pt"', files[4].read_text()).group(1)
    assert float(one_col) == pytest.approx(figures.ONE_COLUMN_IN * 72, abs=0.5)
    assert "greedy RLS" in files[2].read_text()  # SVG text stays text (the label)
    assert not list(tmp_path.glob(".*"))  # atomic: no temporary left


def test_the_same_figure_gives_the_same_vector_files(tmp_path):
    first = figures.save_figure(_draw(), tmp_path / "a" / "f.png")
    second = figures.save_figure(_draw(), tmp_path / "b" / "f.png")
    for a, b in zip(first, second):
        assert Path(a).read_bytes() == Path(b).read_bytes(), Path(a).name


def test_no_part_saves_a_figure_but_through_save_figure():
    offenders = [
        f"{path.relative_to(REPO)}:{number}"
        for path in (REPO / "src").rglob("*.py")
        if path.name != "figures.py"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r"\.savefig\(|plt\.subplots\(", line)
    ]
    assert not offenders, offenders


def test_one_column_files_stack_the_panels_and_merge_their_legends(tmp_path):
    fig, (left, right) = figures.subplots(1, 2)
    for ax, methods in ((left, ("greedy_rls", "random")), (right, ("greedy_rls", "sfs"))):
        for method in methods:
            ax.plot([1, 2, 3], [1, 2, 4], label=method, **figures.method_style(method))
        ax.legend()
    left.set_ylabel("test accuracy (mean ± sd over folds and seeds)")
    height = figures._one_column_layout(fig)
    fig.set_size_inches(figures.ONE_COLUMN_IN, height)
    fig.canvas.draw()
    top, bottom = (ax.get_position() for ax in (left, right))
    assert top.x0 == pytest.approx(bottom.x0) and top.y0 > bottom.y1  # one column
    assert left.get_legend() is None and right.get_legend() is None
    (legend,) = fig.legends
    # greedy_rls by its tags["label"]
    assert [t.get_text() for t in legend.get_texts()] == ["greedy RLS", "random", "sfs"]
    assert legend.get_window_extent().y1 <= right.get_tightbbox().y0 + 1  # below the panels
    assert left.get_ylabel() == "test accuracy\n(mean ± sd over folds and seeds)"
    assert height > 2 * figures.ONE_COLUMN_PANEL_IN
    plt.close(fig)


def test_legend_below_replaces_the_panels_legends_by_one_under_them():
    fig, (left, right) = figures.subplots(1, 2)
    for ax, methods in ((left, ("greedy_rls", "random")), (right, ("greedy_rls", "sfs"))):
        for method in methods:
            ax.plot([1, 2, 3], [1, 2, 4], label=method, **figures.method_style(method))
    left.legend()  # a panel's own legend goes too
    rows = figures.legend_below(fig, ncols=2, title="budget note")
    assert rows == 2
    fig.canvas.draw()
    assert left.get_legend() is None and right.get_legend() is None
    (legend,) = fig.legends
    # greedy_rls by its tags["label"]
    assert [t.get_text() for t in legend.get_texts()] == ["greedy RLS", "random", "sfs"]
    assert legend.get_title().get_text() == "budget note"
    lowest = min(ax.get_tightbbox().y0 for ax in (left, right))
    assert legend.get_window_extent().y1 <= lowest + 1  # below both panels, on no data
    # the one-column layout merges it again, once, keeping its title
    figures._one_column_layout(fig)
    (legend,) = fig.legends
    # greedy_rls by its tags["label"]
    assert [t.get_text() for t in legend.get_texts()] == ["greedy RLS", "random", "sfs"]
    assert legend.get_title().get_text() == "budget note"
    plt.close(fig)


@pytest.mark.parametrize("n_panels", [1, 4])
def test_one_column_legends_fit_the_page_and_hidden_cells_leave_no_gap(n_panels, tmp_path):
    """The default run's Pareto and curve figures (four datasets in a grid of 2 × 3, two
    cells hidden; the five methods of the default config, with error bars) once lost both
    ends of their one-column legend ("wrapper, LOO short-cu", the first marker) and had a
    blank band above it, the rows of the hidden cells. Read as its reader sees it, the
    one-column PDF's state drawn as pixels: no ink in the outermost columns, no white band
    taller than a panel's frame, every label in the legend."""
    import matplotlib.image

    methods = ["greedy_rls", "lowrank_lssvm", "random", "wrapper_loo", "wrapper_blackbox"]
    fig, axes = figures.subplots(2 if n_panels > 3 else 1, min(n_panels, 3), squeeze=False)
    for ax in axes.flat[n_panels:]:
        ax.set_visible(False)
    for ax in axes.flat[:n_panels]:
        for i, method in enumerate(methods):
            style = figures.method_style(method)
            ax.errorbar(
                10.0**i,
                0.9,
                xerr=[[0.5], [2.0]],
                yerr=0.02,
                fmt=style["marker"] or "o",
                color=style["color"],
                label=method,
            )
        ax.set_xscale("log")
        ax.set_xlabel("selection time (s, median)")
    figures.legend_below(fig)
    savefig, seen = fig.savefig, {}

    def also_as_pixels(path, format=None, **kwargs):  # the one-column PDF's state, as a PNG
        savefig(path, format=format, **kwargs)
        if format == "pdf" and fig.get_size_inches()[0] < 4:
            savefig(tmp_path / "one_column.png", format="png", dpi=200)
            seen["labels"] = [t.get_text() for lg in fig.legends for t in lg.get_texts()]

    fig.savefig = also_as_pixels
    figures.save_figure(fig, tmp_path / "pareto.png")
    assert seen["labels"] == [
        "greedy RLS",
        "low-rank updated LS-SVM",
        "random",
        "wrapper, LOO short-cut",
        "wrapper, black box",
    ]
    pixels = matplotlib.image.imread(tmp_path / "one_column.png")[..., :3].mean(axis=2)
    assert pixels.shape[1] == pytest.approx(3.5 * 200, abs=2)
    ink = pixels < 0.5
    assert not ink[:, :3].any() and not ink[:, -3:].any()
    inked = np.flatnonzero(ink.any(axis=1))
    assert np.diff(inked).max() < figures._PANEL_FRAME_IN * 200  # no band of hidden cells


def test_legend_below_without_labelled_artists_draws_none():
    fig, ax = figures.subplots()
    ax.plot([1, 2], [1, 2])
    assert figures.legend_below(fig) == 0 and not fig.legends
    plt.close(fig)


def _differences(a: dict, b: dict) -> int:
    return sum(a[key] != b[key] for key in ("color", "marker", "linestyle"))


def test_any_two_methods_of_the_table_differ_in_two_of_colour_marker_and_line_style():
    # every pair of the table, so every set of methods drawn together (up to all of them)
    names = sorted({ALIASES.get(m, m) for m in figures.method_styles()})
    close = [
        (a, b)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if _differences(figures.method_style(a), figures.method_style(b)) < 2
    ]
    assert not close, f"methods told apart by one of colour, marker, line style only: {close}"
    assert all(figures.method_style(m)["linestyle"] in figures.LINESTYLES for m in names)


def test_every_installed_method_with_the_main_part_in_one_figure_has_its_own_triple():
    main = yaml.safe_load((REPO / "config" / "paper.yaml").read_text())["main"]["methods"]
    together = sorted(set(method_names()) | set(main))
    triples = {m: tuple(str(v) for v in figures.method_style(m).values()) for m in together}
    assert len(set(triples.values())) == len(together), triples
    # greyscale: the main part's curves differ in line style among themselves
    assert len({str(figures.method_style(m)["linestyle"]) for m in main}) == len(main)


def test_a_line_style_draws_and_seaborn_gets_the_same_dashes():
    fig, ax = figures.subplots()
    for method in ("greedy_rls", "wrapper_loo"):
        (line,) = ax.plot([1, 2], [1, 2], **figures.method_style(method))
    assert figures.dashes(["greedy_rls", "wrapper_loo"]) == {
        "greedy_rls": "",
        "wrapper_loo": figures.method_style("wrapper_loo")["linestyle"][1],
    }
    assert line.get_linestyle() == "--"  # matplotlib's name of any dash pattern
    plt.close(fig)


def test_a_parts_styles_are_written_by_name_and_checked():
    assert figures.resolve_style(
        {"color": "cyan", "marker": "*", "linestyle": "solid"}, where="x"
    ) == {"color": figures.COLORS["cyan"], "marker": "*", "linestyle": figures.LINESTYLES[0]}
    assert figures.resolve_style("svm_rfe", where="x") == figures.METHOD_STYLES["svm_rfe"]
    for spec, message in [
        ({"color": "teal", "marker": "o", "linestyle": "solid"}, "color 'teal' is not one of"),
        ({"color": "red", "marker": "o", "linestyle": "wavy"}, "linestyle 'wavy' is not one of"),
        ({"color": "red"}, "a style is a method's name or"),
        ("no_such_method", "'no_such_method' names no method with a style"),
    ]:
        with pytest.raises(ValueError, match=f"part 'toy': styles\\['m'\\]: {re.escape(message)}"):
            figures.resolve_style(spec, where="part 'toy': styles['m']")


def test_a_part_that_restyles_another_parts_name_is_refused(monkeypatch):
    from rlsbench.benchmark import parts

    toy = parts.Part(
        name="toy",
        title="Toy",
        paper="toy",
        citation="Toy (2026)",
        category="Toy",
        rules=Path("rules.smk"),
        schema=Path("schema.yaml"),
        styles={"rvm_new": {"color": "red", "marker": "o", "linestyle": "solid"}},
    )
    built_in = parts.installed_parts()
    monkeypatch.setattr(parts, "installed_parts", lambda: (*built_in, toy))
    figures.method_styles.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"part 'toy': styles\['rvm_new'\] differs from"):
            figures.method_styles()
    finally:
        monkeypatch.undo()
        figures.method_styles.cache_clear()
    assert figures.method_style("rvm_new")["color"] == figures.COLORS["green"]


@pytest.mark.parametrize(
    "value, minor, label",
    [
        (1e-3, False, "10⁻³"),
        (1.0, False, "10⁰"),
        (100.0, False, "10²"),
        (-100.0, False, "\N{MINUS SIGN}10²"),
        (2e-3, True, "2×10⁻³"),
        (6e4, True, "6×10⁴"),
        (2e-3, False, ""),  # the major formatter labels decades only
    ],
)
def test_log_labels_are_plain_text_with_the_same_numbers(value, minor, label):
    """save_figure's log-axis labels: what matplotlib's mathtext formatter writes
    ($\\mathdefault{2\\times10^{-3}}$), as plain text with superscripts."""
    from matplotlib import ticker

    ours = figures.PlainLogFormatter(labelOnlyBase=not minor)
    theirs = ticker.LogFormatterSciNotation(labelOnlyBase=not minor)
    assert ours(value) == label
    assert bool(theirs(value)) == bool(label)


def _overlapping_tick_labels(ax):
    renderer = ax.figure.canvas.get_renderer()
    labels = [t for t in ax.get_xticklabels(which="both") if t.get_visible() and t.get_text()]
    low, high = sorted(ax.get_xlim())
    shown = [t for t in labels if low <= t.get_position()[0] <= high]  # within the view
    boxes = sorted((t.get_window_extent(renderer) for t in shown), key=lambda b: b.x0)
    return [(a, b) for a, b in zip(boxes, boxes[1:]) if a.overlaps(b)]


def test_a_log_axis_over_a_decade_keeps_its_minor_labels_apart():
    """Over about a decade a log axis labels minor ticks too (2×10⁻³, 3×10⁻³, 4×10⁻³,
    6×10⁻³): fit_tick_labels measured the major labels only, and the main part's pareto
    figure printed "3×10⁻³4×10⁻³". Now every labelled tick counts, and the labels that
    touch turn or shrink like the major ones."""
    fig, axes = figures.subplots(1, 4)
    for ax in axes:
        ax.plot([9e-4, 6.5e-3], [0, 1])
        ax.set_xscale("log")
    figures.plain_log_labels(fig)
    fig.canvas.draw()
    assert any(_overlapping_tick_labels(ax) for ax in axes)  # as drawn, they touch
    figures.fit_tick_labels(fig)
    for ax in axes:
        labels = [t.get_text() for t in ax.get_xticklabels(which="both") if t.get_text()]
        assert "3×10⁻³" in labels and not any("$" in t for t in labels)
        assert not _overlapping_tick_labels(ax)
    plt.close(fig)
