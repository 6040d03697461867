"""Delimited text with a quoted field that spans lines (issue 45 item 7): ``datasets hash``
guesses the columns with a CSV parser, so a quoted newline cannot shift values into the wrong
column, and the reader names the first physical line of each row in its errors."""

from __future__ import annotations

import pytest
import yaml

from rlsbench.benchmark import cli
from rlsbench.benchmark.datasets import FormatError

from .conftest import assert_nothing_partial

QUOTED_NEWLINE = b'a,b,label\n1,2,x\n2,3,x\n3,4,"y\nz"\n4,5,x\n5,6,"y\nz"\n'


def test_hash_reads_a_quoted_newline_as_part_of_its_field(tmp_path, capsys):
    path = tmp_path / "quoted.csv"
    path.write_bytes(QUOTED_NEWLINE)
    assert cli.main(["datasets", "hash", str(path)]) == 0
    captured = capsys.readouterr()
    assert "warning" not in captured.err
    entry = yaml.safe_load(captured.out)["datasets"]["quoted"]
    assert entry["read"] == {"sep": ",", "header": True, "target": -1}
    assert entry["task"] == "binary"
    assert entry["labels"] == {"positive": ["y\nz"], "negative": ["x"]}
    assert entry["expected"] == {
        "n_samples": 5,
        "n_features": 2,
        "class_counts": {"+1": 2, "-1": 3},
    }


def test_hash_guesses_a_text_column_with_quoted_newlines_and_commas(tmp_path, capsys):
    rows = "".join(f'{i},"note {i},\nsecond line",{i % 2}\n' for i in range(30))
    path = tmp_path / "notes.csv"
    path.write_text("x,note,y\n" + rows)
    assert cli.main(["datasets", "hash", str(path)]) == 0
    entry = yaml.safe_load(capsys.readouterr().out)["datasets"]["notes"]
    assert entry["read"]["drop"] == ["note"] and "categorical" not in entry["read"]
    assert entry["expected"]["n_samples"] == 30 and entry["expected"]["n_features"] == 1


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        pytest.param(
            b'1,"x\ny",g\noops,4,b\n5,6,g\n', "non-numeric value 'oops'", 3, id="non-numeric"
        ),
        pytest.param(b'1,"x\n\ny",g\n3,4\n5,6,g\n', "row has 2 fields", 4, id="short-row"),
        pytest.param(
            b'1,2,"g\nh"\n3,4,b\n5,6,q\n', "label 'q' outside the expected set", 4, id="label"
        ),
    ],
)
def test_errors_after_a_quoted_newline_name_the_physical_line(tiny, data, message, line):
    t = tiny(
        {"data": data},
        labels={"positive": ["g", "g\nh"], "negative": ["b"]},
        read={"sep": ",", "header": False, "target": -1, "drop": [1]},
        expected={"n_samples": 3, "n_features": 1},
    )
    t.download()
    with pytest.raises(FormatError, match=message) as err:
        t.prepare()
    assert (err.value.dataset, err.value.line) == ("tiny", line)
    assert_nothing_partial(t, raw_complete=True)


def test_a_quoted_newline_prepares_to_the_hashed_shape(tiny):
    t = tiny(
        {"data": QUOTED_NEWLINE},
        labels={"positive": ["y\nz"], "negative": ["x"]},
        read={"sep": ",", "header": True, "target": "label"},
        expected={"n_samples": 5, "n_features": 2},
    )
    t.download()
    ds = t.prepare()
    assert ds.feature_names == ["a", "b"]
    assert ds.X[:, 0].tolist() == [1, 2, 3, 4, 5] and ds.y.tolist() == [-1, -1, 1, -1, 1]


def test_a_quote_never_closed_is_named_by_its_line(tiny):
    t = tiny({"data": b'1,2,g\n2,"3,b\n3,4,g\n4,5,b\n'})
    t.download()
    with pytest.raises(FormatError, match="a closing quote missing") as err:
        t.prepare()
    assert err.value.line == 2
    assert_nothing_partial(t, raw_complete=True)
