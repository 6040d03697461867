"""The registry: package data, commit-pinned upstreams consistent with the mirror's MANIFEST,
user registries (files and inline) validated by the same schema, no silent shadowing, and
`rlsbench datasets hash` writing an entry that loads and prepares."""

import csv
import hashlib
import urllib.parse
from pathlib import Path

import numpy as np
import pytest
import yaml

from rlsbench.benchmark.cli import main
from rlsbench.benchmark.datasets import RegistryError, load, load_registry
from rlsbench.benchmark.datasets.download import candidate_urls
from rlsbench.benchmark.datasets.registry import builtin_registry_file, schema_file

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared" / "datasets"
needs_mirror = pytest.mark.skipif(not SHARED.is_dir(), reason=f"no dataset mirror at {SHARED}")
GITHUB = "https://raw.githubusercontent.com/"
CSV = b"x1,x2,label\n1.0,2.0,yes\n2.0,1.5,no\n3.0,0.5,yes\n0.5,3.0,no\n1.5,1.0,no\n"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def user_entry(path, **changes):
    entry = {
        "description": "a user's tiny CSV",
        "task": "binary",
        "format": "uci-csv",
        "files": [{"name": "tiny.csv", "path": str(path), "sha256": _sha(CSV)}],
        "read": {"sep": ",", "header": True, "target": "label"},
        "labels": {"positive": ["yes"], "negative": ["no"]},
        "expected": {"n_samples": 5, "n_features": 2, "class_counts": {"+1": 2, "-1": 3}},
        "preprocessing": "none",
    }
    entry.update(changes)
    return entry


def write_registry(path, entries):
    path.write_text(yaml.safe_dump({"version": 1, "datasets": entries}, sort_keys=False))
    return path


# ----------------------------------------------------------------------------------- package data
def test_registry_and_schema_are_package_data():
    assert builtin_registry_file().name == "registry.yaml"
    assert schema_file().is_file()
    assert Path(str(builtin_registry_file())).is_relative_to(REPO / "src" / "rlsbench")
    assert not (REPO / "config" / "datasets.yaml").exists()  # one registry, in the package
    registry = load_registry()
    assert registry.path == str(builtin_registry_file()) and "australian" in registry


def test_every_registry_file_has_an_upstream_a_stranger_can_reach():
    """No built-in dataset depends on our mirror: each file has at least one upstream URL."""
    for spec in load_registry().values():
        for f in spec.files:
            assert f.upstream, f"{spec.name}/{f.name} has no upstream URL"


@needs_mirror
def test_github_upstreams_are_commit_pinned_and_match_the_manifest():
    """Each raw.githubusercontent.com URL is the MANIFEST's source (repository, 40-hex commit,
    URL-encoded path) of a file whose mirror bytes are that blob (not DERIVED), pinned by the
    MANIFEST's sha256; every such MANIFEST file in the registry has one."""
    manifests = {}  # each registry file's entries are laid out like one mirror
    for registry, mirror in (
        ("registry.yaml", SHARED),
        ("registry_highdim.yaml", SHARED.with_name("datasets-highdim")),
        ("registry_pmlb.yaml", SHARED.with_name("datasets-pmlb")),
    ):
        with open(mirror / "MANIFEST.tsv", newline="") as fh:
            manifests[registry] = {r["file"]: r for r in csv.DictReader(fh, delimiter="\t")}
    pinned = 0
    for spec in load_registry().values():
        rows = manifests[Path(spec.source).name]
        for f in spec.files:
            row = rows[f.mirror]
            github = [u for u in f.upstream if u.startswith(GITHUB)]
            has_source = row["source_commit"] not in ("", "-") and "/" in row["source_repo"]
            if not has_source or row["notes"].startswith("DERIVED"):
                assert github == [], f"{f.mirror}: no identical blob upstream, no GitHub URL"
                continue
            repo, commit, path = row["source_repo"], row["source_commit"], row["source_path"]
            assert len(commit) == 40 and all(c in "0123456789abcdef" for c in commit)
            quoted = urllib.parse.quote(path, safe="/")
            assert github == [f"{GITHUB}{repo}/{commit}/{quoted}"], f.mirror
            assert f.sha256 == row["sha256"]
            assert candidate_urls(f, ["http://m"])[-1] == github[0]  # tried after mirrors
            pinned += 1
    assert pinned >= 29 + 23  # the base registry's, the high-dimensional collection's


# ------------------------------------------------------------------------------- user registries
def test_user_registry_file_adds_a_dataset_that_loads(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "tiny.csv").write_bytes(CSV)
    extra = write_registry(tmp_path / "mine.yaml", {"tiny": user_entry("data/tiny.csv")})
    registry = load_registry(extra=[extra])
    spec = registry["tiny"]
    assert spec.files[0].path == str((data / "tiny.csv").resolve())  # relative to the file
    assert spec.files[0].content_sha256 == _sha(CSV)  # defaults to sha256
    assert registry.sources[-1] == str(extra) and "australian" in registry
    ds = load("tiny", cache_dir=tmp_path / "cache", registry=registry)
    np.testing.assert_array_equal(ds.y, [1, -1, 1, -1, -1])
    assert ds.provenance["files"][0]["url"] == (data / "tiny.csv").resolve().as_uri()


def test_user_entry_may_not_shadow_a_builtin_name_silently(tmp_path):
    (tmp_path / "tiny.csv").write_bytes(CSV)
    extra = write_registry(tmp_path / "mine.yaml", {"wine": user_entry("tiny.csv")})
    with pytest.raises(RegistryError) as err:
        load_registry(extra=[extra])
    message = str(err.value)
    assert str(extra) in message and str(builtin_registry_file()) in message
    assert "'wine' is already registered" in message and "override: true" in message
    assert err.value.line == 3
    replaced = write_registry(
        tmp_path / "mine2.yaml", {"wine": user_entry("tiny.csv", override=True)}
    )
    assert load_registry(extra=[replaced])["wine"].source == str(replaced)


def test_two_user_files_clash_names_both(tmp_path):
    (tmp_path / "tiny.csv").write_bytes(CSV)
    a = write_registry(tmp_path / "a.yaml", {"tiny": user_entry("tiny.csv")})
    b = write_registry(tmp_path / "b.yaml", {"tiny": user_entry("tiny.csv")})
    with pytest.raises(RegistryError, match="already registered in .*a.yaml") as err:
        load_registry(extra=[a, b])
    assert err.value.file == str(b)


def test_user_entries_are_validated_by_the_same_schema(tmp_path):
    bad = user_entry("tiny.csv", task="clustering")
    extra = write_registry(tmp_path / "mine.yaml", {"tiny": bad})
    with pytest.raises(RegistryError, match=r"datasets/tiny/task: 'clustering'") as err:
        load_registry(extra=[extra])
    assert err.value.line == 5
    nowhere = user_entry("tiny.csv")
    del nowhere["files"][0]["path"]
    with pytest.raises(RegistryError, match="a mirror path, a local path or at least one"):
        load_registry(inline={"tiny": nowhere})
    with pytest.raises(RegistryError, match="file '.*missing.yaml': registry file not found"):
        load_registry(extra=[tmp_path / "missing.yaml"])
    (tmp_path / "broken.yaml").write_text("version: 1\ndatasets:\n  tiny: [unclosed\n")
    with pytest.raises(RegistryError, match="invalid YAML") as err:
        load_registry(extra=[tmp_path / "broken.yaml"])
    assert err.value.line == 4


def test_inline_entries_resolve_paths_against_the_given_directory(tmp_path):
    (tmp_path / "tiny.csv").write_bytes(CSV)
    registry = load_registry(inline={"tiny": user_entry("tiny.csv")}, inline_base=tmp_path)
    assert registry["tiny"].files[0].path == str((tmp_path / "tiny.csv").resolve())
    assert registry["tiny"].source == "config key datasets"
    assert registry.as_dicts()["tiny"]["expected"]["n_samples"] == 5


# ----------------------------------------------------------------------------------- hash + CLI
def test_hash_prints_an_entry_that_registers_and_prepares(tmp_path, capsys, monkeypatch):
    import gzip

    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.csv.gz").write_bytes(gzip.compress(CSV, mtime=0))
    assert main(["datasets", "hash", "tiny.csv.gz"]) == 0
    text = capsys.readouterr().out
    document = yaml.safe_load(text)
    ((name, entry),) = document["datasets"].items()
    assert name == "tiny"
    (f,) = entry["files"]
    assert f["sha256"] == _sha((tmp_path / "tiny.csv.gz").read_bytes())
    assert f["content_sha256"] == _sha(CSV)
    assert f["path"] == "tiny.csv.gz"  # relative to the registry, saved in the cwd below
    assert entry["format"] == "uci-csv" and entry["task"] == "binary"
    assert entry["read"] == {"sep": ",", "header": True, "target": -1}
    assert entry["labels"] == {"positive": ["yes"], "negative": ["no"]}
    assert entry["expected"] == {
        "n_samples": 5,
        "n_features": 2,
        "class_counts": {"+1": 2, "-1": 3},
    }
    (tmp_path / "mine.yaml").write_text(text)
    assert (
        main(["datasets", "--registry-extra", "mine.yaml", "fetch", "tiny", "--cache-dir", "c"])
        == 0
    )
    assert capsys.readouterr().out.strip() == str(Path("c") / "prepared" / "tiny.npz")


def test_hash_guesses_libsvm_and_regression(tmp_path, capsys):
    path = tmp_path / "reg.svm"
    path.write_text("".join(f"{0.1 * i} 1:{i} 3:{i * i}\n" for i in range(30)))
    assert main(["datasets", "hash", str(path), "--name", "reg"]) == 0
    entry = yaml.safe_load(capsys.readouterr().out)["datasets"]["reg"]
    assert (entry["format"], entry["task"], entry["read"]) == (
        "libsvm",
        "regression",
        {"n_features": 3},
    )
    assert entry["expected"] == {"n_samples": 30, "n_features": 3}


def test_hash_of_an_unreadable_guess_says_what_to_edit(tmp_path, capsys):
    path = tmp_path / "odd.csv"
    path.write_text("1,2,1\n2,3,0\n4,5\n")
    assert main(["datasets", "hash", str(path)]) == 0
    captured = capsys.readouterr()
    assert "# NOT READABLE AS GUESSED" in captured.out and "line 3" in captured.out
    assert "rlsbench: warning: could not read the file as guessed" in captured.err
    assert yaml.safe_load(captured.out)["datasets"]["odd"]["files"][0]["sha256"] == _sha(
        path.read_bytes()
    )


def test_registry_extra_errors_are_one_line(tmp_path, capsys):
    (tmp_path / "tiny.csv").write_bytes(CSV)
    extra = write_registry(tmp_path / "mine.yaml", {"sonar": user_entry("tiny.csv")})
    assert main(["datasets", "--registry-extra", str(extra), "list"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("rlsbench: error: file ")
    assert "'sonar' is already registered" in err
