"""Do two versions of the code give the same paper results? (the speed-ups must change none)

Runs the main part's protocol (``config/paper.yaml``, section ``main``) with two source trees
of rlsbench, each in its own interpreter, on the prepared paper datasets, and compares job by
job:

- the λ chosen per fold (index in the grid), and the LOO criterion over the whole grid;
- every selection job (``rlsbench.benchmark.protocol.run_select_job``): features chosen,
  test and LOO accuracies (must be equal), and the MSE and criterion values (relative
  difference printed; ~1e-10 expected from rounding).

Usage::

    python benchmarks/compare_paper_results.py --old-src /path/to/old/src \\
        --data-dir results/datasets/prepared --out /tmp/compare [--datasets adult mnist5] \\
        [--methods greedy_rls random] [--seeds 0 1 2]

Each side's rows go to ``OUT/{old,new}.jsonl`` (a rerun resumes: jobs already there are not run
again); ``--new-src`` defaults to this checkout's ``src``. Jobs run on one thread (``threads: 1``
of the paper config) with ``nice``-friendly serial execution; the job times are recorded too.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
METHODS = ("greedy_rls", "lowrank_lssvm", "wrapper_blackbox", "wrapper_loo", "random")
EXACT = ("status", "reason", "feature", "test_accuracy", "loo_accuracy", "alpha")
CLOSE = ("test_mse", "loo_mse", "method_criterion", "method_loo_mse")
GRID = ("alpha_index", "grid_criterion", "grid_mse")  # λ search: exact, exact, close


def _jobs(main, datasets, methods, seeds, folds):
    for name in datasets:
        for fold in folds if folds is not None else range(main["n_folds"]):
            yield (name, "alpha", fold, 0)
            for method in methods:
                for seed in seeds if method == "random" else [0]:
                    yield (name, method, fold, seed)


def run_side(args):
    """Run every job not yet in ``args.out`` with the rlsbench found on sys.path."""
    import yaml
    from threadpoolctl import threadpool_limits

    import rlsbench
    from rlsbench.benchmark.datasets import load_prepared
    from rlsbench.benchmark.protocol import _fold_data, alpha_grid, run_alpha_job, run_select_job
    from rlsbench.numerics.rls import loo_grid

    threadpool_limits(1)
    main = yaml.safe_load((ROOT / "config" / "paper.yaml").read_text())["main"]
    out = Path(args.out)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            r = json.loads(line)
            done.add((r["dataset"], r["job"], r["fold"], r["seed"]))
    print(f"rlsbench from {Path(rlsbench.__file__).parent}", flush=True)
    cache = {}
    alpha_records = {}
    for key in _jobs(main, args.datasets, args.methods, args.seeds, args.folds):
        name, job, fold, seed = key
        if name not in cache:
            cache.clear()
            cache[name] = load_prepared(Path(args.data_dir) / f"{name}.npz")
        dataset = cache[name]
        if (name, fold) not in alpha_records:
            alpha_records[(name, fold)] = run_alpha_job(dataset, fold, main)
        if key in done:
            continue
        start = time.perf_counter()
        if job == "alpha":
            rec = alpha_records[(name, fold)]
            X, Y, _, _ = _fold_data(dataset, fold, main)
            crit, mse = loo_grid(
                X, Y, alpha_grid(main["alphas"]), bias=main["bias"], criterion=main["criterion"]
            )
            rows = [
                {
                    "alpha": rec["alpha"],
                    "alpha_index": rec["alpha_index"],
                    "grid_criterion": crit.tolist(),
                    "grid_mse": mse.tolist(),
                }
            ]
        else:
            rows = run_select_job(dataset, job, fold, seed, alpha_records[(name, fold)], main)
        record = {
            "dataset": name,
            "job": job,
            "fold": fold,
            "seed": seed,
            "seconds": time.perf_counter() - start,
            "rows": [{c: r.get(c) for c in EXACT + CLOSE + GRID} for r in rows],
        }
        with open(out, "a") as fh:
            fh.write(json.dumps(record) + "\n")
        print(f"{name} {job} fold {fold} seed {seed}: {record['seconds']:.2f} s", flush=True)


def _load(path):
    out = {}
    for line in Path(path).read_text().splitlines():
        r = json.loads(line)
        out[(r["dataset"], r["job"], r["fold"], r["seed"])] = r
    return out


def compare(old_path, new_path):
    """Print the differences job by job and a summary; return the number of mismatches."""
    old, new = _load(old_path), _load(new_path)
    common = sorted(set(old) & set(new))
    mismatches = 0
    worst = {}
    times = {}
    for key in common:
        a, b = old[key]["rows"], new[key]["rows"]
        group = (key[0], key[1])
        t = times.setdefault(group, [0.0, 0.0, 0])
        t[0] += old[key]["seconds"]
        t[1] += new[key]["seconds"]
        t[2] += 1
        if len(a) != len(b):
            print(f"MISMATCH {key}: {len(a)} rows against {len(b)}")
            mismatches += 1
            continue
        for ra, rb in zip(a, b):
            for c in EXACT + GRID[:2]:
                va, vb = ra.get(c), rb.get(c)
                same = va == vb or (
                    isinstance(va, float)
                    and isinstance(vb, float)
                    and np.isnan(va)
                    and np.isnan(vb)
                )
                if not same:
                    print(f"MISMATCH {key} {c}: {va!r} against {vb!r}")
                    mismatches += 1
            for c in CLOSE + GRID[2:]:
                va, vb = ra.get(c), rb.get(c)
                if va is None or vb is None:
                    continue
                va, vb = np.asarray(va, dtype=float), np.asarray(vb, dtype=float)
                both = ~(np.isnan(va) & np.isnan(vb))
                if not both.any():
                    continue
                rel = np.max(np.abs(va - vb)[both] / np.maximum(np.abs(va)[both], 1e-300))
                w = worst.setdefault((key[0], key[1], c), [0.0, None])
                if rel > w[0]:
                    w[0], w[1] = rel, key
    print(
        f"\n{len(common)} jobs compared ({len(old)} old, {len(new)} new); {mismatches} mismatches"
    )
    print("\nlargest relative difference of the real-valued columns:")
    for (ds, job, c), (rel, key) in sorted(worst.items()):
        where = f" (fold {key[2]}, seed {key[3]})" if key else ""
        print(f"  {ds:13s} {job:17s} {c:17s} {rel:.2e}{where}")
    print("\njob times, old → new (sum over the jobs compared):")
    for (ds, job), (to, tn, n) in sorted(times.items()):
        print(
            f"  {ds:13s} {job:17s} {n:3d} jobs {to:9.2f} s → {tn:8.2f} s "
            f"({to / max(tn, 1e-9):6.1f}×)"
        )
    return mismatches


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--old-src", help="src/ directory of the old version")
    p.add_argument("--new-src", default=str(ROOT / "src"))
    p.add_argument("--data-dir", required=True, help="directory of the prepared <name>.npz")
    p.add_argument("--out", required=True, help="output directory (or JSONL file with --side)")
    p.add_argument(
        "--datasets",
        nargs="+",
        default=["adult", "australian", "colon-cancer", "german.numer", "ijcnn1", "mnist5"],
    )
    p.add_argument("--methods", nargs="*", default=list(METHODS), help="none: only the λ searches")
    p.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    p.add_argument("--folds", nargs="+", type=int, help="default: every fold")
    p.add_argument("--side", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.side:
        return run_side(args)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    passthrough = ["--data-dir", args.data_dir, "--datasets", *args.datasets]
    passthrough += ["--methods", *args.methods, "--seeds", *map(str, args.seeds)]
    if args.folds is not None:
        passthrough += ["--folds", *map(str, args.folds)]
    for side, src in (("old", args.old_src), ("new", args.new_src)):
        if src is None:
            continue
        env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
        cmd = [sys.executable, __file__, "--side", "--out", str(out / f"{side}.jsonl")]
        subprocess.run(cmd + passthrough, env=env, check=True)
    return compare(out / "old.jsonl", out / "new.jsonl")


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
