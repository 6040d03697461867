# The HTML report's own results (snakemake --report): a view of every table a part writes for
# people, its LaTeX file, and the first page.
#
#   <part>_views     every Markdown table of the part (and the data tables named below) ->
#                    an HTML view beside it (x.md -> x.html, in the report) and a booktabs
#                    LaTeX file fitted to a two-column page (x.md -> x.tex, published);
#                    rlsbench.benchmark.views
#   report_overview  {RUNDIR}/report/overview.html: what the run found (fidelity verdicts, then
#                    each paper's answers: Part.overview), the report's category "At a
#                    glance"; and first_page.html, its answers as the fragment that the
#                    report's landing page shows (workflow/report/workflow.rst);
#                    rlsbench.studies.overview
# A part's views rule is fed by the part's list of outputs, so a table a part adds gets a view
# and a LaTeX file without a change here (with the generic caption unless its Part names one: Part.views).
import os

from rlsbench.benchmark.outputs import latex_path, view_path, viewed_tables
from rlsbench.studies.overview import overview_inputs

# The run's config file(s), relative to the workflow where they live in it (views say how a
# table was made; an absolute path would differ from machine to machine).
REPORT_CONFIGFILES = [
    os.path.relpath(p, REPO) if str(p).startswith(str(REPO)) else os.path.basename(p)
    for p in workflow.config_settings.configfiles
] or ["config/config.yaml"]

# part -> (its category in the report, what it builds, its config section, data tables shown):
# every installed part (rlsbench.benchmark.parts.Part), then the fidelity ledger.
REPORT_PARTS = {
    part.name: (
        part.category,
        PART_TARGETS[part.name],
        PART_SECTIONS[part.name],
        list(part.report_data),
    )
    for part in PARTS
}
REPORT_PARTS["fidelity"] = ("Fidelity", FIDELITY_TARGETS, {}, ["fidelity.csv"])
# Caption, subcategory and title of a view, by the table's path under its part's run directory
# (regular expressions, first match wins; the title is for files without a heading, and is the
# caption of their LaTeX tables): each part's `views`; any other table: the generic caption
# (`view_spec` and `view_output` in common.smk read this and REPORT_PARTS).
VIEW_CAPTIONS = {
    part.name: [(v.pattern, v.caption, v.subcategory, v.title) for v in part.views]
    for part in PARTS
}
VIEW_CAPTIONS["fidelity"] = [
    (r"fidelity_summary\.", REPORT_CAPTIONS / "fidelity_summary.rst", "Summary", None),
    (r"fidelity\.csv", REPORT_CAPTIONS / "fidelity.rst", "Ledger", "Fidelity ledger"),
]


REPORT_VIEWS = {}
for _part, (_category, _built, _section, _data) in REPORT_PARTS.items():
    _tables = viewed_tables(_built, [f"{RUNDIR}/{_part}/{name}" for name in _data])
    if not _tables:
        continue
    REPORT_VIEWS[_part] = _tables

    rule:
        name:
            f"{_part}_views"
        input:
            tables=_tables,
        output:
            views=[view_output(_part, t) for t in _tables],
            latex=[latex_path(t) for t in _tables if t.endswith(".md")],
        log:
            f"{RUNDIR}/{_part}/logs/views.log",
        conda:
            "../../environment.yml"
        params:
            function="rlsbench.benchmark.views.views_job",
            part=_part,
            run=RUN,
            configfiles=REPORT_CONFIGFILES,
            section=_section,
            titles={t: view_spec(_part, t)[2] for t in _tables if view_spec(_part, t)[2]},
        run:
            JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


REPORT_VIEW_FILES = [
    path
    for tables in REPORT_VIEWS.values()
    for table in tables
    for path in ([view_path(table)] + ([latex_path(table)] if table.endswith(".md") else []))
]

# The first page reads the ledger and the tables the enabled parts list in their
# Part.overview_tables (rlsbench.studies.overview.overview_inputs); each installed part's
# Part.overview function makes its paper's answers from them.
OVERVIEW_INPUTS = {
    **({"ledger": f"{FIDELITY_DIR}/fidelity.csv"} if FIDELITY_TARGETS else {}),
    "tables": overview_inputs(RUNDIR, PART_TARGETS),
}
OVERVIEW = f"{RUNDIR}/report/overview.html"
# The landing page's fragment; workflow/report/workflow.rst finds it beside overview.html.
FIRST_PAGE = f"{RUNDIR}/report/first_page.html"
REPORT_TARGETS = REPORT_VIEW_FILES + (
    [OVERVIEW, FIRST_PAGE] if any(OVERVIEW_INPUTS.values()) else []
)


rule report_overview:
    input:
        **OVERVIEW_INPUTS,
    output:
        overview=report(
            OVERVIEW,
            caption="../report/overview.rst",
            category="At a glance",
            labels={"page": "what this run found"},
        ),
        first_page=FIRST_PAGE,
    log:
        f"{RUNDIR}/report/logs/overview.log",
    conda:
        "../../environment.yml"
    params:
        function="rlsbench.studies.overview.overview_job",
        run=RUN,
        configfiles=REPORT_CONFIGFILES,
        # results/runs/<run>: the parts' tables lie under it (a prefix of the output)
        rundir=lambda wildcards, output: os.path.dirname(os.path.dirname(output.overview)),
        sections=PART_SECTIONS,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule report_all:
    input:
        REPORT_TARGETS,
