"""Parts (one per paper study) are plugins: found through the entry-point group
``rlsbench.parts`` when needed (rlsbench's own parts included), every plugin error naming its
distribution, and a toy paper from an out-of-tree distribution that the workflow plans, runs
and shows in the report without an edit to rlsbench.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest
import yaml

from rlsbench.benchmark import parts as registry
from rlsbench.benchmark.parts import (
    GROUP,
    Part,
    PartPluginError,
    get_part,
    installed_parts,
    measurement_columns,
    papers,
)

REPO = Path(__file__).resolve().parents[2]
BUILT_INS = ["main", "scaling", "buteneers", "ramona", "sunyao"]

# The toy paper: one package with its Part, config check and plan line, one job function, its
# workflow files (rule file, schema, one caption), its ledger module with the paper's numbers
# and one claim (reported.csv, claims.csv, investigations.csv) and its answer on the report's
# first page. What a new paper brings, and nothing else.
TOY_FILES = {
    "toy_paper/__init__.py": '"""A toy paper: the squares of 1..n, as a table."""\n',
    "toy_paper/part.py": '''
        """The toy paper's part."""
        from pathlib import Path

        from rlsbench.benchmark.parts import Part, View

        HERE = Path(__file__).resolve().parent / "workflow"

        PART = Part(
            name="toy",
            title="Toy (2024): squares",
            paper="toy",
            citation="Toy et al.",
            category="Toy",
            rules=HERE / "rules.smk",
            schema=HERE / "schema.yaml",
            check="toy_paper.config:check",
            plan="toy_paper.config:plan_line",
            views=(View(r"table\\.", HERE / "report" / "table.rst", "Tables", None),),
            measurement_columns=frozenset({"toy_seconds"}),
            ledger="toy_paper.ledger",
            overview="toy_paper.overview:answers",
            overview_tables=("table.csv",),
        )
    ''',
    "toy_paper/config.py": """
        from rlsbench.benchmark.config import ConfigError


        def check(section, datasets):
            if section["n"] > 100:
                raise ConfigError(f"config key toy.n: {section['n']} squares are too many")


        def plan_line(section, datasets):
            return f"squares of 1..{section['n']}; no cost model"
    """,
    "toy_paper/jobs.py": """
        import pandas as pd

        from rlsbench.benchmark.tables import write_csv, write_markdown


        def table_job(csv, md, *, n):
            frame = pd.DataFrame({"i": range(1, n + 1)})
            frame["square"] = frame["i"] ** 2
            write_csv(frame, csv)
            write_markdown(md, "# Toy: the squares\\n\\n" + frame.to_markdown(index=False))
    """,
    "toy_paper/ledger.py": """
        from rlsbench.studies.fidelity import ClaimChecks, Outcome, PaperLedger
        from rlsbench.studies.fidelity.claims import not_run
        from rlsbench.studies.fidelity.ours import row

        CHECKS = ClaimChecks()


        def our_numbers(tree):
            t = tree.table("toy", "table.csv")
            if t is None:
                return []
            return [
                row("toy", "Table 1", f"n{r.i}", "", "", "square", r.square)
                for r in t.itertuples()
            ]


        @CHECKS.register("T1")
        def _growing(tree):
            t = tree.table("toy", "table.csv")
            if t is None:
                return not_run("toy/table.csv")
            grows = bool((t["square"].diff().dropna() > 0).all())
            return [Outcome("all", grows, f"{len(t)} squares", "each above the one before")]


        LEDGER = PaperLedger(
            paper="toy",
            title="Toy et al., Squares (2024)",
            items=("Table 1",),
            part_files={"toy": ("table.csv",)},
            reader=our_numbers,
            checks=CHECKS,
            heading=r"toy et al",
            data=__package__,
        )
    """,
    "toy_paper/reported.csv": """
        paper,item,kind,row,column,dataset,method,setting,metric,printed,value,spread,n_reps,unit,compare,group,availability,source
        toy,Table 1,cell,2,square,n2,,,square,4,4,,,count,value,,public,toy.md:1
        toy,Table 1,cell,3,square,n3,,,square,9,9,,,count,value,,public,toy.md:2
    """,
    "toy_paper/claims.csv": """
        paper,claim_id,items,claim,where,availability
        toy,T1,Table 1,The squares grow.,toy.md:3,public
    """,
    "toy_paper/investigations.csv": "paper,scope,dataset,cause,finding,evidence\n",
    "toy_paper/overview.py": """
        from rlsbench.studies.overview import Answer


        def answers(tree, sections):
            t = tree.table("toy", "table.csv")
            if t is None:
                return [Answer("<b>Toy</b>: the toy part did not run.")]
            text = f"<b>Toy</b>: the {len(t)} squares sum to {t['square'].sum()}."
            return [Answer(text, f"<h2>Toy</h2><p>{text}</p>", f"<p>{text}</p>")]
    """,
    "toy_paper/workflow/schema.yaml": """
        $schema: "https://json-schema.org/draft/2020-12/schema"
        type: object
        properties:
          enabled: {type: boolean}
          n: {type: integer, minimum: 1, default: 3}
        required: [enabled]
        additionalProperties: false
    """,
    "toy_paper/workflow/report/table.rst": "The squares of 1..n.\n",
    "toy_paper/workflow/rules.smk": """
        TOY = part_section("toy")
        TOY_DIR = f"{RUNDIR}/toy"
        PART_TARGETS["toy"] = [f"{TOY_DIR}/table.csv", f"{TOY_DIR}/table.md"] if TOY else []


        rule toy_table:
            output:
                csv=f"{TOY_DIR}/table.csv",
                md=f"{TOY_DIR}/table.md",
            log:
                f"{TOY_DIR}/logs/table.log",
            conda:
                ENVIRONMENT
            params:
                function="toy_paper.jobs.table_job",
                n=TOY.get("n", 0),
            script:
                CALL


        rule toy_all:
            input:
                PART_TARGETS["toy"],
    """,
}


def install_toy(site: Path, entry: str = "toy = toy_paper.part:PART", files=None) -> None:
    """The toy paper as an installed distribution (its files and a dist-info) under ``site``."""
    for name, text in (TOY_FILES if files is None else files).items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    fake_distribution(site, "rlsbench-toy-paper", entry)


def fake_distribution(site: Path, dist: str, entry_points: str) -> None:
    info = site / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entry_points}\n")


def _with_site(site: Path) -> str:
    """PYTHONPATH with ``site`` first, keeping the caller's (the checkout under test)."""
    return os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))


def _clear():
    registry._entry_points.cache_clear()
    registry._installed.cache_clear()


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A fresh directory on sys.path for fake distributions; the registry's caches cleared."""
    path = tmp_path / "site"
    path.mkdir()
    monkeypatch.syspath_prepend(str(path))
    _clear()
    yield path
    _clear()
    for name in [m for m in sys.modules if m.startswith(("toy_paper", "fake_part"))]:
        del sys.modules[name]


def test_built_in_parts_come_through_the_entry_point_group_in_order():
    assert [part.name for part in installed_parts()] == BUILT_INS
    for part in installed_parts():
        assert isinstance(part, Part)
        assert part.rules.is_file() and part.schema.is_file()
        assert all(view.caption.is_file() for view in part.views)
        assert (REPO / "docs" / part.docs).is_file()
    # the greedy RLS paper is two parts, and their titles say so
    assert get_part("main").paper == get_part("scaling").paper == "pahikkala"
    assert "Greedy RLS" in get_part("main").title and "Greedy RLS" in get_part("scaling").title
    assert list(papers()) == ["pahikkala", "buteneers", "ramona", "sunyao"]


def test_measurement_columns_are_the_union_of_the_parts():
    from rlsbench.benchmark.tables import MEASUREMENT_COLUMNS

    assert MEASUREMENT_COLUMNS == measurement_columns()
    assert get_part("sunyao").measurement_columns <= MEASUREMENT_COLUMNS
    assert "fit_time_s" in get_part("main").measurement_columns


def test_loading_the_parts_imports_only_their_declarations():
    code = textwrap.dedent(
        """
        import sys
        from rlsbench.benchmark.parts import installed_parts
        before = set(sys.modules)
        installed_parts()
        print("\\n".join(sorted(set(sys.modules) - before)))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = out.stdout.split()
    assert "rlsbench.studies.sunyao.part" in loaded
    heavy = [m for m in loaded if not (m.endswith(".part") or m.count(".") <= 2)]
    assert heavy == [], heavy
    assert not any(m.startswith(("numpy", "pandas", "scipy", "snakemake")) for m in loaded)


def test_unknown_name_lists_the_installed_parts():
    with pytest.raises(KeyError, match=r"unknown part 'sunyoa'.*sunyao"):
        get_part("sunyoa")


def test_a_plugin_part_comes_after_the_built_ins(site):
    install_toy(site)
    assert [part.name for part in installed_parts()] == [*BUILT_INS, "toy"]
    toy = get_part("toy")
    assert toy.plan_line({"n": 4}, {}) == "squares of 1..4; no cost model"
    assert "toy_seconds" in measurement_columns()
    assert papers()["toy"] == "Toy et al."


@pytest.mark.parametrize(
    ("files", "entry", "message"),
    [
        ({"fake_part_a.py": "raise ImportError('no module named foo')\n"}, "a", "ImportError"),
        ({"fake_part_b.py": "PART = 42\n"}, "b", "is a int, not a rlsbench.benchmark.parts.Part"),
        (
            {"fake_part_c.py": "from toy_paper.part import PART\n", **TOY_FILES},
            "c",
            "is named 'toy'; the two names must agree",
        ),
        (
            {
                "fake_part_d.py": "import dataclasses\nfrom toy_paper.part import PART as P\n"
                "PART = dataclasses.replace(P, name='d', rules=P.rules.with_name('no.smk'))\n",
                **TOY_FILES,
            },
            "d",
            r"its rules .*no\.smk is not a file",
        ),
    ],
    ids=["import-error", "not-a-part", "name-mismatch", "missing-rule-file"],
)
def test_a_broken_plugin_is_reported_with_its_distribution(site, files, entry, message):
    module = next(name for name in files if name.startswith("fake_part"))[:-3]
    install_toy(site, f"{entry} = {module}:PART", files)
    with pytest.raises(PartPluginError, match=message) as info:
        installed_parts()
    assert "distribution rlsbench-toy-paper 0.1" in str(info.value)


def test_a_name_declared_by_two_distributions_names_both(site):
    fake_distribution(site, "fake-part-clash", "sunyao = fake_part_clash:PART")
    with pytest.raises(PartPluginError, match="declared twice") as info:
        installed_parts()
    assert "fake-part-clash 0.1" in str(info.value) and "rlsbench" in str(info.value)


def test_a_check_that_cannot_be_loaded_names_the_part_and_its_distribution(site):
    files = dict(TOY_FILES)
    files["toy_paper/part.py"] = files["toy_paper/part.py"].replace(
        "toy_paper.config:check", "toy_paper.config:chekc"
    )
    install_toy(site, files=files)
    with pytest.raises(PartPluginError, match=r"part 'toy' of distribution rlsbench-toy-paper"):
        get_part("toy").check_function()


def test_a_first_page_answer_that_is_not_an_answer_names_the_part(site, tmp_path):
    from rlsbench.studies.fidelity.ours import RunTree
    from rlsbench.studies.overview import part_answers

    files = dict(TOY_FILES)
    files["toy_paper/overview.py"] = "def answers(tree, sections):\n    return ['<b>Toy</b>']\n"
    install_toy(site, files=files)
    with pytest.raises(
        PartPluginError,
        match=r"part 'toy' of distribution rlsbench-toy-paper 0.1: overview "
        r"'toy_paper.overview:answers' returned a str, not a rlsbench.studies.overview.Answer",
    ):
        part_answers(RunTree(tmp_path, only=[]), {})


def _snakemake(site: Path, workdir: Path, configfile: Path, *args: str):
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile")]
        + ["--directory", str(workdir), "--configfile", str(configfile), *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": _with_site(site)},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_an_out_of_tree_paper_is_planned_run_and_reported(tmp_path):
    site = tmp_path / "site"
    install_toy(site)
    configfile = tmp_path / "toy.yaml"
    configfile.write_text(yaml.safe_dump({"run_name": "toy", "toy": {"enabled": True, "n": 4}}))
    workdir = tmp_path / "work"

    dry = _snakemake(site, workdir, configfile, "-n", "--quiet", "rules")
    assert dry.returncode == 0, dry.stderr[-4000:]
    assert "  toy        squares of 1..4; no cost model" in dry.stderr
    # its table, the report's view and LaTeX file of it (rule all collects both), the fidelity
    # ledger reading its table, and the first page
    rules = dry.stdout.split()
    for rule in ("toy_table", "toy_views", "fidelity", "fidelity_views", "report_overview"):
        assert rule in rules, rule

    run = _snakemake(site, workdir, configfile, "--cores", "1")
    assert run.returncode == 0, run.stderr[-4000:]
    out = workdir / "results" / "runs" / "toy" / "toy"
    table = pd.read_csv(out / "table.csv")
    assert list(table["square"]) == [1, 4, 9, 16]
    assert (out / "table.html").is_file() and (out / "table.tex").is_file()
    assert "Toy: the squares" in (out / "table.html").read_text()

    # its rows in the run's fidelity ledger: its cells match, its claim holds
    fidelity = workdir / "results" / "runs" / "toy" / "fidelity"
    ledger = pd.read_csv(fidelity / "fidelity.csv")
    toy = ledger[ledger["paper"] == "toy"]
    cells = toy[toy["level"] == "cell"].set_index("dataset")
    assert sorted(cells.index) == ["n2", "n3"]
    assert set(cells["verdict"]) == {"match"}
    claims = toy[toy["level"] == "claim"]
    assert list(zip(claims["claim_id"], claims["verdict"])) == [("T1", "same conclusion")]
    # the papers of rlsbench did not run in this config
    assert set(ledger[ledger["paper"] != "toy"]["verdict"]) <= {"not run", "not public"}
    # and in the report: the ledger's view, the first page's counts and the toy's own answer
    assert "Toy et al., Squares (2024)" in (fidelity / "fidelity.html").read_text()
    report = workdir / "results" / "runs" / "toy" / "report"
    overview = (report / "overview.html").read_text()
    assert "Toy et al." in overview and "The squares grow." in overview
    assert "<h2>Toy</h2><p><b>Toy</b>: the 4 squares sum to 30.</p>" in overview
    assert "<p><b>Toy</b>: the 4 squares sum to 30.</p>" in (report / "first_page.html").read_text()

    # its section goes through its own check
    configfile.write_text(yaml.safe_dump({"run_name": "toy", "toy": {"enabled": True, "n": 500}}))
    bad = _snakemake(site, workdir, configfile, "-n")
    assert bad.returncode != 0
    assert "config key toy.n: 500 squares are too many" in bad.stderr + bad.stdout
