"""`rlsbench datasets list | info | fetch` (and the step commands the rules call)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rlsbench.benchmark.cli import build_parser, main
from rlsbench.benchmark.datasets import load, load_prepared, load_registry
from rlsbench.benchmark.datasets._testing import closed_port

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared" / "datasets"
needs_mirror = pytest.mark.skipif(not SHARED.is_dir(), reason=f"no dataset mirror at {SHARED}")


def test_list_shows_every_registry_dataset(capsys):
    assert main(["datasets", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [line.split()[0] for line in lines[1:]]
    assert names == list(load_registry())
    australian = next(line.split() for line in lines if line.startswith("australian "))
    assert australian[1:5] == ["binary", "libsvm", "690", "14"]


def test_info_prints_the_registry_entry(capsys):
    assert main(["datasets", "info", "ijcnn1"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["expected"]["n_samples"] == load_registry()["ijcnn1"].expected["n_samples"]
    assert [f["mirror"] for f in info["files"]] == [
        "ijcnn1/ijcnn1.trn.bz2",
        "ijcnn1/ijcnn1.tst.bz2",
    ]


def test_unknown_dataset_is_a_clean_error(capsys):
    assert main(["datasets", "info", "no-such-set"]) == 1
    err = capsys.readouterr().err
    assert "unknown dataset 'no-such-set'" in err and "australian" in err


@needs_mirror
def test_fetch_with_relative_mirror_into_cache(tmp_path, capsys, monkeypatch):
    # A relative mirror path resolves against the current directory (never the package's).
    (tmp_path / "here").mkdir()
    (tmp_path / "here" / "mirror").symlink_to(SHARED)
    monkeypatch.chdir(tmp_path / "here")
    assert (
        main(
            ["datasets", "fetch", "heart", "--cache-dir", str(tmp_path / "c"), "--mirror", "mirror"]
        )
        == 0
    )
    path = Path(capsys.readouterr().out.strip())
    assert path == tmp_path / "c" / "prepared" / "heart.npz"
    ds = load_prepared(path)
    assert ds.X.shape == (270, 13) and set(np.unique(ds.y)) == {-1.0, 1.0}
    # cached: no mirror needed the second time
    again = load("heart", cache_dir=tmp_path / "c")
    np.testing.assert_array_equal(again.X, ds.X)


def test_fetch_unreachable_lists_urls_and_exit_code(tmp_path):
    port = closed_port()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "rlsbench.benchmark.cli",
            "datasets",
            "fetch",
            "german.numer",
            "--cache-dir",
            str(tmp_path),
            "--mirror",
            f"http://127.0.0.1:{port}",
            "--retries",
            "2",
            "--backoff",
            "0.01",
            "--timeout",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert f"http://127.0.0.1:{port}/german.numer/german.numer: " in run.stderr
    assert (
        "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary/german.numer: "
        in run.stderr
    )
    assert not (tmp_path / "prepared").exists()


def test_sklearn_dataset_needs_no_download(tmp_path):
    ds = load("digits5", cache_dir=tmp_path)
    assert ds.X.shape == (1797, 64) and ds.class_counts() == {"+1": 182, "-1": 1615}
    assert ds.provenance["files"] == [] and "load_digits" in ds.provenance["generated_by"]


def test_parser_is_extensible():
    parser = build_parser()
    args = parser.parse_args(["datasets", "fetch", "adult", "--mirror", "a", "--mirror", "b"])
    assert args.mirror == ["a", "b"] and callable(args.func)


def test_synthetic_entries_come_from_the_core_generator(tmp_path):
    from rlsbench.numerics.synthetic import make_two_gaussians

    spec = load_registry()["synth_small"]
    ds = load("synth_small", cache_dir=tmp_path)
    X, y = make_two_gaussians(
        spec.read["n_samples"],
        spec.read["n_features"],
        seed=spec.read["seed"],
        n_informative=spec.read["n_informative"],
        class_sep=spec.read["class_sep"],
    )
    np.testing.assert_array_equal(ds.X, X)
    np.testing.assert_array_equal(ds.y, y)
    assert ds.class_counts() == spec.expected["class_counts"]
