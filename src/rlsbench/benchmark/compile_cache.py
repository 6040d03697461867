"""Fill numba's on-disk cache at install time: the first run's jobs load kernels, not compile them.

The selectors' numba kernels are compiled with ``cache=True``: the first process that calls a
kernel with a new signature compiles it (1-5 s each for the parallel ones) and writes it beside
its source; every later process loads it in milliseconds. In a fresh installation that first
process is a job of the first run: in ``make reproduce`` the first greedy RLS job of a dataset
spent 4.8 s of its 5.1 s compiling (issue 46). ``make install`` runs this module once instead,
as pip compiles ``.pyc`` files: it calls every built-in method that has kernels through the
protocol's own job function (:func:`rlsbench.benchmark.protocol.run_select_job`) on tiny
binary, multiclass and regression data, so the kernels get the signatures the workflow's jobs
give them, and the LOO λ searches of the protocol and of ``GreedyRLS(alpha="loo")``.

Nothing here changes a result: numba compiles the same code whether a job or this module
asks first. A kernel this module misses is compiled by the first job that needs it, as
before. The cache lives where numba puts it (``__pycache__`` beside the sources, or
``NUMBA_CACHE_DIR``); where it cannot be written, numba warns and compiles in every process.

    python -m rlsbench.benchmark.compile_cache [--quiet]
"""

from __future__ import annotations

import argparse
import time

#: Built-in methods whose selection runs numba kernels (the others are scikit-learn's or
#: plain NumPy): compiled for every task each supports.
METHODS = ("greedy_rls", "lowrank_lssvm", "wrapper_blackbox", "wrapper_loo", "random", "ffs_rows")
#: The scaling study's methods with kernels (its timing points call the selectors directly).
SCALING_METHODS = ("greedy_rls", "lowrank_lssvm")


def _datasets():
    """Tiny binary, multiclass and regression datasets (X of shape (36, 6), float64)."""
    import numpy as np

    from rlsbench.benchmark.datasets.prepare import Dataset

    rng = np.random.default_rng(0)
    X = rng.standard_normal((36, 6))
    names = [f"x{j}" for j in range(6)]
    labels = np.arange(36) % 3
    return [
        Dataset("warm-binary", "binary", X, np.where(labels == 0, 1.0, -1.0), names),
        Dataset("warm-multiclass", "multiclass", X, labels.astype(np.int64), names),
        Dataset("warm-regression", "regression", X, X[:, 0] + 0.1 * rng.standard_normal(36), names),
    ]


def warm(methods=METHODS, *, log=print) -> dict[str, float]:
    """Run each method's selection once per task it supports, and the LOO λ searches.

    Parameters
    ----------
    methods : sequence of str, default=METHODS
        Built-in method names; one not registered here is skipped with a line in the log.
    log : callable
        Called with one line per method (its seconds).

    Returns
    -------
    dict
        Seconds per method (and ``"alpha"`` for the λ searches).
    """
    import numpy as np

    from rlsbench import GreedyRLS
    from rlsbench.benchmark import methods as registry
    from rlsbench.benchmark.protocol import run_alpha_job, run_select_job
    from rlsbench.benchmark.protocol_settings import ProtocolSettings
    from rlsbench.numerics.validation import warm_up_input_scan

    settings = ProtocolSettings.from_section(
        {"n_folds": 3, "k_max": 3, "time_budget_s": 1.0e6, "memory_budget_mb": 1.0e6}
    )
    data = _datasets()
    spent = {}
    start = time.perf_counter()
    records = {d.name: run_alpha_job(d, 0, settings) for d in data}
    # GreedyRLS(alpha="loo") searches on the smaller Gram matrix: a wide X takes the dual
    # tridiagonal search and its kernel (a tall one the primal, which has none)
    rng = np.random.default_rng(1)
    GreedyRLS(n_features_to_select=2, alpha="loo").fit(
        rng.standard_normal((24, 40)), np.sign(rng.standard_normal(24))
    )
    spent["alpha"] = time.perf_counter() - start
    # the scaling study's timing points call the plugins' selectors directly (as its
    # _plugin_select does: X C-ordered and writable, y a float vector, no bias), on an X large
    # enough for the compiled input scan (writable and read-only: numba compiles them apart)
    X = rng.standard_normal((512, 512))
    y = np.sign(rng.standard_normal(512))
    for name in SCALING_METHODS:
        start = time.perf_counter()
        registry.get_method(name).select(
            X, y, alpha=1.0, k=2, criterion="squared", bias=0.0, seed=0, n_jobs=1
        )
        spent[f"scaling {name}"] = time.perf_counter() - start
        log(f"compile_cache: scaling point of {name} {spent[f'scaling {name}']:.1f} s")
    warm_up_input_scan(X)
    known = set(registry.method_names())
    for name in methods:
        if name not in known:
            log(f"compile_cache: no method {name!r} here, skipped")
            continue
        method = registry.get_method(name)
        start = time.perf_counter()
        for dataset in data:
            if dataset.task in method.tasks:
                run_select_job(dataset, name, 0, 0, records[dataset.name], settings)
        spent[name] = time.perf_counter() - start
        log(f"compile_cache: {name} {spent[name]:.1f} s")
    return spent


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", action="store_true", help="print only the total")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    warm(log=(lambda line: None) if args.quiet else print)
    print(f"compile_cache: numba's cache filled in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
