"""Fidelity ledger: every result of the papers against ours, each judged.

This package is the framework: the verdict rules (:mod:`~rlsbench.studies.fidelity.verdicts`),
the join (:mod:`~rlsbench.studies.fidelity.ledger`), the transcription format
(:mod:`~rlsbench.studies.fidelity.transcription`), the investigations' format, the summary and
the check of a text's claims. It names no paper. Each paper brings its own knowledge from its
study package: one ledger module that defines ``LEDGER``, a :class:`PaperLedger` (the interface:
:mod:`~rlsbench.studies.fidelity.papers`), with its numbers transcribed once as package data
next to it (``reported.csv``, one row per table cell, figure series or number stated in the
text; ``claims.csv``, its claims in words; ``investigations.csv``, the causes found for its
contradictions). :func:`paper_ledgers` finds them. The ledger joins them with a run's outputs
(``results/runs/<run>/`` or the committed ``results/paper/``) and gives every row a verdict by
the rules of :mod:`rlsbench.studies.fidelity.verdicts`: *match*, *same conclusion*,
*contradicts*, *not public*, *not run*.

    python -m rlsbench.studies.fidelity results/paper      # -> results/paper/fidelity*.{csv,md}

:func:`check_text` holds a README's or report's "reproduced / confirmed / matches" against the
ledger's item verdicts.
"""

from rlsbench.studies.fidelity.claims import ClaimChecks, Outcome
from rlsbench.studies.fidelity.ledger import (
    LEDGER_COLUMNS,
    OUTPUTS,
    SUMMARY_COLUMNS,
    build_ledger,
    ledger_outputs,
    split_by_whose,
    summarize,
    summary_markdown,
    variant_columns,
    variant_trees,
    with_variants,
    write_ledger,
)
from rlsbench.studies.fidelity.ours import RunTree
from rlsbench.studies.fidelity.papers import (
    PaperLedger,
    items,
    ledger_modules,
    paper_ledgers,
    part_files,
    titles,
)
from rlsbench.studies.fidelity.text import check_text, text_claims
from rlsbench.studies.fidelity.transcription import load_claims, load_reported
from rlsbench.studies.fidelity.verdicts import VERDICTS

__all__ = [
    "LEDGER_COLUMNS",
    "OUTPUTS",
    "SUMMARY_COLUMNS",
    "VERDICTS",
    "ClaimChecks",
    "Outcome",
    "PaperLedger",
    "RunTree",
    "build_ledger",
    "check_text",
    "items",
    "ledger_modules",
    "ledger_outputs",
    "load_claims",
    "load_reported",
    "paper_ledgers",
    "split_by_whose",
    "part_files",
    "summarize",
    "summary_markdown",
    "text_claims",
    "titles",
    "variant_columns",
    "variant_trees",
    "with_variants",
    "write_ledger",
]
