"""Greedy RLS against the memory-bandwidth bound and the implementations a user would pick.

Problem (default): the paper's synthetic two-Gaussian data, m = 50 000 examples, n = 1000
features, k = 50 selected, λ = 1, no bias, squared LOO criterion (the largest point of the
paper's Fig. 3). Everything is measured in the same run on the same data:

- the bandwidth bound: ``np.copyto`` of an array the size of X (one read and one write of X);
- rlsbench's greedy RLS on two threads and on one: total time, time per round in copies of X
  (round time / copy time), peak memory in multiples of X;
- a plain vectorised numpy implementation of Algorithm 3 (every candidate scored by
  (m, n) array expressions; the reference of the speed-up), on a few rounds of the full
  problem, extrapolated to k rounds (its rounds all cost the same);
- the low-rank updated LS-SVM (Algorithm 2, the paper's baseline, O(k m² n) time and O(m²)
  memory) on a smaller m, extrapolated by (m / m_small)²;
- scikit-learn's ``SequentialFeatureSelector`` with ``Ridge`` (5-fold CV, what a user would
  write) on a few rounds, extrapolated linearly to k rounds (a lower bound: later rounds fit
  more features);
- abess (best-subset selection, C++; support size fixed at k) and RLScore's ``GreedyRLS`` (the
  authors' library; Cython) where installed (``pip install -e '.[bench]'``; RLScore see
  README), skipped with a message otherwise;
- the random baseline (RLS path along a random order), the λ grid search and the protocol's
  LOO path on the same data, as ratios of greedy RLS's time.

Every time is the best of ``--repeats`` runs (slow baselines run once). Other processes on the
machine slow everything down: the load average is printed, compare the ratios, and rerun at a
quiet moment. ``--quick`` runs the same on a small problem (the test suite runs it; it asserts
the table and the selections, never times).

Run: ``make bench`` or ``python benchmarks/bench_greedy_rls.py [--quick] [--json out.json]
[--markdown out.md]``.
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
import warnings

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark import tables
from rlsbench.benchmark.atomic import atomic_write_text
from rlsbench.benchmark.protocol import loo_decision_path
from rlsbench.numerics._scan import max_abs
from rlsbench.numerics.rls import choose_alpha
from rlsbench.numerics.selection import greedy_rls, lowrank_lssvm, random_selection
from rlsbench.numerics.synthetic import make_two_gaussians

#: (m, n, k, m of the low-rank baseline, rounds of the numpy reference, rounds of SFS, rounds
#: of RLScore): the issue's problem and a small one for ``--quick``.
SIZES = {
    "full": dict(
        m=50_000, n=1000, k=50, m_lowrank=2000, numpy_rounds=3, sfs_rounds=2, rls_rounds=3
    ),
    "quick": dict(m=3000, n=60, k=6, m_lowrank=400, numpy_rounds=6, sfs_rounds=2, rls_rounds=6),
}
#: λ grid of the paper's protocol (2^-15 … 2^15).
ALPHA_GRID = 2.0 ** np.arange(-15, 16)


def load_average():
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def best_time(f, repeats):
    """(result of the last call, best wall-clock seconds over ``repeats`` calls)."""
    best = np.inf
    out = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return out, best


def copy_seconds(X, repeats=5):
    """Best time of ``np.copyto`` of X into a fresh array (pages touched beforehand)."""
    out = np.empty_like(X)
    np.copyto(out, X)
    _, best = best_time(lambda: np.copyto(out, X), repeats)
    return best


def plain_numpy_greedy(X, y, k, alpha):
    """Algorithm 3 in plain vectorised numpy (bias 0, squared LOO criterion).

    Every round scores all candidates with (m, n) array expressions (eq. 14-17 and eq. 8),
    then applies the rank-one cache update ``C -= u wᵀ`` with ``w = Xᵀ c``. Yields None once
    the set-up is done, then the feature chosen in each round.
    """
    m, n = X.shape
    C = X / alpha  # cache G X with G = I / λ (eq. 13)
    a = y / alpha
    d = np.full(m, 1.0 / alpha)
    s = np.einsum("ij,ij->j", X, C)  # x_iᵀ G x_i
    xta = X.T @ a
    yield None
    selected = []
    for _ in range(k):
        beta = 1.0 / (1.0 + s)
        R = (a[:, None] - C * (xta * beta)) / (d[:, None] - C * C * beta)
        loo = np.einsum("ij,ij->j", R, R)
        loo[selected] = np.inf
        b = int(np.argmin(loo))
        c = C[:, b].copy()
        gamma = 1.0 / (1.0 + s[b])
        u = gamma * c
        w = X.T @ c
        xta_b = xta[b]
        a -= u * xta_b
        d -= u * c
        C -= np.outer(u, w)
        s -= gamma * w * w
        xta -= gamma * w * xta_b
        selected.append(b)
        yield b


def run_plain_numpy(X, y, k, alpha, rounds):
    """(features chosen, set-up seconds, mean seconds per round) of the first ``rounds``
    rounds of :func:`plain_numpy_greedy`."""
    gen = plain_numpy_greedy(X, y, k, alpha)
    t0 = time.perf_counter()
    next(gen)
    t1 = time.perf_counter()
    chosen = [next(gen) for _ in range(rounds)]
    t2 = time.perf_counter()
    gen.close()
    return np.array(chosen), t1 - t0, (t2 - t1) / rounds


def run_sfs(X, y, rounds, alpha):
    from sklearn.feature_selection import SequentialFeatureSelector
    from sklearn.linear_model import Ridge

    sfs = SequentialFeatureSelector(
        Ridge(alpha=alpha, fit_intercept=False),
        n_features_to_select=rounds,
        direction="forward",
        scoring="neg_mean_squared_error",
        cv=5,
    )
    t0 = time.perf_counter()
    sfs.fit(X, y)
    return time.perf_counter() - t0


def read_seconds(X, threads, repeats=5):
    """Best time of one read of X on ``threads`` numba threads (the input check's pass,
    :func:`rlsbench.numerics._scan.max_abs`): the bound of a pass that only reads."""
    import numba

    old = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        max_abs(X)
        return best_time(lambda: max_abs(X), repeats)[1]
    finally:
        numba.set_num_threads(old)


def run_abess(X, y, k, threads, repeats):
    """(best wall seconds over ``repeats`` fits, (user, system) CPU seconds of that fit)."""
    try:
        from abess.linear import LinearRegression
    except ImportError:
        return None, "abess not installed (pip install -e '.[bench]')", None
    best, cpu = np.inf, None
    for _ in range(repeats):
        model = LinearRegression(support_size=[k], thread=threads)
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        model.fit(X, y)
        t = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        if t < best:
            best, cpu = t, (r1.ru_utime - r0.ru_utime, r1.ru_stime - r0.ru_stime)
    return best, "", cpu


def run_rlscore(X, y, k, alpha):
    try:
        from rlscore.learner import GreedyRLS
    except ImportError:
        return (
            None,
            None,
            "RLScore not installed (rlscore 0.8.1 on PyPI does not build on Python 3.11+; "
            "see benchmarks/README.md)",
        )
    t0 = time.perf_counter()
    with warnings.catch_warnings():  # RLScore works on np.matrix
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        learner = GreedyRLS(X, y, k, regparam=alpha, bias=0.0)
    return np.asarray(learner.selected), time.perf_counter() - t0, ""


def resident_bytes():
    """Current resident set size of this process (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small problem (seconds), for tests")
    p.add_argument("--alpha", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--repeats", type=int, default=3, help="timed runs of greedy RLS")
    p.add_argument("--skip-slow", action="store_true", help="leave out SFS and RLScore")
    p.add_argument("--json", help="also write the figures to this JSON file")
    p.add_argument("--markdown", help="also write the table to this Markdown file")
    args = p.parse_args(argv)
    size = SIZES["quick" if args.quick else "full"]
    m, n, k, alpha = size["m"], size["n"], size["k"], args.alpha
    load_start = load_average()

    rss0 = resident_bytes()
    X, y = make_two_gaussians(m, n, seed=args.seed)
    xbytes = X.nbytes
    greedy_rls(X[:300], y[:300], 2, alpha, n_jobs=1)  # load the compiled kernels
    greedy_rls(X[:300], y[:300], 2, alpha, n_jobs=2)

    # Peak memory of one selection: traced numpy allocations, and the resident set.
    tracemalloc.start()
    ref = greedy_rls(X, y, k, alpha, n_jobs=2)
    traced_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    t_copy = copy_seconds(X)
    t_read = {threads: read_seconds(X, threads) for threads in (2, 1)}
    runs = {}
    for threads in (2, 1):
        with threadpool_limits(threads):
            path, total = best_time(
                lambda nj=threads: greedy_rls(X, y, k, alpha, n_jobs=nj), args.repeats
            )
        assert np.array_equal(path.selected, ref.selected)
        rounds = np.asarray(path.info["round_seconds"])
        runs[threads] = dict(
            total=total,
            init=path.info["init_seconds"],
            round_mean=float(rounds.mean()),
            weights=path.info["weights_seconds"],
        )
    t2, t1 = runs[2]["total"], runs[1]["total"]
    # bytes a round moves: one read and one write of the candidates' cache columns
    live = np.mean([(n - r) / n for r in range(k)])

    rows = []  # (name, size run, seconds measured, seconds at full size, label, agrees)

    def row(name, run_size, measured, full, how, agrees):
        rows.append(
            dict(name=name, size=run_size, measured=measured, full=full, how=how, agrees=agrees)
        )

    full_size = f"m={m}, n={n}, k={k}"
    row("memory bound: np.copyto of X", f"X {xbytes / 1e9:.2f} GB", t_copy, t_copy, "measured", "")
    for threads in (2, 1):
        row(
            f"memory bound: one read of X, {threads} thread{'s' if threads > 1 else ''}",
            f"X {xbytes / 1e9:.2f} GB",
            t_read[threads],
            t_read[threads],
            "measured (numba pass, rlsbench.numerics._scan.max_abs)",
            "",
        )
    read_floor = k * live * t_read[2]
    row(
        f"bandwidth floor of greedy RLS: {k} reads of the live cache, 2 threads",
        full_size,
        read_floor,
        read_floor,
        f"{k} × {live:.0%} × one read of X (any method that reads the m×n cache each round)",
        "",
    )
    row("rlsbench greedy_rls, 2 threads", full_size, t2, t2, "measured", "reference")
    row("rlsbench greedy_rls, 1 thread", full_size, t1, t1, "measured", "yes")

    with threadpool_limits(1):
        chosen, setup, per_round = run_plain_numpy(X, y, k, alpha, min(size["numpy_rounds"], k))
    np_full = setup + per_round * k
    row(
        "plain vectorised numpy (Algorithm 3)",
        f"{full_size}, {len(chosen)} rounds",
        setup + per_round * len(chosen),
        np_full,
        f"extrapolated: {k} rounds × {per_round:.2f} s",
        _agree(chosen, ref.selected[: len(chosen)]),
    )

    ms = min(size["m_lowrank"], m)
    Xs, ys = np.ascontiguousarray(X[:ms]), y[:ms]
    small_ref = greedy_rls(Xs, ys, k, alpha, n_jobs=1)
    with threadpool_limits(2):
        lr, t_lr = best_time(lambda: lowrank_lssvm(Xs, ys, k, alpha, max_memory_bytes=None), 1)
    row(
        "low-rank updated LS-SVM (Algorithm 2), 2 BLAS threads",
        f"m={ms}, n={n}, k={k}",
        t_lr,
        t_lr * (m / ms) ** 2,
        f"extrapolated × (m/{ms})² (O(k m² n); needs {8 * m * m / 1e9:.0f} GB at m={m})",
        _agree(lr.selected, small_ref.selected),
    )

    if not args.skip_slow:
        kr = min(size["sfs_rounds"], k)
        with threadpool_limits(1):
            t_sfs = run_sfs(X, y, kr, alpha)
        row(
            "scikit-learn SequentialFeatureSelector(Ridge), cv=5, 1 thread",
            f"{full_size}, {kr} rounds",
            t_sfs,
            t_sfs * k / kr,
            f"extrapolated × {k}/{kr} rounds (lower bound)",
            "— (5-fold CV criterion)",
        )

    abess_cpu = {}
    for threads in (1, 2):
        t_ab, why, cpu = run_abess(X, y, k, threads, args.repeats)
        if t_ab is None:
            print(f"skipped abess: {why}")
            break
        abess_cpu[threads] = dict(wall=t_ab, user=cpu[0], system=cpu[1])
        row(
            f"abess LinearRegression(support_size=[{k}]), {threads} thread(s)",
            full_size,
            t_ab,
            t_ab,
            f"measured, best of {args.repeats} (one support size; greedy RLS gives the path "
            f"1…k); CPU {cpu[0]:.2f} s user + {cpu[1]:.2f} s system",
            "— (best subset, not LOO)",
        )

    if not args.skip_slow:
        kr = min(size["rls_rounds"], k)
        with threadpool_limits(1):
            sel, t_rls, why = run_rlscore(X, y, kr, alpha)
        if sel is None:
            print(f"skipped RLScore: {why}")
        else:
            # RLScore copies the data and the cache every round: its rounds cost the same
            row(
                "RLScore GreedyRLS (authors' library), 1 thread",
                f"{full_size}, {kr} rounds",
                t_rls,
                t_rls * k / kr,
                f"extrapolated × {k}/{kr} rounds",
                _agree(sel, ref.selected[:kr]),
            )

    # The baselines of the paper's protocol on the same data, as ratios of greedy RLS.
    with threadpool_limits(2):
        _, t_rand = best_time(lambda: random_selection(X, y, k, alpha, seed=0), args.repeats)
        _, t_loo = best_time(
            lambda: list(loo_decision_path(X, y, ref.selected, alpha, bias=0.0)), args.repeats
        )
        _, t_grid = best_time(lambda: choose_alpha(X, y, ALPHA_GRID), 1)
    row(
        "random baseline (RLS path along k random features)",
        full_size,
        t_rand,
        t_rand,
        "measured",
        "",
    )
    row("protocol LOO path along greedy's k features", full_size, t_loo, t_loo, "measured", "")
    row(
        f"λ grid search ({len(ALPHA_GRID)} λ, all n features)",
        f"m={m}, n={n}",
        t_grid,
        t_grid,
        "measured",
        "",
    )

    load_end = load_average()
    figures = dict(
        sizes=size,
        alpha=alpha,
        x_bytes=xbytes,
        copy_seconds=t_copy,
        greedy=runs,
        round_in_copies=runs[2]["round_mean"] / t_copy,
        round_in_copies_1_thread=runs[1]["round_mean"] / t_copy,
        live_fraction=live,
        two_vs_one_thread=t1 / t2,
        read_seconds=t_read,
        read_two_vs_one_thread=t_read[1] / t_read[2],
        read_floor_seconds=read_floor,
        abess=abess_cpu,
        peak_traced_over_x=(xbytes + traced_peak) / xbytes,
        maxrss_over_x=(maxrss - rss0) / xbytes,
        rows=rows,
        selected=ref.selected.tolist(),
        load_average=[load_start, load_end],
        cpus=os.cpu_count(),
        python=sys.version.split()[0],
        numpy=np.__version__,
        machine=platform.machine(),
    )
    table = markdown_table(figures)
    print(table)
    if args.json:
        atomic_write_text(args.json, json.dumps(figures, indent=2, default=float) + "\n")
    if args.markdown:
        atomic_write_text(args.markdown, table)
    return figures


def _agree(a, b):
    return "yes" if np.array_equal(np.asarray(a), np.asarray(b)) else "NO"


def markdown_table(fig):
    """The ratio table (Markdown) and the figures of the memory-bound target."""
    t_ref = fig["greedy"][2]["total"]
    s = fig["sizes"]
    lines = [
        f"Greedy RLS, two-Gaussian data, m={s['m']}, n={s['n']}, k={s['k']}, λ={fig['alpha']}, "
        f"squared LOO; {fig['cpus']} CPUs, load average {fig['load_average'][0]:.2f} → "
        f"{fig['load_average'][1]:.2f}; Python {fig['python']}, numpy {fig['numpy']}.",
        "",
    ]
    rows = pd.DataFrame(
        {
            "implementation": [r["name"] for r in fig["rows"]],
            "run on": [r["size"] for r in fig["rows"]],
            "measured (s)": [f"{r['measured']:.3g}" for r in fig["rows"]],
            "at full size (s)": [f"{r['full']:.3g}" for r in fig["rows"]],
            "× rlsbench (2 threads)": [f"{r['full'] / t_ref:.3g}" for r in fig["rows"]],
            "how": [r["how"] for r in fig["rows"]],
            "same selection": [r["agrees"] for r in fig["rows"]],
        }
    )
    lines += tables.markdown_table(rows).splitlines()
    g2, g1 = fig["greedy"][2], fig["greedy"][1]
    lines += [
        "",
        f"- round of greedy RLS: {g2['round_mean'] * 1e3:.1f} ms on 2 threads, "
        f"{g1['round_mean'] * 1e3:.1f} ms on 1 = {fig['round_in_copies']:.2f} and "
        f"{fig['round_in_copies_1_thread']:.2f} copies of X (np.copyto of X: "
        f"{fig['copy_seconds'] * 1e3:.1f} ms); a round reads and writes the candidates' cache "
        f"columns ({fig['live_fraction']:.0%} of X on average over the k rounds)",
        f"- set-up (cache Cᵀ = (G X)ᵀ): {g2['init'] * 1e3:.0f} ms; weights of the path at the "
        f"end: {g2['weights'] * 1e3:.0f} ms",
        f"- two threads against one: {fig['two_vs_one_thread']:.2f}× (a read of X: "
        f"{fig['read_two_vs_one_thread']:.2f}×, {fig['read_seconds'][2] * 1e3:.1f} against "
        f"{fig['read_seconds'][1] * 1e3:.1f} ms)",
        f"- bandwidth floor ({s['k']} reads of the live cache on 2 threads): "
        f"{fig['read_floor_seconds']:.3f} s = {fig['read_floor_seconds'] / t_ref:.0%} of greedy "
        "RLS's total",
        f"- peak memory: {fig['peak_traced_over_x']:.2f} × X (X and everything numpy allocates "
        f"for the selection); resident set grew by {fig['maxrss_over_x']:.2f} × X",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
