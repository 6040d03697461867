"""The sunyao part's declaration: its files, report captions and measured columns
(:class:`rlsbench.benchmark.parts.Part`, entry-point group ``rlsbench.parts``)."""

from pathlib import Path

from rlsbench.benchmark.parts import Part, View

_HERE = Path(__file__).resolve().parent / "workflow"
_REPORT = _HERE / "report"

PART = Part(
    name="sunyao",
    title="Sun & Yao (2006): forward regression by marginal likelihood against the RVMs",
    paper="sunyao",
    citation="Sun & Yao",
    category="Sun & Yao",
    rules=_HERE / "rules.smk",
    schema=_HERE / "schema.yaml",
    check="rlsbench.studies.sunyao.config:check",
    plan="rlsbench.studies.sunyao.config:plan_line",
    views=(
        View(
            r"table1/",
            _REPORT / "table1.rst",
            "Table 1",
            "Sun & Yao, Table 1: test MSE (basis vectors)",
        ),
        View(
            r"fig1/",
            _REPORT / "fig1.rst",
            "Fig. 1",
            "Sun & Yao, Fig. 1: training time and test NMSE against the training size",
        ),
    ),
    measurement_columns=frozenset({"fit_s", "fit_s_mean"}),
    ledger="rlsbench.studies.sunyao.ledger",
    # Forward is the marglik_forward plugin; the two RVMs are the study's own
    styles={
        "forward": "marglik_forward",
        "rvm_old": {"color": "orange", "marker": "P", "linestyle": "solid"},
        "rvm_new": {"color": "green", "marker": "P", "linestyle": "longdash"},
    },
    docs="parts/sunyao.rst",
    investigations="rlsbench.studies.sunyao.investigations",
    order=50,
)
