"""What a figure shows of the methods and its axes (rlsbench.benchmark.figures,
rlsbench.benchmark.labels): a plugin's ``tags["label"]`` in place of its name in legends and
tick labels, and tick labels that clear each other at both widths of a paper."""

from __future__ import annotations

import numpy as np
import pytest

from rlsbench.benchmark import figures, labels
from rlsbench.benchmark.methods import Method


@pytest.fixture
def plugin_label(monkeypatch):
    """A plugin ``my_ranker`` whose Method declares ``tags={"label": "my ranker"}``."""
    import rlsbench.benchmark.methods as methods

    real = methods.get_method

    def get_method(name):
        if name == "my_ranker":
            return Method(name="my_ranker", run=None, description="", tags={"label": "my ranker"})
        return real(name)

    monkeypatch.setattr(methods, "get_method", get_method)
    labels.method_label.cache_clear()
    yield
    labels.method_label.cache_clear()


def test_a_plugin_label_replaces_its_name_and_other_names_stay(plugin_label):
    shown = labels.method_labels(["my_ranker", "greedy_rls", "random", "not_a_method"])
    assert shown == {
        "my_ranker": "my ranker",
        "greedy_rls": "greedy RLS",  # the built-in's own tags["label"]
        "random": "random",  # no label
        "not_a_method": "not_a_method",
    }


def test_two_methods_with_one_label_keep_their_names(monkeypatch):
    monkeypatch.setattr(labels, "method_label", lambda name: "same" if name in "ab" else name)
    assert labels.method_labels(["a", "b", "c"]) == {"a": "a", "b": "b", "c": "c"}


def test_legends_and_tick_labels_show_the_labels(plugin_label, tmp_path):
    fig, axes = figures.subplots(1, 2)
    axes[0].plot([0, 1], [0, 1], label="my_ranker")
    axes[0].plot([0, 1], [1, 0], label="greedy_rls")
    axes[0].legend()
    axes[1].bar([0, 1], [1, 2])
    axes[1].set_xticks([0, 1], ["my_ranker", "random"])
    figures.save_figure(fig, tmp_path / "f.png")
    # the one-column layout, written last, merged the panel's legend below the panels
    texts = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert texts == ["my ranker", "greedy RLS"]
    assert [t.get_text() for t in axes[1].get_xticklabels()] == ["my ranker", "random"]
    assert (tmp_path / "f_1col.pdf").stat().st_size > 0


def test_the_legend_below_shows_each_label_once_at_both_widths(plugin_label, tmp_path):
    fig, ax = figures.subplots()
    for name in ("my_ranker", "lowrank_lssvm"):
        ax.plot([0, 1], [0, 1], label=name)
    figures.legend_below(fig)
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["my ranker", "low-rank updated LS-SVM"]
    # the one-column layout merges the panel's artists (named) with that legend (labelled)
    figures.save_figure(fig, tmp_path / "f.png")
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["my ranker", "low-rank updated LS-SVM"]


# ---------------------------------------------------------------------------------------------
# Tick labels clear each other at both widths
# ---------------------------------------------------------------------------------------------
def _category_figure(n, name="breast-cancer-wisconsin"):
    fig, ax = figures.subplots(aspect=0.45)
    ax.plot(np.arange(n), np.arange(n), "o")
    ax.set_xticks(range(n), [f"{name}-{i}" for i in range(n)])
    return fig, ax


@pytest.mark.parametrize("width", [figures.TWO_COLUMN_IN, figures.ONE_COLUMN_IN])
def test_crowded_category_labels_turn_or_shrink_until_they_clear(width):
    import matplotlib.pyplot as plt

    fig, ax = _category_figure(20)
    fig.set_size_inches(width, 3.0)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    assert figures._crowded(ax, "x", renderer) < 1.0  # as drawn: they overlap
    figures.fit_tick_labels(fig)
    assert figures._crowded(ax, "x", renderer) == pytest.approx(1.0, abs=0.02)
    assert ax.get_xticklabels()[0].get_rotation() != 0
    plt.close(fig)


def test_labels_that_fit_stay_upright():
    import matplotlib.pyplot as plt

    fig, ax = _category_figure(3, name="a")
    figures.fit_tick_labels(fig)
    assert ax.get_xticklabels()[0].get_rotation() == 0
    assert figures._crowded(ax, "x", fig.canvas.get_renderer()) == 1.0
    plt.close(fig)


def test_a_one_column_panel_grows_with_its_category_rows():
    import matplotlib.pyplot as plt

    fig, ax = figures.subplots()
    ax.plot(np.arange(40), np.arange(40), "o")
    ax.set_yticks(range(40), [f"dataset {i}" for i in range(40)])
    height = figures._one_column_layout(fig)
    plt.close(fig)
    # 40 rows at a readable spacing: far taller than a plain panel
    assert height >= 40 * figures._ROW_IN
