"""What a workflow job costs against a bare Python process (issue 46, item 1).

Runs the issue's small run -- two bundled datasets (breast_cancer, wine) x random, f_test
and greedy_rls, 10 folds, k <= 10, target main_all (21 jobs) -- with plain ``snakemake
--cores 2`` (or ``rlsbench run``) in a fresh copy of the committed tree, and in the same run
times ``python -c "import numpy"``. Prints the run's wall time over its jobs (Snakemake's
steps; the issue's measure) and the mean of the timed jobs (Snakemake's ``benchmark:``
files), each as a ratio to the numpy process, with the load average before and after.

    python benchmarks/bench_job_overhead.py [--via rlsbench] [--repeats 5] [--no-jobserver]

Nothing here asserts a time; the numbers go in the issue's closing note.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]
CONFIG = {
    "run_name": "overhead",
    "mirrors": [],
    "main": {
        "enabled": True,
        "datasets": ["breast_cancer", "wine"],
        "methods": ["random", "f_test", "greedy_rls"],
        "n_folds": 10,
        "k_max": 10,
        "threads": 1,
        "report_k": [1, 5, 10],
    },
}


def _numpy_seconds(python: str, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run([python, "-c", "import numpy"], check=True)
        times.append(time.perf_counter() - t0)
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--via", choices=["snakemake", "rlsbench"], default="snakemake")
    parser.add_argument("--repeats", type=int, default=5, help="numpy processes timed")
    parser.add_argument("--no-jobserver", action="store_true", help="RLSBENCH_JOBSERVER=0")
    args = parser.parse_args(argv)
    python = sys.executable
    bindir = Path(python).parent
    with tempfile.TemporaryDirectory(prefix="rlsbench-overhead-") as tmp:
        work = Path(tmp) / "repo"
        work.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", "HEAD"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(work)], input=archive, check=True)
        (work / "overhead.yaml").write_text(yaml.safe_dump(CONFIG))
        env = dict(os.environ)
        if args.no_jobserver:
            env["RLSBENCH_JOBSERVER"] = "0"
        targets = ["main_all"]
        # targets first: Snakemake's --configfile takes every word after it
        if args.via == "snakemake":
            cmd = [str(bindir / "snakemake"), *targets, "--cores", "2"]
            cmd += ["--configfile", "overhead.yaml"]
        else:
            cmd = [str(bindir / "rlsbench"), "run", *targets, "--cores", "2"]
            cmd += ["--configfile", "overhead.yaml"]
        load_before = os.getloadavg()
        numpy_before = _numpy_seconds(python, args.repeats)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        numpy_after = _numpy_seconds(python, args.repeats)
        load_after = os.getloadavg()
        if proc.returncode:
            print(proc.stdout[-3000:], proc.stderr[-3000:], file=sys.stderr)
            return proc.returncode
        # every timed job: preparing the datasets, the λ searches, the selections, the tables
        steps = re.findall(r"(\d+) of (\d+) steps", proc.stdout + proc.stderr)
        n_steps = int(steps[-1][1]) if steps else 0
        files = sorted(p for p in (work / "results").rglob("*.tsv") if "benchmarks" in p.parts)
        jobs = [float(pd.read_csv(f, sep="\t")["s"].iloc[0]) for f in files]
        kinds = {}
        for f, s in zip(files, jobs, strict=True):
            kinds.setdefault(f.relative_to(work / "results").parts[-2], []).append(s)
    bare = statistics.median(numpy_before + numpy_after)
    per_job = statistics.mean(jobs)
    print(f"run via {args.via} (job server {'off' if args.no_jobserver else 'on'})")
    print(f"load average before {load_before[0]:.1f}, after {load_after[0]:.1f}")
    print(f"python -c 'import numpy': median {bare:.3f} s over {len(numpy_before) * 2} runs")
    print(f"{len(jobs)} timed jobs: mean {per_job:.3f} s, sum {sum(jobs):.1f} s; run {wall:.1f} s")
    for kind, times in sorted(kinds.items()):
        print(f"  {kind:12s} {len(times):2d} job(s), mean {statistics.mean(times):.3f} s")
    print(f"timed job / bare numpy process: {per_job / bare:.2f}x")
    if n_steps:  # the measure: the run's wall time over its jobs (Snakemake's steps)
        print(f"run wall / {n_steps} jobs: {wall / n_steps:.3f} s = {wall / n_steps / bare:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
