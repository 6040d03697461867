"""Snakemake `download`/`prepare` against a corrupted and a truncated mirror copy: clear errors,
nothing partial, and a rerun after the fix resumes."""

import functools
from pathlib import Path

import pytest

from rlsbench.benchmark.datasets import load_prepared
from rlsbench.benchmark.datasets._testing import FAST_FAIL_ENV, run_snakemake, serve_directory

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared" / "datasets"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not SHARED.is_dir(), reason=f"no dataset mirror at {SHARED}"),
]


# The repository's Snakefile in a working directory, with fast-failing downloads.
snakemake = functools.partial(run_snakemake, REPO, env=FAST_FAIL_ENV)


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
    left = [
        p
        for p in (work / "results" / "datasets").rglob("*")
        if p.is_file() and "logs" not in p.parts
    ]
    assert left == []  # no raw file, no verified.json, no prepared file, no temp file
    # Fix the cause (a good mirror after the bad one) and rerun: it resumes and completes.
    with serve_directory(bad) as bad_url, serve_directory(SHARED) as good_url:
        run = snakemake(work, targets, [bad_url, good_url])
    assert run.returncode == 0, run.stderr[-3000:]
    assert load_prepared(work / targets[1]).X.shape == (141691, 22)
