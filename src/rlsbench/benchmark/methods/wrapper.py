"""The standard wrapper (Algorithm 1) with black-box LOO retraining or the LOO shortcut."""

from __future__ import annotations

from rlsbench.benchmark.methods import Method
from rlsbench.lazy import lazy_module

#: loaded when a selection runs, not when the workflow reads the method (numba comes with it)
selection = lazy_module("rlsbench.numerics.selection")

#: Interpreter and allocation cost of one small RLS fit, in flop equivalents (≈100 µs at
#: 2 GFLOP/s, measured on the black-box wrapper); it dominates the wrappers on small data.
FIT_OVERHEAD_FLOPS = 2e5


def wrapper_flops(m, n, k, t, fits_per_candidate):
    """Operations of Algorithm 1: round s scores n - s + 1 candidate sets of s features, each by
    ``fits_per_candidate`` RLS fits (1 with the LOO shortcut, m for black-box LOO) of
    O(min(s²m, sm²)) (primal or dual, whichever is cheaper) per output, plus the fit overhead.

    Returns
    -------
    float
        O(min(k³mn, k²m²n)) with the shortcut, m times that without (Pahikkala et al., Section 3).
    """
    total = 0.0
    for s in range(1, k + 1):
        candidates = n - s + 1
        fit = min(s * s * m, s * m * m)
        total += candidates * fits_per_candidate * (fit * t + FIT_OVERHEAD_FLOPS)
    return total


def run_blackbox(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Algorithm 1 as written: m retrainings per candidate set."""
    return selection.wrapper(X, y, k, alpha, bias=bias, criterion=criterion, loo="blackbox")


def run_loo(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Algorithm 1 with the constant-time LOO shortcut (eq. 7/8) per candidate set."""
    return selection.wrapper(X, y, k, alpha, bias=bias, criterion=criterion, loo="shortcut")


wrapper_blackbox = Method(
    name="wrapper_blackbox",
    run=run_blackbox,
    description="standard wrapper (Alg. 1), RLS retrained for every held-out example",
    flops=lambda m, n, k, t: wrapper_flops(m, n, k, t, m),
    # a zero column leaves the model and its LOO error as they are: scored like the others;
    # greedy RLS computes the same LOO criterion over the same candidates, hence its selection
    tags={"constant_columns": "scored", "label": "wrapper, black box", "selects_as": "greedy_rls"},
)
wrapper_loo = Method(
    name="wrapper_loo",
    run=run_loo,
    description="standard wrapper (Alg. 1) with the LOO shortcut (eq. 7/8)",
    flops=lambda m, n, k, t: wrapper_flops(m, n, k, t, 1),
    tags={
        "constant_columns": "scored",
        "label": "wrapper, LOO short-cut",
        "selects_as": "greedy_rls",
    },
)
