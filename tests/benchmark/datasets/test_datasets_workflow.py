"""The `download` and `prepare` rules through Snakemake, against a loopback HTTP mirror."""

import functools
from pathlib import Path

import pytest

from rlsbench.benchmark.datasets import load_prepared, load_registry
from rlsbench.benchmark.datasets._testing import FAST_FAIL_ENV, run_snakemake, serve_directory

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared" / "datasets"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not SHARED.is_dir(), reason=f"no dataset mirror at {SHARED}"),
]


# The repository's Snakefile in a working directory, with fast-failing downloads.
snakemake = functools.partial(run_snakemake, REPO, env=FAST_FAIL_ENV)


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
