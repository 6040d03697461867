"""Property tests: the RLS selectors never return an invalid selection (issue 19, item 2).

Over random small problems (shapes, per-column scales from 1e-150 to 1e150, duplicate and
constant columns, λ from 1e-12 to 1e12, bias on or off), greedy RLS (both backends), the
low-rank LS-SVM and the wrapper either all refuse with :class:`SelectionError` or all return
``k`` distinct in-range features, and every round's choice is the best candidate up to ties.

"Up to ties" is judged against a reference, not against one another: every selector's path is
re-scored step by step with an independent LOO computation (SVD of the candidate set's design,
:func:`reference_loo_mse`), and the feature a selector added at step s must score within a
tolerance of the best candidate of that step, given the selector's own prefix. Two candidates
whose scores differ by less than the tolerance are a tie that rounding may decide either way;
a choice worse than the best by more than that fails, so the check keeps its teeth (a selector
that picks the second-best feature, a repeated feature or a non-finite score fails it).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlsbench.numerics.selection import (
    SelectionError,
    greedy_rls,
    lowrank_lssvm,
    pick_winner,
    ridge_path,
    wrapper,
)
from rlsbench.numerics.selection._common import MAX_DYNAMIC_RANGE
from rlsbench.numerics.selection._scoring import HAVE_NUMBA

SELECTORS = {
    "greedy_numpy": lambda *a, **kw: greedy_rls(*a, backend="numpy", **kw),
    "lowrank": lowrank_lssvm,
    "wrapper": wrapper,
}
if HAVE_NUMBA:
    SELECTORS["greedy_numba"] = lambda *a, **kw: greedy_rls(*a, backend="numba", **kw)

#: Relative tolerance of the step-wise optimality check, beyond the conditioning term.
RTOL = 1e-8
#: Rounding units per unit of conditioning that the selectors' scores may be off by (their
#: formulas accumulate k rank-one downdates over m rows).
TOL_EPS = 1e4
EPS = np.finfo(np.float64).eps


def reference_loo_mse(X, y, cols, alpha, bias):
    """Mean squared LOO error (summed over outputs) of RLS on ``X[:, cols]`` (+ bias column).

    Independent of the selectors' formulas: hat matrix ``H = U diag(σ²/(σ²+λ)) Uᵀ`` from an
    SVD of the design, LOO residuals ``(y - H y) / (1 - H_jj)`` (eq. 7).

    Returns
    -------
    mse : float
    conditioning : float
        How much the rounding of any formula of the LOO residuals ``a_j / G_jj`` is
        amplified: ``1 / min_j (1 - H_jj)`` (the cancellation in ``G_jj``, a leverage near 1)
        times ``‖y‖ / ‖y - Hy‖`` (the cancellation in ``a = G y``, a near-perfect fit).
        Column scales and λ enter only through these, as they do in the errors of greedy RLS
        and the low-rank LS-SVM (rank-one updates from ``G = I/λ``).
    gram_conditioning : float
        ``conditioning`` times the condition number of ``AᵀA + λI``: the wrapper's shortcut
        forms that Gram matrix (eq. 7/8), so column scales far apart cost it accuracy.
    """
    m = X.shape[0]
    A = X[:, cols]
    if bias:
        A = np.hstack([A, np.full((m, 1), bias)])
    U, sv, _ = np.linalg.svd(A, full_matrices=False)
    shrink = sv**2 / (sv**2 + alpha)
    Y = y.reshape(m, -1)
    fitted = U @ (shrink[:, None] * (U.T @ Y))
    h = np.einsum("ij,j,ij->i", U, shrink, U)
    one_minus_h = 1.0 - h
    fit_residual = np.linalg.norm(Y - fitted)
    if not (one_minus_h.min() > 0 and fit_residual > 0):  # unresolvable in float64
        return np.inf, np.inf, np.inf
    residuals = (Y - fitted) / one_minus_h[:, None]
    cond = np.linalg.norm(Y) / fit_residual / one_minus_h.min()
    gram_cond = (sv.max() ** 2 + alpha) / (sv.min() ** 2 + alpha) if sv.size else 1.0
    return float(np.sum(residuals**2) / m), float(cond), float(cond * gram_cond)


def resolvable(cond):
    """Whether float64 resolves LOO scores of this conditioning to better than 100 %."""
    return TOL_EPS * EPS * cond < 1.0


def assert_valid_and_stepwise_optimal(name, selected, X, y, k, alpha, bias, *, gram=None):
    """Check a path; return whether float64 resolved every one of its steps' scores.

    ``gram`` (default True) judges resolution by the Gram matrix's conditioning (see
    :func:`reference_loo_mse`); False by the leverage and fit alone, which the wrapper's
    Gram-matrix formulas need and the rank-one updates of greedy RLS and the low-rank LS-SVM
    do not always meet either (columns 1e24 apart: their scores then differ from the
    reference by more than ``TOL_EPS`` rounding units per unit of that conditioning).
    """
    gram = True if gram is None else gram
    n = X.shape[1]
    assert selected.shape == (k,), name
    assert np.all((selected >= 0) & (selected < n)), f"{name}: index out of range {selected}"
    assert np.unique(selected).size == k, f"{name}: repeated feature in {selected}"
    for step in range(k):
        prefix = selected[:step].tolist()
        scores = {}
        worst_cond = 1.0
        for i in range(n):
            if i in prefix:
                continue
            scores[i], cond, gram_cond = reference_loo_mse(X, y, prefix + [i], alpha, bias)
            worst_cond = max(worst_cond, gram_cond if gram else cond)
        if not resolvable(worst_cond):
            # the step's scores are rounding noise (see ``resolvable``): any pick is a tie,
            # and later steps build on that arbitrary prefix
            return False
        best = min(scores.values())
        tol = (RTOL + TOL_EPS * EPS * worst_cond) * best
        got = scores[int(selected[step])]
        assert got <= best + tol, (
            f"{name} step {step + 1}: picked {selected[step]} with reference LOO {got!r}, "
            f"best {best!r} (tolerance {tol:.3g}); path {selected}"
        )
    return True


@st.composite
def problems(draw):
    m = draw(st.integers(2, 40))
    n = draw(st.integers(1, 12))
    k = draw(st.integers(1, n))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    exponents = draw(st.lists(st.integers(-150, 150), min_size=n, max_size=n))
    X = rng.standard_normal((m, n)) * 10.0 ** np.asarray(exponents, dtype=np.float64)
    # duplicate and constant columns (each column: kept, a copy of another one, or constant)
    kinds = draw(
        st.lists(
            st.sampled_from(["random"] * 4 + ["duplicate", "constant"]), min_size=n, max_size=n
        )
    )
    for j, kind in enumerate(kinds):
        if kind == "duplicate" and n > 1:
            X[:, j] = X[:, draw(st.integers(0, n - 1))]
        elif kind == "constant":
            X[:, j] = 10.0 ** exponents[j]
    alpha = 10.0 ** draw(st.floats(-12, 12))
    bias = draw(st.sampled_from([0.0, 1.0]))
    if draw(st.booleans()):
        y = np.where(rng.standard_normal(m) > 0, 1.0, -1.0)
        y[:2] = [1.0, -1.0]
    else:
        y = rng.standard_normal(m)
    return X, y, k, alpha, bias


def run_all(X, y, k, alpha, bias):
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name, selector in SELECTORS.items():
            try:
                out[name] = selector(X, y, k, alpha, bias=bias).selected
            except SelectionError as exc:
                assert "\n" not in str(exc)
                out[name] = exc
    return out


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(problems())
def test_selectors_agree_up_to_ties_or_all_refuse(problem):
    X, y, k, alpha, bias = problem
    out = run_all(X, y, k, alpha, bias)
    refused = {name for name, res in out.items() if isinstance(res, SelectionError)}
    returned = {name: sel for name, sel in out.items() if name not in refused}
    for name, selected in returned.items():
        assert_valid_and_stepwise_optimal(name, selected, X, y, k, alpha, bias)
    # Some selectors may refuse where others return only when float64 cannot resolve the
    # refusing formula's scores along the returned path: there the finite scores one formula
    # happens to produce are as arbitrary as the overflow of another.
    if refused and returned:
        other, selected = next(iter(returned.items()))
        resolved = assert_valid_and_stepwise_optimal(other, selected, X, y, k, alpha, bias)
        assert not resolved, f"only {sorted(refused)} refused a problem float64 resolves: {out}"


# --------------------------------------------------------------------------- explicit cases
def _regression_problem(scale, m=30, n=8, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n)) * scale
    y = np.where(rng.standard_normal(m) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("alpha", [1e-12, 1.0, 1e12], ids=lambda a: f"alpha-{a:g}")
@pytest.mark.parametrize("scale", [1e70, 1e100, 1e120], ids=lambda s: f"scale-{s:g}")
def test_large_scaled_features_give_the_unscaled_selection(scale, alpha):
    # Scaling X by c and λ by c² leaves G's LOO residuals unchanged: the selection of X·c
    # at λ·c² is that of X at λ (c a power of two keeps it exact in floating point).
    c = 2.0 ** round(np.log2(scale))
    X, y = _regression_problem(1.0)
    scaled_alpha = alpha * c**2
    dynamic_range = X.shape[0] * (np.abs(X).max() * c * max(1.0, 1.0 / scaled_alpha)) ** 2
    assert dynamic_range < MAX_DYNAMIC_RANGE  # within range: a selection is owed
    expected = wrapper(X, y, 4, alpha).selected
    for name, selector in SELECTORS.items():
        got = selector(X * c, y, 4, scaled_alpha).selected
        np.testing.assert_array_equal(got, expected, err_msg=name)


@pytest.mark.parametrize("scale", [1e155, 1e200])
@pytest.mark.parametrize("name", list(SELECTORS))
def test_features_scaled_beyond_float64_are_refused_not_repeated(name, scale):
    # the old bug: [0, 0, 0, 0] (the arg-min of all-NaN scores was an already-chosen feature)
    X, y = _regression_problem(scale)
    with pytest.raises(SelectionError, match=r"alpha=1: max \|x\| = .*standardise X"):
        SELECTORS[name](X, y, 4, 1.0)


@pytest.mark.parametrize("name", list(SELECTORS))
def test_all_constant_X_gives_a_valid_selection(name):
    X = np.full((20, 5), 3.0)
    y = np.where(np.arange(20) % 2 == 0, 1.0, -1.0)
    for bias in (0.0, 1.0):
        selected = SELECTORS[name](X, y, 3, 1.0, bias=bias).selected
        # identical columns tie: the lowest indices, in order
        np.testing.assert_array_equal(selected, [0, 1, 2])


@pytest.mark.parametrize("name", list(SELECTORS))
def test_huge_alpha_gives_a_valid_selection(name):
    X, y = _regression_problem(1.0)
    selected = SELECTORS[name](X, y, 4, 1e12).selected
    assert_valid_and_stepwise_optimal(name, selected, X, y, 4, 1e12, 0.0)


def test_huge_alpha_with_huge_scale_matches_the_wrapper():
    X, y = _regression_problem(1e100)
    expected = wrapper(X, y, 4, 1e12).selected
    for name, selector in SELECTORS.items():
        np.testing.assert_array_equal(selector(X, y, 4, 1e12).selected, expected, err_msg=name)


# ------------------------------------------------------------------------------- the rule
def test_pick_winner_never_returns_a_chosen_or_non_finite_candidate():
    scores = np.array([np.nan, 1.0, np.inf, 0.5, -np.inf])
    assert pick_winner(scores, [3], 1) == 1
    assert pick_winner(scores, np.array([False, False, False, True, False]), 1) == 1
    assert pick_winner(scores, [], 0) == 3
    assert pick_winner(scores, [], 0, maximize=True) == 1
    assert pick_winner(np.array([2.0, 1.0, 1.0]), [], 0, tiebreak=np.array([0.0, 5.0, 4.0])) == 2
    assert pick_winner(np.array([2.0, 1.0, 1.0]), [], 0, tiebreak=np.array([0.0, np.nan, 4.0])) == 2


def test_pick_winner_refuses_when_no_candidate_is_finite():
    X = np.array([[1e200, -3.0]])
    with pytest.raises(SelectionError) as info:
        pick_winner(np.array([0.1, np.nan, np.inf]), [0], 2, x_scale=X, alpha=0.5, method="m")
    message = str(info.value)
    assert message.startswith("m: round 3: none of the 2 candidate features has a finite score")
    assert "max |x| = 1e+200" in message and "alpha = 0.5" in message
    with pytest.raises(SelectionError, match="none of the 0 candidate"):
        pick_winner(np.array([0.1, 0.2]), [0, 1], 2)


# ---------------------------------------------------------------------------- constant target
@pytest.mark.parametrize("name", list(SELECTORS))
def test_a_constant_regression_target_draws_a_warning_naming_y(name):
    X, _ = _regression_problem(1.0)
    with pytest.warns(UserWarning, match=r"y is constant \(every value is 2\.5\)") as record:
        SELECTORS[name](X, np.full(X.shape[0], 2.5), 2, 1.0)
    assert all("\n" not in str(w.message) for w in record)


def test_ridge_path_warns_about_a_constant_target_too():
    X, _ = _regression_problem(1.0)
    with pytest.warns(UserWarning, match=r"ridge_path: y\[:, 1\] is constant"):
        ridge_path(X, np.column_stack([np.arange(30.0), np.ones(30)]), [0, 1], 1.0)


@pytest.mark.parametrize("name", list(SELECTORS))
def test_a_single_class_is_refused_under_the_zero_one_criterion(name):
    X, _ = _regression_problem(1.0)
    with pytest.raises(ValueError, match="needs at least two classes"):
        SELECTORS[name](X, np.ones(X.shape[0]), 2, 1.0, criterion="zero_one")


def test_the_estimator_refuses_a_single_class():
    from rlsbench.estimators import GreedyRLS

    X, _ = _regression_problem(1.0)
    with pytest.raises(ValueError, match=r"y has a single class \(1\.0\): classification") as info:
        GreedyRLS(2, alpha=1.0).fit(X, np.ones(X.shape[0]))
    assert "\n" not in str(info.value)
