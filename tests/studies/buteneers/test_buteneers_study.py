"""The Buteneers et al. study: the paper's input coding, the deterministic step budget of the
covariance-variant selections and its time estimate, the task job run twice, the
investigations on a tiny task."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from rlsbench.benchmark.config import ConfigError, validate_section
from rlsbench.benchmark.methods.kfold import covariance_time_estimate
from rlsbench.estimators import ELMFeatures
from rlsbench.numerics.ridgecv.elm import independent_columns
from rlsbench.numerics.ridgecv.ffs_bfs import backward_selection, forward_selection
from rlsbench.numerics.ridgecv.kfold_lambda import fold_statistics, lambda_grid, make_folds
from rlsbench.studies.buteneers.experiment import TIMING_COLUMNS, run_task
from rlsbench.studies.buteneers.inputs import onehot_groups, ordinal_categoricals

REPO = Path(__file__).resolve().parents[3]
SCHEMA = REPO / "src" / "rlsbench" / "studies" / "buteneers" / "workflow" / "schema.yaml"


# ---------------------------------------------------------------------------------------------
# Inputs as Table 6 counts them
# ---------------------------------------------------------------------------------------------
def test_one_hot_groups_become_one_column_of_sorted_level_indices():
    names = ["motor=E", "motor=A", "len", "gain=10", "gain=2", "x=only"]
    X = np.array(
        [
            [1, 0, 0.5, 0, 1, 1],
            [0, 1, 1.5, 1, 0, 1],
            [1, 0, 2.5, 0, 1, 1],
        ],
        dtype=float,
    )
    assert onehot_groups(names) == {"motor": [0, 1], "gain": [3, 4]}
    out, out_names = ordinal_categoricals(X, names)
    assert out_names == ["motor", "len", "gain", "x=only"]
    # A < E; 2 < 10 by value, not as text
    np.testing.assert_array_equal(out[:, 0], [1, 0, 1])
    np.testing.assert_array_equal(out[:, 2], [0, 1, 0])
    np.testing.assert_array_equal(out[:, [1, 3]], X[:, [2, 5]])


def test_a_group_that_is_not_one_hot_is_refused():
    X = np.array([[1, 1, 0.0], [0, 1, 1.0]])
    with pytest.raises(ValueError, match="not one-hot"):
        ordinal_categoricals(X, ["a=x", "a=y", "b"])
    with pytest.raises(ValueError, match="2 column names for 3 columns"):
        ordinal_categoricals(X, ["a=x", "a=y"])


def test_independent_columns_drop_constants_and_linear_combinations():
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((50, 4))
    cols = np.column_stack(
        [Z[:, 0], np.full(50, 3.0), Z[:, 1], Z[:, 0] - 2 * Z[:, 1] + 7, Z[:, 2], Z[:, 3]]
    )
    assert independent_columns(cols).tolist() == [0, 2, 4, 5]
    # one-hot columns of one attribute sum to the constant: one of them is dependent
    onehot = np.eye(3)[rng.integers(0, 3, 50)]
    assert independent_columns(np.column_stack([onehot, Z[:, 0]])).tolist() == [0, 1, 3]


def test_elm_with_independent_inputs_counts_them_once():
    rng = np.random.default_rng(1)
    U = rng.standard_normal((40, 3))
    U = np.column_stack([U, U[:, 0] + U[:, 1], np.ones(40)])  # 5 columns, 3 independent
    elm = ELMFeatures(n_hidden=6, inputs="independent", random_state=0).fit(U)
    assert elm.inputs_.tolist() == [0, 1, 2]
    assert elm.transform(U).shape == (40, 6 + 3 + 1)
    assert ELMFeatures(n_hidden=6, random_state=0).fit(U).transform(U).shape == (40, 6 + 5 + 1)
    with pytest.raises(ValueError, match="inputs must be"):
        ELMFeatures(inputs="some").fit(U)
    with pytest.raises(ValueError, match="every input column is constant"):
        ELMFeatures(inputs="independent").fit(np.ones((5, 2)))


# ---------------------------------------------------------------------------------------------
# The covariance variants: a budget in steps, an estimated full time
# ---------------------------------------------------------------------------------------------
def _problem(seed=0, m=90, n=8):
    rng = np.random.default_rng(seed)
    X = np.hstack([rng.standard_normal((m, n)), np.ones((m, 1))])
    y = X[:, :3] @ [1.0, -0.8, 0.5] + 0.4 * rng.standard_normal(m)
    return X, y


@pytest.mark.parametrize("run", [forward_selection, backward_selection])
def test_time_estimate_covers_every_step_of_the_eigen_path(run):
    X, y = _problem()
    stats = fold_statistics(X, y, make_folds(90, 4, seed=0))
    lambdas = lambda_grid(stats.A, 6)
    eig = run(stats, lambdas, fixed=[8], run_to_end=False)
    est = covariance_time_estimate(stats, lambdas, eig, n_probes=3, probe_sets=2)
    assert est["per_step"].shape == eig.order.shape
    assert np.all(est["per_step"] > 0) and est["initial"] > 0
    np.testing.assert_allclose(est["total"], est["initial"] + est["per_step"].sum())
    sizes = est["probe_sizes"]
    assert sizes == sorted(sizes) and 1 <= len(sizes) <= 3
    J = eig.order.shape[0]  # sets of size |S| ± 1, the bias column counted
    first, last = (2, J + 1) if run is forward_selection else (8, 9 - J)
    assert {min(sizes), max(sizes)} == {min(first, last), max(first, last)}


def _rows(covariance_steps, seed=0):
    X, y = _problem(seed, m=120)
    return run_task(
        X[:80],
        y[:80],
        X[80:],
        y[80:],
        task="regression",
        n_folds=4,
        n_lambdas=8,
        seed=seed,
        fixed=[8],
        covariance_steps=covariance_steps,
    )


def test_a_cut_covariance_run_has_no_model_agrees_with_eigen_and_an_estimate():
    by = {r["method"]: r for r in _rows({"ffs": 1, "bfs": 0})}
    ffs, bfs = by["ffs_covariance"], by["bfs_covariance"]
    for r, budget in ((ffs, 1), (bfs, 0)):
        twin = by[r["method"].replace("covariance", "eigen")]
        assert r["cut_by_budget"] and r["step_budget"] == budget and r["n_steps"] == budget
        assert r["steps_needed"] == twin["n_steps"] > budget
        assert np.isnan(r["error"]) and np.isnan(r["pct_removed"]) and np.isnan(r["n_selected"])
        assert r["t_opt_estimate"] > 0
        assert not twin["cut_by_budget"] and np.isfinite(twin["error"])
    assert ffs["agrees_with_eigen"] is True and np.isfinite(ffs["estimate_check"])
    assert bfs["agrees_with_eigen"] is True and np.isfinite(bfs["estimate_check"])  # first set


def test_without_a_budget_the_covariance_run_is_the_eigen_run():
    by = {r["method"]: r for r in _rows(None)}
    for fs in ("ffs", "bfs"):
        cov, eig = by[f"{fs}_covariance"], by[f"{fs}_eigen"]
        assert not cov["cut_by_budget"] and cov["agrees_with_eigen"] is True
        assert (cov["n_selected"], cov["alpha"], cov["n_steps"]) == (
            eig["n_selected"],
            eig["alpha"],
            eig["n_steps"],
        )
        assert np.isnan(cov["t_opt_estimate"])


@pytest.mark.parametrize("bad", [-1, 1.5, {"ffs": -2}, {"lars": 1}])
def test_a_bad_budget_is_refused(bad):
    with pytest.raises(ValueError, match="covariance_steps"):
        _rows(bad)


def test_two_runs_give_the_same_rows_apart_from_the_times():
    one, two = pd.DataFrame(_rows(2)), pd.DataFrame(_rows(2))
    assert set(TIMING_COLUMNS) - {"t_features"} <= set(one.columns)
    pd.testing.assert_frame_equal(
        one.drop(columns=[c for c in TIMING_COLUMNS if c in one]),
        two.drop(columns=[c for c in TIMING_COLUMNS if c in two]),
    )


# ---------------------------------------------------------------------------------------------
# Config: the budget is in steps; no wall-clock key is left
# ---------------------------------------------------------------------------------------------
def _section(**extra):
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["buteneers"]
    return dict(config, **extra)


@pytest.mark.parametrize("steps", [None, 0, 3, {"ffs": 3, "bfs": 1}, {"bfs": None}])
def test_the_schema_takes_a_step_budget(steps):
    validate_section(_section(covariance_steps=steps), SCHEMA, "buteneers")


@pytest.mark.parametrize(
    "extra",
    [
        {"fs_max_seconds": 60},
        {"covariance_steps": 2.5},
        {"covariance_steps": {"ffs": 1, "lars": 2}},
    ],
)
def test_the_schema_refuses_a_time_budget_and_bad_steps(extra):
    with pytest.raises(ConfigError, match="buteneers"):
        validate_section(_section(**extra), SCHEMA, "buteneers")


@pytest.mark.parametrize(
    "options", [{}, {"lars": {}}, {"lars": {"path": "lar", "stop": "cv"}}, {"lars": {"stop": 7}}]
)
def test_the_schema_takes_lars_options(options):
    validate_section(_section(method_options=options), SCHEMA, "buteneers")


@pytest.mark.parametrize(
    "options",
    [
        {"lars": {"path": "least-angle"}},
        {"lars": {"stop": 0}},
        {"lars": {"stop": "bic"}},
        {"lars": {"stop": 2.5}},
        {"lars": {"n_steps": 3}},
        {"ffs_eigen": {"variant": "covariance"}},
    ],
)
def test_the_schema_refuses_bad_lars_options(options):
    with pytest.raises(ConfigError, match="buteneers"):
        validate_section(_section(method_options=options), SCHEMA, "buteneers")


def test_the_paper_config_has_canc_and_pric_at_the_papers_sizes_and_no_stand_in():
    section = yaml.safe_load((REPO / "config" / "paper.yaml").read_text())["buteneers"]
    validate_section(section, SCHEMA, "buteneers")
    tasks = {t.get("paper"): t for t in section["tasks"]}
    assert set(tasks) == {
        "adult",
        "abalone",
        "ailerons",
        "bank32nh",
        "cancer",
        "elevators",
        "price",
        "servo",
    }
    assert (tasks["cancer"]["dataset"], tasks["cancer"]["n_train"]) == (
        "breast-cancer-prognostic",
        129,
    )
    assert (tasks["price"]["dataset"], tasks["price"]["n_train"]) == ("auto-price", 106)
    assert all((t["n_folds"], t["n_lambdas"]) == (20, 80) for k, t in tasks.items() if k != "adult")
    assert not any("stands_in_for" in t for t in section["tasks"])


# ---------------------------------------------------------------------------------------------
# Investigations on a tiny task
# ---------------------------------------------------------------------------------------------
TINY_TASK = {
    "name": "diabetes-elm",
    "dataset": "diabetes",
    "paper": "abalone",
    "n_train": 200,
    "n_folds": 3,
    "n_lambdas": 5,
    "features": {"kind": "elm", "n_hidden": 8},
}


#: The grids of the buteneers investigations.
GRIDS = REPO / "config" / "investigations" / "buteneers.yaml"
PAPER_CODING = {"categorical": "ordinal", "inputs": "independent"}


def _grid(name, **overrides):
    from rlsbench.benchmark.investigate import load_section
    from rlsbench.studies.buteneers.investigations import INVESTIGATIONS

    return load_section(GRIDS, name, INVESTIGATIONS[name].keys, overrides)


def test_a_case_runs_the_eigen_methods_without_times(tmp_path):
    from rlsbench.studies.buteneers.investigations import run_case

    methods = tuple(_grid("repeats")["methods"])
    rows = run_case(TINY_TASK, 0, "paper", PAPER_CODING, [], str(tmp_path), methods)
    assert [r["method"] for r in rows] == list(methods)
    assert {r["n_features"] for r in rows} == {8 + 10}
    assert not any(k.startswith("t_") for r in rows for k in r)
    again = run_case(TINY_TASK, 0, "paper", PAPER_CODING, [], str(tmp_path), methods)
    assert pd.DataFrame(rows).equals(pd.DataFrame(again))


def test_a_case_runs_the_lars_column_with_the_tasks_method_options(tmp_path):
    """A variant's options (plain LARS) reach the investigations' runs through the task."""
    from rlsbench.studies.buteneers.investigations import run_case

    methods = ("rr_eigen", "lars")
    default = run_case(TINY_TASK, 0, "paper", PAPER_CODING, [], str(tmp_path), methods)
    plain = dict(TINY_TASK, method_options={"lars": {"path": "lar", "stop": "cv"}})
    plain = run_case(plain, 0, "paper", PAPER_CODING, [], str(tmp_path), methods)
    assert plain[0] == default[0]  # RR is not touched
    assert plain[1]["method"] == "lars" and plain[1] != default[1]


def test_encoding_and_repeats_check_the_claims_per_run(tmp_path):
    from rlsbench.studies.buteneers.investigations import (
        encoding,
        encoding_markdown,
        grid,
        grid_markdown,
        repeats,
        repeats_markdown,
    )

    tasks, methods = [TINY_TASK], _grid("encoding")["methods"]
    frame, claims = encoding(tasks, 0, _grid("encoding"), [], str(tmp_path))
    assert set(frame["coding"]) == {"paper", "former"}
    assert set(claims["coding"]) == {"paper", "former"}
    assert {"B3", "B5", "B7"} <= set(claims["claim"])
    text = encoding_markdown(frame, claims, {"abalone": 108}, methods)
    assert "| abalone" in text and "108" in text
    frame, claims = repeats(tasks, [0, 1], _grid("repeats"), [], str(tmp_path))
    assert sorted(frame["seed"].unique()) == [0, 1]
    assert "of 2" in repeats_markdown(frame, claims, methods)
    frame, claims = grid(tasks, 0, _grid("grid", lows=[1e-8, 1e-2]), [], str(tmp_path))
    assert sorted(frame["lambda_low"].unique()) == [1e-8, 1e-2]
    alphas = frame.groupby("lambda_low")["alpha"].min()
    assert alphas[1e-2] > alphas[1e-8]  # the raised floor cuts off the smallest λ chosen
    assert "lambda_low 0.01" in grid_markdown(frame, claims, methods)


def test_the_command_line_names_a_config_without_elm_tasks(tmp_path, capsys):
    from rlsbench.benchmark.cli import main

    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml.safe_dump({"buteneers": {"seed": 0, "tasks": []}}))
    argv = ["investigate", "buteneers", "encoding", "--config", str(GRIDS)]
    argv += ["--paper-config", str(cfg), "--mirror", str(tmp_path), "--out", str(tmp_path)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "no ELM task of the paper" in err and str(cfg) in err


def test_the_claim_checks_on_the_papers_own_numbers(tmp_path, capsys):
    from rlsbench.benchmark.cli import main

    argv = ["investigate", "buteneers", "paper", "--config", str(GRIDS), "--out", str(tmp_path)]
    assert main(argv) == 0
    claims = pd.read_csv(tmp_path / "paper_claims.csv")
    holds = {(c, s): h for c, s, h in zip(claims["claim"], claims["scope"], claims["holds"])}
    # the paper's Tables 3 and 5: BFS below FFS on 4 of 8 tasks; Elevators' BFS removes 38 %
    assert str(holds[("B3", "all tasks")]) == "False"
    assert str(holds[("B9", "elevators")]) == "False" and str(holds[("B7", "all tasks")]) == "True"
    assert "4 of 8" in (tmp_path / "paper.md").read_text()
    text = (tmp_path / "paper.md").read_text()
    assert "Made by `rlsbench investigate buteneers paper --config" in text
    (tmp_path / "paper.md").unlink()
    assert main([*argv, "--markdown-only"]) == 0
    assert (tmp_path / "paper.md").read_text() == text


def test_timing_n_times_the_parts_sweep_on_the_grids_sizes_and_b14_reads_it(tmp_path):
    from rlsbench.benchmark.cli import main
    from rlsbench.studies.buteneers.ledger import CHECKS
    from rlsbench.studies.fidelity.ours import RunTree

    timing = {"M_fixed": 300, "n_folds": 3, "n_lambdas": 5, "M_values": [300], "N_fixed": 5}
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml.safe_dump({"buteneers": {"seed": 0, "tasks": [], "timing": timing}}))
    out = tmp_path / "buteneers" / "investigations"
    argv = ["investigate", "buteneers", "timing_n", "--config", str(GRIDS)]
    argv += ["--paper-config", str(cfg), "--out", str(out)]
    argv += ["--set", "N_values=[4, 8, 16]", "--set", "repeats=2"]
    assert main(argv) == 0
    frame = pd.read_csv(out / "timing_n.csv")
    # the part's M, folds and λ grid; the grid's sizes, method and repeats, laid out as timing.csv
    assert list(frame["N"]) == [4, 8, 16] and set(frame["method"]) == {"rr_eigen"}
    assert (frame["M"] == 300).all() and (frame["n_folds"] == 3).all()
    assert (frame["sweep"] == "N").all() and (frame["repeats"] == 2).all()
    assert (frame["t_opt"] > 0).all()
    assert "Fitted growth exponent of t_opt in N: rr_eigen" in (out / "timing_n.md").read_text()
    # B14 fits on the investigation where it ran (the part's own timing.csv is absent here)
    (b14,) = CHECKS["B14"](RunTree(tmp_path))
    assert "3 sizes N = 4…16, M = 300" in b14.ours


def test_the_default_configs_task_job_writes_the_same_table_twice_but_for_times(tmp_path):
    from rlsbench.benchmark.datasets import fetch
    from rlsbench.studies.buteneers import config as buteneers_config
    from rlsbench.studies.buteneers.jobs import task_job

    section = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["buteneers"]
    name, task = next(iter(buteneers_config.tasks(section).items()))
    data = fetch(task["dataset"], cache_dir=tmp_path / "cache")
    common = buteneers_config.common(section)
    assert common["covariance_steps"] == 2 and "fs_max_seconds" not in common
    tables = []
    for run in ("a", "b"):
        out = tmp_path / f"{run}.csv"
        task_job(str(out), name=name, task=task, common=common, threads=1, data=str(data))
        tables.append(pd.read_csv(out).drop(columns=list(TIMING_COLUMNS)))
    pd.testing.assert_frame_equal(*tables)
    cut = tables[0][tables[0]["cut_by_budget"]]
    assert set(cut["method"]) == {"ffs_covariance", "bfs_covariance"}
    assert (cut["n_steps"] == 2).all() and cut["agrees_with_eigen"].all()
