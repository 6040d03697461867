"""The `download` and `prepare` rules through Snakemake, against a loopback HTTP mirror."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlsbench.datasets import load_prepared, load_registry
from rlsbench.datasets._testing import serve_directory

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "datasets"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not SHARED.is_dir(), reason=f"no dataset mirror at {SHARED}"),
]


def snakemake(workdir, targets, mirrors, *extra):
    """Run the repository's Snakefile in ``workdir`` (outputs land there, not in the repo)."""
    (workdir / "config").exists() or (workdir / "config").symlink_to(REPO / "config")
    mirror_list = "[" + ",".join(f'"{m}"' for m in mirrors) + "]"
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"),
           "--directory", str(workdir), "--cores", "2", "--config", f"mirrors={mirror_list}",
           *extra, "--", *targets]
    env = {**os.environ, "RLSBENCH_DOWNLOAD_RETRIES": "1", "RLSBENCH_DOWNLOAD_TIMEOUT": "10"}
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)


def test_download_and_prepare_rules_over_http(tmp_path):
    registry = load_registry()
    names = ["australian", "german.numer", "colon-cancer", "ijcnn1", "wine"]
    targets = [f"results/datasets/prepared/{n}.npz" for n in names]
    with serve_directory(SHARED) as url:
        run = snakemake(tmp_path, targets, [url])
    assert run.returncode == 0, run.stderr[-3000:]
    for name in names:
        spec = registry[name]
        ds = load_prepared(tmp_path / f"results/datasets/prepared/{name}.npz")
        assert ds.name == name and ds.task == spec.task
        assert ds.X.shape == (spec.expected["n_samples"], spec.expected["n_features"])
        assert ds.class_counts() == spec.expected["class_counts"]
        for record, f in zip(ds.provenance["files"], spec.files):
            assert record["url"] == f"{url}/{f.mirror}"
            assert record["content_sha256"] == f.content_sha256
        assert (tmp_path / f"results/datasets/logs/prepare/{name}.log").exists()


def test_corrupted_and_truncated_mirror_fails_cleanly_then_resumes(tmp_path):
    bad = tmp_path / "bad_mirror"
    (bad / "australian").mkdir(parents=True)
    (bad / "ijcnn1").mkdir()
    corrupted = bytearray((SHARED / "australian" / "australian").read_bytes())
    corrupted[1000:1004] = b"9999"
    (bad / "australian" / "australian").write_bytes(bytes(corrupted))
    trn = (SHARED / "ijcnn1" / "ijcnn1.trn.bz2").read_bytes()
    (bad / "ijcnn1" / "ijcnn1.trn.bz2").write_bytes(trn[: len(trn) // 2])
    work = tmp_path / "work"
    work.mkdir()
    targets = ["results/datasets/prepared/australian.npz", "results/datasets/prepared/ijcnn1.npz"]
    with serve_directory(bad) as url:
        run = snakemake(work, targets, [url], "--keep-going")
    assert run.returncode != 0
    log_a = (work / "results/datasets/logs/download/australian.log").read_text()
    assert "dataset 'australian', file 'australian'" in log_a
    assert f"{url}/australian/australian: checksum mismatch" in log_a
    log_i = (work / "results/datasets/logs/download/ijcnn1.log").read_text()
    assert f"{url}/ijcnn1/ijcnn1.trn.bz2: truncated .bz2 stream" in log_i
    assert "ijcnn1.bz2" in log_i  # the upstream URL was tried and listed too
    left = [p for p in (work / "results" / "datasets").rglob("*")
            if p.is_file() and "logs" not in p.parts]
    assert left == []  # no raw file, no verified.json, no prepared file, no temp file
    # Fix the cause (a good mirror after the bad one) and rerun: it resumes and completes.
    with serve_directory(bad) as bad_url, serve_directory(SHARED) as good_url:
        run = snakemake(work, targets, [bad_url, good_url])
    assert run.returncode == 0, run.stderr[-3000:]
    assert load_prepared(work / targets[1]).X.shape == (141691, 22)
