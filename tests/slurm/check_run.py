"""Check a workflow run made through SLURM against a local run of the same config (issue 9).

Two claims, each of which fails loudly:

1. Every job of the SLURM run went through the scheduler. Snakemake's own log names each sbatch
   submission ("... submitted with SLURM jobid N (log: PATH)"); each of those SLURM jobs must be
   known to ``squeue`` as COMPLETED, and its SLURM log must show the jobs it executed (one
   ``localrule <rule>:`` block per executed job, several for a job group). Per rule, the jobs
   executed inside SLURM must equal the jobs in Snakemake's "Job stats", and the controlling
   Snakemake may not have executed any job itself (no ``localrule`` in its log).
2. The result tables are equal: every CSV under ``results/runs/<run>/main/tables/`` of the local
   run exists in the SLURM run with identical content, once the columns that measure the
   machine rather than the method (timings, memory, host, versions, commit) are dropped.

Usage::

    python tests/slurm/check_run.py --slurm-dir DIR --slurm-log FILE --local-dir DIR \
        --run-name NAME
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd

from rlsbench.benchmark.protocol import TIMING_COLUMNS

SUBMITTED = re.compile(r"submitted with SLURM jobid (\d+) \(log: (.+?)\)\.?$", re.M)
EXECUTED = re.compile(r"^localrule (\w+):$", re.M)
# columns that describe where and how fast a job ran, not what it computed
PROVENANCE_COLUMNS = {
    "host",
    "git_commit",
    "config_hash",
    "python_version",
    "rlsbench_version",
    "numpy_version",
    "scipy_version",
    "scikit_learn_version",
    "pandas_version",
    "numba_version",
    "snakemake_version",
}
MEASURED = re.compile(r"(_s|_mb)$|\btime\b")


class CheckFailed(AssertionError):
    pass


def job_stats(log_text: str) -> dict[str, int]:
    """Snakemake's "Job stats" table (the first one: the plan of the run) -> {rule: count}."""
    if "Job stats:" not in log_text:
        raise CheckFailed("no 'Job stats:' table in the Snakemake log: did the run start?")
    counts = {}
    for line in log_text.split("Job stats:", 1)[1].splitlines()[3:]:
        fields = line.split()
        if len(fields) != 2 or fields[0] == "total":
            break
        counts[fields[0]] = int(fields[1])
    return counts


def slurm_states(job_ids: list[str]) -> dict[str, str]:
    """SLURM job id -> state, as the executor itself reads it (squeue, no accounting needed)."""
    proc = subprocess.run(
        ["squeue", "--states=all", "--noheader", "--format=%i|%T", "--jobs", ",".join(job_ids)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise CheckFailed(f"squeue failed (is slurmctld running?): {proc.stderr.strip()}")
    return dict(line.split("|", 1) for line in proc.stdout.split())


def check_scheduler(slurm_log: Path) -> tuple[int, int, list[str]]:
    """Claim 1. Returns (jobs run through SLURM, sbatch submissions, SLURM job ids)."""
    text = slurm_log.read_text()
    planned = job_stats(text)
    local = EXECUTED.findall(text)
    if local:
        raise CheckFailed(f"the controlling Snakemake ran jobs itself, not via SLURM: {local}")
    submissions = SUBMITTED.findall(text)
    if not submissions:
        raise CheckFailed(f"no SLURM submissions in {slurm_log}")
    ids = [job_id for job_id, _ in submissions]
    states = slurm_states(ids)
    executed = collections.Counter()
    select_submissions = 0
    for job_id, path in submissions:
        if states.get(job_id) != "COMPLETED":
            raise CheckFailed(f"SLURM job {job_id} is {states.get(job_id, 'unknown to squeue')}")
        log = Path(path)
        if not log.is_file():
            raise CheckFailed(f"SLURM job {job_id}: its log {log} is missing")
        ran = EXECUTED.findall(log.read_text())
        if not ran:
            raise CheckFailed(f"SLURM job {job_id} executed no Snakemake job (log {log})")
        executed.update(ran)
        select_submissions += "main_select" in ran
    if dict(executed) != planned:
        raise CheckFailed(f"jobs executed inside SLURM {dict(executed)} != jobs planned {planned}")
    # the profile groups the selection jobs (group main_jobs): fewer submissions than jobs
    selects = planned.get("main_select", 0)
    if selects > 1 and select_submissions >= selects:
        raise CheckFailed(
            f"{selects} main_select jobs went in {select_submissions} submissions: the profile's "
            "groups/group-components did not group them"
        )
    print(f"main_select: {selects} jobs in {select_submissions} SLURM submission(s)")
    print(f"{'rule':<20} {'jobs':>5}")
    for rule, n in planned.items():
        print(f"{rule:<20} {n:>5}")
    return sum(planned.values()), len(submissions), ids


def comparable(frame: pd.DataFrame) -> pd.DataFrame:
    from rlsbench.benchmark.tables import RUN_DEPENDENT_COLUMNS

    # what the parts declare they measure (Part.measurement_columns: the runtime table's shares
    # of a job's time among them), then what looks measured by its name
    drop = [
        c
        for c in frame
        if c in TIMING_COLUMNS
        or c in PROVENANCE_COLUMNS
        or c in RUN_DEPENDENT_COLUMNS
        or MEASURED.search(c)
    ]
    return frame.drop(columns=drop)


def check_tables(slurm_dir: Path, local_dir: Path, run_name: str) -> list[str]:
    """Claim 2. Returns the names of the compared tables."""
    rel = Path("results", "runs", run_name, "main", "tables")
    local_tables = sorted((local_dir / rel).glob("*.csv"))
    if not local_tables:
        raise CheckFailed(f"the local run wrote no tables under {local_dir / rel}")
    for local in local_tables:
        remote = slurm_dir / rel / local.name
        if not remote.is_file():
            raise CheckFailed(f"the SLURM run did not write {rel / local.name}")
        a, b = comparable(pd.read_csv(local)), comparable(pd.read_csv(remote))
        try:
            pd.testing.assert_frame_equal(a, b, check_exact=True)
        except AssertionError as err:
            raise CheckFailed(
                f"{rel / local.name} differs between local and SLURM:\n{err}"
            ) from None
        print(f"equal: {rel / local.name} ({len(a)} rows, {a.shape[1]} columns compared)")
    return [t.name for t in local_tables]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slurm-dir", type=Path, required=True, help="workdir of the SLURM run")
    parser.add_argument("--slurm-log", type=Path, required=True, help="its Snakemake log")
    parser.add_argument("--local-dir", type=Path, required=True, help="workdir of the local run")
    parser.add_argument("--run-name", required=True, help="run_name of the config")
    args = parser.parse_args(argv)
    try:
        n_jobs, n_submissions, ids = check_scheduler(args.slurm_log)
        print(
            f"{n_jobs} jobs ran through SLURM in {n_submissions} sbatch submissions "
            f"(SLURM job ids {' '.join(sorted(ids, key=int))}), all COMPLETED"
        )
        check_tables(args.slurm_dir, args.local_dir, args.run_name)
    except CheckFailed as err:
        print(f"FAIL: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
