"""GreedyRLS(alpha="loo") against GreedyRLS at a fixed λ: the cost of the LOO λ search.

Issue 44 (item 7): on 2000 × 5000 the fit with the LOO λ search should take at most 3 times
a fit at a fixed λ. Problem (default): the paper's synthetic two-Gaussian data
(``make_two_gaussians``), m = 2000 examples, n = 5000 features, k = 50 selected, bias 1,
squared LOO criterion, the default grid 2^-15 … 2^15 (31 values). The fixed-λ fit uses the λ
the search chose, so both fits run the same greedy selection.

Measured in the same run, interleaved, best of ``--repeats``:

- **fixed**: ``GreedyRLS(k, alpha=λ*).fit``;
- **loo**: ``GreedyRLS(k, alpha="loo").fit`` (the search, then the same selection);
- **search (tridiagonal)**: the search alone as the estimator runs it
  (:func:`rlsbench.numerics.ridgecv.loo_grid.choose_alpha_gram`: one SYRK, one Householder
  tridiagonalization, Q formed, per λ an LDLᵀ of ``T + λI``);
- **search (eigh)**: the search by one eigendecomposition of the kernel matrix (the
  implementation before the tridiagonal one, kept as its fallback), and from it the ratio the
  LOO fit had before: ``(fixed + search eigh) / fixed``;
- **search (eigh, 1 thread)**: the same with the eigendecomposition on one BLAS thread (on a
  loaded machine a threaded BLAS waits for its threads at every call, and one thread can be
  the faster).

Then the same fits and search on **one BLAS thread** (threadpoolctl; the greedy passes keep
numba's threads), timed by CPU seconds of the process (``time.process_time``) as well as by
the clock: CPU seconds move less with the other processes on a loaded machine than wall
seconds. The tridiagonal search is also split into its phases, CPU seconds on one thread:
**syrk** (``K = X Xᵀ + b² 1 1ᵀ``), **sytrd** (``K = Q T Qᵀ``, the reflectors),
**orghr** (Q formed from them in place), **tridiagonalize** (both, as the search runs them) and
**grid** (the rest of the search: per λ the LDLᵀ of ``T + λI``, ``a = G y``, ``diag(G)``
and the criterion).

Printed: the times, the ratios ``loo / fixed`` (measured) and ``(fixed + search) / fixed``
for both searches, the same ratios in CPU seconds on one BLAS thread, the phases, whether
all searches chose the same λ, the load average and the threads. Other processes change
absolute times: compare the ratios, and rerun at a quiet moment.

Run: ``python benchmarks/bench_greedy_rls_loo.py [--m 2000 --n 5000 --k 50] [--repeats 3]
[--quick] [--json out.json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np
import scipy.linalg
from threadpoolctl import threadpool_info, threadpool_limits

from rlsbench import GreedyRLS
from rlsbench.benchmark.atomic import atomic_write_text
from rlsbench.benchmark.estimators import DEFAULT_ALPHAS
from rlsbench.numerics.criteria import best_index, loo_mse
from rlsbench.numerics.ridgecv.loo_grid import (
    _eigh_grid,
    _grid_from_tridiagonal,
    _kernel_matrix,
    _tridiagonalize,
    choose_alpha_gram,
)
from rlsbench.numerics.synthetic import make_two_gaussians


def load_average():
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def choose_alpha_eigh(X, y, alphas, bias, threads=None):
    """The λ of the squared LOO criterion by one eigendecomposition of ``X Xᵀ + b² 1 1ᵀ``
    (on ``threads`` BLAS threads; None: all)."""
    y2 = y.reshape(y.shape[0], -1)
    kernel = _kernel_matrix(X, bias, lower=False)
    with threadpool_limits(limits=threads, user_api="blas"):
        dual, diag_g = _eigh_grid(kernel, y2, alphas)
    mse = np.array([loo_mse(dual[:, :, i] / diag_g[:, i, None]) for i in range(len(alphas))])
    return float(alphas[best_index(mse, mse)])


def search_phases(X, y, alphas, bias):
    """CPU seconds of the tridiagonal search's phases (call on one BLAS thread): syrk; sytrd
    and orghr each alone (on a copy of the kernel); tridiagonalize, both as the search runs
    them; grid, the rest (per λ the LDLᵀ, ``a``, ``diag(G)``, the
    criterion)."""
    lapack = scipy.linalg.lapack
    m = X.shape[0]
    y2 = y.reshape(m, -1)
    clock = [time.process_time()]
    kernel = _kernel_matrix(X, bias, lower=True)
    clock.append(time.process_time())
    lwork = int(lapack.dsytrd_lwork(m, lower=1)[0])
    packed, _, _, tau, _ = lapack.dsytrd(kernel.copy(order="F"), lower=1, lwork=lwork)
    clock.append(time.process_time())
    lwork = int(lapack.dorghr_lwork(m, lo=0, hi=m - 1)[0])
    clock.append(time.process_time())
    lapack.dorghr(packed, tau[: m - 1], lo=0, hi=m - 1, lwork=lwork, overwrite_a=1)
    clock.append(time.process_time())
    tridiagonal = _tridiagonalize(kernel)
    clock.append(time.process_time())
    dual, diag_g = _grid_from_tridiagonal(*tridiagonal, y2, alphas)
    for i in range(diag_g.shape[1]):
        loo_mse(dual[:, :, i] / diag_g[:, i, None])
    clock.append(time.process_time())
    seconds = np.diff(clock)
    return {
        "syrk": seconds[0],
        "sytrd": seconds[1],
        "orghr": seconds[3],
        "tridiagonalize": seconds[4],
        "grid": seconds[5],
    }


def measure(m, n, k, repeats, seed=0):
    X, y = make_two_gaussians(m, n, seed=seed, n_informative=10)
    alphas = np.asarray(DEFAULT_ALPHAS)
    # compile the numba kernels (cached on disk) and touch the code paths once
    Xs, ys = X[:50, :80], y[:50]
    GreedyRLS(3, alpha="loo").fit(Xs, ys)
    alpha = GreedyRLS(k, alpha="loo").fit(X, y).alpha_
    steps = {
        "fixed": lambda: GreedyRLS(k, alpha=alpha).fit(X, y).selected_,
        "loo": lambda: GreedyRLS(k, alpha="loo").fit(X, y).selected_,
        "search_tridiagonal": lambda: choose_alpha_gram(X, y, alphas, bias=1.0),
        "search_eigh": lambda: choose_alpha_eigh(X, y, alphas, 1.0),
        "search_eigh_1thread": lambda: choose_alpha_eigh(X, y, alphas, 1.0, threads=1),
    }
    # the same on one BLAS thread, timed by CPU seconds too
    one_thread = {name: steps[name] for name in ("fixed", "loo", "search_tridiagonal")}
    times = {name: [] for name in steps}
    cpu_1thread = {name: [] for name in one_thread}
    wall_1thread = {name: [] for name in one_thread}
    phases = []
    chosen = {}
    for _ in range(repeats):
        for name, step in steps.items():
            t0 = time.perf_counter()
            chosen[name] = step()
            times[name].append(time.perf_counter() - t0)
        with threadpool_limits(limits=1, user_api="blas"):
            for name, step in one_thread.items():
                c0, t0 = time.process_time(), time.perf_counter()
                chosen[name + "_1thread"] = step()
                cpu_1thread[name].append(time.process_time() - c0)
                wall_1thread[name].append(time.perf_counter() - t0)
            phases.append(search_phases(X, y, alphas, 1.0))
    best = {name: min(values) for name, values in times.items()}
    best_cpu = {name: min(values) for name, values in cpu_1thread.items()}
    fixed = best["fixed"]
    fixed_cpu = best_cpu["fixed"]
    return {
        "m": m,
        "n": n,
        "k": k,
        "repeats": repeats,
        "alpha": alpha,
        "same_alpha": chosen["search_tridiagonal"]
        == chosen["search_eigh"]
        == chosen["search_eigh_1thread"]
        == chosen["search_tridiagonal_1thread"]
        == alpha,
        "same_selection": bool(
            np.array_equal(chosen["fixed"], chosen["loo"])
            and np.array_equal(chosen["fixed"], chosen["loo_1thread"])
        ),
        "best_seconds": best,
        "all_seconds": times,
        "ratio_loo_over_fixed": best["loo"] / fixed,
        "ratio_with_tridiagonal_search": (fixed + best["search_tridiagonal"]) / fixed,
        "ratio_with_eigh_search": (fixed + best["search_eigh"]) / fixed,
        "ratio_with_eigh_1thread_search": (fixed + best["search_eigh_1thread"]) / fixed,
        "best_cpu_seconds_1thread": best_cpu,
        "all_cpu_seconds_1thread": cpu_1thread,
        "all_wall_seconds_1thread": wall_1thread,
        "cpu_ratio_loo_over_fixed_1thread": best_cpu["loo"] / fixed_cpu,
        "cpu_ratio_with_tridiagonal_search_1thread": (fixed_cpu + best_cpu["search_tridiagonal"])
        / fixed_cpu,
        "search_phases_cpu_seconds_1thread": {
            name: min(p[name] for p in phases) for name in phases[0]
        },
        "load_average": load_average(),
        "blas_threads": [info["num_threads"] for info in threadpool_info()],
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
    }


def report(r):
    b = r["best_seconds"]
    c = r["best_cpu_seconds_1thread"]
    ph = r["search_phases_cpu_seconds_1thread"]
    lines = [
        f"GreedyRLS on make_two_gaussians({r['m']}, {r['n']}), k = {r['k']}, "
        f"best of {r['repeats']} (load average {r['load_average']:.2f}, {r['cpus']} CPUs, "
        f"BLAS threads {r['blas_threads']})",
        f"  fixed λ = {r['alpha']:g} fit      {b['fixed']:8.3f} s",
        f"  alpha='loo' fit           {b['loo']:8.3f} s   ratio {r['ratio_loo_over_fixed']:.2f}x",
        f"  search (tridiagonal)      {b['search_tridiagonal']:8.3f} s   "
        f"(fixed + search) / fixed = {r['ratio_with_tridiagonal_search']:.2f}x",
        f"  search (eigh, before)     {b['search_eigh']:8.3f} s   "
        f"(fixed + search) / fixed = {r['ratio_with_eigh_search']:.2f}x",
        f"  search (eigh, 1 thread)   {b['search_eigh_1thread']:8.3f} s   "
        f"(fixed + search) / fixed = {r['ratio_with_eigh_1thread_search']:.2f}x",
        f"  one BLAS thread, CPU seconds (process_time): fixed {c['fixed']:.3f} s, "
        f"alpha='loo' {c['loo']:.3f} s, ratio {r['cpu_ratio_loo_over_fixed_1thread']:.2f}x; "
        f"search {c['search_tridiagonal']:.3f} s, (fixed + search) / fixed = "
        f"{r['cpu_ratio_with_tridiagonal_search_1thread']:.2f}x",
        "  search phases, CPU seconds on one BLAS thread: "
        + ", ".join(f"{name} {sec:.3f}" for name, sec in ph.items()),
        f"  same λ from the searches and the fit: {r['same_alpha']}; "
        f"same selection loo/fixed: {r['same_selection']}",
    ]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--m", type=int, default=2000)
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="m = 300, n = 700, k = 10")
    parser.add_argument("--json", help="write the measurements to this file")
    args = parser.parse_args(argv)
    m, n, k = (300, 700, 10) if args.quick else (args.m, args.n, args.k)
    result = measure(m, n, k, args.repeats)
    print(report(result))
    if args.json:
        atomic_write_text(args.json, json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    main()
