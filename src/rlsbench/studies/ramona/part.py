"""The ramona part's declaration: its files, report captions and measured columns
(:class:`rlsbench.benchmark.parts.Part`, entry-point group ``rlsbench.parts``)."""

from pathlib import Path

from rlsbench.benchmark.parts import Part, View

_HERE = Path(__file__).resolve().parent / "workflow"
_REPORT = _HERE / "report"

PART = Part(
    name="ramona",
    title="Ramona et al. (2012): kernel Gram-matrix feature selection",
    paper="ramona",
    citation="Ramona et al.",
    category="Ramona et al.",
    rules=_HERE / "rules.smk",
    schema=_HERE / "schema.yaml",
    check="rlsbench.studies.ramona.config:check",
    plan="rlsbench.studies.ramona.config:plan_line",
    views=(
        View(r"realdata/paired_tests", _REPORT / "paired_tests.rst", "Tables"),
        View(r"tables/table(8|9)_", _REPORT / "cputime.rst", "CPU time"),
        View(r"tables/table", _REPORT / "tables.rst", "Tables"),
    ),
    measurement_columns=frozenset({"seconds", "fit_seconds"}),
    ledger="rlsbench.studies.ramona.ledger",
    docs="parts/ramona.rst",
    investigations="rlsbench.studies.ramona.investigations",
    order=40,
)
