"""The main part's declaration: its files, report captions and measured columns
(:class:`rlsbench.benchmark.parts.Part`, entry-point group ``rlsbench.parts``)."""

from pathlib import Path

from rlsbench.benchmark.parts import Part, View

_HERE = Path(__file__).resolve().parent / "workflow"
_REPORT = _HERE / "report"

PART = Part(
    name="main",
    title="Greedy RLS (Pahikkala et al. 2010): accuracy",
    paper="pahikkala",
    citation="Pahikkala et al. (greedy RLS)",
    category="Main",
    rules=_HERE / "rules.smk",
    schema=_HERE / "schema.yaml",
    check="rlsbench.studies.main.config:check",
    plan="rlsbench.studies.main.config:plan_line",
    views=(
        View(
            r"tables/summary\.",
            _REPORT / "summary.rst",
            "Tables",
            "Test performance at fixed k and at the k chosen by LOO, and run time per method "
            "(mean ± sd over folds and seeds)",
        ),
        View(
            r"tables/statistics/summary\.",
            _REPORT / "statistics.rst",
            "Statistics across datasets",
            "Statistics across datasets: average ranks, Friedman, post-hoc and signed-rank "
            "tests, selection stability",
        ),
        View(
            r"tables/paper_checks\.",
            _REPORT / "checks.rst",
            "Tables",
            "The greedy RLS paper's findings measured on this run",
        ),
    ),
    # rlsbench.benchmark.protocol.TIMING_COLUMNS, results.summary / runtime
    measurement_columns=frozenset(
        {
            "alpha_time_s",
            "fit_time_s",
            "elapsed_s",
            "score_time_s",
            "fit time (s)",
            "total_s",
            "mean_s",
            "max_rss_mb",
            "method_s",
            "protocol_s",
            "other_s",
            "other_share",
            "job_max_rss_mb",
        }
    ),
    # the greedy RLS paper's ledger (its main and scaling parts' tables: LEDGER.part_files)
    ledger="rlsbench.studies.main.ledger",
    # the paper's speed and accuracy answers on the report's first page (its main and scaling
    # parts' tables: each part's overview_tables)
    overview="rlsbench.studies.main.overview:answers",
    overview_tables=("tables/summary.csv",),
    docs="parts/main.rst",
    investigations="rlsbench.studies.main.investigations",
    order=10,
)
