"""Low-rank updated LS-SVM (Ojeda et al.; Algorithm 2): O(km²n) time, O(m²) memory."""

from __future__ import annotations

from rlsbench.benchmark.methods import Method
from rlsbench.lazy import lazy_module

#: loaded when a selection runs, not when the workflow reads the method (numba comes with it)
selection = lazy_module("rlsbench.numerics.selection")


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Low-rank LS-SVM path; refuses (ValueError) beyond its default memory budget."""
    return selection.lowrank_lssvm(X, y, k, alpha, bias=bias, criterion=criterion)


method = Method(
    name="lowrank_lssvm",
    run=run,
    description="low-rank updated LS-SVM (Ojeda et al.; Pahikkala et al. Alg. 2), O(km²n)",
    memory_bytes=lambda m, n, k: selection.memory_bytes(m, n, k),
    # Algorithm 2: k rounds of n rank-one updates of the m×m matrix G, per output
    flops=lambda m, n, k, t: 2.0 * k * m * m * n * t,
    # a zero column leaves the model and its LOO error as they are: scored like the others;
    # the same criterion and candidates as greedy RLS, hence its selection
    tags={
        "constant_columns": "scored",
        "label": "low-rank updated LS-SVM",
        "selects_as": "greedy_rls",
    },
)
