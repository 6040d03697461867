"""A method plugin that writes into its input (issue 45, item 10): ``X *= 1000`` inside
``run`` changed the training split the protocol then scored, so the rows' LOO numbers and the
k chosen by LOO were those of the mutated array. :meth:`Method.select` hands ``run`` read-only
views: writing into them is refused with one line naming the plugin, and the protocol's numbers
are those of a plugin that leaves its input alone.
"""

from __future__ import annotations

import numpy as np
import pytest

from rlsbench import PluginSelector
from rlsbench.benchmark.datasets import Dataset
from rlsbench.benchmark.methods import MethodPluginError
from rlsbench.benchmark.protocol import run_select_job
from tests.faults.plugin_factory import DISTRIBUTION, NAME, plugins
from tests.faults.test_plugin_numbers import ALPHA, SETTINGS

RNG = np.random.default_rng(1)
X = RNG.standard_normal((30, 5))
Y_REAL = X @ RNG.standard_normal(5) + 0.3 * RNG.standard_normal(30)
TARGETS = {"binary": np.where(Y_REAL > np.median(Y_REAL), 1, -1), "regression": Y_REAL}
PROTOCOL_COLUMNS = ("loo_accuracy", "loo_mse", "test_accuracy", "test_mse", "feature")

MUTATIONS = {
    "X-scaled": "X *= 1000",
    "X-column-zeroed": "X[:, 0] = 0.0",
    "y-flipped": "y *= -1",
    "X-sorted": "X.sort(axis=0)",
    "X-through-out": "np.multiply(X, 2.0, out=X)",
}


@pytest.fixture
def method_plugin(tmp_path, monkeypatch):
    yield from plugins(tmp_path, monkeypatch)


def _dataset(task):
    return Dataset("toy", task, X.copy(), TARGETS[task].copy(), [f"f{j}" for j in range(5)])


def _job(task="binary"):
    return run_select_job(_dataset(task), NAME, 0, 0, ALPHA, SETTINGS)


def _protocol_numbers(rows):
    return [[row[c] for c in PROTOCOL_COLUMNS] for row in rows]


@pytest.mark.parametrize("task", sorted(TARGETS))
@pytest.mark.parametrize("mutation", MUTATIONS.values(), ids=list(MUTATIONS))
def test_a_plugin_writing_into_its_input_is_refused_naming_it_in_the_job(
    method_plugin, mutation, task
):
    entry = method_plugin(f"{mutation}\npath = ridge_path(X, y, np.arange(k), alpha, bias=bias)")
    with pytest.raises(MethodPluginError, match="wrote into its input X or y in place") as info:
        _job(task)
    assert f"method '{NAME}' ({entry}) of distribution {DISTRIBUTION}" in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("standardize", [True, False])
@pytest.mark.parametrize("mutation", MUTATIONS.values(), ids=list(MUTATIONS))
def test_the_selector_refuses_it_and_the_callers_arrays_stay_as_they_were(
    method_plugin, mutation, standardize
):
    entry = method_plugin(mutation)
    X_user, y_user = X.copy(), TARGETS["regression"].copy()
    selector = PluginSelector(NAME, n_features_to_select=3, standardize=standardize)
    with pytest.raises(MethodPluginError, match=rf"'{NAME}' \({entry}\).*wrote into its input"):
        selector.fit(X_user, y_user)
    np.testing.assert_array_equal(X_user, X)
    np.testing.assert_array_equal(y_user, TARGETS["regression"])


def test_the_protocols_numbers_do_not_depend_on_what_a_plugin_does_to_its_own_copy(
    method_plugin,
):
    # the same features and λ: the protocol's LOO and test numbers of the two plugins agree
    method_plugin("pass")
    plain = _protocol_numbers(_job())
    method_plugin(
        "X = X.copy()\nX *= 1000\n"
        "path = dataclasses.replace(path, selected=ridge_path(X, y, np.arange(k), alpha).selected)"
    )
    assert _protocol_numbers(_job()) == plain
