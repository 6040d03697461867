"""Forward feature selection with λ per candidate set (Buteneers et al., Section 3.2), eigen variant."""

from __future__ import annotations

from ..ridgecv.ffs_bfs import run_for_protocol
from . import Method, register


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Path of FFS; ``alpha`` and ``criterion`` are ignored (own 10-fold, squared-error λ search)."""
    return run_for_protocol(X, y, k=k, bias=bias, seed=seed, direction="forward")


register(Method(
    name="ffs",
    run=run,
    description="Buteneers et al. forward selection, 10-fold CV λ per candidate set (eigen + rank-2 update)",
    own_alpha=True,
    # 4 fold matrices (K, N, N) plus R×N×N work arrays
    memory_bytes=lambda m, n, k: 8 * (m * n + 4 * 10 * (n + 1) ** 2 + 3 * 50 * n * n),
))
