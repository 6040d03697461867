"""The selectors' λ parameters (issue 45, item 15): ``alphas=[[1, 2], [3, 4]]`` was flattened
into a grid nobody wrote, ``alphas={1, 2}`` raised a raw ``TypeError``, and ``alpha=1e-300`` was
blamed on X ("too large for float64"). Each is now one line naming the estimator (for
:class:`PluginSelector`, its method) and the parameter.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from rlsbench import GreedyRLS, PluginSelector

RNG = np.random.default_rng(0)
X = RNG.standard_normal((30, 5))
Y = np.where(X[:, 0] + 0.3 * RNG.standard_normal(30) > 0, 1, -1)

SELECTORS = {
    "PluginSelector": (
        lambda **kw: PluginSelector("fisher_score", 3, task="classification", **kw),
        r"PluginSelector\(method='fisher_score'\)",
    ),
    "GreedyRLS": (lambda **kw: GreedyRLS(3, **kw), "GreedyRLS"),
}
BAD_GRIDS = {
    "nested-list": ([[1, 2], [3, 4]], r"1-d .*shape \(2, 2\)"),
    "set": ({1, 2}, r"1-d array-like .*got a set"),
    "negative": ([1.0, -1.0], r"finite λ values > 0, got -1.0"),
    "nan": ([np.nan], r"finite λ values > 0, got nan"),
    "empty": ([], r"non-empty"),
    "words": (["a", "b"], r"must hold real numbers"),
}


@pytest.mark.parametrize(("grid", "message"), BAD_GRIDS.values(), ids=list(BAD_GRIDS))
@pytest.mark.parametrize("selector", sorted(SELECTORS))
def test_a_bad_alpha_grid_is_one_line_naming_estimator_and_parameter(selector, grid, message):
    make, owner = SELECTORS[selector]
    with pytest.raises(InvalidParameterError, match=rf"'alphas' parameter of {owner}.*{message}"):
        make(alpha="loo", alphas=grid).fit(X, Y)


@pytest.mark.parametrize("selector", sorted(SELECTORS))
def test_a_good_grid_still_chooses_from_it(selector):
    make, _ = SELECTORS[selector]
    assert make(alpha="loo", alphas=(0.5, 2.0)).fit(X, Y).alpha_ in (0.5, 2.0)
    assert make(alpha="loo", alphas=np.array([4.0])).fit(X, Y).alpha_ == 4.0


@pytest.mark.parametrize("method", ["greedy_rls", "wrapper_loo", "fisher_score"])
def test_a_tiny_alpha_is_blamed_on_alpha_and_names_the_method(method):
    task = {"task": "classification"}
    with pytest.raises(ValueError, match=r"alpha=1e-300 is too small for float64") as info:
        PluginSelector(method, 3, alpha=1e-300, **task).fit(X, Y)
    text = str(info.value)
    assert f"method '{method}' (" in text and "X is too large" not in text
    assert "\n" not in text


def test_greedy_rls_blames_a_tiny_alpha_and_still_blames_a_huge_x():
    with pytest.raises(ValueError, match=r"alpha=1e-300 is too small"):
        GreedyRLS(3, alpha=1e-300).fit(X, Y)
    with pytest.raises(ValueError, match=r"X is too large for float64"):
        GreedyRLS(3, alpha=1.0).fit(X * 1e160, Y)
