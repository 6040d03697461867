"""ARFF files: a ``string`` attribute is refused in one line naming file, line and attribute
(issue 45 item 5); a target declared numeric is a regression target whatever its values (item
8); a quoted nominal value reads as the value it quotes (item 13)."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

from rlsbench.benchmark import cli
from rlsbench.benchmark.datasets import FormatError

from .conftest import assert_nothing_partial

STRING_ATTRIBUTE = (
    b"@relation r\n@attribute a numeric\n@attribute 'first name' string\n"
    b"@attribute y numeric\n@data\n"
    b"1,'ann',0.5\n2,'bob',1.5\n3,'cy',2.5\n4,'dee',3.5\n"
)

QUOTED_NOMINAL = (
    b"@relation r\n@attribute a numeric\n@attribute b numeric\n@attribute c {x,'b c'}\n"
    b"@attribute y numeric\n@data\n"
    b"1,2,x,0.5\n3,4,'b c',1.5\n5,6,x,2.5\n7,8,'b c',3.5\n"
)


def _hash(capsys, path, *args):
    status = cli.main(["datasets", "hash", str(path), *args])
    return status, capsys.readouterr()


def test_hash_refuses_a_string_attribute_naming_file_line_and_attribute(tmp_path, capsys):
    path = tmp_path / "people.arff"
    path.write_bytes(STRING_ATTRIBUTE)
    status, captured = _hash(capsys, path)
    assert status == 1 and captured.out == ""
    (line,) = captured.err.strip().splitlines()
    assert line.startswith(f"rlsbench: error: file '{path}', line 3: ")
    assert "attribute 'first name' has type string" in line
    assert "internal error" not in line and "NotImplementedError" not in line


def test_prepare_refuses_a_string_attribute_naming_its_line(tiny):
    t = tiny({"data": STRING_ATTRIBUTE}, kind="arff", expected={"n_samples": 4, "n_features": 1})
    t.download()
    with pytest.raises(FormatError, match="attribute 'first name' has type string") as err:
        t.prepare()
    assert (err.value.dataset, err.value.line) == ("tiny", 3)
    assert err.value.file.endswith("data")
    assert_nothing_partial(t, raw_complete=True)


@pytest.mark.parametrize("declared", ["NUMERIC", "real", "Integer"])
def test_a_target_declared_numeric_is_guessed_regression(tmp_path, capsys, declared):
    path = tmp_path / "even.arff"
    rows = "".join(f"{i},{i % 3},{2 * (1 + i % 4)}\n" for i in range(12))
    path.write_text(
        "@relation r\n@attribute a numeric\n@attribute b numeric\n"
        f"@attribute t {declared}\n@data\n{rows}"
    )
    status, captured = _hash(capsys, path)
    assert status == 0, captured.err
    entry = yaml.safe_load(captured.out)["datasets"]["even"]
    assert entry["task"] == "regression" and "labels" not in entry
    assert entry["expected"] == {"n_samples": 12, "n_features": 2}


def test_a_nominal_target_of_numbers_stays_multiclass(tmp_path, capsys):
    path = tmp_path / "even.arff"
    rows = "".join(f"{i},{2 * (1 + i % 4)}\n" for i in range(12))
    path.write_text(f"@relation r\n@attribute a numeric\n@attribute t {{2,4,6,8}}\n@data\n{rows}")
    status, captured = _hash(capsys, path)
    assert status == 0, captured.err
    entry = yaml.safe_load(captured.out)["datasets"]["even"]
    assert entry["task"] == "multiclass" and entry["labels"] == {"classes": [2, 4, 6, 8]}


def test_a_quoted_nominal_value_is_read(tiny):
    t = tiny({"data": QUOTED_NOMINAL}, kind="arff", expected={"n_samples": 4, "n_features": 4})
    t.download()
    ds = t.prepare()
    assert ds.feature_names == ["a", "b", "c=x", "c=b c"]
    np.testing.assert_array_equal(ds.X[:, 2:], [[1, 0], [0, 1], [1, 0], [0, 1]])
    np.testing.assert_array_equal(ds.y, [0.5, 1.5, 2.5, 3.5])


def test_a_quoted_nominal_target_hashes_and_reads(tmp_path, capsys):
    path = tmp_path / "quoted.arff"
    path.write_bytes(
        b"@relation r\n@attribute a numeric\n@attribute cls {a,'b c'}\n@data\n"
        b"1,a\n2,'b c'\n3,a\n4,'b c'\n5,\"b c\"\n"
    )
    status, captured = _hash(capsys, path)
    assert status == 0, captured.err
    entry = yaml.safe_load(captured.out)["datasets"]["quoted"]
    assert entry["task"] == "binary"
    assert entry["labels"] == {"positive": ["b c"], "negative": ["a"]}
    assert entry["expected"]["class_counts"] == {"+1": 3, "-1": 2}


def test_an_undeclared_value_is_still_refused_naming_its_line(tiny):
    data = QUOTED_NOMINAL.replace(b"5,6,x", b"5,6,'b  c'")
    t = tiny({"data": data}, kind="arff")
    t.download()
    with pytest.raises(FormatError, match="value 'b  c' of nominal attribute 'c'") as err:
        t.prepare()
    assert err.value.line == 9
    assert_nothing_partial(t, raw_complete=True)
