"""Greedy RLS (Pahikkala et al., Algorithm 3): O(kmn) forward selection by LOO."""

from __future__ import annotations

from rlsbench.benchmark.methods import Method
from rlsbench.numerics.selection import greedy_rls


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Greedy RLS path with the protocol's λ; ``seed`` is unused (deterministic)."""
    return greedy_rls(X, y, k, alpha, bias=bias, criterion=criterion, n_jobs=n_jobs)


method = Method(
    name="greedy_rls",
    run=run,
    description="greedy RLS (Pahikkala et al. Alg. 3), LOO forward selection in O(kmn)",
    # Pahikkala et al., Section 3: k rounds of O(mn) over the m×n cache C, per output
    flops=lambda m, n, k, t: 8.0 * k * m * n * t,
    # runs on arrays of other array-API libraries: main.device: cuda hands it CuPy arrays
    tags={"array_api": True, "constant_columns": "scored", "label": "greedy RLS"},
)
