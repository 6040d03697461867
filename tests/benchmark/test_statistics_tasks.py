"""The statistics across datasets and the paper table cover every task a run has: by task by
default (classification on test accuracy, regression on the held-out R²), a warning naming the
regression datasets ``by_task: false`` leaves out, one LaTeX float per task, and the diagrams
titled in words with the cue that a lower rank is better.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from rlsbench.benchmark import statistics as st
from rlsbench.benchmark.paper_table import paper_table_job
from rlsbench.studies.main import statistics as main_statistics

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "src" / "rlsbench" / "studies" / "main" / "workflow" / "schema.yaml"

#: dataset -> task of the steps below (two of each task, so each comparison has a Friedman test)
TASKS = {"c1": "binary", "c2": "multiclass", "c3": "binary", "r1": "regression"}
TASKS |= {"r2": "regression", "r3": "regression"}
QUALITY = {"greedy_rls": 0.9, "random": 0.6, "lasso_path": 0.75}


def _steps(tasks=TASKS) -> pd.DataFrame:
    """A step table: greedy_rls best, random worst on every dataset, by accuracy, R² and MSE
    alike; 3 folds, k = 1..3."""
    rows = []
    for dataset, task in tasks.items():
        for method, q in QUALITY.items():
            for fold in range(3):
                for k in (1, 2, 3):
                    score = q - 0.01 * k + 0.001 * fold + 0.0001 * len(dataset)
                    regression = task == "regression"
                    rows.append(
                        {
                            "dataset": dataset,
                            "task": task,
                            "method": method,
                            "fold": fold,
                            "seed": 0,
                            "k": k,
                            "status": "ok",
                            "reason": "",
                            "test_accuracy": np.nan if regression else score,
                            "test_r2": score if regression else np.nan,
                            "test_mse": 1.0 - score,
                            "loo_accuracy": np.nan if regression else score,
                            "loo_mse": 1.0 - score,
                            "feature": k,
                            "n_features": 5,
                        }
                    )
    return pd.DataFrame(rows)


def _registry(tasks=TASKS):
    return {name: {"task": task} for name, task in tasks.items()}


def _section(**extra):
    return {
        "reference": "greedy_rls",
        "operating_points": {"fixed_k": 2, "loo_k": True, "auc": False},
        "alpha": 0.05,
        "rope": 0.01,
        "bayes_samples": 2000,
        "seed": 0,
        **extra,
    }


def _main(datasets, **extra):
    return {"datasets": list(datasets), "methods": list(QUALITY), "statistics": _section(**extra)}


def _run_job(tmp_path, steps, settings):
    steps_csv = tmp_path / "steps.csv"
    steps.to_csv(steps_csv, index=False)
    files = main_statistics.outputs(settings)
    tables = {name: str(tmp_path / f"{name}.csv") for name in main_statistics.TABLES}
    cd = [str(tmp_path / Path(p).name) for p in files["cd"]]
    md = tmp_path / "summary.md"
    main_statistics.statistics_job(str(steps_csv), str(md), cd, settings=settings, **tables)
    return {name: pd.read_csv(path) for name, path in tables.items()}, md.read_text(), cd


# ---------------------------------------------------------------------------------------------
# By task by default
# ---------------------------------------------------------------------------------------------
def test_the_schema_compares_by_task_unless_the_config_says_otherwise():
    schema = yaml.safe_load(SCHEMA.read_text())
    by_task = schema["properties"]["statistics"]["properties"]["by_task"]
    assert by_task["default"] is True
    assert main_statistics.BY_TASK is True


def test_a_run_of_both_tasks_ranks_the_regression_datasets_too_by_default(tmp_path):
    settings = main_statistics.check(_main(TASKS), _registry())
    assert settings["groups"] == ["classification", "regression"]
    tables, summary, cd = _run_job(tmp_path, _steps(), settings)
    friedman = tables["friedman"]
    assert set(friedman["group"]) == {"classification", "regression"}
    regression = friedman[friedman["group"] == "regression"]
    assert (regression["n_datasets"] == 3).all()
    assert "r1" not in " ".join(friedman["dropped_datasets"].dropna().astype(str))
    ranks = tables["ranks"].query("group == 'regression' and operating_point == 'loo_k'")
    assert ranks.set_index("method")["average_rank"].to_dict() == {
        "greedy_rls": 1.0,
        "lasso_path": 2.0,
        "random": 3.0,
    }
    assert [Path(p).stem for p in cd] == [
        "cd_classification_fixed_k2",
        "cd_classification_loo_k",
        "cd_regression_fixed_k2",
        "cd_regression_loo_k",
    ]
    assert "Two comparisons" in summary


def test_a_run_of_one_task_keeps_one_comparison_and_the_plain_diagram_names(tmp_path):
    only = {name: task for name, task in TASKS.items() if task != "regression"}
    settings = main_statistics.check(_main(only), _registry(only))
    assert settings["groups"] == ["classification"]
    assert main_statistics.diagram_stems(settings) == ["fixed_k2", "loo_k"]
    tables, _, cd = _run_job(tmp_path, _steps(only), settings)
    assert set(tables["friedman"]["group"]) == {"classification"}
    assert all(Path(p).stat().st_size > 0 for p in cd)


def test_a_regression_only_run_is_compared_on_r2(tmp_path):
    only = {name: task for name, task in TASKS.items() if task == "regression"}
    settings = main_statistics.check(_main(only), _registry(only))
    tables, summary, _ = _run_job(tmp_path, _steps(only), settings)
    assert set(tables["friedman"]["group"]) == {"regression"}
    assert (tables["friedman"]["n_datasets"] == 3).all()
    assert "R²" in summary


def test_by_task_false_warns_naming_the_left_out_datasets_and_the_key(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        settings = main_statistics.check(_main(TASKS, by_task=False), _registry())
    (record,) = [r for r in caplog.records if "left out" in r.getMessage()]
    message = record.getMessage()
    assert "\n" not in message
    assert "r1, r2, r3" in message and "main.statistics.by_task: true" in message
    _, summary, _ = _run_job(tmp_path, _steps(), settings)
    assert "r1, r2, r3" in summary and "main.statistics.by_task" in summary


def test_without_the_registry_every_comparison_is_kept():
    # the rule file passes the registry; a caller without it gets both comparisons
    section = main_statistics.check(_main(TASKS))
    assert list(main_statistics.groups(section)) == ["classification", "regression"]


# ---------------------------------------------------------------------------------------------
# The diagrams: titled in words, a lower rank is better, methods by their labels
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("point", "score", "words"),
    [
        ("fixed_k5", "test_accuracy", "test accuracy at k = 5"),
        ("loo_k", "test_r2", "test R² at the k chosen by LOO"),
        ("auc", "test_accuracy", "mean test accuracy over k = 1..K"),
    ],
)
def test_an_operating_point_is_titled_in_words(point, score, words):
    assert main_statistics.point_words(point, score) == words
    title = main_statistics.diagram_title("classification", point, score, 7, 0.05)
    assert title.startswith(words[0].upper() + words[1:])
    assert "7 classification dataset(s)" in title and point not in title


def test_the_critical_difference_diagram_says_lower_is_better_and_shows_labels():
    import matplotlib.pyplot as plt

    scores = pd.DataFrame(
        {"greedy_rls": [0.9, 0.8, 0.85, 0.7], "random": [0.5, 0.6, 0.4, 0.5]},
        index=list("abcd"),
    )
    scores["lasso_path"] = scores["greedy_rls"] - 0.05
    ranks = st.average_ranks(scores)
    fig = st.plot_critical_difference(
        ranks, st.nemenyi(scores), 1.0, alpha=0.05, title="Test accuracy at k = 5"
    )
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    texts += [ax.get_title() for ax in fig.axes] + [t.get_text() for t in fig.texts]
    plt.close(fig)
    assert any("lower is better" in t for t in texts)
    # greedy_rls's plugin label; random has none and keeps its name
    assert any(t.startswith("greedy RLS") or t.endswith("greedy RLS") for t in texts)
    assert not any("greedy_rls" in t for t in texts)
    assert any("random" in t for t in texts)


# ---------------------------------------------------------------------------------------------
# The paper table: one float per task
# ---------------------------------------------------------------------------------------------
def _float(latex: str, label: str) -> str:
    floats = re.findall(r"\\begin\{table\*?\}.*?\\end\{table\*?\}", latex, re.S)
    (one,) = [f for f in floats if rf"\label{{{label}}}" in f]
    return one


def _rows(block: str) -> list[str]:
    return [line.split(" & ")[0] for line in block.splitlines() if r"\pm" in line and " & " in line]


def test_the_paper_table_has_a_float_per_task_regression_by_r2(tmp_path):
    steps_csv, tex = tmp_path / "steps.csv", tmp_path / "paper_table.tex"
    _steps().to_csv(steps_csv, index=False)
    paper_table_job(str(steps_csv), str(tex), settings={"value": "test_accuracy", "k": "loo"})
    latex = tex.read_text()
    classification = _float(latex, "tab:main-paper-table-classification")
    regression = _float(latex, "tab:main-paper-table-regression")
    assert _rows(classification) == ["c1", "c2", "c3"]
    assert _rows(regression) == ["r1", "r2", "r3"]
    assert "Test accuracy" in classification and "classification datasets" in classification
    assert "R$^2$" in regression and "regression datasets" in regression
    # methods by their labels in the header
    header = next(line for line in regression.splitlines() if line.startswith("dataset & "))
    assert "greedy RLS" in header and "greedy\\_" not in header
    # greedy_rls is best on every dataset: bold
    (r1,) = [line for line in regression.splitlines() if line.startswith("r1 & ")]
    assert r"\textbf{" in r1


def test_a_paper_table_of_one_task_is_one_float_as_before(tmp_path):
    only = {name: task for name, task in TASKS.items() if task != "regression"}
    steps_csv, tex = tmp_path / "steps.csv", tmp_path / "paper_table.tex"
    _steps(only).to_csv(steps_csv, index=False)
    paper_table_job(str(steps_csv), str(tex), settings={"columns": ["random", "greedy_rls"]})
    latex = tex.read_text()
    assert latex.count(r"\begin{table") == 1
    assert r"\label{tab:main-paper-table}" in latex
    assert re.search(r"^dataset & random & greedy RLS", latex, re.M)


def test_the_critical_difference_diagram_keeps_fifteen_long_labels_on_the_page(tmp_path):
    """The reference benchmark's diagrams (15 methods, labels such as "SVM-RFE (halves)")
    once lost the ends of their outer labels: the constrained layout, asked to fit labels
    that run out of the axes, collapsed and gave up. Read as its reader sees it: the
    two-column PNG has no ink in its outermost columns of pixels (a cut label has)."""
    import matplotlib.image

    from rlsbench.benchmark.figures import save_figure

    rng = np.random.default_rng(0)
    names = [f"method_with_a_long_name_{i:02d}" for i in range(15)]
    scores = pd.DataFrame(rng.random((30, 15)), columns=names)
    ranks = st.average_ranks(scores)
    fig = st.plot_critical_difference(
        ranks, st.nemenyi(scores), 2.4, alpha=0.05, title="Mean test accuracy over k = 1..K"
    )
    save_figure(fig, tmp_path / "cd.png")
    pixels = matplotlib.image.imread(tmp_path / "cd.png")[..., :3].mean(axis=2)  # 1 = white
    assert pixels.shape[1] > 500
    ink = pixels < 0.5
    assert ink[:, 10:-10].any()  # the diagram is drawn
    assert not ink[:, :3].any() and not ink[:, -3:].any()


@pytest.mark.parametrize(
    "names, smallest_pt",
    [
        # the reference benchmark's longest labels: they keep at least 6 pt
        (
            ["SVM-RFE (halves)", "mutual_info_binned", "marglik_forward", "stability (LARS)"]
            + [f"method_{i:02d}" for i in range(11)],
            6.0,
        ),
        # longer ones get smaller type, and still stay on the page
        ([f"method_with_a_long_name_{i:02d}" for i in range(15)], 4.0),
    ],
    ids=["benchmark-labels", "longer-labels"],
)
def test_the_one_column_critical_difference_diagram_keeps_its_labels_and_title(
    names, smallest_pt, tmp_path
):
    """At one column (3.5 in) the reference benchmark's fifteen labels took more than the
    width: the layout collapsed, the title was gone and the labels ran off both edges of the
    one-column PDF. Read as its reader sees it, the one-column file drawn as pixels: no ink
    in the outermost columns, ink in the title's rows, and the labels' type no smaller than
    ``smallest_pt``."""
    import matplotlib.image

    from rlsbench.benchmark.figures import save_figure

    rng = np.random.default_rng(0)
    scores = pd.DataFrame(rng.random((30, 15)), columns=names)
    ranks = st.average_ranks(scores)
    fig = st.plot_critical_difference(
        ranks, st.nemenyi(scores), 2.4, alpha=0.05, title="Mean test accuracy over k = 1..K"
    )
    savefig, seen = fig.savefig, {}

    def also_as_pixels(path, format=None, **kwargs):  # the one-column PDF's state, as a PNG
        savefig(path, format=format, **kwargs)
        if format == "pdf" and fig.get_size_inches()[0] < 4:
            savefig(tmp_path / "cd_1col.png", format="png", dpi=300)
            seen["sizes"] = [t.get_fontsize() for t in fig.axes[0].texts]

    fig.savefig = also_as_pixels
    save_figure(fig, tmp_path / "cd.png")
    pixels = matplotlib.image.imread(tmp_path / "cd_1col.png")[..., :3].mean(axis=2)
    assert pixels.shape[1] == pytest.approx(3.5 * 300, abs=2)
    ink = pixels < 0.5
    assert not ink[:, :3].any() and not ink[:, -3:].any()
    rows = np.flatnonzero(ink.any(axis=1))
    assert rows[0] < 0.1 * pixels.shape[0]  # the title, at the top
    assert min(seen["sizes"]) >= smallest_pt - 1e-9
