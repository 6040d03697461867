"""Fault injection, second round (issue 29, items 4 and 6): numbers the jobs would refuse, config
files Snakemake reads without saying which, and names and sizes that passed the check before.

Every case stops the run before any job, with one line naming the config key (or the config
file, its line and column). The cases named in the issue run ``snakemake -n`` itself; the
others read the config the way the Snakefile does (``read_config`` of test_config_faults.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rlsbench.benchmark.config import ConfigError

from .test_config_faults import DEFAULT, REPO, _set, _update, edited, read_config


def dry_run(workdir: Path, config=None, *args, text=None):
    """``snakemake -n`` in ``workdir``, whose config/config.yaml is ``config`` (or ``text``)."""
    (workdir / "config").mkdir(exist_ok=True)
    if config is not None or text is not None:
        (workdir / "config" / "config.yaml").write_text(
            text if text is not None else yaml.safe_dump(config)
        )
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "-n"]
        + ["--cores", "1", "--directory", str(workdir), *args],
        capture_output=True,
        text=True,
        timeout=180,
    )
    return proc, proc.stdout + proc.stderr


def assert_stopped_before_any_job(proc, out, workdir, line_pattern):
    """Exit status 1, one line matching ``line_pattern``, no traceback, no job, no file."""
    assert proc.returncode == 1, out[-3000:]
    assert [line for line in out.splitlines() if re.search(line_pattern, line)], out[-3000:]
    assert "Traceback" not in out and "Job stats" not in out, out[-3000:]
    assert not (workdir / "results").exists()


# ------------------------------------------------------------------ λ grids (issue 29, item 4)
def test_a_subnormal_lambda_stops_the_dry_run_naming_its_key(tmp_path):
    # 1e-320 > 0 passes `exclusiveMinimum: 0`, but 1/λ overflows to inf in float64
    config = edited(_set(("main", "alphas"), [1.0, 1.0e-320]))
    proc, out = dry_run(tmp_path, config)
    assert_stopped_before_any_job(proc, out, tmp_path, r"^config key main\.alphas\[1\]: .*1e-320")


def test_a_lambda_grid_reaching_zero_stops_the_dry_run_naming_its_exponent(tmp_path):
    # 10**-400 is 0 and 10**400 is inf in float64
    config = edited(_set(("main", "alphas"), {"base": 10, "min_exp": -400, "max_exp": 400}))
    proc, out = dry_run(tmp_path, config)
    assert_stopped_before_any_job(
        proc, out, tmp_path, r"^config key main\.alphas\.min_exp: λ = 0\.0 is outside"
    )


# Every number the jobs would refuse (the audit of issue 29, item 4): (id, edit, key, message)
NUMBERS = [
    (
        "main-grid-overflows",
        _set(("main", "alphas"), {"base": 10, "min_exp": -3, "max_exp": 400}),
        "main.alphas.max_exp",
        r"λ = inf is outside .* 10\*\*400",
    ),
    (
        "main-grid-subnormal",
        _set(("main", "alphas"), {"base": 2, "min_exp": -1074, "max_exp": 0}),
        "main.alphas.min_exp",
        r"λ = 5e-324 is outside",
    ),
    ("main-lambda-nan", _set(("main", "alphas"), [float("nan")]), "main.alphas[0]", "nan is not"),
    (
        "main-lambda-reciprocal-subnormal",
        _set(("main", "alphas"), [1.0, 1.0e308]),
        "main.alphas[1]",
        r"λ = 1e\+308 is outside",
    ),
    ("main-bias-nan", _set(("main", "bias"), float("nan")), "main.bias", "nan is not a finite"),
    (
        "main-time-budget-inf",
        _set(("main", "time_budget_s"), float("inf")),
        "main.time_budget_s",
        "inf is not a finite",
    ),
    (
        "main-cv-seed-over-32-bits",
        _set(("main", "cv_seed"), 2**32),
        "main.cv_seed",
        "greater than the maximum of 4294967295",
    ),
    ("scaling-alpha-inf", _set(("scaling", "alpha"), float("inf")), "scaling.alpha", "inf is not"),
    (
        "scaling-alpha-reciprocal-overflows",
        _set(("scaling", "alpha"), 1.0e308),
        "scaling.alpha",
        r"λ = 1e\+308 is outside",
    ),
    (
        "sunyao-lambda-over-the-largest",
        _update(("sunyao", "cv"), lams=[0.1, 1.0e308]),
        "sunyao.cv.lams[1]",
        r"λ = 1e\+308 is outside",
    ),
    (
        "sunyao-sigma2-subnormal",
        _set(("sunyao", "sigma2"), 1.0e-320),
        "sunyao.sigma2",
        "subnormal",
    ),
    (
        "buteneers-sigma-inf",
        _update(("buteneers", "tasks", 1, "features"), sigma=float("inf")),
        "buteneers.tasks[1].features.sigma",
        "inf is not a finite",
    ),
    (
        "buteneers-seed-over-32-bits",
        _set(("buteneers", "seed"), 2**32),
        "buteneers.seed",
        "greater than the maximum",
    ),
    (
        "buteneers-negative-data-seed",
        _update(("buteneers", "tasks", 1, "synthetic"), seed=-1),
        "buteneers.tasks.1.synthetic.seed",
        "less than the minimum of 0",
    ),
]


@pytest.mark.parametrize(
    "edit, key, message", [case[1:] for case in NUMBERS], ids=[case[0] for case in NUMBERS]
)
def test_a_number_the_jobs_would_refuse_is_refused_naming_its_key(edit, key, message):
    with pytest.raises(ConfigError) as info:
        read_config(edited(edit))
    text = str(info.value)
    assert text.startswith(f"config key {key}: "), text
    assert re.search(message, text), text


# ------------------------------------------------------------------ config files (issue 29)
def test_a_tab_in_the_config_file_names_the_file_line_and_column(tmp_path):
    text = yaml.safe_dump(DEFAULT).replace("\n  enabled: true", "\n\tenabled: true", 1)
    proc, out = dry_run(tmp_path, text=text)
    line = text[: text.index("\t")].count("\n") + 1
    assert_stopped_before_any_job(
        proc, out, tmp_path, rf"^config file config/config\.yaml, line {line}, column 1: .*'\\t'"
    )


def test_a_tab_in_a_configfile_is_named_by_rlsbench_config_check(tmp_path):
    """Snakemake reads a --configfile on its command line, before the Snakefile runs, and says
    only "Config file is not valid JSON or YAML"; rlsbench's config guard (issue 45, the plugin
    module snakemake_logger_plugin_rlsbench_config_guard) reads it first and names file, line
    and column, as `rlsbench config check FILE` does."""
    text = yaml.safe_dump(DEFAULT).replace("\n  enabled: true", "\n\tenabled: true", 1)
    line = text[: text.index("\t")].count("\n") + 1
    given = tmp_path / "mine.yaml"
    given.write_text(text)
    proc, out = dry_run(tmp_path, None, "--configfile", str(given))
    assert proc.returncode == 1, out[-3000:]
    assert re.search(rf"^config file .*mine\.yaml, line {line}, column 1: .*'\\t'", out, re.M)
    assert not (tmp_path / "results").exists()
    check = subprocess.run(
        [sys.executable, "-m", "rlsbench", "config", "check", str(given)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 1, check.stdout + check.stderr
    assert re.search(
        rf"^rlsbench: error: config file .*mine\.yaml, line {line}, column 1: .*'\\t'",
        check.stderr,
        re.M,
    ), check.stderr


def test_rlsbench_config_check_accepts_the_shipped_configs():
    check = subprocess.run(
        [sys.executable, "-m", "rlsbench", "config", "check"]
        + [str(REPO / "config" / name) for name in ("config.yaml", "paper.yaml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stderr
    assert check.stdout.count("readable") == 2


# ------------------------------------------------------------------ own adversarial cases
def test_a_key_given_twice_in_a_configfile_names_the_file_and_line(tmp_path):
    """YAML keeps the last of a key given twice: a second `main:` would drop the first whole."""
    text = (
        "run_name: twice\nmain:\n  datasets: [wine]\n  methods: [greedy_rls]\n"
        "main:\n  enabled: false\n"
    )
    (tmp_path / "twice.yaml").write_text(text)
    proc, out = dry_run(tmp_path, None, "--configfile", str(tmp_path / "twice.yaml"))
    assert_stopped_before_any_job(
        proc, out, tmp_path, r"^config file .*twice\.yaml, line 5, column 1: key 'main' is given"
    )


def test_a_config_file_that_is_not_a_mapping_is_named(tmp_path):
    proc, out = dry_run(tmp_path, text="- main\n- scaling\n")
    assert_stopped_before_any_job(
        proc, out, tmp_path, r"^config file config/config\.yaml: holds list, not a mapping"
    )


def test_a_configfile_that_does_not_exist_is_named(tmp_path):
    # Snakemake's command line reads --configfile before the Snakefile runs: rlsbench's config
    # guard reads it first (issue 45) and names it in one line, without a traceback
    proc, out = dry_run(tmp_path, None, "--configfile", "no-such-config.yaml")
    assert proc.returncode == 1 and "Job stats" not in out, out[-3000:]
    assert re.search(r"^config file no-such-config\.yaml: No such file or directory$", out, re.M)
    assert "Traceback" not in out
    assert not (tmp_path / "results").exists()


def test_a_machine_speed_below_one_flop_per_second_stops_the_dry_run_naming_its_key(tmp_path):
    """Before: the jobs' runtime estimate overflowed while the DAG was built (OverflowError)."""
    proc, out = dry_run(tmp_path, edited(_set(("main", "flops_per_second"), 1.0e-300)))
    assert "OverflowError" not in out
    assert_stopped_before_any_job(
        proc, out, tmp_path, r"^config key main\.flops_per_second: 1e-300 is less than"
    )


# (id, edit, key, message) read as the Snakefile reads them
OWN = [
    # results/runs/.. is results/: the run would write beside the other runs
    ("run-name-dot-dot", _set(("run_name",), ".."), "run_name", "does not match"),
    ("run-name-dot", _set(("run_name",), "."), "run_name", "does not match"),
    (
        "ramona-toy-method-twice",
        _update(("ramona", "toy"), methods=["fisher", "arom", "fisher"]),
        "ramona.toy.methods",
        "non-unique",
    ),
    (
        "buteneers-method-twice",
        _set(("buteneers", "methods"), ["lars", "op_lr", "lars"]),
        "buteneers.methods",
        "non-unique",
    ),
    (
        "buteneers-timing-method-twice",
        _update(("buteneers", "timing"), methods=["rr_naive", "rr_naive"]),
        "buteneers.timing.methods",
        "non-unique",
    ),
    # Fig. 1 keeps the S best of 202 (linear) or 52 (nonlinear) features: S = 60 kept all 52
    (
        "ramona-toy-S-over-the-features",
        _update(("ramona", "toy"), n_selected=60),
        "ramona.toy.n_selected",
        "60 exceeds the 52 features of the nonlinear toy problem",
    ),
    # the name is a folder of the part's files, as table1's names are
    (
        "sunyao-fig1-name-with-a-slash",
        _update(("sunyao", "fig1"), dataset="sinc/scaling"),
        "sunyao.fig1.dataset",
        "does not match",
    ),
    (
        "part-section-of-the-wrong-type",
        _set(("ramona",), ["toy", "realdata"]),
        "ramona",
        "is not of type 'object'",
    ),
]


@pytest.mark.parametrize(
    "edit, key, message", [case[1:] for case in OWN], ids=[case[0] for case in OWN]
)
def test_a_name_or_size_the_run_cannot_use_is_refused_naming_its_key(edit, key, message):
    with pytest.raises(ConfigError) as info:
        read_config(edited(edit))
    text = str(info.value)
    assert text.startswith(f"config key {key}: "), text
    assert re.search(message, text), text


def test_a_missing_user_registry_is_named(tmp_path):
    config = edited(_set(("dataset_registries",), ["no-such-registry.yaml"]))
    proc, out = dry_run(tmp_path, config)
    assert_stopped_before_any_job(proc, out, tmp_path, r"no-such-registry\.yaml.*not found")
