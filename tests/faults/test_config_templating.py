"""A config file never runs code (issue 45, item 1).

Snakemake reads a config file through YTE templating when its top level says
``__use_yte__: true``: a key ``?<expression>`` is Python evaluated while the file is read. Each
way a config reaches the workflow (``rlsbench config check``, ``rlsbench run -n``, a plain
``snakemake -n --configfile``) refuses the marker with one line naming the file and line, and
the expression never runs: the file it would write does not appear.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rlsbench.benchmark.config import ConfigError, read_config_file

REPO = Path(__file__).resolve().parents[2]

#: The issue's config: its key writes pwned.txt into the working directory when YTE renders it.
EVIL = """\
__use_yte__: true
run_name: evil
?__import__('pathlib').Path('pwned.txt').write_text('x') or 'k': 1
"""

#: The marker's message, whatever the file and line.
REFUSED = "'__use_yte__' would make Snakemake render the file with YTE templating"


def _run(cmd, cwd):
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)
    return proc, proc.stdout + proc.stderr


def _one_line(out, needle):
    lines = [line for line in out.splitlines() if needle in line]
    assert len(lines) == 1, out[-3000:]
    return lines[0]


@pytest.fixture
def evil(tmp_path):
    path = tmp_path / "evil.yaml"
    path.write_text(EVIL)
    return path


def test_config_check_refuses_the_yte_marker_naming_file_and_line(evil):
    proc, out = _run([sys.executable, "-m", "rlsbench", "config", "check", evil.name], evil.parent)
    assert proc.returncode != 0, out
    line = _one_line(out, REFUSED)
    assert f"config file {evil.name}, line 1, column 1: " in line
    assert not (evil.parent / "pwned.txt").exists()
    assert "Traceback" not in out


def test_rlsbench_run_dry_run_refuses_the_yte_marker_before_snakemake_reads_it(evil):
    proc, out = _run(
        [sys.executable, "-m", "rlsbench", "run", "-n", "--configfile", evil.name], evil.parent
    )
    assert proc.returncode != 0, out
    assert "line 1, column 1" in _one_line(out, REFUSED)
    assert not (evil.parent / "pwned.txt").exists()
    assert not (evil.parent / "results").exists()


def test_plain_snakemake_dry_run_refuses_the_yte_marker_before_any_code_runs(evil):
    # Snakemake reads --configfile before it parses the Snakefile: the guard is the
    # rlsbench-config-guard plugin module, which Snakemake imports while it builds its options
    proc, out = _run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "-n"]
        + ["--cores", "1", "--configfile", evil.name],
        evil.parent,
    )
    assert proc.returncode == 1, out[-3000:]
    assert "line 1, column 1" in _one_line(out, REFUSED)
    assert not (evil.parent / "pwned.txt").exists()
    assert not (evil.parent / "results").exists() and "Traceback" not in out


@pytest.mark.parametrize(
    "text, where",
    [
        # the marker anywhere, not only at the top level where YTE looks today
        ("run_name: x\nmain:\n  __use_yte__: true\n", "line 3, column 3"),
        # as a value, and spelled with a YAML escape that hides it from a text search
        ('run_name: x\nnote: "\\x5f_use_yte__"\n', "line 2, column 7"),
        # JSON is not templated by Snakemake, but a config is one language either way
        ('{"run_name": "x",\n "__use_yte__": true}', "line 2"),
    ],
    ids=["nested-key", "escaped-value", "json"],
)
def test_the_yte_marker_is_refused_wherever_it_appears(tmp_path, text, where):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        read_config_file(path)
    message = str(info.value)
    assert message.startswith(f"config file {path}, {where}: "), message
    assert REFUSED in message and "\n" not in message


def test_a_plain_config_with_a_question_mark_key_is_still_read_as_data(tmp_path):
    # without the marker Snakemake does not template: '?...' is an ordinary string key
    path = tmp_path / "c.yaml"
    path.write_text("run_name: x\n'?1 + 1': 2\n")
    assert read_config_file(path) == {"run_name": "x", "?1 + 1": 2}


def test_another_workflow_keeps_snakemake_templating(tmp_path):
    # the guard is rlsbench's: a workflow of its own that chose YTE still gets it
    (tmp_path / "Snakefile").write_text('print("k =", config["k"])\n')
    (tmp_path / "c.yaml").write_text("__use_yte__: true\nk: ?1 + 1\n")
    proc, out = _run(
        [sys.executable, "-m", "snakemake", "-n", "--cores", "1", "--configfile", "c.yaml"],
        tmp_path,
    )
    assert proc.returncode == 0, out[-3000:]
    assert "k = 2" in out.splitlines()


def test_the_guard_knows_this_workflow_from_its_command_line(tmp_path):
    from rlsbench.benchmark.config import runs_this_workflow

    assert runs_this_workflow(["snakemake", "-s", str(REPO / "Snakefile"), "-n"])
    assert runs_this_workflow(["snakemake", f"--snakefile={REPO / 'Snakefile'}"])
    assert not runs_this_workflow(["snakemake", "-s", str(tmp_path / "Snakefile")])


def test_the_guard_stops_snakemakes_reader_before_yte_runs(evil, monkeypatch):
    from snakemake.common import configfile

    from rlsbench.benchmark.config import guard_snakemake_config_files

    monkeypatch.chdir(evil.parent)
    monkeypatch.setattr(configfile, "_load_configfile", configfile._load_configfile)
    assert guard_snakemake_config_files(["snakemake", "-s", str(REPO / "Snakefile")])
    with pytest.raises(SystemExit) as info:
        configfile.load_configfile(evil.name)
    assert REFUSED in str(info.value) and not (evil.parent / "pwned.txt").exists()
    # a plain config still reaches Snakemake's own reader
    (evil.parent / "plain.yaml").write_text("run_name: plain\n")
    assert configfile.load_configfile("plain.yaml") == {"run_name": "plain"}


def test_the_guard_stands_aside_when_snakemake_has_no_such_reader(monkeypatch):
    from snakemake.common import configfile

    from rlsbench.benchmark.config import guard_snakemake_config_files

    monkeypatch.delattr(configfile, "_load_configfile")
    assert not guard_snakemake_config_files(["snakemake", "-s", str(REPO / "Snakefile")])
