"""Provenance: the commit comes from the working directory (never the package's location), the
machine and BLAS are recorded, publishing refuses a dirty tree, row columns are cached."""

import json
import re
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from rlsbench.benchmark import provenance as prov


def _git(repo, *args):
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A fresh git checkout with one commit, as the current directory; caches cleared."""
    repo = tmp_path / "checkout"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "code.py").write_text("x = 1\n")
    (repo / ".gitignore").write_text(".snakemake/\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "one")
    monkeypatch.chdir(repo)
    monkeypatch.delenv("RLSBENCH_SOURCE_DIR", raising=False)
    prov._git_state.cache_clear()
    yield repo
    prov._git_state.cache_clear()


def test_commit_is_the_working_directorys_not_the_packages(checkout, tmp_path, monkeypatch):
    head = _git(checkout, "rev-parse", "HEAD")
    assert prov.git_commit() == head
    assert prov.provenance({"a": 1}, 0)["git_commit"] == head
    # outside any checkout the commit is unknown, although this package sits in one
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert prov.git_commit() == "unknown"
    # the workflow can name its checkout explicitly
    monkeypatch.setenv("RLSBENCH_SOURCE_DIR", str(checkout))
    assert prov.git_commit() == head


def test_edits_make_the_commit_dirty_outputs_and_configs_do_not(checkout):
    head = _git(checkout, "rev-parse", "HEAD")
    (checkout / "results" / "paper").mkdir(parents=True)
    (checkout / "results" / "paper" / "table.csv").write_text("a\n1\n")
    (checkout / "my_config.yaml").write_text("run_name: x\n")
    assert prov.require_clean_tree() == head
    (checkout / "src" / "new_module.py").write_text("y = 2\n")
    with pytest.raises(prov.DirtyTreeError, match=r"uncommitted changes \(src/new_module.py\)"):
        prov.require_clean_tree()
    (checkout / "src" / "new_module.py").unlink()
    (checkout / "src" / "code.py").write_text("x = 2\n")
    with pytest.raises(prov.DirtyTreeError, match=r"src/code.py"):
        prov.require_clean_tree(checkout / "src")
    prov._git_state.cache_clear()
    assert prov.git_commit() == head + "+dirty"


def test_require_clean_tree_refuses_a_directory_outside_git(tmp_path):
    with pytest.raises(prov.DirtyTreeError, match="not in a git checkout"):
        prov.require_clean_tree(tmp_path)


def test_row_columns_keep_their_names_and_add_the_machine(checkout):
    row = prov.provenance({"a": 1}, 7)
    for key in (
        "python_version",
        "rlsbench_version",
        "numpy_version",
        "scikit_learn_version",
        "git_commit",
        "config_hash",
        "host",
        "seed",
    ):
        assert key in row
    assert row["seed"] == 7 and row["config_hash"] == prov.config_hash({"a": 1})
    assert row["cpu_model"] and row["n_cores"] >= 1
    assert row["blas"] != "none" and row["blas_threads"] >= 1  # numpy links a BLAS
    assert all(isinstance(v, (str, int)) for v in row.values())


def test_row_columns_are_computed_once_per_process(checkout, monkeypatch):
    prov.provenance({"a": 1}, 0)
    calls = []
    real = subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: calls.append(a) or real(*a, **k))
    for seed in range(20):
        prov.provenance({"a": seed}, seed)
    assert calls == []


def test_published_record_has_config_machine_and_thread_pools(checkout, monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    config = {"main": {"datasets": ["wine"], "n_folds": 3}}
    record = prov.provenance_record(config)
    assert record["git_commit"] == _git(checkout, "rev-parse", "HEAD")
    assert record["config"] == config and record["config_hash"] == prov.config_hash(config)
    env = record["environment"]
    assert env["machine"]["cpu_model"] and env["machine"]["n_cores"] >= 1
    blas = [p for p in env["thread_pools"] if p["user_api"] == "blas"]
    assert blas and all(p["num_threads"] >= 1 and p["version"] for p in blas)
    assert env["thread_variables"] == {"OMP_NUM_THREADS": "1"}
    assert env["packages"]["numpy"] != "not-installed"
    json.dumps(record)  # JSON-able as written to provenance.json
    (checkout / "src" / "code.py").write_text("x = 3\n")
    with pytest.raises(prov.DirtyTreeError):
        prov.provenance_record(config)
    assert prov.provenance_record(config, require_clean=False)["git_commit"].endswith("+dirty")


def test_published_record_names_the_source_dir_relative_to_the_checkout(checkout, tmp_path):
    # issue 28: provenance.json named the absolute path of the machine it ran on
    assert prov.provenance_record({}, directory=checkout)["source_dir"] == "."
    (checkout / "sub").mkdir()
    assert prov.provenance_record({}, directory=checkout / "sub")["source_dir"] == "sub"
    outside = tmp_path / "not_a_checkout"
    outside.mkdir()
    assert prov.relative_source_dir(outside) == "not_a_checkout"


def test_blas_columns_do_not_depend_on_what_was_imported_first():
    """numpy and scipy each bundle an OpenBLAS; a job that imported scipy first and one that
    did not must write the same provenance (result tables are compared across runs)."""
    import sys

    code = "from rlsbench.benchmark.provenance import provenance as p; r = p({}, 0); "
    code += "print(r['blas'], r['blas_threads'])"
    outputs = {
        subprocess.run(
            [sys.executable, "-c", first + code], capture_output=True, text=True, check=True
        ).stdout
        for first in ("", "import scipy.linalg; ", "import sklearn.linear_model; ")
    }
    assert len(outputs) == 1, outputs


def test_publish_records_the_clean_commit_and_refuses_dirty_tables_or_trees(checkout, monkeypatch):

    import pandas as pd

    from rlsbench.benchmark.tables import publish

    monkeypatch.delenv("RLSBENCH_ALLOW_DIRTY_PUBLISH", raising=False)
    head = _git(checkout, "rev-parse", "HEAD")
    run = checkout / "results" / "runs" / "r"
    run.mkdir(parents=True)
    pd.DataFrame({"a": [1], "git_commit": [head]}).to_csv(run / "t.csv", index=False)
    target, record = (
        checkout / "results" / "paper" / "t.csv",
        checkout / "results" / "paper" / "p.json",
    )
    publish([run / "t.csv"], [target], config={"main": {"seed": 3}}, provenance_json=record)
    info = json.loads(record.read_text())
    assert info["git_commit"] == head and info["tables_made_from_commits"] == [head]
    assert info["config"] == {"main": {"seed": 3}} and info["files"] == [str(target)]
    assert info["environment"]["machine"]["n_cores"] >= 1

    # a JSON record among the sources names its commit too (the scaling part's points are
    # JSON, its tables/provenance.json the record of their collection); a list does not
    (run / "rec.json").write_text(json.dumps({"git_commit": "a" * 40, "host": "h"}))
    (run / "list.json").write_text(json.dumps([{"git_commit": "b" * 40}]))
    publish(
        [run / "t.csv", run / "rec.json", run / "list.json"],
        [
            target,
            checkout / "results" / "paper" / "rec.json",
            checkout / "results" / "paper" / "l.json",
        ],
        provenance_json=record,
    )
    assert json.loads(record.read_text())["tables_made_from_commits"] == sorted([head, "a" * 40])

    # rows made from a checkout with changes: refused, nothing copied
    pd.DataFrame({"a": [2], "git_commit": [head + "+dirty"]}).to_csv(run / "u.csv", index=False)
    fresh = checkout / "results" / "paper" / "u.csv"
    with pytest.raises(prov.DirtyTreeError, match=r"\+dirty"):
        publish([run / "u.csv"], [fresh], provenance_json=checkout / "results" / "paper" / "q.json")
    assert not fresh.exists()
    (run / "dirty.json").write_text(json.dumps({"git_commit": head + "+dirty"}))
    with pytest.raises(prov.DirtyTreeError, match=r"\+dirty"):
        publish(
            [run / "dirty.json"], [fresh], provenance_json=checkout / "results" / "paper" / "q.json"
        )
    assert not fresh.exists()

    # a checkout with uncommitted code: refused, unless the variable allows it (then recorded)
    (checkout / "src" / "code.py").write_text("x = 2\n")
    with pytest.raises(prov.DirtyTreeError, match="uncommitted changes"):
        publish([run / "t.csv"], [fresh], provenance_json=record)
    monkeypatch.setenv("RLSBENCH_ALLOW_DIRTY_PUBLISH", "1")
    publish([run / "t.csv"], [fresh], provenance_json=record)
    assert json.loads(record.read_text())["git_commit"].endswith("+dirty")


def test_every_published_result_names_a_clean_commit():
    # Issue 16, item 5, on the committed results themselves: each part has its
    # provenance.json, and no table, record or Markdown summary under results/paper was made
    # from a checkout with uncommitted changes.
    root = Path(__file__).resolve().parents[2] / "results" / "paper"
    parts = sorted(p for p in root.iterdir() if p.is_dir() and p.name != "variants")
    assert {p.name for p in parts} >= {"main", "buteneers", "ramona", "sunyao", "scaling"}
    # a published variant is one part under variants/<name>/<part>/
    parts += sorted(p for p in root.glob("variants/*/*") if p.is_dir())
    sha = re.compile(r"^[0-9a-f]{40}$")
    for part in parts:
        record = json.loads((part / "provenance.json").read_text())
        assert sha.match(record["git_commit"]), part
        assert all(sha.match(c) for c in record["tables_made_from_commits"]), part
        assert record["environment"]["machine"]["n_cores"] >= 1
    checked = 0
    for path in sorted(root.rglob("*")):
        if path.suffix == ".csv":
            frame = pd.read_csv(path, low_memory=False)
            if "git_commit" in frame:
                commits = set(frame["git_commit"].astype(str))
                assert all(sha.match(c) for c in commits), (path, commits)
                checked += 1
        elif path.suffix in (".md", ".json", ".tex"):
            assert "+dirty" not in path.read_text(), path
    assert checked >= 10


def test_every_committed_provenance_names_its_source_dir_relative():
    # issue 28: the committed records too (the parts published before the fix said the
    # absolute path of the clone they ran in, the clone's top; rewritten as ".")
    repo = Path(__file__).resolve().parents[2]
    records = [(p, json.loads(p.read_text())) for p in (repo / "results").rglob("*.json")]
    # a part's provenance.json
    published = [r | {"path": p} for p, r in records if isinstance(r, dict) and "source_dir" in r]
    assert len(published) >= 5, "fewer published parts than the five papers' parts"
    for record in published:
        where = record["path"].relative_to(repo)
        assert not Path(record["source_dir"]).is_absolute(), (where, record["source_dir"])
