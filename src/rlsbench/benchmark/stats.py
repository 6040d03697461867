"""Statistics the parts share: the paired t-test of two methods over shared runs."""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from scipy import stats


class PairedTest(NamedTuple):
    """Outcome of :func:`paired_t_test`."""

    n_pairs: int
    mean_diff: float
    p_value: float


def paired_t_test(a, b) -> PairedTest:
    """Two-sided paired Student t-test of ``a`` against ``b`` over the runs both have.

    Both papers that compare methods by significance (Ramona et al., Section V; Sun & Yao,
    Table 1) pair the errors of two methods on the same splits; this is that test
    (:func:`scipy.stats.ttest_rel`) with its edge cases made explicit.

    Parameters
    ----------
    a, b : array-like of shape (n_runs,)
        Scores of the two methods on the same runs; a run where either is NaN is left out.

    Returns
    -------
    PairedTest
        ``n_pairs`` (runs with both scores), ``mean_diff`` (mean of a − b; NaN when no run is
        shared) and ``p_value``: NaN with fewer than 2 pairs, 1.0 when every difference is 0
        (where ``ttest_rel`` divides 0 by 0), else ``ttest_rel``'s (0 for a constant non-zero
        difference).
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"a and b must be 1-d of one length, got shapes {a.shape}, {b.shape}")
    both = ~(np.isnan(a) | np.isnan(b))
    a, b = a[both], b[both]
    d = a - b
    n = int(d.size)
    mean_diff = float(d.mean()) if n else np.nan
    if n < 2:
        return PairedTest(n, mean_diff, np.nan)
    if np.all(d == 0.0):
        return PairedTest(n, mean_diff, 1.0)
    with warnings.catch_warnings():
        # a constant non-zero difference: scipy warns about the zero variance, p is 0
        warnings.simplefilter("ignore", RuntimeWarning)
        return PairedTest(n, mean_diff, float(stats.ttest_rel(a, b).pvalue))
