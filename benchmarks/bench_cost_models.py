"""Measure the selection methods' CPU time against their cost models (issue 41 item 2).

Each row is one run of a method's ``select`` on one thread, on a training split of a real data
set (90 % of the rows, the 10-fold protocol's size, standardised on it) or on a subset of its
rows and columns, with the protocol's targets (±1, one-vs-rest ±1 columns, real values). It
prints the cost model's estimate at the protocol's nominal 2 GFLOP/s, the measured CPU seconds
of the process (``time.process_time``) and their ratio::

    .venv/bin/python benchmarks/bench_cost_models.py stability_selection arcene --k 50
    .venv/bin/python benchmarks/bench_cost_models.py enet_path Isolet:m=500,n=300 --k 20

A method whose one run takes minutes can be timed on part of its work with ``--halves B``
(stability selection on B of its random halves, the estimate scaled to the same B). Data sets
are read from the high-dimensional mirror (``MIRROR``, ``../shared/datasets-highdim`` by
default) with scipy's ``loadmat``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

MIRROR = Path(
    os.environ.get("MIRROR", Path(__file__).resolve().parents[2] / "shared/datasets-highdim")
)
NOMINAL = 2.0e9


def load(spec, seed=0):
    """X (standardised) and targets of ``name[:m=..,n=..]``: 90 % of the rows, or m of them,
    and n random columns (all where not given)."""
    from scipy.io import loadmat

    from rlsbench.benchmark.protocol import encode_targets, standardize

    name, _, opts = spec.partition(":")
    sizes = dict(item.split("=") for item in opts.split(",") if item)
    data = loadmat(MIRROR / name / f"{name}.mat")
    X = np.asarray(data["X"], dtype=np.float64)
    labels = np.asarray(data["Y"]).ravel()
    rng = np.random.default_rng(seed)
    m = int(sizes.get("m", int(0.9 * X.shape[0])))
    rows = rng.choice(X.shape[0], size=m, replace=m > X.shape[0])
    cols = np.sort(rng.choice(X.shape[1], size=int(sizes.get("n", X.shape[1])), replace=False))
    X, labels = X[np.ix_(rows, cols)], labels[rows]
    classes = np.unique(labels)
    if classes.size == 2:
        y = encode_targets(np.where(labels == classes[1], 1, -1), "binary")
    else:
        y = encode_targets(labels, "multiclass")
    X, _ = standardize(X, X[:1])
    return X, y


def measure(name, spec, k, halves=None, seed=0):
    from rlsbench.benchmark.methods import get_method
    from rlsbench.numerics._scan import max_abs

    method = get_method(name)
    X, y = load(spec, seed)
    m, n = X.shape
    t = 1 if y.ndim == 1 else y.shape[1]
    k = min(k, n)
    estimate = method.estimate_flops(m, n, k, t) / NOMINAL
    if halves is not None:  # the RLS path is the same; the halves' share scales
        module = importlib.import_module(method.run.__module__)
        path_s = 4.0 * k * k * m * t / NOMINAL
        estimate = (estimate - path_s) * halves / module.N_SUBSAMPLES + path_s
        module.N_SUBSAMPLES = halves
    options = {"alpha": 1.0, "criterion": "squared", "bias": 1.0, "seed": seed, "n_jobs": 1}
    with threadpool_limits(limits=1):
        # the libraries a method imports and numba's kernels at the first selection are a
        # process's start-up, not the method's cost
        max_abs(X)
        method.select(X[:20, :5].copy(), y[:20].copy(), k=2, **options)
        start = time.process_time()
        method.select(X, y, k=k, **options)
        cpu = time.process_time() - start
    return {
        "method": name,
        "data": spec,
        "m": m,
        "n": n,
        "k": k,
        "t": t,
        "halves": halves or "",
        "estimate_s": f"{estimate:.3g}",
        "cpu_s": f"{cpu:.3g}",
        "ratio": f"{cpu / estimate:.2f}",
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("method")
    parser.add_argument("data", nargs="+", help="name[:m=..,n=..] of the mirror")
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--halves", type=int, default=None)
    args = parser.parse_args(argv)
    for spec in args.data:
        row = measure(args.method, spec, args.k, args.halves)
        print("\t".join(f"{key}={value}" for key, value in row.items()), flush=True)


if __name__ == "__main__":
    sys.exit(main())
