"""Download: mirrors first, then upstream; retries; every URL listed on failure; atomic output."""

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from rlsbench.benchmark.datasets import (
    MANIFEST_NAME,
    DownloadError,
    FileSpec,
    candidate_urls,
    download,
    load_registry,
    resolve_mirror,
)
from rlsbench.benchmark.datasets._testing import closed_port, serve_directory
from rlsbench.benchmark.datasets.download import download_file

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared" / "datasets"
needs_mirror = pytest.mark.skipif(not SHARED.is_dir(), reason=f"no dataset mirror at {SHARED}")


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def test_mirror_resolution(tmp_path):
    assert resolve_mirror("http://h:1/a/") == "http://h:1/a"
    assert resolve_mirror("file:///x/y") == "file:///x/y"
    assert (
        resolve_mirror("../shared/datasets", root=tmp_path / "repo")
        == (tmp_path / "shared" / "datasets").as_uri()
    )
    f = FileSpec(
        name="a",
        mirror="d/a b",
        upstream=("https://up/a",),
        sha256="0" * 64,
        content_sha256="0" * 64,
    )
    assert candidate_urls(f, ["http://m1", "/abs"], root=tmp_path) == [
        "http://m1/d/a%20b",
        "file:///abs/d/a%20b",
        "https://up/a",
    ]


@needs_mirror
def test_http_mirror_then_resume_without_refetch(tmp_path, registry):
    spec = registry["german.numer"]
    leftover = tmp_path / "raw" / ".german.numer.x1y2.tmp"  # as a killed earlier run leaves it
    leftover.parent.mkdir()
    leftover.write_bytes(b"-1 1:1\n")
    with serve_directory(SHARED) as url:
        manifest = download(spec, tmp_path / "raw", mirrors=[url], retries=1)
    record = json.loads(manifest.read_text())["files"][0]
    assert record["url"] == f"{url}/german.numer/german.numer"
    assert record["verified_by"] == "stored"
    assert sorted(p.name for p in manifest.parent.iterdir()) == ["german.numer", MANIFEST_NAME]
    # Server gone: a rerun keeps the verified file instead of fetching it again.
    manifest.unlink()
    download(spec, tmp_path / "raw", mirrors=[f"http://127.0.0.1:{closed_port()}"], retries=1)
    assert json.loads(manifest.read_text())["files"][0]["url"] == "cached"


@needs_mirror
def test_404_and_bad_mirror_fall_through_to_next_url(tmp_path, registry):
    spec = registry["heart"]
    empty = tmp_path / "empty_mirror"
    empty.mkdir()
    with serve_directory(empty) as bad, serve_directory(SHARED) as good:
        download(spec, tmp_path / "raw", mirrors=[bad, good], retries=3, backoff=0)
    assert (tmp_path / "raw" / "heart_scale").exists()


def test_unreachable_host_lists_every_url_tried(tmp_path, registry):
    spec = registry["ijcnn1"]
    port = closed_port()
    mirrors = [f"http://127.0.0.1:{port}", str(tmp_path / "missing")]
    with pytest.raises(DownloadError) as err:
        download_file(
            "ijcnn1",
            spec.files[0],
            tmp_path / "raw",
            mirrors=mirrors,
            retries=2,
            backoff=0.01,
            timeout=2,
        )
    message = str(err.value)
    assert "dataset 'ijcnn1'" in message and "ijcnn1.trn.bz2" in message
    tried = [
        f"http://127.0.0.1:{port}/ijcnn1/ijcnn1.trn.bz2",
        (tmp_path / "missing" / "ijcnn1" / "ijcnn1.trn.bz2").as_uri(),
        "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary/ijcnn1.bz2",
    ]
    for url in tried:
        assert f"  - {url}: " in message
    assert "Connection refused" in message or "ConnectionRefusedError" in message
    assert "after 2 attempts" in message
    assert not any((tmp_path / "raw").iterdir())


def _mirror_only(spec):
    """``spec`` with no upstream URL (as a dataset only a private mirror serves)."""
    return replace(spec, files=tuple(replace(f, upstream=()) for f in spec.files))


def test_mirror_only_file_says_so(tmp_path, registry):
    spec = _mirror_only(registry["musk"])
    with pytest.raises(DownloadError, match="no URL to try") as err:
        download(spec, tmp_path / "raw", mirrors=[])
    assert "configure a mirror" in str(err.value) and "clean1.data.Z" in str(err.value)


@needs_mirror
def test_corrupted_and_truncated_copies_rejected_then_rerun_resumes(tmp_path, registry):
    spec = registry["ijcnn1"]
    bad = tmp_path / "bad_mirror" / "ijcnn1"
    bad.mkdir(parents=True)
    trn = (SHARED / "ijcnn1" / "ijcnn1.trn.bz2").read_bytes()
    (bad / "ijcnn1.trn.bz2").write_bytes(trn[: len(trn) // 3])  # truncated
    raw = tmp_path / "raw"
    with serve_directory(tmp_path / "bad_mirror") as url, pytest.raises(DownloadError) as err:
        download(spec, raw, mirrors=[url], retries=1, timeout=5)
    assert "truncated .bz2 stream" in str(err.value)
    assert f"{url}/ijcnn1/ijcnn1.trn.bz2" in str(err.value)
    assert not raw.exists() or not any(raw.iterdir())  # nothing partial, no temp files
    # fix the cause: good mirror for train, a corrupted copy of test only
    shutil.copy(SHARED / "ijcnn1" / "ijcnn1.trn.bz2", bad / "ijcnn1.trn.bz2")
    tst = bytearray((SHARED / "ijcnn1" / "ijcnn1.tst.bz2").read_bytes())
    tst[len(tst) // 2] ^= 0x01
    (bad / "ijcnn1.tst.bz2").write_bytes(bytes(tst))
    with serve_directory(tmp_path / "bad_mirror") as url, pytest.raises(DownloadError) as err:
        download(spec, raw, mirrors=[url], retries=1, timeout=5)
    assert "ijcnn1.tst.bz2" in str(err.value)
    assert sorted(p.name for p in raw.iterdir()) == ["ijcnn1.trn.bz2"]  # verified file kept
    shutil.copy(SHARED / "ijcnn1" / "ijcnn1.tst.bz2", bad / "ijcnn1.tst.bz2")
    with serve_directory(tmp_path / "bad_mirror") as url:
        download(spec, raw, mirrors=[url], retries=1)
    assert sorted(p.name for p in raw.iterdir()) == sorted(
        ["ijcnn1.trn.bz2", "ijcnn1.tst.bz2", MANIFEST_NAME]
    )


@needs_mirror
def test_registry_pins_match_the_mirror_manifest(registry):
    """Each registry file is a MANIFEST.tsv row of its collection's mirror with the same stored
    sha256, and every dataset folder of each mirror is used by some registry entry (PMLB's
    schizo aside: its header names two columns `target`)."""
    import csv

    mirrors = {
        "registry.yaml": SHARED,
        "registry_highdim.yaml": SHARED.with_name("datasets-highdim"),
        "registry_pmlb.yaml": SHARED.with_name("datasets-pmlb"),
    }
    rows, used = {}, {}
    for source, mirror in mirrors.items():
        with open(mirror / "MANIFEST.tsv", newline="") as fh:
            rows[source] = {r["file"]: r for r in csv.DictReader(fh, delimiter="\t")}
        used[source] = set()
    for spec in registry.values():
        source = Path(spec.source).name
        for f in spec.files:
            assert f.mirror in rows[source], f"{spec.name}: {f.mirror} not in MANIFEST.tsv"
            assert rows[source][f.mirror]["sha256"] == f.sha256, f"{spec.name}: {f.mirror}"
            used[source].add(rows[source][f.mirror]["dataset"])
    for source, table in rows.items():
        unused = {r["dataset"] for r in table.values()} - used[source]
        assert unused == ({"schizo"} if source == "registry_pmlb.yaml" else set()), source


def test_404_is_reported_and_not_retried(tmp_path, registry):
    empty = tmp_path / "empty_mirror"
    empty.mkdir()
    with serve_directory(empty) as url, pytest.raises(DownloadError) as err:
        download(
            _mirror_only(registry["musk"]), tmp_path / "raw", mirrors=[url], retries=5, backoff=30
        )
    line = next(
        l for l in str(err.value).splitlines() if l.startswith(f"  - {url}/musk/clean1.data")
    )
    assert line.endswith("HTTP 404 File not found")  # permanent: no retries (backoff would be 30 s)
    assert not (tmp_path / "raw" / MANIFEST_NAME).exists()
