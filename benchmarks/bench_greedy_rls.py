"""Benchmark of greedy RLS (Algorithm 3) on the paper's synthetic two-Gaussian data.

Default problem: m = 50 000 examples, n = 1000 features, k = 50 selected (the largest point
of the paper's Fig. 3, "a bit less than twelve minutes" on a 2010 Core 2 Duo). Everything is
measured in the same run, on the same machine:

- time of the whole selection and seconds per round (numba backend, all threads);
- the machine's streaming bandwidth: a plain numpy copy of an array the size of X
  (bytes read + written per second);
- the effective bandwidth of the selection: the bytes its passes over X and the cache must
  move (see ``selection/_scoring.py``) divided by its time;
- peak memory relative to the size of X (tracemalloc: X plus everything the selection
  allocates; and the process's maximum resident set size);
- the same selection on one thread;
- at a smaller m, all on one thread and the same data: the numpy fallback backend and a
  plain per-feature numpy loop (Algorithm 3 as printed, one candidate at a time), as ratios
  to the numba backend, with the per-feature loop extrapolated linearly to the full problem.

Run: ``make bench`` or ``python benchmarks/bench_greedy_rls.py [--json out.json]``.
Timings are wall-clock; other processes on the machine slow everything down equally, so
compare the ratios, and rerun when the machine is busy.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time
import tracemalloc

import numpy as np
from threadpoolctl import threadpool_limits

from rlsbench.benchmark._io import atomic_path
from rlsbench.numerics.selection import greedy_rls
from rlsbench.numerics.synthetic import make_two_gaussians


def copy_bandwidth(X, repeats=5):
    """Best (read + write) bytes/s of ``np.copyto`` into a fresh array like X."""
    out = np.empty_like(X)
    np.copyto(out, X)  # first touch of the pages is not part of streaming
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        np.copyto(out, X)
        best = min(best, time.perf_counter() - t0)
    del out
    return 2 * X.nbytes / best


def selection_bytes(X, k, max_pending, bias):
    """Bytes the greedy RLS passes move: init reads X (twice with a bias) and writes the
    cache; every round reads the cache once, every round but the last reads X once
    (w = X^T c), and the cache is written back every ``max_pending`` rounds."""
    size = X.nbytes
    init = (2 if bias else 1) * size + size
    rounds = k * size + (k - 1) * size
    writebacks = sum(1 for r in range(k) if r > 0 and r % max_pending == 0) * size
    return init + rounds + writebacks


def per_feature_loop(X, y, k, alpha):
    """Algorithm 3 as printed, with plain numpy and one candidate at a time (the baseline).

    Features are rows of contiguous copies ``X^T`` and ``C^T`` so that each candidate's
    vectors are contiguous; bias 0, squared criterion.
    """
    XT = np.ascontiguousarray(X.T)
    CT = XT / alpha
    a = y / alpha
    d = np.full(y.shape[0], 1.0 / alpha)
    selected = []
    for _ in range(k):
        best, best_i = np.inf, -1
        for i in range(XT.shape[0]):
            if i in selected:
                continue
            v, c = XT[i], CT[i]
            u = c / (1.0 + v @ c)
            a_t = a - u * (v @ a)
            d_t = d - u * c
            r = a_t / d_t
            e = r @ r
            if e < best:
                best, best_i = e, i
        v, c = XT[best_i], CT[best_i]
        u = c / (1.0 + v @ c)
        a = a - u * (v @ a)
        d = d - u * c
        CT -= np.outer(CT @ v, u)
        selected.append(best_i)
    return np.array(selected)


def timed(f, *args, **kw):
    t0 = time.perf_counter()
    out = f(*args, **kw)
    return out, time.perf_counter() - t0


def resident_bytes():
    """Current resident set size of this process (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n-samples", type=int, default=50_000)
    p.add_argument("--n-features", type=int, default=1000)
    p.add_argument("--k", type=int, default=50)
    p.add_argument("--alpha", type=float, default=1.0)
    p.add_argument("--bias", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--repeats", type=int, default=2, help="timed runs of the full problem")
    p.add_argument(
        "--small-samples",
        type=int,
        default=10_000,
        help="m of the comparison with the numpy fallback and the per-feature loop",
    )
    p.add_argument(
        "--loop-rounds",
        type=int,
        default=3,
        help="rounds of the per-feature loop baseline (it is slow)",
    )
    p.add_argument("--json", help="also write the figures to this JSON file")
    args = p.parse_args(argv)
    m, n, k = args.n_samples, args.n_features, args.k

    X, y = make_two_gaussians(m, n, seed=args.seed)
    gb = X.nbytes / 1e9
    print(
        f"greedy RLS benchmark: m={m} n={n} k={k} λ={args.alpha} bias={args.bias}; "
        f"X is {gb:.2f} GB float64; python {platform.python_version()}, "
        f"numpy {np.__version__}"
    )
    greedy_rls(X[:300], y[:300], 2, args.alpha)  # compile / load the numba kernels

    # Peak memory of one selection on top of X (tracemalloc sees numpy's buffers).
    rss_before = resident_bytes()
    tracemalloc.start()
    path, _ = timed(greedy_rls, X, y, k, args.alpha, bias=args.bias)
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    runs = []
    for _ in range(args.repeats):
        cpu0 = time.process_time()
        p_run, total = timed(greedy_rls, X, y, k, args.alpha, bias=args.bias)
        assert np.array_equal(p_run.selected, path.selected)
        runs.append((total, p_run.info, time.process_time() - cpu0))
    total, info, cpu = min(runs, key=lambda r: r[0])
    rounds = np.asarray(info["round_seconds"])

    bw_copy = copy_bandwidth(X)
    moved = selection_bytes(X, k, info["max_pending"], args.bias)
    bw_eff = moved / total

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\nfull problem (numba backend, best of {args.repeats}; all runs: "
        f"{', '.join(f'{r[0]:.2f}' for r in runs)} s; load average {load:.1f} on "
        f"{os.cpu_count()} CPUs)"
    )
    print(f"  total selection time     {total:8.2f} s   (paper, 2010 desktop: ~700 s)")
    print(
        f"  CPU time of that run     {cpu:8.2f} s   (all threads; ≈ wall × threads when "
        "the machine is otherwise idle)"
    )
    print(f"  set-up (cache C = G X)   {info['init_seconds']:8.3f} s")
    print(
        f"  seconds per round        {rounds.mean():8.3f} s   "
        f"(min {rounds.min():.3f}, max {rounds.max():.3f})"
    )
    print(f"  streaming bandwidth      {bw_copy / 1e9:8.1f} GB/s (numpy copy of X, read+write)")
    print(
        f"  effective bandwidth      {bw_eff / 1e9:8.1f} GB/s ({moved / 1e9:.1f} GB moved; "
        f"{bw_eff / bw_copy:.0%} of the copy)"
    )
    print(
        f"  peak memory (traced)     {(X.nbytes + traced_peak) / X.nbytes:8.2f} × X "
        "(X + everything the selection allocates)"
    )
    print(
        f"  max resident set size    {maxrss / X.nbytes:8.2f} × X (whole process, incl. "
        f"{(rss_before - X.nbytes) / 1e6:.0f} MB of interpreter and libraries); "
        f"{(X.nbytes + maxrss - rss_before) / X.nbytes:.2f} × X above that"
    )

    # One thread each (numba and BLAS): ratios of work, robust to other load on the machine.
    cpu0 = time.process_time()
    with threadpool_limits(1):
        p1, total_1 = timed(greedy_rls, X, y, k, args.alpha, bias=args.bias, n_jobs=1)
    cpu_1 = time.process_time() - cpu0
    print(
        f"  one thread               {total_1:8.2f} s   (CPU {cpu_1:.2f} s; parallel speed-up "
        f"{total_1 / total:.2f}×)"
    )

    ms = min(args.small_samples, m)
    Xs, ys = np.ascontiguousarray(X[:ms]), y[:ms]
    with threadpool_limits(1):
        ps, t_numba = timed(greedy_rls, Xs, ys, k, args.alpha, backend="numba", n_jobs=1)
        pn, t_numpy = timed(greedy_rls, Xs, ys, k, args.alpha, backend="numpy")
        kl = min(args.loop_rounds, k)
        sel_loop, t_loop = timed(per_feature_loop, Xs, ys, kl, args.alpha)
    same = np.array_equal(ps.selected, pn.selected) and np.array_equal(sel_loop, ps.selected[:kl])
    numba_round = np.mean(ps.info["round_seconds"])
    loop_round = t_loop / kl
    loop_full = loop_round * (m / ms) * k
    print(
        f"\none-thread comparison at m={ms} (same data, bias 0, squared criterion; "
        f"selections identical: {same})"
    )
    print(f"  numba backend            {t_numba:8.2f} s   ({numba_round:.4f} s/round)")
    print(f"  numpy fallback           {t_numpy:8.2f} s   ({t_numpy / t_numba:.1f} × numba)")
    print(
        f"  per-feature numpy loop   {loop_round:8.2f} s/round over {kl} rounds "
        f"({loop_round / numba_round:.0f} × numba per round)"
    )
    print(
        f"  per-feature loop, extrapolated to m={m}, k={k}: {loop_full:.0f} s "
        f"({loop_full / total:.0f} × the measured greedy RLS)"
    )

    figures = {
        "n_samples": m,
        "n_features": n,
        "k": k,
        "alpha": args.alpha,
        "bias": args.bias,
        "x_bytes": X.nbytes,
        "total_seconds": total,
        "cpu_seconds": cpu,
        "one_thread_seconds": total_1,
        "one_thread_cpu_seconds": cpu_1,
        "load_average": load,
        "all_totals": [r[0] for r in runs],
        "init_seconds": info["init_seconds"],
        "round_seconds_mean": float(rounds.mean()),
        "copy_bandwidth_GBps": bw_copy / 1e9,
        "effective_bandwidth_GBps": bw_eff / 1e9,
        "peak_traced_over_x": (X.nbytes + traced_peak) / X.nbytes,
        "maxrss_over_x": maxrss / X.nbytes,
        "maxrss_above_baseline_over_x": (X.nbytes + maxrss - rss_before) / X.nbytes,
        "small_samples": ms,
        "numba_small_seconds": t_numba,
        "numpy_small_seconds": t_numpy,
        "loop_round_seconds_small": loop_round,
        "loop_extrapolated_seconds": loop_full,
        "selections_identical": bool(same),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "machine": platform.machine(),
    }
    if args.json:
        with atomic_path(args.json) as tmp:
            tmp.write_text(json.dumps(figures, indent=2) + "\n")
    return figures


if __name__ == "__main__":
    main()
