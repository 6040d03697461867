"""Greedy RLS (Pahikkala et al., Algorithm 3): O(kmn) forward selection by LOO."""

from __future__ import annotations

from rlsbench.benchmark.methods import Method
from rlsbench.lazy import lazy_module

#: loaded when a selection runs, not when the workflow reads the method (numba comes with it)
selection = lazy_module("rlsbench.numerics.selection")


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Greedy RLS path with the protocol's λ; ``seed`` is unused (deterministic)."""
    return selection.greedy_rls(X, y, k, alpha, bias=bias, criterion=criterion, n_jobs=n_jobs)


#: CPU seconds of one run, measured with ``benchmarks/bench_cost_models.py`` (one thread, the
#: protocol's 10-fold training split of each set, k = 50): (data, m, n, k, t, seconds);
#: ``tests/benchmark/methods/test_cost_models.py`` holds each estimate within a factor 3.
MEASURED_S = {
    "greedy_rls": (
        ("arcene", 180, 10000, 50, 1, 0.227),
        ("nci9", 54, 9712, 50, 9, 0.211),
        ("TOX_171", 153, 5748, 50, 4, 0.208),
        ("Prostate_GE", 91, 5966, 50, 1, 0.0892),
        ("GLIOMA", 45, 4434, 50, 4, 0.0754),
        ("BASEHOCK", 1793, 4862, 50, 1, 0.615),
        ("madelon rows/cols", 2000, 500, 50, 1, 0.107),
        ("Isolet", 1404, 617, 50, 26, 0.530),
        ("COIL20", 1296, 1024, 50, 20, 0.599),
        ("ORL", 360, 1024, 50, 40, 0.287),
    ),
}


method = Method(
    name="greedy_rls",
    run=run,
    description="greedy RLS (Pahikkala et al. Alg. 3), LOO forward selection in O(kmn)",
    # Pahikkala et al., Section 3: k rounds of O(mn) over the m×n cache C; the t outputs share
    # the passes over C, each adding about 0.6 k m n (fitted to MEASURED_S: 8 k m n t was 8 to
    # 10 times the measured time at t = 20 to 40)
    flops=lambda m, n, k, t: k * m * n * (8.0 + 0.6 * (t - 1)),
    # runs on arrays of other array-API libraries: main.device: cuda hands it CuPy arrays
    tags={"array_api": True, "constant_columns": "scored", "label": "greedy RLS"},
)
