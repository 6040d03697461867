"""Collect every point record and its Snakemake benchmark into one tidy table (points.csv)."""

import json
import logging
import sys

import pandas as pd

from rlsbench.benchmark._io import atomic_path, atomic_write_text
from rlsbench.benchmark.provenance import provenance
from rlsbench.studies.scaling.experiment import points_frame

sm = snakemake  # noqa: F821 (injected by Snakemake)
sys.stderr = open(sm.log[0], "a", buffering=1)  # tracebacks go to the log too
logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(message)s")

records = [json.loads(open(path).read()) for path in sm.input.records]
benchmarks = [pd.read_csv(path, sep="\t") for path in sm.input.benchmarks]
points = points_frame(records, benchmarks, sm.params.sweeps_of)
with atomic_path(sm.output.points) as tmp:
    points.to_csv(tmp, index=False)
logging.info("%d points: %s", len(points), points["status"].value_counts().to_dict())

info = provenance(sm.config.get("scaling"), sm.params.seed)
info["hosts_of_points"] = sorted({r.get("host", "") for r in records})
atomic_write_text(sm.output.provenance, json.dumps(info, indent=1, default=str) + "\n")
