"""A method plugin's numbers (issue 45, items 9 and 15): a path with NaN or infinite weights,
intercepts, λ, criteria or LOO errors, or with λ that are not numbers > 0, is refused with one
line naming the method, its entry point, its distribution and the field, both where the
workflow's job runs it (:func:`rlsbench.benchmark.protocol.run_select_job`) and where
:class:`rlsbench.PluginSelector` fits it; an error the plugin's own ``run`` raises names the
plugin too. Weights that are finite but so large that the protocol's scores of them overflow
float64 (issue 45, what must hold 1) are refused by the job, naming the plugin, the dataset,
the fold and the step. Nothing non-finite from a plugin reaches a row.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from rlsbench import PluginSelector
from rlsbench.benchmark.datasets import Dataset
from rlsbench.benchmark.methods import MethodPluginError
from rlsbench.benchmark.protocol import run_select_job
from rlsbench.benchmark.protocol_settings import ProtocolSettings
from tests.faults.plugin_factory import DISTRIBUTION, NAME, plugins

SETTINGS = ProtocolSettings.from_section(
    {
        "n_folds": 3,
        "cv_seed": 0,
        "random_seeds": [0],
        "alphas": {"base": 2, "min_exp": -3, "max_exp": 3},
        "criterion": "squared",
        "bias": 1.0,
        "k_max": 3,
        "k_max_per_dataset": {},
        "memory_budget_mb": 500,
        "time_budget_s": 60.0,
        "flops_per_second": 2e9,
    }
)
ALPHA = {"alpha": 1.0, "alpha_index": 3, "alpha_time_s": 0.0}
RNG = np.random.default_rng(0)
X = RNG.standard_normal((30, 5))
Y = np.where(X[:, 0] + 0.3 * RNG.standard_normal(30) > 0, 1, -1)
DATASET = Dataset("toy", "binary", X, Y, [f"f{j}" for j in range(5)])


@pytest.fixture
def method_plugin(tmp_path, monkeypatch):
    yield from plugins(tmp_path, monkeypatch)


def _job():
    return run_select_job(DATASET, NAME, 0, 0, ALPHA, SETTINGS)


def _selector():
    return PluginSelector(NAME, n_features_to_select=3, task="classification").fit(X, Y)


PATHS = {"job": _job, "selector": _selector}


def _replace(**fields):
    """A plugin body replacing fields of its (good) path."""
    args = ", ".join(f"{name}={value}" for name, value in fields.items())
    return f"path = dataclasses.replace(path, {args})"


BAD_PATHS = {
    # the plugin: NaN weights, criterion and LOO errors (status ok, accuracy 0.5)
    "nan-everything": (
        _replace(
            coef_path="path.coef_path * np.nan",
            criterion="path.criterion * np.nan",
            loo_mse="path.loo_mse * np.nan",
        ),
        "coef_path",
    ),
    "nan-weight-at-one-step": (
        "coef = path.coef_path.copy()\ncoef[1, 0] = np.nan\n" + _replace(coef_path="coef"),
        "coef_path",
    ),
    "infinite-intercept": (
        _replace(intercept_path="path.intercept_path + np.inf"),
        "intercept_path",
    ),
    "nan-criterion-at-one-step": (
        "crit = path.criterion.copy()\ncrit[2] = np.nan\n" + _replace(criterion="crit"),
        "criterion",
    ),
    "infinite-loo-mse": (_replace(loo_mse="path.loo_mse + np.inf"), "loo_mse"),
    "nan-alphas": (_replace(alphas="path.alphas * np.nan"), "alphas"),
    "negative-alphas": (_replace(alphas="np.full(k, -1.0)"), "alphas"),
    "zero-alpha-at-one-step": (_replace(alphas="np.array([1.0, 0.0, 1.0])"), "alphas"),
    "alphas-scalar": (_replace(alphas="-1"), "alphas"),
    "alphas-nested-list": (_replace(alphas="[[1, 2], [3, 4]]"), "alphas"),
    "alphas-set": (_replace(alphas="{1, 2, 3}"), "alphas"),
    "alphas-text": (_replace(alphas="np.array(['1', '2', '3'])"), "alphas"),
    "alphas-objects": (_replace(alphas="np.array([1.0, None, 2.0], dtype=object)"), "alphas"),
    "infinite-elapsed": (
        "path.info['elapsed_s'] = np.array([0.1, np.inf, 0.2])",
        r"info\['elapsed_s'\]",
    ),
}


@pytest.mark.parametrize("where", sorted(PATHS))
@pytest.mark.parametrize(("body", "field"), BAD_PATHS.values(), ids=list(BAD_PATHS))
def test_a_path_with_bad_numbers_is_refused_naming_plugin_and_field(
    method_plugin, body, field, where
):
    entry = method_plugin(body)
    with pytest.raises(MethodPluginError) as info:
        PATHS[where]()
    message = str(info.value)
    assert "\n" not in message
    assert f"method '{NAME}' ({entry}) of distribution {DISTRIBUTION}" in message
    assert re.search(rf": {field} ", message), message


@pytest.mark.parametrize(
    "body",
    [
        _replace(criterion="path.criterion * np.nan", loo_mse="path.loo_mse * np.nan"),
        "path.info['elapsed_s'] = np.full(k, np.nan)",
    ],
    ids=["no-criterion-no-loo", "no-times"],
)
def test_nan_throughout_an_optional_field_is_a_method_that_has_none(method_plugin, body):
    # SelectionPath's contract: NaN where a method has no criterion (bfs and ffs have no LOO
    # error of their own); the rows' protocol numbers stay finite
    method_plugin(body)
    rows = _job()
    assert [row["status"] for row in rows] == ["ok"] * 3
    for row in rows:
        for column in ("test_accuracy", "test_mse", "loo_accuracy", "loo_mse", "alpha"):
            assert math.isfinite(row[column]), column
    assert np.isfinite(_selector().coef_).all()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "path = ridge_path(X, y, np.arange(k), -1.0, bias=bias)",
            r"alpha must be a finite real number > 0",
        ),
        (
            "path = ridge_path(X, y, np.arange(k), 1e-300, bias=bias)",
            r"alpha=1e-300 is too small for float64.*use a larger alpha",
        ),
    ],
    ids=["alpha-negative", "alpha-1e-300"],
)
@pytest.mark.parametrize("where", sorted(PATHS))
def test_an_error_inside_the_plugin_names_the_plugin_and_blames_alpha(
    method_plugin, body, message, where
):
    entry = method_plugin(body)
    with pytest.raises(ValueError, match=message) as info:
        PATHS[where]()
    text = str(info.value)
    assert text.startswith(f"method '{NAME}' ({entry}) of distribution {DISTRIBUTION}")
    assert "X is too large" not in text and "\n" not in text


def test_a_good_plugin_is_untouched_by_the_checks(method_plugin):
    method_plugin("pass")
    rows = _job()
    assert [row["k"] for row in rows] == [1, 2, 3]
    assert all(row["status"] == "ok" for row in rows)
    assert np.isfinite(_selector().coef_).all()


REGRESSION = Dataset(
    "toy-regression",
    "regression",
    X,
    X[:, 0] + 0.3 * RNG.standard_normal(30),
    [f"f{j}" for j in range(5)],
)

HUGE_WEIGHTS = {
    # finite weights pass the path check; the test MSE (err² ~ 1e600) overflowed to inf
    "weights-1e300": (_replace(coef_path="path.coef_path * 1e300"), 1),
    # err² ~ 1e320: the squares overflow although every decision value is finite
    "weights-1e160": (_replace(coef_path="path.coef_path * 1e160"), 1),
    "intercept-1e300": (_replace(intercept_path="path.intercept_path + 1e300"), 1),
    # the decision values themselves overflow (X @ w with w = ±1e308), from step 2 on
    "weights-1e308-of-both-signs": (
        "coef = path.coef_path.copy()\ncoef[1:, 0] = 1e308\ncoef[1:, 1] = -1e308\n"
        + _replace(coef_path="coef"),
        2,
    ),
}


@pytest.mark.parametrize("dataset", [DATASET, REGRESSION], ids=["binary", "regression"])
@pytest.mark.parametrize(("body", "step"), HUGE_WEIGHTS.values(), ids=list(HUGE_WEIGHTS))
def test_finite_weights_whose_scores_overflow_are_refused_naming_plugin_dataset_and_fold(
    method_plugin, body, step, dataset
):
    entry = method_plugin(body)
    with pytest.raises(MethodPluginError) as info:
        run_select_job(dataset, NAME, 1, 0, ALPHA, SETTINGS)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"method '{NAME}' ({entry}) of distribution {DISTRIBUTION}")
    assert f"dataset '{dataset.name}' fold 1" in message, message
    assert f"step {step}:" in message, message
    assert "test MSE" in message, message


def test_large_but_scorable_weights_keep_their_rows(method_plugin):
    # a bad model is not a broken one: weights 1e100 score an MSE ~1e200, a float64 number
    method_plugin(_replace(coef_path="path.coef_path * 1e100"))
    for dataset in (DATASET, REGRESSION):
        rows = run_select_job(dataset, NAME, 1, 0, ALPHA, SETTINGS)
        assert [row["status"] for row in rows] == ["ok"] * 3
        assert all(1e150 < row["test_mse"] < math.inf for row in rows)
        if dataset.task == "regression":
            assert all(-math.inf < row["test_r2"] < -1e150 for row in rows)
