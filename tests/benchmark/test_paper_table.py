"""The table a paper prints of the main part (rlsbench.benchmark.paper_table): one booktabs
float, the best of every dataset bold, the values the Holm-corrected per-dataset test cannot
tell from it marked, columns, layout and orientation from the config; it compiles in a
two-column article (where pdflatex is there) and the workflow writes it only when the config
asks.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats

from rlsbench.benchmark.paper_table import (
    DAGGER,
    PaperTableError,
    holm_vs_best,
    paper_table,
    run_scores,
)
from tests._tools import latex_packages, missing_latex
from tests.benchmark.test_latex import ARTICLE, compile_in_article

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "configs" / "tiny.yaml"
MISSING_LATEX = missing_latex(latex_packages(ARTICLE))
needs_pdflatex = pytest.mark.skipif(MISSING_LATEX is not None, reason=MISSING_LATEX or "")
N_FOLDS = 10


def _scores(means: dict, *, spread=0.01, seeds=None, seed=0) -> pd.DataFrame:
    """Per-run scores: ``means[dataset][method]`` plus fold noise shared by all methods of a
    fold (so that a constant offset is a difference every fold shows) and a small own noise."""
    rng = np.random.default_rng(seed)
    rows = []
    for dataset, by_method in means.items():
        fold_effect = rng.normal(0, 3 * spread, N_FOLDS)
        for method, mean in by_method.items():
            for fold in range(N_FOLDS):
                for s in (seeds or {}).get(method, [0]):
                    score = mean + fold_effect[fold] + rng.normal(0, spread)
                    rows.append([dataset, method, fold, s, score])
    return pd.DataFrame(rows, columns=["dataset", "method", "fold", "seed", "score"])


def _row(latex: str, name: str) -> str:
    (line,) = [x for x in latex.splitlines() if x.startswith(name + " & ")]
    return line


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.removesuffix(r"\\").split(" & ")]


MEANS = {
    "adult": {"greedy_rls": 0.85, "random": 0.70, "fisher": 0.849},
    "wine": {"greedy_rls": 0.90, "random": 0.97, "fisher": 0.60},
}


# ---------------------------------------------------------------------------------------------
# Bold and marks
# ---------------------------------------------------------------------------------------------
def test_the_best_mean_of_every_dataset_is_bold_and_no_other():
    scores = _scores(MEANS)
    latex = paper_table(scores)
    means = scores.groupby(["dataset", "method"])["score"].mean()
    for dataset in MEANS:
        cells = _cells(_row(latex, dataset))[1:]
        bold = [c for c in cells if r"\textbf" in c]
        top = means[dataset].max()
        assert len(bold) == 1 and bold[0].startswith(rf"\textbf{{{top:.3f}}}~$\pm$~")


def test_with_a_lower_is_better_score_the_smallest_mean_is_bold():
    scores = _scores(MEANS)
    latex = paper_table(scores, best="min")
    means = scores.groupby(["dataset", "method"])["score"].mean()
    for dataset in MEANS:
        (bold,) = [c for c in _cells(_row(latex, dataset)) if r"\textbf" in c]
        assert f"{means[dataset].min():.3f}" in bold


def test_means_equal_at_the_shown_precision_are_both_bold():
    scores = _scores({"adult": {"a": 0.8, "b": 0.7}})
    twin = scores[scores["method"] == "a"].assign(method="b")
    scores = pd.concat([scores[scores["method"] == "a"], twin])
    cells = _cells(_row(paper_table(scores), "adult"))[1:]
    assert all(c.startswith(r"\textbf{") for c in cells)


def test_a_method_the_corrected_test_cannot_tell_from_the_best_is_marked():
    scores = _scores(MEANS)
    tests = holm_vs_best(scores)
    latex = paper_table(scores, indistinguishable=tests)
    # adult: greedy_rls and fisher are 0.001 apart, far inside the noise (either may come
    # out best); random is 0.15 below on every fold
    adult = dict(zip(["dataset", "fisher", "greedy_rls", "random"], _cells(_row(latex, "adult"))))
    (top,) = [m for m in ("fisher", "greedy_rls") if adult[m].startswith(r"\textbf")]
    (close,) = {"fisher", "greedy_rls"} - {top}
    assert adult[close].endswith(DAGGER)
    assert not adult["random"].endswith(DAGGER)
    assert not adult[top].endswith(DAGGER)  # the best is bold, not marked
    assert r"\dagger$: not significantly different" in latex
    assert DAGGER not in paper_table(scores)  # no p-values given: no marks, no legend


def test_holm_tests_every_method_against_the_best_over_paired_folds():
    scores = _scores(MEANS, seeds={"random": [0, 1, 2]})
    tests = holm_vs_best(scores).set_index(["dataset", "method"])
    means = scores.groupby(["dataset", "method"])["score"].mean()
    leaders = {d: means[d].idxmax() for d in MEANS}
    assert set(tests.index) == {(d, m) for d in MEANS for m in MEANS[d] if m != leaders[d]}
    assert (tests["folds"] == N_FOLDS).all()  # a randomized method's seeds average per fold
    assert tests.loc[("adult", "random"), "best"] == leaders["adult"]
    assert tests.loc[("wine", "fisher"), "best"] == "random"
    # the raw p is SciPy's paired test over the fold means; Holm multiplies the smallest of
    # m p-values by m and never lowers one
    folds = scores[scores["dataset"] == "wine"].groupby(["fold", "method"])["score"].mean()
    folds = folds.unstack()
    p = stats.wilcoxon(folds["random"] - folds["greedy_rls"]).pvalue
    assert tests.loc[("wine", "greedy_rls"), "p"] == pytest.approx(p)
    wine = tests.loc["wine"]
    assert wine["p_holm"].min() == pytest.approx(min(1.0, 2 * wine["p"].min()))
    assert (tests["p_holm"] >= tests["p"]).all()


def test_a_method_identical_to_the_best_on_every_fold_has_p_one():
    scores = _scores({"adult": {"a": 0.8}})
    scores = pd.concat([scores, scores.assign(method="b")])
    (p,) = holm_vs_best(scores)["p"]
    assert p == 1.0


# ---------------------------------------------------------------------------------------------
# Columns, orientation, layout
# ---------------------------------------------------------------------------------------------
def test_columns_choose_and_order_the_methods():
    latex = paper_table(_scores(MEANS), columns=["random", "greedy_rls"])
    header = _cells(_row(latex, "dataset"))
    assert header == ["dataset", "random", r"greedy\_\allowbreak{}rls"]
    assert "fisher" not in latex
    with pytest.raises(PaperTableError, match=r"columns: no scores of method\(s\) \['lasso'\]"):
        paper_table(_scores(MEANS), columns=["lasso"])


def test_transpose_puts_methods_on_the_rows():
    scores = _scores(MEANS)
    latex = paper_table(scores, transpose=True)
    assert _cells(_row(latex, "method")) == ["method", "adult", "wine"]
    means = scores.groupby(["dataset", "method"])["score"].mean()
    (bold,) = [c for c in _cells(_row(latex, "random")) if r"\textbf" in c]
    assert f"{means['wine', 'random']:.3f}" in bold  # still the best of a dataset


def test_layout_chooses_one_column_or_both():
    narrow = paper_table(_scores(MEANS), columns=["greedy_rls", "random"], layout="one-column")
    assert narrow.startswith(r"\begin{table}[htbp]") and narrow.rstrip().endswith(r"\end{table}")
    wide = paper_table(_scores(MEANS), layout="two-column")
    assert wide.startswith(r"\begin{table*}[htbp]")
    with pytest.raises(
        PaperTableError, match="layout .three-column.: choose one of one-column, two-column"
    ):
        paper_table(_scores(MEANS), layout="three-column")


def test_a_table_too_wide_for_one_column_says_what_to_change():
    many = {"adult": {f"method_{i}": 0.5 + i / 100 for i in range(8)}}
    with pytest.raises(PaperTableError, match=r"layout one-column: 8 columns.*two-column"):
        paper_table(_scores(many), layout="one-column")


# ---------------------------------------------------------------------------------------------
# Operating points
# ---------------------------------------------------------------------------------------------
def _steps():
    rows = []
    for fold in range(2):
        for k, loo, test in [(1, 0.6, 0.61), (2, 0.8, 0.79), (3, 0.8, 0.75)]:
            rows.append(
                {
                    "dataset": "d",
                    "method": "m",
                    "fold": fold,
                    "seed": 0,
                    "k": k,
                    "status": "ok",
                    "loo_accuracy": loo,
                    "test_accuracy": test + fold / 100,
                    "loo_mse": 1 - loo,
                    "test_mse": 1 - test,
                }
            )
    return pd.DataFrame(rows)


def test_loo_takes_the_smallest_k_of_the_best_estimate_per_run():
    steps = _steps()
    chosen = run_scores(steps, k="loo")
    expected = steps[steps["k"] == 2]["test_accuracy"].to_numpy()  # k=2 and k=3 tie on LOO
    np.testing.assert_array_equal(chosen["score"].to_numpy(), expected)
    mse = run_scores(steps, value="test_mse", k="loo")  # lowest LOO MSE: the same k
    np.testing.assert_array_equal(mse["score"], steps[steps["k"] == 2]["test_mse"])
    fixed = run_scores(steps, k=3)
    np.testing.assert_array_equal(fixed["score"], steps[steps["k"] == 3]["test_accuracy"])


# ---------------------------------------------------------------------------------------------
# Compiled
# ---------------------------------------------------------------------------------------------
@needs_pdflatex
@pytest.mark.slow
@pytest.mark.parametrize(
    ("layout", "transpose"), [("one-column", False), ("two-column", False), ("two-column", True)]
)
def test_the_paper_table_compiles_and_fits(layout, transpose, tmp_path):
    scores = _scores(MEANS, seeds={"random": [0, 1]})
    columns = ["greedy_rls", "random"] if layout == "one-column" else None
    tex = tmp_path / "paper_table.tex"
    tex.write_text(
        paper_table(
            scores,
            columns=columns,
            layout=layout,
            transpose=transpose,
            indistinguishable=holm_vs_best(scores),
        )
    )
    log = compile_in_article(tex, tmp_path)
    assert "Output written" in log


# ---------------------------------------------------------------------------------------------
# The workflow
# ---------------------------------------------------------------------------------------------
def _snakemake(config: dict, workdir: Path, *args):
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--cores", "2"]
    # the targets before --configfile, which takes every word after it
    cmd += [*map(str, args), "--directory", str(workdir), "--configfile", str(path)]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_the_workflow_writes_the_paper_table_only_when_the_config_asks(tmp_path):
    config = yaml.safe_load(TINY.read_text())
    plain = _snakemake(config, tmp_path / "plain", "main_all", "-n")
    assert plain.returncode == 0, plain.stderr[-3000:]
    assert "main_paper_table" not in plain.stdout + plain.stderr
    config["main"]["latex"] = {"columns": ["random", "greedy_rls"], "layout": "one-column"}
    run = _snakemake(config, tmp_path / "asked", "main_all")
    assert run.returncode == 0, run.stderr[-3000:]
    tex = tmp_path / "asked" / "results" / "runs" / "tiny" / "main" / "tables" / "paper_table.tex"
    latex = tex.read_text()
    assert latex.startswith(r"\begin{table}[htbp]")
    assert re.search(r"^dataset & random & greedy", latex, re.M)
    assert [
        line.split(" & ")[0] for line in latex.splitlines() if r"\pm" in line and " & " in line
    ] == [
        r"breast\_\allowbreak{}cancer",
        "wine",
    ]


@pytest.mark.slow
def test_a_paper_table_column_that_is_no_method_of_the_run_stops_naming_the_key(tmp_path):
    config = yaml.safe_load(TINY.read_text())
    config["main"]["latex"] = {"columns": ["greedy_rls", "lasso"]}
    proc = _snakemake(config, tmp_path, "main_all", "-n")
    assert proc.returncode != 0
    said = proc.stdout + proc.stderr
    assert "main.latex.columns[1]: 'lasso' is not one of the run's methods" in said, said
    config["main"]["latex"] = {"layout": "three-column"}
    proc = _snakemake(config, tmp_path, "main_all", "-n")
    assert proc.returncode != 0
    assert "main.latex.layout" in proc.stdout + proc.stderr
