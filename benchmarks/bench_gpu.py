"""Greedy RLS on an NVIDIA GPU against rlsbench's own numba CPU path (issue 21's table).

Problem: Gaussian X (float64, seeded), ``y = X w + noise``, λ = 1, no bias, squared LOO,
k = 50, for the sizes of ``--sizes`` (default the issue's 50 000 × 1000, 200 000 × 2000 and
1 000 000 × 2000). Measured in the same run on the same data:

- **numba, 2 threads / all threads**: ``greedy_rls`` on a host copy of X (skipped above
  ``--cpu-max-elements`` entries: minutes each);
- **GPU**: ``greedy_rls`` on the device array (CuPy or torch, ``--library``), the numba-cuda
  scoring kernel + cuBLAS GEMV (``backend='cuda'``); best of ``--repeats`` after a warm-up
  that compiles the kernels;
- **one copy of X**: a device-to-device copy of X (one read and one write of X), best of 10;
- **copies per round**: median round time / copy time (round times from the path's info);
- **peak / X**: peak device memory during the fit (X itself counted) over the size of X
  (torch: ``max_memory_allocated``; CuPy: a memory hook on its pool);
- **same selections**: GPU selection equal to the CPU selection (numba, all threads), where
  the CPU ran.

Exit status: 0 after printing the table; 2 with a one-line message when no CUDA GPU (or no
CuPy/torch, or no numba CUDA target) is present — nothing is measured then.

Run: ``python benchmarks/bench_gpu.py [--sizes 50000x1000,200000x2000] [--k 50]
[--library torch|cupy] [--markdown out.md] [--json out.json]``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import sys
import time

import array_api_compat
import numpy as np

from rlsbench.numerics.selection import greedy_rls

DEFAULT_SIZES = "50000x1000,200000x2000,1000000x2000"


def _library(name):
    """(module, namespace, sync, to_host, peak tracker) of the device library, or an error."""
    if name == "torch":
        try:
            import torch
        except ImportError:
            return "torch is not installed"
        if not torch.cuda.is_available():
            return "torch sees no CUDA GPU"
        import array_api_compat.torch as xp

        class Peak:
            def start(self):
                torch.cuda.synchronize()
                torch.cuda.reset_peak_memory_stats()

            def peak(self):
                torch.cuda.synchronize()
                return torch.cuda.max_memory_allocated()

        def randn(shape, seed):
            g = torch.Generator(device="cuda").manual_seed(seed)
            return torch.randn(shape, generator=g, device="cuda", dtype=torch.float64)

        return dict(
            xp=xp,
            sync=torch.cuda.synchronize,
            host=lambda a: a.cpu().numpy(),
            peak=Peak(),
            randn=randn,
            copy=lambda a: a.clone(),
            device=torch.cuda.get_device_name(),
        )
    try:
        import cupy
    except ImportError:
        return "cupy is not installed"
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return "CuPy sees no CUDA GPU"
    except Exception as exc:  # noqa: BLE001 - no driver, no device: say so and stop
        return f"CuPy sees no CUDA GPU ({exc})"
    import array_api_compat.cupy as xp

    class Peak(cupy.cuda.MemoryHook):
        name = "peak"

        def __init__(self):
            self.used = self.max = 0
            self.sizes = {}

        def start(self):
            cupy.cuda.Device().synchronize()
            self.max = self.used = cupy.get_default_memory_pool().used_bytes()
            self.__enter__()

        def malloc_postprocess(self, device_id, size, mem_size, mem_ptr, pmem_id):
            self.used += mem_size
            self.sizes[mem_ptr] = mem_size
            self.max = max(self.max, self.used)

        def free_postprocess(self, device_id, mem_size, mem_ptr, pmem_id):
            self.used -= self.sizes.pop(mem_ptr, mem_size)

        def peak(self):
            cupy.cuda.Device().synchronize()
            self.__exit__()
            return self.max

    def randn(shape, seed):
        return cupy.random.default_rng(seed).standard_normal(shape, dtype=np.float64)

    return dict(
        xp=xp,
        sync=cupy.cuda.Device().synchronize,
        host=cupy.asnumpy,
        peak=Peak(),
        randn=randn,
        copy=lambda a: a.copy(),
        device=cupy.cuda.runtime.getDeviceProperties(0)["name"].decode(),
    )


def _parse_sizes(text):
    sizes = []
    for item in text.split(","):
        m, _, n = item.strip().lower().partition("x")
        sizes.append((int(float(m)), int(float(n))))
    return sizes


def _cpu(X, y, k, n_jobs):
    greedy_rls(X[:64, :8], y[:64], 2, 1.0, backend="numba", n_jobs=n_jobs)  # compile first
    t0 = time.perf_counter()
    path = greedy_rls(X, y, k, 1.0, backend="numba", n_jobs=n_jobs)
    return path, time.perf_counter() - t0


def _breakdown(lib, X, repeats=5):
    """Seconds of one scoring pass (4 pending updates, no write-back) and of one GEMV Xᵀc."""
    from rlsbench.numerics.selection.cuda import MAX_PENDING, CudaScorer

    xp = lib["xp"]
    m, n = X.shape
    dev = array_api_compat.device(X)
    scorer = CudaScorer(xp)
    C = scorer.init_cache(X, xp.zeros((n,), dtype=X.dtype, device=dev), 1.0)
    U = xp.ones((m, MAX_PENDING), dtype=X.dtype, device=dev) * 1e-3
    W = xp.ones((n, MAX_PENDING), dtype=X.dtype, device=dev) * 1e-3
    s = xp.ones((n,), dtype=X.dtype, device=dev)
    xta = xp.ones((n, 1), dtype=X.dtype, device=dev)
    a = xp.ones((m, 1), dtype=X.dtype, device=dev)
    d = xp.ones((m,), dtype=X.dtype, device=dev) * 3.0
    ycls = xp.ones((m,), dtype=xp.int64, device=dev)

    def best(f):
        out = []
        for _ in range(repeats):
            lib["sync"]()
            t0 = time.perf_counter()
            f()
            lib["sync"]()
            out.append(time.perf_counter() - t0)
        return min(out)

    pass_s = best(lambda: scorer.score(C, U, W, MAX_PENDING, False, s, xta, a, d, a, ycls, False))
    c = C[:, 0] * 1.0
    gemv_s = best(lambda: X.T @ c)
    return pass_s, gemv_s


def measure(lib, m, n, k, repeats, cpu_max_elements, cpu2_max_elements, seed=0):
    """One row of the table (dict) for an m×n problem."""
    X = lib["randn"]((m, n), seed)
    w = lib["randn"]((n,), seed + 1)
    y = X @ w + lib["randn"]((m,), seed + 2) * float(np.sqrt(n))
    lib["sync"]()
    copies = []
    for _ in range(10):
        t0 = time.perf_counter()
        Z = lib["copy"](X)
        lib["sync"]()
        copies.append(time.perf_counter() - t0)
        del Z
    copy_s = min(copies)

    greedy_rls(X[:4096, :64], y[:4096], 5, 1.0, backend="cuda")  # compile the kernels
    times, rounds = [], []
    peak = None
    for rep in range(repeats):
        if rep == 0:
            lib["peak"].start()
        lib["sync"]()
        t0 = time.perf_counter()
        path = greedy_rls(X, y, k, 1.0, backend="cuda")
        lib["sync"]()
        times.append(time.perf_counter() - t0)
        if rep == 0:
            peak = lib["peak"].peak()
        rounds.append(statistics.median(path.info["round_seconds"]))
    pass_s, gemv_s = _breakdown(lib, X)
    gpu_s = min(times)
    round_s = min(rounds)
    row = dict(
        m=m,
        n=n,
        k=k,
        gpu_s=gpu_s,
        copy_ms=copy_s * 1e3,
        copies_per_round=round_s / copy_s,
        copies_per_round_total=gpu_s / k / copy_s,
        peak_over_X=peak / (m * n * 8),
        pass_copies=pass_s / copy_s,
        gemv_copies=gemv_s / copy_s,
        init_s=path.info["init_seconds"],
        weights_s=path.info["weights_seconds"],
        gpu_selected=[int(i) for i in path.selected],
        cpu2_s=None,
        cpu_all_s=None,
        same_selection=None,
    )
    if m * n <= cpu_max_elements:
        Xh, yh = lib["host"](X), lib["host"](y)
        del X, y
        if m * n <= cpu2_max_elements:
            _, row["cpu2_s"] = _cpu(Xh, yh, k, 2)
        cpu_path, row["cpu_all_s"] = _cpu(Xh, yh, k, None)
        row["same_selection"] = bool(np.array_equal(cpu_path.selected, path.selected))
        row["cpu_selected"] = [int(i) for i in cpu_path.selected]
    return row


def table(rows, device, threads):
    head = (
        f"| m x n, k | rlsbench numba, 2 threads | numba, {threads} threads | GPU (numba-cuda "
        "pass + GEMV) | one copy of X | copies a round | peak / X | same selections | "
        "× all threads |\n|---|---|---|---|---|---|---|---|---|\n"
    )
    lines, notes = [], []
    for r in rows:
        cpu2 = "—" if r["cpu2_s"] is None else f"{r['cpu2_s']:.1f} s"
        cpua = "—" if r["cpu_all_s"] is None else f"{r['cpu_all_s']:.1f} s"
        same = {None: "not run", True: "yes", False: "NO"}[r["same_selection"]]
        speed = "—" if r["cpu_all_s"] is None else f"{r['cpu_all_s'] / r['gpu_s']:.0f}x"
        notes.append(
            f"- {r['m']:,} x {r['n']:,}: scoring pass {r['pass_copies']:.2f} copies, GEMV "
            f"{r['gemv_copies']:.2f} copies, set-up {r['init_s'] * 1e3:.0f} ms, weights "
            f"{r['weights_s'] * 1e3:.0f} ms, GPU total / k {r['copies_per_round_total']:.2f} "
            "copies"
        )
        lines.append(
            f"| {r['m']:,} x {r['n']:,}, {r['k']} | {cpu2} | {cpua} | {r['gpu_s']:.3f} s | "
            f"{r['copy_ms']:.2f} ms | {r['copies_per_round']:.2f} | {r['peak_over_X']:.2f} | "
            f"{same} | {speed} |"
        )
    return (
        f"Device: {device}; {datetime.date.today()}\n\n"
        + head
        + "\n".join(lines)
        + "\n\nCopies are times over the measured device-to-device copy of X.\n\n"
        + "\n".join(notes)
        + "\n"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="m x n list, e.g. 50000x1000")
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--library", choices=["torch", "cupy"], default="torch")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--cpu-max-elements",
        type=float,
        default=2.0e9,
        help="run the numba CPU path (all threads) only up to this m*n (default 2e9)",
    )
    parser.add_argument(
        "--cpu2-max-elements",
        type=float,
        default=4.0e8,
        help="run the numba CPU path on 2 threads only up to this m*n (default 4e8)",
    )
    parser.add_argument("--markdown")
    parser.add_argument("--json")
    args = parser.parse_args(argv)

    from rlsbench.numerics.selection import cuda

    lib = _library(args.library)
    if isinstance(lib, str) or not cuda.available():
        why = lib if isinstance(lib, str) else "numba finds no CUDA target (pip install numba-cuda)"
        print(f"bench_gpu: no CUDA GPU to measure on: {why}; nothing measured", file=sys.stderr)
        return 2
    import numba

    threads = numba.config.NUMBA_NUM_THREADS
    rows = []
    for m, n in _parse_sizes(args.sizes):
        row = measure(
            lib, m, n, args.k, args.repeats, args.cpu_max_elements, args.cpu2_max_elements
        )
        rows.append(row)
        print(json.dumps(row), flush=True)
    text = table(rows, lib["device"], threads)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(text)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(dict(device=lib["device"], threads=threads, rows=rows), fh, indent=1)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
