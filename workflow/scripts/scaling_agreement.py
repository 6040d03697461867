"""Check that all methods made the same selections wherever more than one ran.

Fails the job (no output written) when a comparable method disagrees, naming the points.
"""

import logging
import sys

from rlsbench.benchmark._io import atomic_path, atomic_write_text
from rlsbench.studies.scaling.experiment import (
    agreement_table,
    check_agreement,
    read_points,
    to_markdown,
)

sm = snakemake  # noqa: F821 (injected by Snakemake)
sys.stderr = open(sm.log[0], "a", buffering=1)  # tracebacks go to the log too
logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(message)s")

points = read_points(sm.input.points)
table = agreement_table(points, excluded=sm.params.excluded)
logging.info("agreement table:\n%s", table.to_string())
check_agreement(table)  # raises SelectionDisagreement before anything is written

compared = table[table["compared_by"] != "excluded"]
summary = (
    f"{len(compared)} comparison(s) at {compared[['m', 'n', 'k']].drop_duplicates().shape[0]} "
    "size(s): all identical. Excluded (other criterion): "
    f"{', '.join(sm.params.excluded) or 'none'}."
)
logging.info(summary)
with atomic_path(sm.output.csv) as tmp:
    table.to_csv(tmp, index=False)
atomic_write_text(sm.output.md, summary + "\n\n" + to_markdown(table))
