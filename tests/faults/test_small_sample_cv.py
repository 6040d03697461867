"""The protocol's rule for small samples (``cv_plan``, ``cv_splits``, ``plan_splits``, the
``cv_repeats``/``cv_repeat_below`` keys and the alpha table's ``cv_*`` columns) under faulty or
borderline input: refused with the class, key or file named, or split as stated, the same way
every time."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.protocol import cv_plan, cv_splits, plan_splits
from rlsbench.benchmark.protocol_settings import ProtocolSettings


def _labels(counts, names=None):
    names = np.arange(len(counts)) if names is None else np.asarray(names)
    return np.repeat(names, counts)


def test_a_class_of_one_member_is_refused_naming_the_class():
    y = _labels([20, 15, 1], names=["ALL", "AML", "MLL"])
    with pytest.raises(ValueError, match=r"class 'MLL' has a single example"):
        cv_plan(y, "multiclass", ProtocolSettings(n_folds=10))


def test_a_class_of_exactly_n_folds_members_keeps_the_configured_folds_and_warns_nothing():
    y = _labels([30, 5])
    settings = ProtocolSettings(n_folds=5, cv_seed=1)
    plan = cv_plan(y, "binary", settings)
    assert (plan.n_folds, plan.n_repeats, plan.rule) == (5, 1, "")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        splits = plan_splits(y, "binary", settings)
    for _, test in splits:
        assert (y[test] == 1).sum() == 1  # the small class in every test fold


def test_a_class_one_short_of_n_folds_gets_that_many_folds_with_every_class_in_every_fold():
    y = _labels([30, 4, 9])
    settings = ProtocolSettings(n_folds=5)
    plan = cv_plan(y, "multiclass", settings)
    assert plan.n_folds == 4 and plan.rule == "4 folds: the smallest class has 4 examples"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        splits = plan_splits(y, "multiclass", settings)
    assert len(splits) == 4
    for train, test in splits:
        assert set(y[train]) == set(y[test]) == {0, 1, 2}


def test_regression_with_fewer_examples_than_folds_is_refused_naming_the_key():
    settings = ProtocolSettings.from_section({"n_folds": 10}, key="main")
    with pytest.raises(ValueError, match=r"7 examples cannot make 10 folds.*main\.n_folds"):
        cv_plan(np.linspace(0.0, 1.0, 7), "regression", settings)


def test_regression_with_exactly_n_folds_examples_is_leave_one_out():
    y = np.linspace(0.0, 1.0, 6)
    splits = plan_splits(y, "regression", ProtocolSettings(n_folds=6))
    assert sorted(len(test) for _, test in splits) == [1] * 6


@pytest.mark.parametrize(
    "key, value, why",
    [
        ("cv_repeats", True, "True is not an integer >= 1"),
        ("cv_repeats", 2.0, "2.0 is not an integer >= 1"),
        ("cv_repeats", -3, "-3 is not an integer >= 1"),
        ("cv_repeats", "5", "'5' is not an integer >= 1"),
        ("cv_repeat_below", False, "False is not an integer >= 0"),
        ("cv_repeat_below", 100.5, "100.5 is not an integer >= 0"),
        ("cv_repeat_below", -1, "-1 is not an integer >= 0"),
    ],
)
def test_a_repeat_key_that_is_not_a_whole_number_is_refused_naming_it(key, value, why):
    with pytest.raises(ConfigError, match=rf"config key main\.{key}: {why}"):
        ProtocolSettings.from_section({key: value}, key="main")


def test_the_main_schema_refuses_a_bool_or_negative_repeat_count():
    import jsonschema
    import yaml

    from rlsbench.studies.main import workflow

    schema_path = next(iter(workflow.__path__)) + "/schema.yaml"
    with open(schema_path) as fh:
        schema = yaml.safe_load(fh)
    for bad in (True, -1, 0, "3"):
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors({"cv_repeats": bad}))
        assert errors, f"cv_repeats: {bad!r} passed the main schema"


def test_repeated_splits_are_the_same_every_time_and_differ_between_repetitions():
    y = _labels([12, 9])
    settings = ProtocolSettings(n_folds=3, cv_seed=7, cv_repeats=4, cv_repeat_below=100)
    first = plan_splits(y, "binary", settings)
    again = plan_splits(y.copy(), "binary", ProtocolSettings(**_fields(settings)))
    assert len(first) == 12
    for (a, b), (c, d) in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    tests = [tuple(sorted(first[r * 3][1])) for r in range(4)]
    assert len(set(tests)) == 4, "repetitions reuse one split"
    for r in range(4):  # each repetition is a partition of the samples
        covered = np.sort(np.concatenate([first[r * 3 + f][1] for f in range(3)]))
        np.testing.assert_array_equal(covered, np.arange(len(y)))


def _fields(settings):
    return {
        "n_folds": settings.n_folds,
        "cv_seed": settings.cv_seed,
        "cv_repeats": settings.cv_repeats,
        "cv_repeat_below": settings.cv_repeat_below,
    }


def test_a_plan_of_one_repetition_is_the_plain_seeded_split():
    y = _labels([10, 10])
    repeated_once = cv_splits(y, "binary", 5, 11, n_repeats=1)
    plain = cv_splits(y, "binary", 5, 11)
    for (a, b), (c, d) in zip(repeated_once, plain, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)


# ---------------------------------------------------------------------------------------------
# Jobs: the same config twice gives identical tables; a λ table of another plan is refused
# ---------------------------------------------------------------------------------------------
def _dataset(tmp_path, counts=(14, 4)):
    from rlsbench.benchmark.datasets.prepare import Dataset, save_prepared

    rng = np.random.default_rng(3)
    y = np.where(_labels(list(counts)) == 0, -1.0, 1.0)
    X = rng.standard_normal((len(y), 5))
    path = tmp_path / "tiny.npz"
    names = [f"x{j}" for j in range(5)]
    save_prepared(Dataset(name="tiny", task="binary", X=X, y=y, feature_names=names), path)
    return path


SETTINGS = {"n_folds": 10, "cv_seed": 0, "cv_repeats": 3, "cv_repeat_below": 50, "k_max": 3}


def _without_timings(path):
    frame = pd.read_csv(path)
    timing = [c for c in frame.columns if c.endswith("_s") or c.endswith("_mb")]
    return frame.drop(columns=timing)


def test_the_same_config_twice_gives_identical_alpha_and_select_tables(tmp_path):
    from rlsbench.benchmark.jobs import alpha_job, select_job

    data = _dataset(tmp_path)
    settings = ProtocolSettings.from_section(SETTINGS)
    tables = []
    for run in ("a", "b"):
        alphas = tmp_path / f"alphas-{run}.csv"
        steps = tmp_path / f"steps-{run}.csv"
        alpha_job(str(data), str(alphas), settings=settings.alpha_settings())
        select_job(
            str(data), str(alphas), str(steps), method="f_test",
            settings=settings.job_settings("tiny"),
        )  # fmt: skip
        tables.append((_without_timings(alphas), _without_timings(steps)))
    alphas = tables[0][0]
    assert set(alphas["cv_folds"]) == {4} and set(alphas["cv_repeats"]) == {3}
    assert list(alphas["fold"]) == list(range(12))
    pd.testing.assert_frame_equal(tables[0][0], tables[1][0])
    pd.testing.assert_frame_equal(tables[0][1], tables[1][1])


@pytest.mark.parametrize(
    "alpha_section",
    [
        {"n_folds": 10, "cv_seed": 0, "k_max": 3},  # 4 splits where the plan has 12
        {"n_folds": 10, "cv_seed": 0, "cv_repeats": 5, "cv_repeat_below": 50, "k_max": 3},
        {"n_folds": 2, "cv_seed": 0, "cv_repeats": 6, "cv_repeat_below": 50, "k_max": 3},
    ],
    ids=["fewer-splits", "more-splits", "same-count-other-folds"],
)
def test_a_select_job_refuses_an_alpha_table_of_another_plan(tmp_path, alpha_section):
    from rlsbench.benchmark.jobs import alpha_job, select_job

    data = _dataset(tmp_path)
    alphas = tmp_path / "alphas.csv"
    alpha_job(str(data), str(alphas), settings=alpha_section)
    steps = tmp_path / "steps.csv"
    settings = ProtocolSettings.from_section(SETTINGS)
    with pytest.raises(ValueError, match=r"alphas\.csv.*plan") as info:
        select_job(
            str(data), str(alphas), str(steps), method="f_test",
            settings=settings.job_settings("tiny"),
        )  # fmt: skip
    assert "\n" not in str(info.value)
    assert not steps.exists()
