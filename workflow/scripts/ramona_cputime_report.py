"""Tables VIII-IX of Ramona et al. (2012): CPU times normalised to the fastest, beside the paper."""

import logging

import pandas as pd

from rlsbench.benchmark._io import atomic_path, atomic_write_text
from rlsbench.studies.ramona.report import cputime_table, to_markdown

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
rows = pd.concat([pd.read_csv(p) for p in sm.input], ignore_index=True)
with atomic_path(sm.output.rows) as tmp:
    rows.to_csv(tmp, index=False)
note = (
    "Times of one ranking with 10 iterations (min over repeats, one BLAS thread), divided "
    "by the fastest cell of the table; the paper's columns are its normalised times "
    "(MATLAB + SVMlight, 2012). Our R2W2 is a re-implementation (see the README). Compare "
    "the growth along a column, not absolute values.\n\n"
)
for axis, out, title in (
    ("N", sm.output.table8, "Table VIII — CPU time over N (D = 30)"),
    ("D", sm.output.table9, "Table IX — CPU time over D (N = 30)"),
):
    if axis in set(rows["axis"]):
        body = to_markdown(cputime_table(rows, axis))
    else:
        body = "not run in this configuration\n"
    atomic_write_text(out, f"### {title}\n\n{note}{body}")
logging.info("cputime: %d rows", len(rows))
