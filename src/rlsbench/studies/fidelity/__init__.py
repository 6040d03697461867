"""Fidelity ledger: every result of the four papers against ours, each judged.

The papers' numbers are transcribed once (``reported.csv``, one row per table cell, figure
series or number stated in the text) and so are their claims in words (``claims.csv``). The
ledger joins them with a run's outputs (``results/runs/<run>/`` or the committed
``results/paper/``) and gives every row a verdict by the rules of
:mod:`rlsbench.studies.fidelity.verdicts`: *match*, *same conclusion*, *contradicts*,
*not public*, *not run*.

    python -m rlsbench.studies.fidelity results/paper      # -> results/paper/fidelity*.{csv,md}

:func:`check_text` holds a README's or report's "reproduced / confirmed / matches" against the
ledger's item verdicts.
"""

from rlsbench.studies.fidelity.ledger import (
    LEDGER_COLUMNS,
    OUTPUTS,
    build_ledger,
    summarize,
    summary_markdown,
    write_ledger,
)
from rlsbench.studies.fidelity.ours import PART_FILES, RunTree
from rlsbench.studies.fidelity.text import check_text, text_claims
from rlsbench.studies.fidelity.transcription import ITEMS, load_claims, load_reported
from rlsbench.studies.fidelity.verdicts import VERDICTS

__all__ = [
    "ITEMS",
    "LEDGER_COLUMNS",
    "OUTPUTS",
    "PART_FILES",
    "VERDICTS",
    "RunTree",
    "build_ledger",
    "check_text",
    "load_claims",
    "load_reported",
    "summarize",
    "summary_markdown",
    "text_claims",
    "write_ledger",
]
