"""The registry fields of the reference collections (``family``, ``duplicate_of``) in user
registries, PMLB-like tab-separated files with a faulty ``target`` column, and ``rlsbench
datasets hash`` on binary data files (.mat, .rda): each is refused with one line naming the
file, the dataset and the key, or read as meant."""

from __future__ import annotations

import gzip
import io

import numpy as np
import pytest
import yaml

from rlsbench.benchmark import cli
from rlsbench.benchmark.datasets import FormatError, RegistryError, load_registry


def _entry(task="regression", **fields):
    entry = {
        "description": "fault case",
        "task": task,
        "format": "uci-csv",
        "files": [{"name": "a.csv", "path": "a.csv", "sha256": "0" * 64}],
        "read": {"sep": ",", "header": False, "target": -1},
        "expected": {"n_samples": 4, "n_features": 2},
        "preprocessing": "none",
    }
    if task == "binary":
        entry["labels"] = {"positive": [1], "negative": [0]}
    entry.update(fields)
    return entry


def _load(tmp_path, datasets):
    path = tmp_path / "user-registry.yaml"
    path.write_text(yaml.safe_dump({"version": 1, "datasets": datasets}, sort_keys=False))
    return path, (lambda: load_registry(extra=[path]))


def _refused(tmp_path, datasets, pattern):
    path, load = _load(tmp_path, datasets)
    with pytest.raises(RegistryError, match=pattern) as info:
        load()
    message = str(info.value)
    assert path.name in message and "\n" not in message
    return message


# ---------------------------------------------------------------------------------------------
# duplicate_of and family
# ---------------------------------------------------------------------------------------------
def test_a_duplicate_of_cycle_is_refused(tmp_path):
    message = _refused(
        tmp_path,
        {"u-a": _entry(duplicate_of="u-b"), "u-b": _entry(duplicate_of="u-a")},
        r"not a registered dataset of its own",
    )
    assert "u-a" in message and "u-b" in message


def test_a_dataset_that_is_its_own_duplicate_is_refused(tmp_path):
    _refused(tmp_path, {"u-a": _entry(duplicate_of="u-a")}, r"dataset 'u-a'.*names itself")


def test_a_duplicate_of_chain_is_refused_naming_the_original(tmp_path):
    _refused(
        tmp_path,
        {"u-a": _entry(duplicate_of="u-b"), "u-b": _entry(duplicate_of="u-c"), "u-c": _entry()},
        r"dataset 'u-a'.*'u-b' is not a registered dataset of its own.*duplicate of 'u-c'",
    )


def test_a_duplicate_of_an_unknown_dataset_is_refused(tmp_path):
    _refused(tmp_path, {"u-a": _entry(duplicate_of="nope")}, r"dataset 'u-a'.*'nope'")


def test_a_duplicate_of_a_dataset_of_another_task_is_refused(tmp_path):
    _refused(
        tmp_path,
        {"u-a": _entry(task="binary", duplicate_of="u-c"), "u-c": _entry()},
        r"dataset 'u-a'.*duplicate_of 'u-c'.*task regression.*this entry's is binary",
    )


def test_a_duplicate_of_a_builtin_dataset_of_another_task_is_refused(tmp_path):
    builtin = load_registry()
    name = next(n for n, s in builtin.items() if s.task == "binary" and s.duplicate_of is None)
    _refused(tmp_path, {"u-a": _entry(duplicate_of=name)}, rf"duplicate_of '{name}'.*task")


def test_a_duplicate_of_a_builtin_dataset_of_the_same_task_is_accepted(tmp_path):
    builtin = load_registry()
    name = next(n for n, s in builtin.items() if s.task == "regression" and not s.duplicate_of)
    _, load = _load(tmp_path, {"u-a": _entry(duplicate_of=name)})
    assert load()["u-a"].duplicate_of == name


@pytest.mark.parametrize("family", ["a b", "../up", "-dash", "", "é"])
def test_a_family_name_with_bad_characters_is_refused_naming_the_key(tmp_path, family):
    _refused(tmp_path, {"u-a": _entry(family=family)}, r"line \d+: .*datasets/u-a/family")


def test_a_family_that_is_not_a_string_is_refused(tmp_path):
    _refused(tmp_path, {"u-a": _entry(family=3)}, r"datasets/u-a/family: 3 is not of type")


def test_a_mat_entry_without_read_options_is_refused_naming_the_key(tmp_path):
    entry = _entry(format="mat")
    del entry["read"]
    _refused(tmp_path, {"u-a": entry}, r"line \d+: .*datasets/u-a: 'read' is a required")


# ---------------------------------------------------------------------------------------------
# PMLB-like files: tab-separated, gzip, a header with the target column `target`
# ---------------------------------------------------------------------------------------------
PMLB_READ = {"sep": "\t", "header": True, "target": "target"}


def _pmlb(tiny, text, task="regression"):
    data = gzip.compress(text.encode())
    labels = {"labels": {"positive": [1], "negative": [0]}} if task == "binary" else {}
    t = tiny(
        {"p.tsv.gz": data},
        kind="dense",
        format="uci-csv",
        task=task,
        read=PMLB_READ,
        expected={"n_samples": 4, "n_features": 2},
        **labels,
    )
    t.download()
    return t


def test_a_pmlb_file_reads_its_target_column_wherever_it_stands(tiny):
    t = _pmlb(tiny, "target\ta\tb\n0.5\t1\t2\n1.5\t3\t4\n2.5\t5\t6\n3.5\t7\t8\n")
    t.prepare()
    data = np.load(t.output, allow_pickle=False)
    np.testing.assert_array_equal(data["y"], [0.5, 1.5, 2.5, 3.5])


def test_a_pmlb_file_without_a_target_column_is_refused_naming_the_columns(tiny):
    t = _pmlb(tiny, "a\tb\tclass\n1\t2\t0\n3\t4\t1\n5\t6\t0\n7\t8\t1\n")
    with pytest.raises(FormatError, match=r"target column 'target' not found; columns"):
        t.prepare()
    assert not t.output.exists()


def test_a_pmlb_file_with_the_target_column_twice_is_refused_naming_the_line(tiny):
    t = _pmlb(tiny, "a\ttarget\ttarget\n1\t2\t0\n3\t4\t1\n5\t6\t0\n7\t8\t1\n")
    with pytest.raises(FormatError, match=r"line 1: column name 'target' appears twice"):
        t.prepare()
    assert not t.output.exists()


@pytest.mark.parametrize("task", ["regression", "binary"])
def test_a_pmlb_row_with_an_empty_target_is_refused_naming_its_line(tiny, task):
    t = _pmlb(tiny, "a\tb\ttarget\n1\t2\t0\n3\t4\t\n5\t6\t0\n7\t8\t1\n", task=task)
    with pytest.raises(FormatError, match=r"line 3") as info:
        t.prepare()
    assert "p.tsv.gz" in str(info.value)
    assert not t.output.exists()


# ---------------------------------------------------------------------------------------------
# `rlsbench datasets hash` on binary data files
# ---------------------------------------------------------------------------------------------
def _mat_bytes():
    import scipy.io

    buffer = io.BytesIO()
    scipy.io.savemat(buffer, {"X": np.arange(12.0).reshape(4, 3), "Y": [[1], [2], [1], [2]]})
    return buffer.getvalue()


def _rda_bytes(tmp_path, compression):
    rdata = pytest.importorskip("rdata")
    path = tmp_path / "made.rda"
    rdata.write_rda(path, {"x": np.arange(12.0).reshape(4, 3), "y": np.arange(4.0)},
                    compression=compression)  # fmt: skip
    return path.read_bytes()


@pytest.mark.parametrize("kind", ["mat", "rda-gzip", "rda-xz", "rda-plain"])
def test_datasets_hash_on_a_binary_matrix_file_says_which_format_to_write(tmp_path, capsys, kind):
    if kind == "mat":
        path, data, fmt = tmp_path / "d.mat", _mat_bytes(), "mat"
    else:
        compression = {"rda-gzip": "gzip", "rda-xz": "xz", "rda-plain": None}[kind]
        path, data, fmt = tmp_path / "d.rda", _rda_bytes(tmp_path, compression), "rdata"
    path.write_bytes(data)
    status = cli.main(["datasets", "hash", str(path)])
    captured = capsys.readouterr()
    assert status != 0
    error = captured.err.strip().splitlines()
    assert len(error) == 1 and "d." in error[0] and f"format: {fmt}" in error[0], error
    assert "format: uci-csv" not in captured.out
