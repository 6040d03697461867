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
    # cputime/rows.csv: median and fastest of the repeats; toy and realdata rows: fit time
    measurement_columns=frozenset({"seconds", "seconds_min", "fit_seconds"}),
    ledger="rlsbench.studies.ramona.ledger",
    # the study's names of plugins, the SVM on all features, the methods the paper quotes
    # (Wang's own R2W2 and KCS results in Table V)
    styles={
        "fisher": "fisher_score",
        "rfe": "svm_rfe",
        "svm": {"color": "black", "marker": "", "linestyle": "solid"},
        "fspp": {"color": "olive", "marker": "d", "linestyle": "solid"},
        "neumann": {"color": "grey", "marker": "d", "linestyle": "longdash"},
        "bahsic": {"color": "cyan", "marker": "d", "linestyle": "dotted"},
        "gmkl": {"color": "green", "marker": "*", "linestyle": "dashdotdot"},
        "r2w2_wang": {"color": "green", "marker": "X", "linestyle": "solid"},
        "kcs_wang": {"color": "brown", "marker": "X", "linestyle": "longdash"},
    },
    docs="parts/ramona.rst",
    investigations="rlsbench.studies.ramona.investigations",
    order=40,
)
