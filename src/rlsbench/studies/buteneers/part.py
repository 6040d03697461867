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
    # rlsbench.studies.buteneers.experiment.TIMING_COLUMNS: times, and the estimate of a cut
    # run's full time made from timed steps (and its check against the measured steps)
    measurement_columns=frozenset(
        {"t_fixed", "t_opt", "t_opt_estimate", "estimate_check", "t_features"}
    ),
    ledger="rlsbench.studies.buteneers.ledger",
    # the columns of Tables 3-5 (one plugin, several variants: a style each)
    styles={
        "rr_naive": {"color": "grey", "marker": "o", "linestyle": "dashed"},
        "rr_covariance": {"color": "blue", "marker": "h", "linestyle": "dashdot"},
        "rr_eigen": {"color": "orange", "marker": "h", "linestyle": "dotted"},
        "ffs_covariance": {"color": "pink", "marker": "h", "linestyle": "solid"},
        "ffs_eigen": {"color": "pink", "marker": "p", "linestyle": "dashed"},
        "bfs_covariance": {"color": "olive", "marker": "h", "linestyle": "dashed"},
        "bfs_eigen": {"color": "olive", "marker": "p", "linestyle": "dotted"},
        "lars": {"color": "cyan", "marker": "*", "linestyle": "solid"},
        "op_lr": {"color": "brown", "marker": "*", "linestyle": "dotted"},
        "op_rr": {"color": "purple", "marker": "*", "linestyle": "dashed"},
    },
    docs="parts/buteneers.rst",
    investigations="rlsbench.studies.buteneers.investigations",
    order=30,
)
