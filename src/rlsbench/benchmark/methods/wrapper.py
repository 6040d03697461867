"""The standard wrapper (Algorithm 1) with black-box LOO retraining or the LOO shortcut."""

from __future__ import annotations

from rlsbench.benchmark.methods import Method
from rlsbench.numerics.selection import wrapper


def run_blackbox(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Algorithm 1 as written: m retrainings per candidate set."""
    return wrapper(X, y, k, alpha, bias=bias, criterion=criterion, loo="blackbox")


def run_loo(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Algorithm 1 with the constant-time LOO shortcut (eq. 7/8) per candidate set."""
    return wrapper(X, y, k, alpha, bias=bias, criterion=criterion, loo="shortcut")


wrapper_blackbox = Method(
    name="wrapper_blackbox",
    run=run_blackbox,
    description="standard wrapper (Alg. 1), RLS retrained for every held-out example",
    # a zero column leaves the model and its LOO error as they are: scored like the others
    tags={"constant_columns": "scored"},
)
wrapper_loo = Method(
    name="wrapper_loo",
    run=run_loo,
    description="standard wrapper (Alg. 1) with the LOO shortcut (eq. 7/8)",
    tags={"constant_columns": "scored"},
)
