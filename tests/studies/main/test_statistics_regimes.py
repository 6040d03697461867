"""The low- and high-dimensional regimes compared apart and together
(``main.statistics.high_dim_features``, issue 41 item 2)."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pandas as pd

from rlsbench.studies.main import statistics as main_statistics

#: dataset -> (task, n_features): three classification sets on each side of 1000 features,
#: regression on one side only
SETS = {
    "c_low1": ("binary", 20),
    "c_low2": ("multiclass", 60),
    "c_low3": ("binary", 999),
    "c_high1": ("binary", 1000),
    "c_high2": ("multiclass", 7000),
    "c_high3": ("binary", 2000),
    "r_low1": ("regression", 8),
    "r_low2": ("regression", 13),
    "r_high1": ("regression", 4088),
}
#: high-dimensional sets: greedy_rls best; low-dimensional: lasso_path best
QUALITY = {
    True: {"greedy_rls": 0.9, "lasso_path": 0.8, "random": 0.6},
    False: {"greedy_rls": 0.8, "lasso_path": 0.9, "random": 0.6},
}


def _steps(sets=SETS) -> pd.DataFrame:
    rows = []
    for dataset, (task, n_features) in sets.items():
        for method, q in QUALITY[n_features >= 1000].items():
            for fold in range(3):
                for k in (1, 2, 3):
                    score = q - 0.01 * k + 0.001 * fold
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
                            "n_features": n_features,
                        }
                    )
    return pd.DataFrame(rows)


def _registry(sets=SETS):
    return {name: {"task": t, "expected": {"n_features": n}} for name, (t, n) in sets.items()}


def _main(sets=SETS, **extra):
    section = {
        "reference": "greedy_rls",
        "operating_points": {"fixed_k": 2, "loo_k": False, "auc": False},
        "alpha": 0.05,
        "rope": 0.01,
        "bayes_samples": 2000,
        "seed": 0,
        **extra,
    }
    return {"datasets": list(sets), "methods": list(QUALITY[True]), "statistics": section}


def _run_job(tmp_path, steps, settings):
    steps_csv = tmp_path / "steps.csv"
    steps.to_csv(steps_csv, index=False)
    files = main_statistics.outputs(settings)
    tables = {name: str(tmp_path / f"{name}.csv") for name in main_statistics.TABLES}
    cd = [str(tmp_path / Path(p).name) for p in files["cd"]]
    md = tmp_path / "summary.md"
    main_statistics.statistics_job(str(steps_csv), str(md), cd, settings=settings, **tables)
    return {name: pd.read_csv(path) for name, path in tables.items()}, md.read_text(), cd


def test_without_the_key_the_section_and_the_comparisons_stay_as_they_were():
    settings = main_statistics.check(_main(), _registry())
    assert "regimes" not in settings
    assert list(main_statistics.groups(settings)) == ["classification", "regression"]


def test_each_task_with_two_datasets_on_each_side_is_split_at_the_threshold():
    settings = main_statistics.check(_main(high_dim_features=1000), _registry())
    # regression has one high-dimensional set: compared together only
    assert settings["regimes"] == {
        "classification": {
            "low": ["c_low1", "c_low2", "c_low3"],
            "high": ["c_high1", "c_high2", "c_high3"],
        }
    }
    assert list(main_statistics.groups(settings)) == [
        "classification",
        "classification_low",
        "classification_high",
        "regression",
    ]


def test_the_regimes_are_ranked_on_their_own_datasets_beside_all_of_them(tmp_path):
    settings = main_statistics.check(_main(high_dim_features=1000), _registry())
    tables, summary, cd = _run_job(tmp_path, _steps(), settings)
    friedman = tables["friedman"].set_index("group")
    assert friedman.loc["classification", "n_datasets"] == 6
    assert friedman.loc["classification_low", "n_datasets"] == 3
    assert friedman.loc["classification_high", "n_datasets"] == 3
    ranks = tables["ranks"].set_index(["group", "method"])["average_rank"]
    # the data's two regimes disagree, and each comparison says so
    assert ranks["classification_high", "greedy_rls"] == 1.0
    assert ranks["classification_low", "lasso_path"] == 1.0
    assert ranks["classification", "greedy_rls"] == ranks["classification", "lasso_path"] == 1.5
    assert [Path(p).stem for p in cd] == [
        "cd_classification_fixed_k2",
        "cd_classification_low_fixed_k2",
        "cd_classification_high_fixed_k2",
        "cd_regression_fixed_k2",
    ]
    assert all(Path(p).stat().st_size > 0 for p in cd)
    assert "at least 1000 features" in summary and "## classification_high: fixed_k2" in summary


def test_a_split_no_task_allows_is_one_warning_line(caplog):
    few = {name: SETS[name] for name in ("c_low1", "c_low2", "c_high1", "r_low1")}
    with caplog.at_level(logging.WARNING):
        settings = main_statistics.check(_main(few, high_dim_features=1000), _registry(few))
    assert "regimes" not in settings
    (record,) = [r for r in caplog.records if "high_dim_features" in r.getMessage()]
    assert "\n" not in record.getMessage()


def test_diagram_titles_name_the_regime_in_words():
    title = main_statistics.diagram_title(
        "classification_high", "fixed_k5", "test_accuracy", 19, 0.05
    )
    assert "19 high-dimensional classification dataset(s)" in title
