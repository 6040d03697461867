"""The one way every part does a thing: reading its config section (schema + the study's check),
running a job through the bridge script, writing tables, paired t-tests and timing."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats

from rlsbench.benchmark.config import (
    ConfigError,
    part_section,
    validate_config,
    validate_section,
)
from rlsbench.benchmark.stats import paired_t_test
from rlsbench.benchmark.tables import (
    markdown_table,
    publish,
    read_csvs,
    with_provenance,
    write_csv,
    write_markdown,
)
from rlsbench.benchmark.timing import Stopwatch
from rlsbench.benchmark.workflow import JobError, rule_arguments, run_rule

try:  # Snakemake >= 9
    from snakemake.iocontainers import Namedlist
except ImportError:  # Snakemake 8
    from snakemake.io import Namedlist

REPO = Path(__file__).resolve().parents[2]
STUDIES = REPO / "src" / "rlsbench" / "studies"


def schema_of(part):
    """The schema of a part's config section (its package's workflow/schema.yaml)."""
    return STUDIES / part / "workflow" / "schema.yaml"


# ---------------------------------------------------------------------------------------------
# Config sections
# ---------------------------------------------------------------------------------------------
def test_an_absent_or_disabled_part_reads_as_empty():
    assert part_section({}, "sunyao", schema_of("sunyao")) == {}
    assert part_section({"sunyao": {"enabled": False}}, "sunyao", schema_of("sunyao")) == {}


def test_a_disabled_section_is_still_validated():
    with pytest.raises(ConfigError, match=r"config key ramona: .*'tyo' was unexpected"):
        part_section({"ramona": {"enabled": False, "tyo": {}}}, "ramona", schema_of("ramona"))


def test_an_enabled_section_gets_its_defaults_and_its_check():
    seen = []
    config = {"main": {"enabled": True, "datasets": ["wine"], "methods": ["greedy_rls"]}}
    section = part_section(
        config,
        "main",
        schema_of("main"),
        check=lambda s, d: seen.append((dict(s), d)),
        datasets={"wine": {}},
    )
    assert section is config["main"]
    assert section["n_folds"] == 10 and section["alphas"] == {
        "base": 2,
        "min_exp": -15,
        "max_exp": 15,
    }
    assert seen and seen[0][1] == {"wine": {}}


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda m: m.update(n_folds="ten"),
            r"config key main\.n_folds: 'ten' is not of type 'integer'",
        ),
        (lambda m: m.update(alphas={"base": 2}), r"config key main\.alphas: "),
        (lambda m: m.update(n_fold=3), r"config key main: .*'n_fold' was unexpected"),
    ],
    ids=["type", "nested", "unknown-key"],
)
def test_a_schema_violation_names_the_key(edit, message):
    main = {"datasets": ["wine"], "methods": ["greedy_rls"]}
    edit(main)
    with pytest.raises(ConfigError, match=message) as info:
        validate_section(main, schema_of("main"), "main")
    assert "\n" not in str(info.value)


def test_the_top_level_schema_names_an_unknown_section():
    with pytest.raises(ConfigError, match=r"'mian' was unexpected"):
        validate_config(
            {"run_name": "x", "mian": {}}, REPO / "workflow/schemas/config.schema.yaml", ["main"]
        )


@pytest.mark.parametrize("configfile", ["config/config.yaml", "config/paper.yaml"])
@pytest.mark.parametrize("part", ["main", "scaling", "buteneers", "ramona", "sunyao"])
def test_the_shipped_configs_pass_every_part_check(configfile, part):
    import importlib

    config = yaml.safe_load((REPO / configfile).read_text())
    from rlsbench.benchmark.datasets import load_registry

    registry = load_registry().as_dicts()
    check = importlib.import_module(f"rlsbench.studies.{part}.config").check
    section = part_section(config, part, schema_of(part), check=check, datasets=registry)
    assert section["enabled"]


def test_buteneers_check_names_a_repeated_task_and_a_multiclass_dataset():
    from rlsbench.studies.buteneers.config import check

    task = {
        "name": "a",
        "dataset": "wine",
        "n_train": 50,
        "n_folds": 5,
        "n_lambdas": 5,
        "features": {"kind": "elm"},
    }
    with pytest.raises(ConfigError, match=r"buteneers\.tasks\[1\]\.name: .*'a' repeats"):
        check({"tasks": [{**task, "dataset": "diabetes"}, {**task, "dataset": "diabetes"}]}, {})
    with pytest.raises(ConfigError, match=r"buteneers\.tasks\[0\]\.dataset: 'wine' is multiclass"):
        check({"tasks": [task]}, {"wine": {"task": "multiclass"}})


def test_sunyao_check_wants_registry_regression_datasets():
    from rlsbench.studies.sunyao.config import check

    section = {"table1": {"datasets": [{"name": "wien", "source": "prepared"}]}}
    with pytest.raises(
        ConfigError, match=r"sunyao\.table1\.datasets\[0\]\.name: unknown dataset 'wien'"
    ):
        check(section, {"wine": {"task": "multiclass"}})
    section["table1"]["datasets"][0]["name"] = "wine"
    with pytest.raises(ConfigError, match=r"'wine' is a multiclass task"):
        check(section, {"wine": {"task": "multiclass"}})
    section["table1"]["datasets"][0]["source"] = "sinc"  # generated: no registry entry needed
    check(section, {"wine": {"task": "multiclass"}})


@pytest.mark.slow
@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda c: c["buteneers"]["tasks"].append(dict(c["buteneers"]["tasks"][0])),
            r"config key buteneers\.tasks\[2\]\.name: task names must be unique",
        ),
        (
            lambda c: c["sunyao"]["table1"]["datasets"][0].update(name="diabetis"),
            r"config key sunyao\.table1\.datasets\[0\]\.name: unknown dataset 'diabetis'",
        ),
        (
            lambda c: c["ramona"].update(thread=2),
            r"config key ramona: .*'thread' was unexpected",
        ),
    ],
    ids=["buteneers", "sunyao", "ramona"],
)
def test_a_bad_part_section_stops_the_workflow_before_any_job(edit, message, tmp_path):
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    edit(config)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(config, allow_unicode=True))
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "-n", "--cores", "1"]
        + ["--directory", str(tmp_path), "--configfile", str(bad)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode != 0
    assert re.search(message, proc.stdout + proc.stderr), (proc.stdout + proc.stderr)[-3000:]
    assert not (tmp_path / "results").exists()


# ---------------------------------------------------------------------------------------------
# The bridge between a rule and its function
# ---------------------------------------------------------------------------------------------
CALLS = []


def target(out, *, tables, label, threads, ks=()):
    logging.getLogger("target").info("called with %s", label)
    CALLS.append({"out": out, "tables": tables, "label": label, "threads": threads, "ks": ks})
    Path(out).write_text(label)


def failing(out, *, kind):
    if kind == "known":
        raise JobError("the input has no rows")
    raise RuntimeError("a bug")


@pytest.fixture(autouse=True)
def _root_logger_restored():
    """run_rule points the root logger at the job's log, as in a job's own process."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)


def _job(tmp_path, function, params, **extra):
    return SimpleNamespace(
        rule="demo",
        input=Namedlist(fromdict={"tables": Namedlist(["a.csv", "b.csv"])}),
        output=Namedlist(fromdict={"out": str(tmp_path / "out.txt")}),
        params=Namedlist(fromdict={"function": function, **params}),
        log=Namedlist([str(tmp_path / "job.log")]),
        threads=3,
        bench_iteration=None,
        **extra,
    )


def test_the_bridge_calls_the_named_function_with_the_rules_files_and_params(tmp_path):
    CALLS.clear()
    run_rule(_job(tmp_path, f"{__name__}.target", {"label": "x", "ks": [1, 2.5]}))
    assert CALLS == [
        {
            "out": str(tmp_path / "out.txt"),
            "tables": ["a.csv", "b.csv"],
            "label": "x",
            "threads": 3,
            "ks": [1, 2.5],  # params keep their values; only files become str
        }
    ]
    assert type(CALLS[0]["tables"]) is list
    log = (tmp_path / "job.log").read_text()
    assert "rule demo" in log and "called with x" in log


def test_the_bridge_refuses_an_argument_the_function_lacks(tmp_path):
    job = _job(tmp_path, f"{__name__}.target", {"label": "x", "colour": "red"})
    with pytest.raises(TypeError, match=r"rule demo: .*target takes no argument\(s\) \['colour'\]"):
        rule_arguments(job, target)


def test_a_known_error_ends_the_job_with_one_line(tmp_path, capsys):
    job = _job(tmp_path, f"{__name__}.failing", {"kind": "known"})
    job.input = Namedlist()
    with pytest.raises(SystemExit) as info:
        run_rule(job)
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert err == "rule demo: the input has no rows\n"
    log = (tmp_path / "job.log").read_text()
    # the profile prints a failed job's log: no traceback there, it has a file of its own
    assert "rule demo: the input has no rows" in log and "Traceback" not in log
    assert "JobError: the input has no rows" in (tmp_path / "job.log.traceback").read_text()


def test_an_internal_error_is_one_line_naming_its_traceback(tmp_path, capsys):
    job = _job(tmp_path, f"{__name__}.failing", {"kind": "bug"})
    job.input = Namedlist()
    with pytest.raises(SystemExit) as info:
        run_rule(job)
    assert info.value.code == 1
    trace = tmp_path / "job.log.traceback"
    assert capsys.readouterr().err == (
        "rule demo: RuntimeError: a bug (internal error, please report it with its "
        f"traceback: {trace})\n"
    )
    assert "Traceback" not in (tmp_path / "job.log").read_text()
    assert "RuntimeError: a bug" in trace.read_text()


# ---------------------------------------------------------------------------------------------
# Tables, statistics, timing
# ---------------------------------------------------------------------------------------------
def test_markdown_keeps_formatted_cells_or_formats_numbers():
    frame = pd.DataFrame({"k": ["1.0", "0.10"], "x": [0.123456, np.nan]})
    text = markdown_table(frame)
    assert "| 0.10 " in text and "| 1.0 " in text and "–" in text
    assert "0.123456" in text
    assert "0.123 " in markdown_table(frame, floatfmt=".3g")
    assert markdown_table(frame, missing="—").count("—") == 1
    assert text.endswith("|\n")


def test_csv_markdown_provenance_and_publish(tmp_path):
    frame = with_provenance(pd.DataFrame({"a": [1, 2]}), {"seed": 0, "host": "h"})
    assert list(frame.columns) == ["a", "seed", "host"]
    write_csv(frame, tmp_path / "t" / "a.csv")
    write_csv(frame, tmp_path / "t" / "b.csv")
    both = read_csvs([tmp_path / "t" / "a.csv", tmp_path / "t" / "b.csv"])
    assert list(both["a"]) == [1, 2, 1, 2] and list(both.index) == [0, 1, 2, 3]
    cells = pd.DataFrame({"m": ["x"], "acc": ["0.9 ± 0.1"]})
    write_markdown(tmp_path / "s.md", markdown_table(cells))
    done = publish([tmp_path / "s.md"], [tmp_path / "paper" / "s.md"])
    assert (tmp_path / "paper" / "s.md").read_bytes() == (tmp_path / "s.md").read_bytes()
    assert len(done) == 1 and "->" in done[0]
    assert not list(tmp_path.rglob(".*.tmp*"))  # atomic writes leave no temporary behind


def test_paired_t_test_matches_scipy_and_spells_out_the_edge_cases():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(12), rng.standard_normal(12)
    test = paired_t_test(a, b)
    assert test.n_pairs == 12
    assert test.mean_diff == pytest.approx(np.mean(a - b))
    assert test.p_value == pytest.approx(stats.ttest_rel(a, b).pvalue)
    a_nan = a.copy()
    a_nan[[0, 3]] = np.nan
    expected = stats.ttest_rel(np.delete(a, [0, 3]), np.delete(b, [0, 3])).pvalue
    assert paired_t_test(a_nan, b).p_value == pytest.approx(expected)
    assert paired_t_test(a_nan, b).n_pairs == 10
    assert np.isnan(paired_t_test([1.0], [2.0]).p_value)
    assert np.isnan(paired_t_test([np.nan], [2.0]).mean_diff)
    assert paired_t_test([1.0, 2.0], [1.0, 2.0]).p_value == 1.0
    assert paired_t_test([2.0, 3.0, 4.0], [1.0, 2.0, 3.0]).p_value == 0.0
    with pytest.raises(ValueError, match="one length"):
        paired_t_test([1.0, 2.0], [1.0])


def test_stopwatch_measures_wall_and_cpu_seconds_of_a_block():
    clock = Stopwatch()
    assert np.isnan(clock.wall_s) and np.isnan(clock.cpu_s)
    with clock:
        sum(i * i for i in range(20000))
    assert clock.wall_s >= 0.0 and clock.cpu_s >= 0.0
    assert np.isfinite(clock.wall_s) and np.isfinite(clock.cpu_s)
