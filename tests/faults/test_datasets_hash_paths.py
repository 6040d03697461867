"""``rlsbench datasets hash`` writes a file's ``path:`` relative to the registry file the entry is
meant for (issue 44 item 5): the current directory by default, or the file ``--output`` names.
The entry, saved there, loads and verifies from any working directory; the docs give one rule
for the relative paths of registries and configs."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rlsbench.benchmark import cli
from rlsbench.benchmark.datasets import load_registry

REPO = Path(__file__).resolve().parents[2]
CSV = b"a,b,label\n1,2,yes\n2,1,no\n3,3,yes\n0,1,no\n2,2,no\n"


@pytest.fixture
def project(tmp_path):
    """``project/data/my set.csv`` and an empty ``elsewhere/`` to run later commands from."""
    data = tmp_path / "project" / "data" / "my set.csv"
    data.parent.mkdir(parents=True)
    data.write_bytes(CSV)
    (tmp_path / "elsewhere").mkdir()
    return tmp_path


def _fetches(registry_file, cache, capsys) -> None:
    status = cli.main(
        [
            "datasets",
            "--registry-extra",
            str(registry_file),
            "fetch",
            "my",
            "--cache-dir",
            str(cache),
        ]
    )
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert "my: binary, X 5 x 2" in captured.err


def test_the_printed_path_is_relative_to_the_current_directory(project, capsys, monkeypatch):
    monkeypatch.chdir(project / "project")
    assert cli.main(["datasets", "hash", "data/my set.csv", "--name", "my"]) == 0
    text = capsys.readouterr().out
    (f,) = yaml.safe_load(text)["datasets"]["my"]["files"]
    assert f["path"] == "data/my set.csv"
    assert str(project) not in text.split("version: 1")[1]  # no absolute path in the entry
    assert f"relative to {project / 'project'}" in text  # the header says where it belongs
    # saved where it was meant to live, then used from another directory
    (project / "project" / "mine.yaml").write_text(text)
    monkeypatch.chdir(project / "elsewhere")
    registry = load_registry(extra=[project / "project" / "mine.yaml"])
    assert registry["my"].files[0].path == str(project / "project" / "data" / "my set.csv")
    _fetches(Path("..") / "project" / "mine.yaml", "cache", capsys)


def test_output_writes_the_registry_with_paths_relative_to_it(project, capsys, monkeypatch):
    monkeypatch.chdir(project / "project")
    target = Path("registries") / "mine.yaml"
    assert cli.main(["datasets", "hash", "data/my set.csv", "--name", "my", "-o", str(target)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and str(target) in captured.err
    written = (project / "project" / target).read_text()
    (f,) = yaml.safe_load(written)["datasets"]["my"]["files"]
    assert f["path"] == "../data/my set.csv"
    monkeypatch.chdir(project / "elsewhere")
    _fetches(project / "project" / target, project / "cache", capsys)


def test_output_never_overwrites_a_registry(project, capsys, monkeypatch):
    monkeypatch.chdir(project / "project")
    (project / "project" / "mine.yaml").write_text("version: 1\ndatasets: {}\n")
    assert cli.main(["datasets", "hash", "data/my set.csv", "-o", "mine.yaml"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("rlsbench: error: file 'mine.yaml': ") and "exists" in line
    assert (project / "project" / "mine.yaml").read_text() == "version: 1\ndatasets: {}\n"
    assert sorted(p.name for p in (project / "project").iterdir()) == ["data", "mine.yaml"]


def test_a_url_replaces_the_path(project, capsys, monkeypatch):
    monkeypatch.chdir(project / "project")
    url = "https://example.org/my.csv"
    assert cli.main(["datasets", "hash", "data/my set.csv", "--url", url]) == 0
    (f,) = yaml.safe_load(capsys.readouterr().out)["datasets"]["my-set"]["files"]
    assert f["upstream"] == [url] and "path" not in f


def test_the_docs_give_one_rule_for_relative_registry_paths():
    add = (REPO / "docs" / "howto" / "add_dataset.rst").read_text(encoding="utf-8")
    start = (REPO / "docs" / "getting_started.rst").read_text(encoding="utf-8")
    assert "relative to the working directory" not in add
    assert "dataset_registries: [my_datasets.yaml]        # relative to this config file" in add
    assert "relative to the registry file" in add
    assert "resolve against the config file's own directory" in start
    # the configuration reference renders the config schema's descriptions
    schema = (REPO / "workflow" / "schemas" / "config.schema.yaml").read_text(encoding="utf-8")
    assert "relative to the working directory" not in schema
    assert schema.count("relative to this config file (as `rlsbench run` resolves") == 2
