"""The scaling part's declaration: its files, report captions and measured columns
(:class:`rlsbench.benchmark.parts.Part`, entry-point group ``rlsbench.parts``)."""

from pathlib import Path

from rlsbench.benchmark.parts import Part, View

_HERE = Path(__file__).resolve().parent / "workflow"
_REPORT = _HERE / "report"

PART = Part(
    name="scaling",
    title="Greedy RLS (Pahikkala et al. 2010): runtime scaling",
    paper="pahikkala",
    citation="Pahikkala et al. (greedy RLS)",
    category="Scaling",
    rules=_HERE / "rules.smk",
    schema=_HERE / "schema.yaml",
    check="rlsbench.studies.scaling.config:check",
    plan="rlsbench.studies.scaling.config:plan_line",
    views=(
        View(
            r"tables/agreement\.",
            _REPORT / "agreement.rst",
            "Tables",
            "Selections of the methods compared",
        ),
        View(
            r"tables/exponents\.",
            _REPORT / "exponents.rst",
            "Tables",
            "Fitted exponents of the running time against the swept size",
        ),
        View(
            r"tables/speedups\.",
            _REPORT / "speedups.rst",
            "Tables",
            "Median selection time and speed-up of greedy RLS",
        ),
        View(
            r"tables/paper\.",
            _REPORT / "paper.rst",
            "Tables",
            "The paper's headline timing beside ours",
        ),
        View(
            r"tables/timings\.",
            _REPORT / "timings.rst",
            "Tables",
            "Selection time of every point of every sweep",
        ),
    ),
    # points, timings, speedups, exponents, paper
    measurement_columns=frozenset(
        {
            "wall_s",
            "wall_s_min",
            "wall_s_max",
            "cpu_s",
            "cpu_s_min",
            "cpu_s_max",
            "job_s",
            "job_cpu_s",
            "job_max_rss_mb",
            "time_s",
            "time_s_min",
            "time_s_max",
            "reference_s",
            "single_s",
            "speedup",
            "exponent",
            "stderr",
            "paper / ours (cpu)",
        }
    ),
    # read by the greedy RLS paper's answers on the report's first page (the main part's
    # overview)
    overview_tables=("tables/speedups.csv",),
    # the study's own sequential forward selection baselines (SCALING_METHODS)
    styles={
        "sfs_ridge_loo": {"color": "purple", "marker": "D", "linestyle": "dotted"},
        "sfs_ridgeclassifier_cv5": {"color": "brown", "marker": "P", "linestyle": "dashed"},
    },
    docs="parts/scaling.rst",
    order=20,
)
