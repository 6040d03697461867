"""One timing point of the scaling study (rule ``scaling_point``).

Snakemake's ``benchmark: repeat(..., N)`` calls this script N times in a row for the same job;
``snakemake.bench_iteration`` tells which call this is. The first call decides from the
smaller point whether the point runs at all (budget) and starts the record; every call that
runs appends its in-process selection time, so the record ends with one time per repeat
(Snakemake removes a job's outputs before the first call, never between repeats).
"""

import json
import logging
import platform
import sys
from pathlib import Path

from rlsbench.benchmark._io import atomic_write_text
from rlsbench.studies.scaling.experiment import (
    Point,
    add_repeat,
    budget_decision,
    get_scaling_method,
    point_record,
    time_selection,
)

sm = snakemake  # noqa: F821 (injected by Snakemake)
sys.stderr = open(sm.log[0], "a", buffering=1)  # tracebacks go to the log too
logging.basicConfig(
    stream=sys.stderr,
    level=logging.INFO,
    format="%(asctime)s %(levelname)s %(message)s",
)
log = logging.getLogger("scaling_point")

cfg = sm.params.cfg
point = Point(**sm.params.point)
iteration = int(sm.bench_iteration or 0)
out = Path(sm.output.record)
threads_used = min(point.threads, int(sm.threads))
method_cfg = cfg["methods"][point.method]

if iteration > 0 and out.exists():
    record = json.loads(out.read_text())
else:
    record = point_record(point, alpha=cfg["alpha"], seed=cfg["seed"], threads_used=threads_used)
    record["host"] = platform.node()
    previous = json.loads(Path(sm.input.previous).read_text()) if sm.input.get("previous") else None
    decision = budget_decision(
        point,
        previous,
        method_cfg["exponents"],
        method_cfg.get("budget_s", cfg["budget"]["point_s"]),
    )
    record["predicted_s"] = (
        None if decision.predicted_s != decision.predicted_s else decision.predicted_s
    )
    record["reason"] = decision.reason
    if not decision.run:
        record["status"] = "skipped"
    log.info("%s: %s", point.key, decision.reason)

if record["status"] in (None, "ok"):
    from rlsbench.numerics.synthetic import make_two_gaussians

    X, y = make_two_gaussians(point.m, point.n, seed=cfg["seed"])
    result = time_selection(
        get_scaling_method(point.method).select,
        X,
        y,
        k=point.k,
        alpha=cfg["alpha"],
        threads=threads_used,
        timeout_s=method_cfg.get("timeout_s", cfg["budget"]["timeout_s"]),
    )
    add_repeat(record, result)
    log.info(
        "%s repeat %d: %s, %.4f s wall, %.4f s cpu, %d thread(s)",
        point.key,
        iteration,
        result["status"],
        result["wall_s"],
        result["cpu_s"],
        threads_used,
    )
else:
    log.info("%s repeat %d: %s, not run", point.key, iteration, record["status"])

atomic_write_text(out, json.dumps(record, indent=1) + "\n")
