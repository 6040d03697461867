"""Readers and prepare: canonical output, and every bad-input case named by dataset, file, line."""

import bz2
import gzip
import hashlib
import json
import struct

import numpy as np
import pytest
import yaml

from rlsbench.benchmark.datasets import (
    FormatError,
    IntegrityError,
    RegistryError,
    download,
    load_prepared,
    load_registry,
    prepare,
)
from rlsbench.benchmark.datasets.registry import _spec


def make_dataset(tmp_path, name, files, **entry):
    """A one-dataset registry entry pinned on ``files`` (name -> bytes), downloaded from a
    ``file://`` mirror in tmp_path; returns (spec, raw_dir, output path)."""
    mirror = tmp_path / "mirror"
    specs = []
    for fname, data in files.items():
        (mirror / name).mkdir(parents=True, exist_ok=True)
        (mirror / name / fname).write_bytes(data)
        content = data
        if data[:2] == b"\x1f\x8b":
            content = gzip.decompress(data)
        elif data[:3] == b"BZh":
            content = bz2.decompress(data)
        specs.append(
            {
                "name": fname,
                "mirror": f"{name}/{fname}",
                "upstream": [],
                "sha256": hashlib.sha256(data).hexdigest(),
                "content_sha256": hashlib.sha256(content).hexdigest(),
            }
        )
    entry = {"description": "test", "preprocessing": "test", "files": specs, **entry}
    spec = _spec(name, entry)
    raw_dir = tmp_path / "raw" / name
    download(spec, raw_dir, mirrors=[mirror.as_uri()], retries=1)
    return spec, raw_dir, tmp_path / "prepared" / f"{name}.npz"


LIBSVM = b"+1 1:0.5 3:2\n-1 2:1.5\n+1 1:1 2:2 3:3\n-1 3:-1\n"
BINARY = {
    "task": "binary",
    "format": "libsvm",
    "read": {"n_features": 3},
    "labels": {"positive": [1], "negative": [-1]},
    "expected": {"n_samples": 4, "n_features": 3, "class_counts": {"+1": 2, "-1": 2}},
}


def assert_no_output(out):
    assert not out.exists()
    if out.parent.exists():
        assert list(out.parent.iterdir()) == []  # no temporary file either


def test_libsvm_roundtrip_dense_float64(tmp_path):
    spec, raw, out = make_dataset(tmp_path, "tiny", {"tiny.bz2": bz2.compress(LIBSVM)}, **BINARY)
    prepare(spec, raw, out)
    ds = load_prepared(out)
    assert ds.name == "tiny" and ds.task == "binary"
    assert ds.X.dtype == np.float64 and ds.X.flags.c_contiguous
    np.testing.assert_array_equal(ds.X, [[0.5, 0, 2], [0, 1.5, 0], [1, 2, 3], [0, 0, -1]])
    np.testing.assert_array_equal(ds.y, [1, -1, 1, -1])
    assert ds.feature_names == ["f1", "f2", "f3"]
    assert ds.provenance["files"][0]["url"].startswith("file://")
    assert ds.provenance["files"][0]["content_sha256"] == hashlib.sha256(LIBSVM).hexdigest()
    assert ds.provenance["class_counts"] == {"+1": 2, "-1": 2}


def test_malformed_libsvm_line_is_named(tmp_path):
    bad = LIBSVM.replace(b"-1 2:1.5", b"-1 2=1.5")
    spec, raw, out = make_dataset(tmp_path, "tiny", {"tiny": bad}, **BINARY)
    with pytest.raises(FormatError, match="malformed LIBSVM line") as err:
        prepare(spec, raw, out)
    assert (err.value.dataset, err.value.line) == ("tiny", 2)
    assert err.value.file.endswith("tiny") and "line 2" in str(err.value)
    assert_no_output(out)


def test_feature_index_beyond_expected_count_is_named(tmp_path):
    bad = LIBSVM.replace(b"-1 3:-1", b"-1 4:-1")
    spec, raw, out = make_dataset(tmp_path, "tiny", {"tiny.gz": gzip.compress(bad)}, **BINARY)
    with pytest.raises(FormatError, match=r"feature index 4 beyond the expected 3") as err:
        prepare(spec, raw, out)
    assert err.value.line == 4 and err.value.file.endswith("tiny.gz")
    assert_no_output(out)


def test_empty_file_is_named(tmp_path):
    spec, raw, out = make_dataset(tmp_path, "tiny", {"tiny": b"\n\n"}, **BINARY)
    with pytest.raises(FormatError, match="empty file"):
        prepare(spec, raw, out)
    assert_no_output(out)


def test_label_outside_expected_set_is_named(tmp_path):
    bad = LIBSVM.replace(b"+1 1:1 2:2", b"2 1:1 2:2")
    spec, raw, out = make_dataset(tmp_path, "tiny", {"tiny": bad}, **BINARY)
    with pytest.raises(FormatError, match=r"label 2\.0 outside the expected set \[1, -1\]") as err:
        prepare(spec, raw, out)
    assert err.value.line == 3
    assert_no_output(out)


def test_shape_and_class_counts_are_checked_against_registry(tmp_path):
    wrong_shape = {**BINARY, "expected": {**BINARY["expected"], "n_samples": 5}}
    spec, raw, out = make_dataset(tmp_path, "a", {"a": LIBSVM}, **wrong_shape)
    with pytest.raises(FormatError, match=r"shape \(4, 3\) differs .* \(5, 3\)"):
        prepare(spec, raw, out)
    wrong_counts = {
        **BINARY,
        "expected": {**BINARY["expected"], "class_counts": {"+1": 3, "-1": 1}},
    }
    spec, raw, out = make_dataset(tmp_path, "b", {"b": LIBSVM}, **wrong_counts)
    with pytest.raises(FormatError, match="class counts .* differ"):
        prepare(spec, raw, out)
    assert not (tmp_path / "prepared").exists()


def test_raw_file_changed_after_download_is_caught(tmp_path):
    spec, raw, out = make_dataset(tmp_path, "tiny", {"tiny": LIBSVM}, **BINARY)
    (raw / "tiny").write_bytes(LIBSVM.replace(b"0.5", b"0.6"))
    with pytest.raises(IntegrityError, match="checksum mismatch"):
        prepare(spec, raw, out)
    (raw / "verified.json").unlink()
    with pytest.raises(IntegrityError, match="verified.json missing"):
        prepare(spec, raw, out)


CSV = b"id,a,b,cls\n1,0.5,x,g\n2,?,y,b\n3,1.5,x,g\n4,2.5,z,b\n"
CSV_ENTRY = {
    "task": "binary",
    "format": "uci-csv",
    "read": {
        "sep": ",",
        "header": True,
        "target": "cls",
        "drop": ["id"],
        "categorical": ["b"],
        "na_values": ["?"],
        "missing": "drop-rows",
    },
    "labels": {"positive": ["g"], "negative": ["b"]},
    "expected": {"n_samples": 3, "n_features": 4, "class_counts": {"+1": 2, "-1": 1}},
}


def test_csv_drops_missing_rows_and_one_hot_encodes(tmp_path):
    spec, raw, out = make_dataset(tmp_path, "csv", {"d.csv": CSV}, **CSV_ENTRY)
    ds = prepare(spec, raw, out)
    assert ds.feature_names == ["a", "b=x", "b=y", "b=z"]
    np.testing.assert_array_equal(ds.X, [[0.5, 1, 0, 0], [1.5, 1, 0, 0], [2.5, 0, 0, 1]])
    np.testing.assert_array_equal(ds.y, [1, 1, -1])
    assert ds.provenance["reader_notes"]["rows_dropped_at"] == ["d.csv:3"]


def test_csv_missing_value_error_names_line(tmp_path):
    entry = {**CSV_ENTRY, "read": {**CSV_ENTRY["read"], "missing": "error"}}
    spec, raw, out = make_dataset(tmp_path, "csv", {"d.csv": CSV}, **entry)
    with pytest.raises(FormatError, match="missing value in column 'a'") as err:
        prepare(spec, raw, out)
    assert err.value.line == 3


def test_csv_non_numeric_and_bad_label_name_line(tmp_path):
    spec, raw, out = make_dataset(
        tmp_path, "c1", {"d.csv": CSV.replace(b"2.5", b"2.5e")}, **CSV_ENTRY
    )
    with pytest.raises(FormatError, match=r"non-numeric value '2.5e'") as err:
        prepare(spec, raw, out)
    assert err.value.line == 5
    spec, raw, out = make_dataset(
        tmp_path, "c2", {"d.csv": CSV.replace(b"x,g\n", b"x,G\n", 1)}, **CSV_ENTRY
    )
    with pytest.raises(FormatError, match=r"label 'G' outside the expected set") as err:
        prepare(spec, raw, out)
    assert err.value.line == 2


def test_multiclass_and_regression_targets(tmp_path):
    text = b"3 0.1 0.2\n1 0.3 0.4\n3 0.5 0.6\n"
    spec, raw, out = make_dataset(
        tmp_path,
        "mc",
        {"d.txt": text},
        task="multiclass",
        format="dense-text",
        read={"target": 0},
        labels={"classes": [1, 3]},
        expected={"n_samples": 3, "n_features": 2, "class_counts": {"0": 1, "1": 2}},
    )
    ds = prepare(spec, raw, out)
    assert ds.y.dtype == np.int64 and ds.y.tolist() == [1, 0, 1]
    np.testing.assert_array_equal(ds.targets(), [[-1, 1], [1, -1], [-1, 1]])
    spec, raw, out = make_dataset(
        tmp_path,
        "reg",
        {"d.txt": text},
        task="regression",
        format="dense-text",
        read={"target": -1},
        expected={"n_samples": 3, "n_features": 2},
    )
    ds = load_prepared(prepare(spec, raw, out) and out)
    assert ds.y.dtype == np.float64 and ds.y.tolist() == [0.2, 0.4, 0.6]


def test_arff_nominal_one_hot_in_declared_order(tmp_path):
    arff = (
        b"@relation t\n@attribute m {E, B}\n@attribute v real\n@attribute class real\n"
        b"@data\nB,1,0.5\n% comment\nE,2,1.5\n"
    )
    spec, raw, out = make_dataset(
        tmp_path,
        "arff",
        {"t.arff": arff},
        task="regression",
        format="arff",
        read={"target": "class"},
        expected={"n_samples": 2, "n_features": 3},
    )
    ds = prepare(spec, raw, out)
    assert ds.feature_names == ["m=E", "m=B", "v"]
    np.testing.assert_array_equal(ds.X, [[0, 1, 1], [1, 0, 2]])
    bad = arff.replace(b"E,2,1.5", b"E,2,?")
    spec, raw, out = make_dataset(
        tmp_path,
        "arff2",
        {"t.arff": bad},
        task="regression",
        format="arff",
        read={"target": "class"},
        expected={"n_samples": 2, "n_features": 3},
    )
    with pytest.raises(FormatError, match="missing value") as err:
        prepare(spec, raw, out)
    assert err.value.line == 8


def _idx(array, code):
    header = struct.pack(">BBBB", 0, 0, code, array.ndim) + struct.pack(
        f">{array.ndim}I", *array.shape
    )
    return header + array.tobytes()


def test_idx_pairs_keep_pixels_and_truncation(tmp_path):
    images = np.zeros((3, 2, 3), dtype=np.uint8)
    images[:, 0, 0] = [1, 2, 3]
    labels = np.array([5, 1, 5], dtype=np.uint8)
    files = {"img": gzip.compress(_idx(images, 8)), "lab": _idx(labels, 8)}
    entry = dict(
        task="binary",
        format="idx",
        read={"pairs": [{"images": "img", "labels": "lab"}], "keep_pixels": 4},
        labels={"positive": [5], "negative": [1]},
        expected={"n_samples": 3, "n_features": 4, "class_counts": {"+1": 2, "-1": 1}},
    )
    spec, raw, out = make_dataset(tmp_path, "idx", files, **entry)
    ds = prepare(spec, raw, out)
    assert ds.feature_names == ["pixel1", "pixel2", "pixel3", "pixel4"]
    np.testing.assert_array_equal(ds.X[:, 0], [1, 2, 3])
    files["img"] = _idx(images, 8)[:-1]
    spec, raw, out = make_dataset(tmp_path, "idx2", files, **entry)
    with pytest.raises(FormatError, match="idx payload has 17 bytes"):
        prepare(spec, raw, out)


def test_registry_schema_errors_name_file_line_and_field(tmp_path):
    registry = yaml.safe_load(open(load_registry().path))
    registry["datasets"]["australian"]["task"] = "clustering"
    del registry["datasets"]["heart"]["files"][0]["sha256"]
    path = tmp_path / "r.yaml"
    text = yaml.safe_dump(registry, sort_keys=False)
    path.write_text(text)
    with pytest.raises(RegistryError) as err:
        load_registry(path)
    line = text.splitlines().index("    task: clustering") + 1
    assert (err.value.file, err.value.line) == (str(path), line)
    assert "datasets/australian/task" in str(err.value) and "clustering" in str(err.value)
    assert "(and 1 more problem(s) in this file)" in str(err.value)
    with pytest.raises(RegistryError, match="unknown dataset 'nope'"):
        load_registry().get_spec("nope")


def test_prepared_file_is_json_provenance_without_pickle(tmp_path):
    spec, raw, out = make_dataset(tmp_path, "tiny", {"tiny": LIBSVM}, **BINARY)
    prepare(spec, raw, out)
    with np.load(out, allow_pickle=False) as data:
        assert set(data.files) == {"X", "y", "feature_names", "name", "task", "provenance"}
        assert json.loads(str(data["provenance"]))["dataset"] == "tiny"


def test_wdbc_from_uci_file_equals_sklearn_breast_cancer(tmp_path):
    """Two independent routes (UCI CSV through pandas; sklearn's bundled copy) agree exactly."""
    from pathlib import Path

    from rlsbench.benchmark.datasets import load

    shared = Path(__file__).resolve().parents[4] / "shared" / "datasets"
    if not shared.is_dir():
        pytest.skip(f"no dataset mirror at {shared}")
    wdbc = load("wdbc", cache_dir=tmp_path, mirrors=[str(shared)])
    sk = load("breast_cancer", cache_dir=tmp_path)
    np.testing.assert_array_equal(wdbc.X, sk.X)
    np.testing.assert_array_equal(wdbc.y, sk.y)
