"""The main part's figures (rlsbench.studies.main.report): test curves a paper can print and
the figures across datasets (all curves, run times, accuracy against run time)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from rlsbench.benchmark import figures
from rlsbench.studies.main import report


def _steps(datasets=("a", "b"), k_max=13, identical=("greedy_rls", "wrapper_loo")):
    """A step table: ``identical`` methods select alike (the same curve), random lower,
    3 folds; fit times grow with the method's index; dataset "b" skips lowrank_lssvm."""
    rows = []
    methods = (*identical, "random", "lowrank_lssvm")
    for dataset in datasets:
        for m_index, method in enumerate(methods):
            for fold in range(3):
                skipped = dataset == "b" and method == "lowrank_lssvm"
                for k in range(1, k_max + 1):
                    base = 0.6 if method == "random" else 0.8
                    acc = base + 0.01 * k + 0.01 * fold
                    rows.append(
                        {
                            "dataset": dataset,
                            "task": "classification",
                            "method": method,
                            "fold": fold,
                            "seed": 0,
                            "k": k,
                            "status": "skipped" if skipped else "ok",
                            "reason": "memory: over budget" if skipped else "",
                            "test_accuracy": acc,
                            "loo_accuracy": base + 0.05 - 0.01 * abs(k - 5),  # LOO peaks at k=5
                            "fit_time_s": 10.0 ** (m_index - 3) * (1 + fold),
                        }
                    )
    return pd.DataFrame(rows)


@pytest.fixture
def drawn(monkeypatch):
    """The figures the report draws, kept open instead of saved."""
    kept = []
    monkeypatch.setattr(figures, "save_figure", lambda fig, path: kept.append(fig))
    yield kept
    for fig in kept:
        plt.close(fig)


def test_test_curves_have_integer_k_ticks_and_identical_curves_show_every_markers(drawn):
    report.plot_test_curves(_steps(), "a", "test_a.png")
    (fig,) = drawn
    ax = fig.axes[0]
    fig.canvas.draw()
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks)
    lines = {line.get_label(): line for line in ax.get_lines() if line.get_label()[0] != "_"}
    greedy, loo = lines["greedy_rls"], lines["wrapper_loo"]
    np.testing.assert_array_equal(greedy.get_ydata(), loo.get_ydata())  # the same curve
    marked = [set(np.asarray(line.get_xdata())[line.get_markevery()]) for line in (greedy, loo)]
    assert marked[0] and marked[1] and not marked[0] & marked[1]  # markers at other k
    assert greedy.get_linestyle() != loo.get_linestyle()


def test_test_curves_draw_the_sd_as_error_bars_at_the_marked_points_only(drawn):
    report.plot_test_curves(_steps(), "a", "test_a.png")
    ax = drawn[0].axes[0]
    greedy = next(line for line in ax.get_lines() if line.get_label() == "greedy_rls")
    n_marked = len(np.asarray(greedy.get_xdata())[greedy.get_markevery()])
    bars = [c for c in ax.collections if c.get_segments()]
    assert n_marked < len(greedy.get_xdata())
    sd = np.std([0.8 + 0.01 + 0.01 * f for f in range(3)], ddof=1)
    bar = next(b for b in bars if len(b.get_segments()) == n_marked)
    (low, high) = bar.get_segments()[0][:, 1]
    assert high - low == pytest.approx(2 * sd)
    assert not [c for c in ax.collections if c.__class__.__name__ == "PolyCollection"]


def test_curves_all_has_a_panel_per_dataset_and_one_legend_below(drawn):
    report.plot_curves_all(_steps(datasets=("a", "b", "c", "d")), "curves_all.png")
    (fig,) = drawn
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["a", "b", "c", "d"]
    assert all(ax.get_legend() is None for ax in fig.axes)
    (legend,) = fig.legends
    # each method by its plugin's label (tags["label"]), the name where it has none
    assert sorted(t.get_text() for t in legend.get_texts()) == sorted(
        ["greedy RLS", "wrapper, LOO short-cut", "random", "low-rank updated LS-SVM"]
    )
    assert fig.get_size_inches()[0] == pytest.approx(figures.TWO_COLUMN_IN)


def test_selection_times_take_the_test_score_at_the_loo_chosen_k():
    times = report.selection_times(_steps())
    run = times[(times["dataset"] == "a") & (times["method"] == "random") & (times["fold"] == 1)]
    assert run["k_loo"].tolist() == [5]
    assert run["test"].iloc[0] == pytest.approx(0.6 + 0.05 + 0.01)
    assert run["fit_time_s"].iloc[0] == pytest.approx(10.0 ** (2 - 3) * 2)
    # a skipped method has no run
    assert times[(times["dataset"] == "b") & (times["method"] == "lowrank_lssvm")].empty


def test_runtime_draws_the_median_time_per_method_and_dataset_on_a_log_axis(drawn):
    report.plot_runtime(_steps(), "runtime.png")
    ax = drawn[0].axes[0]
    # a row per dataset: the names on the y axis, where any number of them stays legible
    assert ax.get_xscale() == "log"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    points = {c.get_label(): c.lines[0] for c in ax.containers}
    assert np.asarray(points["greedy_rls"].get_xdata()) == pytest.approx([2e-3, 2e-3])
    assert len(points["lowrank_lssvm"].get_xdata()) == 1  # skipped on b
    assert "1 (dataset, method) pair(s) skipped" in ax.get_title()


def test_runtime_title_tells_budget_skips_from_methods_that_do_not_support_the_task(drawn):
    """A classifier on a regression set is not run, not skipped: the title counts the two
    apart (the 2026-11-28 benchmark's title called 243 pairs skipped, 228 of them not run)."""
    steps = _steps(datasets=("a", "b", "c"))
    on_c = (steps["dataset"] == "c") & steps["method"].isin(["random", "greedy_rls"])
    steps.loc[on_c, "status"] = "skipped"
    steps.loc[on_c, "reason"] = "task: random does not support regression targets"
    report.plot_runtime(steps, "runtime.png")
    assert drawn[0].axes[0].get_title() == (
        "1 (dataset, method) pair(s) skipped; 2 (dataset, method) pair(s) not run (task not "
        "supported): no point (tables/summary.md says why)"
    )
    report.plot_runtime(steps[steps["method"] != "lowrank_lssvm"], "runtime.png")
    assert drawn[1].axes[0].get_title().startswith("2 (dataset, method) pair(s) not run")
    report.plot_runtime(steps[steps["dataset"] == "a"], "runtime.png")
    assert drawn[2].axes[0].get_title() == ""


def test_pareto_places_each_method_at_its_median_time_and_loo_k_accuracy(drawn):
    report.plot_pareto(_steps(), "pareto.png")
    (fig,) = drawn
    ax = next(ax for ax in fig.axes if ax.get_title() == "a")
    assert ax.get_xscale() == "log"
    points = {c.get_label(): np.ravel(c.lines[0].get_xydata()) for c in ax.containers}
    # wrapper_loo: 1e-2 s × (1 + fold); at k = 5, mean over folds
    assert points["wrapper_loo"] == pytest.approx([0.02, 0.8 + 0.05 + 0.01])
    assert points["random"] == pytest.approx([0.2, 0.6 + 0.05 + 0.01])


def test_main_all_draws_the_figures_across_datasets_and_main_publish_copies_them(tmp_path):
    # main_publish copies every file main_all builds (the reference benchmark commits its
    # accuracy-against-runtime figure), the figures across datasets included
    repo = Path(__file__).resolve().parents[3]

    def dry_run(target):
        proc = subprocess.run(
            [sys.executable, "-m", "snakemake", "-s", str(repo / "Snakefile"), target, "-n"]
            + ["--directory", str(tmp_path), "--configfile", str(repo / "config/paper.yaml")],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        return proc.stdout + proc.stderr

    run = dry_run("main_all")
    publish = dry_run("main_publish")
    for figure in ("curves_all", "runtime", "pareto"):  # one job each: they draw side by side
        assert f"main_overview_{figure}" in run
        assert f"main_overview_{figure}" in publish
    assert "results/paper/main/figures/pareto.png" in publish
