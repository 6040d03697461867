"""``rlsbench run`` runs the packaged workflow from any directory, with a config's relative
paths meaning what they mean beside the config file; ``rlsbench methods list`` names each
installed method's distribution; the add-method page's commands work as written.

The wheel-installed form (the workflow shipped in the wheel) is in tests/test_install.py.
"""

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rlsbench import __version__
from rlsbench.benchmark import cli, runner

REPO = Path(__file__).resolve().parents[1]
TINY = REPO / "tests" / "configs" / "tiny.yaml"


def test_methods_list_names_greedy_rls_with_rlsbench_distribution(capsys):
    assert cli.main(["methods", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["name", "distribution", "tasks", "description"]
    (greedy,) = [line for line in lines if line.split()[0] == "greedy_rls"]
    assert greedy.split()[1:4] == ["rlsbench", __version__, "binary,multiclass,regression"]
    assert "greedy RLS" in greedy


def test_the_workflow_root_of_a_checkout_is_the_checkout():
    assert runner.workflow_root() == REPO
    assert (runner.workflow_root() / "Snakefile").is_file()


def test_targets_come_before_configfile_in_the_snakemake_command(tmp_path):
    config = tmp_path / "my.yaml"
    config.write_text("run_name: mine\n")
    cmd = runner.snakemake_command(
        configfile=config,
        targets=["main_all", "scaling_all"],
        cores=2,
        dry_run=True,
        extra=["--report", "r.html"],
        workdir=tmp_path,
    )
    assert cmd[:3] == [sys.executable, "-m", "snakemake"]
    assert cmd[cmd.index("--snakefile") + 1] == str(REPO / "Snakefile")
    assert cmd[cmd.index("--directory") + 1] == str(tmp_path.resolve())
    at = cmd.index("--configfile")
    # --configfile takes every following word as a file: the targets must precede it
    assert cmd[at - 2 : at + 2] == ["main_all", "scaling_all", "--configfile", str(config)]
    assert cmd[at + 2 :] == ["--report", "r.html"]
    assert "--dry-run" in cmd and cmd[cmd.index("--cores") + 1] == "2"


def test_without_a_configfile_the_embedded_default_config_runs(tmp_path):
    cmd = runner.snakemake_command(workdir=tmp_path)
    assert cmd[cmd.index("--configfile") + 1] == str(REPO / "config" / "config.yaml")
    assert "--cores" not in cmd  # the workflow profile's cores apply


def test_relative_config_paths_resolve_against_the_config_directory(tmp_path):
    config = {
        "run_name": "x",
        "dataset_registries": ["reg.yaml", "/abs/reg.yaml", "~/home.yaml"],
        "mirrors": ["mirror", "http://host:8000", "file:///m"],
        "datasets": {"mine": {"files": [{"name": "a.csv", "path": "../data/a.csv"}]}},
        "main": {"datasets": ["mine"]},
    }
    resolved = runner.resolve_config_paths(config, tmp_path / "exp")
    base = (tmp_path / "exp").resolve()
    registries = [str(base / "reg.yaml"), "/abs/reg.yaml", "~/home.yaml"]
    assert resolved["dataset_registries"] == registries
    assert resolved["mirrors"] == [str(base / "mirror"), "http://host:8000", "file:///m"]
    assert resolved["datasets"]["mine"]["files"][0]["path"] == str(base / "../data/a.csv")
    assert resolved["main"] == config["main"]
    assert config["dataset_registries"][0] == "reg.yaml"  # the input is not modified


def test_a_config_with_relative_paths_runs_as_a_resolved_copy_of_the_same_name(tmp_path):
    (tmp_path / "exp").mkdir()
    plain, relative = tmp_path / "exp" / "plain.yaml", tmp_path / "exp" / "mine.yaml"
    plain.write_text("run_name: plain\nmirrors: [http://host]\n")
    relative.write_text("dataset_registries: reg.yaml\n")
    work = tmp_path / "work"
    assert runner.prepare_configfile(plain, work) == plain.resolve()
    copy = runner.prepare_configfile(relative, work)
    # same file name: the run name defaults to the config file's stem
    assert copy == work.resolve() / ".rlsbench" / "config" / "mine.yaml"
    assert yaml.safe_load(copy.read_text()) == {
        "dataset_registries": str((tmp_path / "exp" / "reg.yaml").resolve())
    }


def test_run_refuses_a_missing_configfile_naming_it(tmp_path, capsys):
    missing = tmp_path / "nope.yaml"
    assert cli.main(["run", "--configfile", str(missing), "-n"]) == 1
    assert str(missing) in capsys.readouterr().err


def test_options_after_double_dash_belong_to_run_only(capsys):
    with pytest.raises(SystemExit):
        cli.main(["methods", "list", "--", "--report", "x"])
    assert "only `rlsbench run` passes options on" in capsys.readouterr().err


def test_run_cores_must_be_a_positive_integer_or_all(capsys):
    with pytest.raises(SystemExit):
        cli.main(["run", "--cores", "0"])
    assert "out of range" in capsys.readouterr().err


def _run(cmd, cwd):
    return subprocess.run(
        [str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=600
    )


@pytest.mark.slow
def test_run_dry_run_from_elsewhere_finds_a_registry_named_relative_to_the_config(tmp_path):
    """Config in exp/, registry beside it, data beside that, run from work/ (not the clone)."""
    from tests.benchmark.datasets.test_datasets_user_workflow import _csv, _entry

    for name in ("exp", "data", "work"):
        (tmp_path / name).mkdir()
    data, n_pos = _csv()
    (tmp_path / "data" / "mine.csv").write_bytes(data)
    registry = {"version": 1, "datasets": {"my_set": _entry("../data/mine.csv", data, n_pos)}}
    (tmp_path / "exp" / "reg.yaml").write_text(yaml.safe_dump(registry))
    main = yaml.safe_load(TINY.read_text())["main"]
    main.update(datasets=["my_set"], methods=["greedy_rls"], k_max=2, k_max_per_dataset={})
    main.update(report_k=[1, 2])
    config = {"run_name": "mine", "dataset_registries": ["reg.yaml"], "main": main}
    (tmp_path / "exp" / "my.yaml").write_text(yaml.safe_dump(config))

    cmd = [sys.executable, "-m", "rlsbench", "run", "--configfile", "../exp/my.yaml"]
    done = _run([*cmd, "--cores", "1", "--dry-run", "main_all"], cwd=tmp_path / "work")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    # the registry was found: the plan downloads and runs the user's dataset into work/
    assert "results/datasets/prepared/my_set.npz" in output
    assert "results/runs/mine/main/tables/summary.csv" in output
    assert (tmp_path / "work" / ".snakemake").is_dir() and not (REPO / "results/runs/mine").exists()


@pytest.mark.slow
def test_the_add_method_page_commands_dry_run_as_written(tmp_path):
    page = (REPO / "docs" / "howto" / "add_method.rst").read_text()
    text = " ".join(page.split())  # the commands may wrap across lines in the .rst
    (snakemake_line,) = re.findall(r"``(snakemake --cores N [^`]*)``", text)
    (rlsbench_line,) = re.findall(r"``(rlsbench run [^`]*)``", text)
    my = yaml.safe_load(TINY.read_text())
    (tmp_path / "clone").mkdir()
    for name in ("Snakefile", "environment.yml"):
        shutil.copy(REPO / name, tmp_path / "clone" / name)
    ignore = shutil.ignore_patterns("__pycache__")
    for name in ("workflow", "config", "profiles"):
        shutil.copytree(REPO / name, tmp_path / "clone" / name, ignore=ignore)
    (tmp_path / "clone" / "my.yaml").write_text(yaml.safe_dump(my))

    words = shlex.split(snakemake_line.replace("--cores N", "--cores 1"))
    done = _run([sys.executable, "-m", "snakemake", "-n", *words[1:]], cwd=tmp_path / "clone")
    assert done.returncode == 0, (snakemake_line, (done.stdout + done.stderr)[-3000:])
    assert "results/runs/tiny/main/tables/summary.csv" in done.stdout + done.stderr

    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "my.yaml").write_text(yaml.safe_dump(my))
    words = shlex.split(rlsbench_line)
    done = _run([sys.executable, "-m", "rlsbench", "run", "-n", *words[2:]], cwd=tmp_path / "user")
    assert done.returncode == 0, (rlsbench_line, (done.stdout + done.stderr)[-3000:])
    assert "results/runs/tiny/main/tables/summary.csv" in done.stdout + done.stderr
