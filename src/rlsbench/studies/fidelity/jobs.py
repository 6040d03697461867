"""What the fidelity rules run (through ``workflow/scripts/call.py``)."""

from __future__ import annotations

import logging
from pathlib import Path

from rlsbench.studies.fidelity.ledger import OUTPUTS, write_ledger
from rlsbench.studies.fidelity.ours import RunTree

log = logging.getLogger(__name__)


def ledger_job(tables, ledger, summary_csv, summary_md):
    """The ledger of one run: ``tables`` (the part tables the run built) joined with the
    papers' transcribed values and claims.

    Parameters
    ----------
    tables : list of str
        Part tables of the run (under ``run_dir``) the ledger may read; the others are not
        read even if an older run left them there.
    ledger, summary_csv, summary_md : str
        Output files, in the order of :data:`~rlsbench.studies.fidelity.ledger.OUTPUTS`, in
        the run's ``fidelity/`` folder (``results/runs/<run_name>/fidelity/``).
    """
    out_dir = Path(ledger).parent
    run_dir = str(out_dir.parent)
    expected = [str(out_dir / name) for name in OUTPUTS]
    if [ledger, summary_csv, summary_md] != expected:
        raise ValueError(f"outputs must be {expected}, got {[ledger, summary_csv, summary_md]}")
    for path in RunTree(run_dir, tables).inputs():
        log.info("read %s", path)
    written = write_ledger(run_dir, out_dir, only=tables, source=run_dir)
    for path in written:
        log.info("wrote %s", path)
    return written
