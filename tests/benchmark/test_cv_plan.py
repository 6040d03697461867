"""The protocol's rule for small samples (issue 41 item 3): fewer folds where a class is smaller
than ``n_folds``, repeated splits below ``cv_repeat_below`` examples, each stated and recorded."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.protocol import CVPlan, cv_plan, cv_splits, plan_splits
from rlsbench.benchmark.protocol_settings import ProtocolSettings


def _labels(counts):
    return np.repeat(np.arange(len(counts)), counts)


def test_a_plain_dataset_keeps_the_configured_split():
    y = _labels([40, 30])
    settings = ProtocolSettings(n_folds=10, cv_seed=3)
    plan = cv_plan(y, "binary", settings)
    assert plan == CVPlan(n_folds=10, n_repeats=1, rule="")
    from sklearn.model_selection import StratifiedKFold

    expected = StratifiedKFold(10, shuffle=True, random_state=3).split(np.zeros((70, 1)), y)
    for (a, b), (c, d) in zip(plan_splits(y, "binary", settings), expected, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)


def test_a_class_smaller_than_the_folds_gets_fewer_folds_and_no_library_warning():
    y = _labels([30, 20, 4, 2])  # lymphoma-like: two classes of 2 and 4
    settings = ProtocolSettings(n_folds=10)
    plan = cv_plan(y, "multiclass", settings)
    assert plan.n_folds == 2 and plan.n_repeats == 1
    assert plan.rule == "2 folds: the smallest class has 2 examples"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # scikit-learn's "least populated class" would raise
        splits = plan_splits(y, "multiclass", settings)
    assert len(splits) == 2
    for train, test in splits:
        assert set(y[train]) == set(y[test]) == {0, 1, 2, 3}  # every class in every fold


def test_a_class_of_one_example_is_refused_by_name():
    with pytest.raises(ValueError, match="class 2 has a single example"):
        cv_plan(_labels([10, 10, 1]), "multiclass", ProtocolSettings(n_folds=5))


def test_few_samples_are_split_repeatedly_and_the_first_repetition_is_the_plain_split():
    y = _labels([35, 25])
    settings = ProtocolSettings(n_folds=5, cv_seed=7, cv_repeats=3, cv_repeat_below=100)
    plan = cv_plan(y, "binary", settings)
    assert (plan.n_folds, plan.n_repeats, plan.n_splits) == (5, 3, 15)
    assert plan.rule == "3 repetitions: 60 examples < main.cv_repeat_below (100)"
    splits = plan_splits(y, "binary", settings)
    plain = cv_splits(y, "binary", 5, 7)
    for (a, b), (c, d) in zip(splits[:5], plain, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    # each repetition is a partition of the rows, and the repetitions differ
    tests = [np.sort(np.concatenate([t for _, t in splits[r * 5 : (r + 1) * 5]])) for r in range(3)]
    for t in tests:
        np.testing.assert_array_equal(t, np.arange(60))
    assert not np.array_equal(splits[0][1], splits[5][1])
    # at or above the threshold: one split
    big = ProtocolSettings(n_folds=5, cv_repeats=3, cv_repeat_below=60)
    assert cv_plan(y, "binary", big).n_repeats == 1


def test_regression_is_repeated_too_and_too_few_examples_are_refused():
    y = np.linspace(0, 1, 30)
    settings = ProtocolSettings(n_folds=10, cv_repeats=2, cv_repeat_below=50)
    assert cv_plan(y, "regression", settings).n_splits == 20
    with pytest.raises(ValueError, match="8 examples cannot make 10 folds"):
        cv_plan(y[:8], "regression", settings)


def test_the_repeat_keys_are_settings_a_result_depends_on_only_when_written():
    plain = ProtocolSettings.from_section({"n_folds": 10, "cv_seed": 0})
    assert "cv_repeats" not in plain.job_settings("x")  # hashes of existing runs unchanged
    repeated = ProtocolSettings.from_section({"cv_repeats": 5, "cv_repeat_below": 200})
    assert repeated.job_settings("x")["cv_repeats"] == 5
    assert repeated.alpha_settings()["cv_repeat_below"] == 200
    with pytest.raises(ConfigError, match="main.cv_repeats: 0 is not an integer >= 1"):
        ProtocolSettings.from_section({"cv_repeats": 0})


def test_the_alpha_table_records_the_rule_of_a_departing_dataset(tmp_path):
    from rlsbench.benchmark.datasets.prepare import Dataset, save_prepared
    from rlsbench.benchmark.jobs import alpha_job

    rng = np.random.default_rng(0)
    y = np.where(_labels([25, 3]) == 0, -1.0, 1.0)
    X = rng.standard_normal((28, 4))
    data = tmp_path / "tiny.npz"
    names = [f"x{j}" for j in range(4)]
    save_prepared(Dataset(name="tiny", task="binary", X=X, y=y, feature_names=names), data)
    table = tmp_path / "alphas.csv"
    alpha_job(str(data), str(table), settings={"n_folds": 10, "cv_seed": 0})
    frame = pd.read_csv(table)
    assert list(frame["fold"]) == [0, 1, 2]
    assert set(frame["cv_folds"]) == {3} and set(frame["cv_repeats"]) == {1}
    assert set(frame["cv_rule"]) == {"3 folds: the smallest class has 3 examples"}
