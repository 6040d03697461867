"""The greedy RLS paper's findings measured on the run (rule main_checks)."""

from rlsbench.benchmark._io import atomic_write_text
from rlsbench.benchmark.results import paper_checks, read_step_table, write_csv

sm = snakemake  # noqa: F821
table = paper_checks(read_step_table(sm.input[0]), sm.params.report_k)
write_csv(table, sm.output.csv)
atomic_write_text(sm.output.md, table.to_markdown(index=False, disable_numparse=True) + "\n")
with open(sm.log[0], "w") as log:
    print(table.to_string(index=False), file=log)
