"""The main job as a Snakemake workflow: lint, dry runs, a tiny end-to-end run, determinism,
resume after a lost output, and bad configs stopped before any job starts.

The tiny config (tests/configs/tiny.yaml) runs in temporary directories (``--directory``), so
nothing here touches the repository's results/.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from rlsbench.benchmark.protocol import TIMING_COLUMNS

REPO = Path(__file__).resolve().parents[3]
SNAKEMAKE = [sys.executable, "-m", "snakemake"]
TINY = REPO / "tests" / "configs" / "tiny.yaml"
MAIN_RULE_FILES = ("common.smk", "main.smk")

pytestmark = pytest.mark.slow


def snakemake(*args, workdir=None, check=True):
    cmd = [*SNAKEMAKE, "-s", str(REPO / "Snakefile"), "--cores", "2"]
    if workdir is not None:
        cmd += ["--directory", str(workdir)]
    proc = subprocess.run(
        [*cmd, *map(str, args)], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake {' '.join(map(str, args))} failed:\n{proc.stderr[-4000:]}")
    return proc


def job_counts(stderr):
    """Job stats table of a snakemake run/dry run -> {rule: count}."""
    block = stderr.split("Job stats:")[1].split("total")[0]
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+)\s+(\d+)\s*$", block, re.M)}


def tables(rundir):
    """The deterministic part of the result tables of a run (timing columns dropped)."""
    out = {}
    for name in ("steps", "summary", "curves", "alphas"):
        frame = pd.read_csv(rundir / "tables" / f"{name}.csv")
        out[name] = frame.drop(
            columns=[c for c in frame if c in TIMING_COLUMNS or c == "fit time (s)"]
        )
    return out


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("tiny_a")
    proc = snakemake("main_all", "--configfile", TINY, workdir=workdir)
    return workdir, workdir / "results" / "runs" / "tiny" / "main", proc


def test_main_rule_files_are_lint_clean():
    proc = snakemake("--lint", "--configfile", TINY, check=False)
    headers = re.findall(r"^Lints for (.*):$", proc.stdout + proc.stderr, re.M)
    ours = [
        h
        for h in headers
        if re.match(r"rule main_", h)
        or any(h.endswith(f"/{f}") for f in MAIN_RULE_FILES)
        or h.endswith("/Snakefile")
    ]
    assert ours == [], headers
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("configfile", ["config/config.yaml", "config/paper.yaml"])
def test_dry_run_schedules_one_job_per_dataset_and_method(configfile, tmp_path):
    """Folds and seeds run inside a job (rlsbench.benchmark.parallel), not as jobs."""
    proc = snakemake("main_all", "-n", "--configfile", REPO / configfile, workdir=tmp_path)
    with open(REPO / configfile) as fh:
        main = yaml.safe_load(fh)["main"]
    counts = job_counts(proc.stdout + proc.stderr)
    assert counts["main_select"] == len(main["datasets"]) * len(main["methods"])
    assert counts["main_alpha"] == len(main["datasets"])
    assert counts["main_figures"] == len(main["datasets"])


def test_tiny_run_writes_tidy_tables_with_provenance(tiny_run):
    _, rundir, _ = tiny_run
    steps = pd.read_csv(rundir / "tables" / "steps.csv", keep_default_na=False, na_values=[""])
    main = yaml.safe_load(TINY.read_text())["main"]
    # a run per (dataset, method, fold, seed), one job per (dataset, method)
    runs = steps.groupby(["dataset", "method", "fold", "seed"]).ngroups
    assert runs == 2 * 3 * (1 + 1 + 2)
    jobs = steps.groupby(["dataset", "method"]).ngroups
    assert jobs == 2 * 3
    ok = steps[steps["status"] == "ok"]
    for (dataset, _, _, _), run in ok.groupby(["dataset", "method", "fold", "seed"]):
        k_max = main["k_max_per_dataset"].get(dataset, main["k_max"])
        assert list(run["k"]) == list(range(1, k_max + 1))
        assert run["feature"].nunique() == k_max
    assert ok["test_accuracy"].between(0, 1).all() and ok["loo_accuracy"].between(0, 1).all()
    # the LOO MSE the protocol recomputes along the path equals the selector's own
    assert (ok["loo_mse"] - ok["method_loo_mse"]).abs().max() < 1e-8
    # the black-box wrapper (O(m²) per candidate) exceeds the time budget on breast_cancer
    # (m = 379) but not on wine (m = 118): recorded as skipped, with its reason
    skipped = steps[steps["status"] == "skipped"]
    assert set(zip(skipped["dataset"], skipped["method"])) == {
        ("breast_cancer", "wrapper_blackbox")
    }
    assert len(skipped) == 3 and skipped["reason"].str.startswith("time:").all()
    for col in (
        "numpy_version",
        "scikit_learn_version",
        "git_commit",
        "config_hash",
        "host",
        "seed",
    ):
        assert steps[col].notna().all(), col
    summary = pd.read_csv(rundir / "tables" / "summary.csv", keep_default_na=False)
    assert set(summary["method"]) == {"greedy_rls", "wrapper_blackbox", "random"}
    status = summary.set_index(["dataset", "method"])["status"]
    # every run that was not skipped reports its test accuracy at each report_k within k_max
    at_k = summary[summary["status"] == "ok"][["k=1", "k=2"]]
    assert len(at_k) and at_k.map(lambda cell: "±" in cell).all().all(), at_k
    assert status["breast_cancer", "wrapper_blackbox"] == "skipped"
    assert status["wine", "wrapper_blackbox"] == "ok"
    assert "\\toprule" in (rundir / "tables" / "summary.tex").read_text()
    checks = pd.read_csv(rundir / "tables" / "paper_checks.csv")
    assert set(checks["dataset"]) == {"breast_cancer", "wine"}
    assert checks["greedy_rls − random at k=1"].notna().all(), checks
    assert (rundir / "tables" / "summary.md").read_text().startswith("| dataset")
    for dataset in ("breast_cancer", "wine"):
        for kind in ("test", "loo_vs_test"):
            png = rundir / "figures" / f"{kind}_{dataset}.png"
            assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # every job has a log (with a progress line per fold and seed) and a benchmark
    logs = sorted((rundir / "logs" / "select").rglob("*.log"))
    assert len(logs) == jobs
    assert len(list((rundir / "benchmarks" / "select").rglob("*.tsv"))) == jobs
    random_log = (rundir / "logs" / "select" / "wine" / "random.log").read_text()
    assert "fold/seed 6/6 (fold 2 seed 1)" in random_log, random_log
    # the λ chosen on every training split is a table of its own
    alphas = pd.read_csv(rundir / "tables" / "alphas.csv")
    assert len(alphas) == 2 * main["n_folds"]
    assert set(alphas.groupby("dataset")["fold"].apply(tuple)) == {(0, 1, 2)}
    per_job = ok.groupby(["dataset", "fold"])["alpha_protocol"].first()
    chosen = alphas.set_index(["dataset", "fold"])["alpha"]
    assert (per_job == chosen.loc[per_job.index]).all()


def test_two_runs_give_identical_tables(tiny_run, tmp_path):
    _, rundir_a, _ = tiny_run
    snakemake("main_all", "--configfile", TINY, workdir=tmp_path)
    a = tables(rundir_a)
    b = tables(tmp_path / "results" / "runs" / "tiny" / "main")
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], check_exact=True, obj=name)


def test_resume_recomputes_only_the_missing_job(tiny_run, tmp_path):
    workdir_a, _, _ = tiny_run
    workdir = tmp_path / "copy"
    shutil.copytree(workdir_a, workdir, symlinks=True)
    rundir = workdir / "results" / "runs" / "tiny" / "main"
    before = tables(rundir)
    # the state a kill leaves behind: one job's table missing, nothing downstream written yet
    (rundir / "jobs" / "wine" / "greedy_rls.csv").unlink()
    shutil.rmtree(rundir / "tables")
    shutil.rmtree(rundir / "figures")
    proc = snakemake("main_all", "--configfile", TINY, workdir=workdir)
    counts = job_counts(proc.stdout + proc.stderr)
    assert counts.get("main_select") == 1 and "main_alpha" not in counts
    after = tables(rundir)
    for name in before:
        pd.testing.assert_frame_equal(before[name], after[name], check_exact=True, obj=name)


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda c: c["main"].update(datasets=["breast_cancer", "wien"]),
            r"main\.datasets\[1\]: unknown dataset 'wien'",
        ),
        (
            lambda c: c["main"].update(methods=["greedy_rsl"]),
            r"main\.methods\[0\]: unknown method 'greedy_rsl'",
        ),
        (lambda c: c["main"].update(n_fold=3), r"'n_fold' was unexpected"),
        (lambda c: c.update(mian={"enabled": True}), r"'mian' was unexpected"),
        (
            lambda c: c["main"].update(k_max=31),
            r"main\.k_max: k_max = 31 exceeds the 30 features"
            r" of dataset 'breast_cancer'",
        ),
        (
            lambda c: c["main"]["k_max_per_dataset"].update(wine=14),
            r"main\.k_max_per_dataset\.wine: k_max = 14 exceeds the 13 features",
        ),
    ],
    ids=["dataset", "method", "main-key", "top-key", "k_max", "k_max_per_dataset"],
)
def test_bad_config_stops_before_any_job_naming_the_key(edit, message, tmp_path):
    config = yaml.safe_load(TINY.read_text())
    edit(config)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(config))
    proc = snakemake("main_all", "-n", "--configfile", bad, workdir=tmp_path, check=False)
    assert proc.returncode != 0
    assert re.search(message, proc.stdout + proc.stderr), (proc.stdout + proc.stderr)[-3000:]
    assert not (tmp_path / "results").exists()


def test_publish_copies_the_run_to_the_committed_location_only_on_request(tiny_run, monkeypatch):
    workdir, rundir, _ = tiny_run
    published = workdir / "results" / "paper" / "main"
    assert not published.exists()  # the run itself never writes the committed copy
    # the checkout running the tests may have uncommitted changes: the record says +dirty
    # (refusing a dirty tree is tested in test_workflow_library on a checkout of its own)
    monkeypatch.setenv("RLSBENCH_ALLOW_DIRTY_PUBLISH", "1")
    snakemake("main_publish", "--configfile", TINY, workdir=workdir)
    record = json.loads((published / "provenance.json").read_text())
    assert (
        record["config"]["main"]["datasets"] == yaml.safe_load(TINY.read_text())["main"]["datasets"]
    )
    assert record["tables_made_from_commits"] and record["environment"]["machine"]["cpu_model"]
    assert "results/paper/main/tables/summary.md" in record["files"]
    for name in (
        "tables/summary.md",
        "tables/summary.tex",
        "tables/curves.csv",
        "figures/test_wine.png",
        "figures/loo_vs_test_breast_cancer.png",
    ):
        assert (published / name).read_bytes() == (rundir / name).read_bytes(), name


def test_publish_leaves_out_and_compresses_what_the_config_names(tiny_run, monkeypatch):
    """main.publish_exclude and main.publish_gzip (the reference benchmark's 135-panel SVGs and
    its 5 MB curves.csv): the other files are copied as they are; a compressed table holds the
    run's bytes, has no time in its header (a second publish gives the same bytes), and
    pandas reads it; what an earlier publication wrote and this one leaves out is gone; the
    record lists exactly the files written."""
    import gzip

    workdir, rundir, _ = tiny_run
    config = yaml.safe_load(TINY.read_text())
    config["main"]["publish_to"] = "results/lean"
    path = workdir / "lean.yaml"
    path.write_text(yaml.safe_dump(config))
    monkeypatch.setenv("RLSBENCH_ALLOW_DIRTY_PUBLISH", "1")
    snakemake("main_publish", "--configfile", path, workdir=workdir)  # all of it, first
    lean = workdir / "results" / "lean"
    assert (lean / "figures" / "test_wine.svg").is_file()
    assert (lean / "tables" / "curves.csv").is_file()
    config["main"].update(
        publish_exclude=["figures/*.svg"],
        publish_gzip=["tables/curves.csv", "tables/alphas.csv"],
    )
    path.write_text(yaml.safe_dump(config))
    snakemake("main_publish", "--configfile", path, workdir=workdir)
    files = sorted(str(p.relative_to(lean)) for p in lean.rglob("*") if p.is_file())
    assert not [f for f in files if f.endswith(".svg")]
    assert "figures/test_wine.pdf" in files and "figures/test_wine_1col.pdf" in files
    assert "tables/curves.csv" not in files and "tables/alphas.csv" not in files
    for name in ("tables/curves.csv", "tables/alphas.csv"):
        packed = (lean / f"{name}.gz").read_bytes()
        assert gzip.decompress(packed) == (rundir / name).read_bytes(), name
        assert packed[4:8] == b"\0\0\0\0"  # MTIME: none
    pd.testing.assert_frame_equal(
        pd.read_csv(lean / "tables" / "curves.csv.gz"), pd.read_csv(rundir / "tables/curves.csv")
    )
    assert (lean / "tables" / "runtime.csv").read_bytes() == (
        rundir / "tables" / "runtime.csv"
    ).read_bytes()
    record = json.loads((lean / "provenance.json").read_text())
    assert sorted(record["files"]) == sorted(
        f"results/lean/{f}" for f in files if f != "provenance.json"
    )
    before = (lean / "tables" / "curves.csv.gz").read_bytes()
    snakemake("main_publish", "--configfile", path, "--forcerun", "main_publish", workdir=workdir)
    assert (lean / "tables" / "curves.csv.gz").read_bytes() == before


@pytest.mark.parametrize("key", ["publish_exclude", "publish_gzip"])
def test_a_publish_pattern_that_matches_nothing_stops_the_dry_run_naming_it(key, tmp_path):
    config = yaml.safe_load(TINY.read_text())
    config["main"][key] = ["figures/*.svgz"]
    path = tmp_path / "typo.yaml"
    path.write_text(yaml.safe_dump(config))
    proc = snakemake("main_publish", "-n", "--configfile", path, workdir=tmp_path, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert re.search(rf"config key main\.{key}: 'figures/\*\.svgz' matches none", out), out[-3000:]
    assert not (tmp_path / "results").exists()


def test_a_user_config_naming_only_main_runs_only_main(tmp_path):
    """--configfile replaces the embedded default: parts it does not name do not run, and its
    run goes to results/runs/<file name>/ unless it names one."""
    config = {"main": {"enabled": True, "datasets": ["wine"], "methods": ["greedy_rls"]}}
    path = tmp_path / "only_main.yaml"
    path.write_text(yaml.safe_dump(config))
    proc = snakemake("-n", "--configfile", path, workdir=tmp_path / "work")
    counts = job_counts(proc.stdout + proc.stderr)
    assert counts["main_select"] == 1 and counts["main_alpha"] == 1
    parts = {rule.split("_")[0] for rule in counts}
    assert not parts & {"scaling", "buteneers", "ramona", "sunyao"}, counts
    # the plan printed before anything starts names what runs, and only that
    plan = proc.stderr.split("rlsbench plan for run 'only_main'")[1].split("\n  (")[0]
    assert re.search(
        r"^  main +datasets wine; methods greedy_rls; up to \d+ min of CPU", plan, re.M
    )
    assert not re.search(r"^  (scaling|buteneers|ramona|sunyao) ", plan, re.M), plan
    assert "results/runs/only_main/main/jobs/wine/greedy_rls.csv" in proc.stdout + proc.stderr
