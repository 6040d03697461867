"""The buteneers part's declaration: its files, report captions and measured columns
(:class:`rlsbench.benchmark.parts.Part`, entry-point group ``rlsbench.parts``)."""

from pathlib import Path

from rlsbench.benchmark.parts import Part, View

_HERE = Path(__file__).resolve().parent / "workflow"
_REPORT = _HERE / "report"

PART = Part(
    name="buteneers",
    title="Buteneers et al. (2013): K-fold λ search and FFS/BFS",
    paper="buteneers",
    citation="Buteneers et al.",
    category="Buteneers",
    rules=_HERE / "rules.smk",
    schema=_HERE / "schema.yaml",
    check="rlsbench.studies.buteneers.config:check",
    plan="rlsbench.studies.buteneers.config:plan_line",
    views=(
        View(r"tables\.md", _REPORT / "tables.rst", "Tables"),
        View(
            r"results\.csv", _REPORT / "results.rst", "Data", "Buteneers et al.: every task's rows"
        ),
    ),
    report_data=("results.csv",),
    measurement_columns=frozenset({"t_fixed", "t_opt", "t_features"}),
    ledger="rlsbench.studies.buteneers.ledger",
    docs="parts/buteneers.rst",
    investigations="rlsbench.studies.buteneers.investigations",
    order=30,
)
