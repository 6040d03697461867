"""LIBSVM files with a bad index: index 0, decreasing or repeated indices, a negative index and
SVMlight's ``qid:`` tokens. ``rlsbench datasets hash`` and ``prepare`` refuse each with one line
naming the file and the line (issue 45, items 4 and 6); a file of ``index:value`` tokens is never
guessed to be whitespace-separated text."""

from __future__ import annotations

import pytest

from rlsbench.benchmark import cli
from rlsbench.benchmark.datasets import FormatError

from .conftest import GOOD, assert_nothing_partial

#: Three good rows, then the bad one on line 4.
GOOD_ROWS = b"+1 1:0.5 3:2\n-1 2:1.5\n+1 1:1 2:2 3:3\n"

BAD_LINES = [
    pytest.param(b"-1 0:1 2:3\n", r"feature index 0 < 1 \(indices are 1-based\)", id="index-0"),
    pytest.param(b"-1 2:1 1:3\n", r"feature indices are not strictly increasing", id="decreasing"),
    pytest.param(b"-1 1:1 1:3\n", r"feature indices are not strictly increasing", id="repeated"),
    pytest.param(b"-1 -1:1 2:3\n", r"feature index -1 < 1 \(indices are 1-based\)", id="negative"),
    pytest.param(b"-1 qid:3 1:1 2:3\n", r"SVMlight query id 'qid:3'", id="qid"),
]


def _hash(capsys, path):
    status = cli.main(["datasets", "hash", str(path)])
    return status, capsys.readouterr()


@pytest.mark.parametrize(("bad", "message"), BAD_LINES)
def test_hash_names_file_and_line_of_a_bad_index(tmp_path, capsys, bad, message):
    import re

    path = tmp_path / "user.svm"
    path.write_bytes(GOOD_ROWS + bad + b"+1 1:2\n")
    status, captured = _hash(capsys, path)
    assert status == 1 and captured.out == ""
    (line,) = captured.err.strip().splitlines()
    assert line.startswith(f"rlsbench: error: file '{path}', line 4: ")
    assert re.search(message, line), line
    assert "internal error" not in line


@pytest.mark.parametrize(("bad", "message"), BAD_LINES)
def test_prepare_names_file_and_line_of_a_bad_index(tiny, bad, message):
    t = tiny({"data": GOOD_ROWS + bad}, kind="libsvm")
    t.download()
    with pytest.raises(FormatError, match=message) as err:
        t.prepare()
    assert (err.value.dataset, err.value.line) == ("tiny", 4)
    assert err.value.file.endswith("data")
    assert_nothing_partial(t, raw_complete=True)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"1 -1:1 2:3\n-1 1:2 2:1\n1 1:1 2:2\n-1 2:1\n", id="negative-first"),
        pytest.param(b"1 qid:1 1:1 2:3\n-1 qid:1 1:2\n1 qid:2 2:2\n-1 qid:2 2:1\n", id="qid"),
    ],
)
def test_index_value_tokens_are_never_guessed_as_whitespace_text(tmp_path, capsys, data):
    path = tmp_path / "user.svm"
    path.write_bytes(data)
    status, captured = _hash(capsys, path)
    assert status == 1
    assert "dense-text" not in captured.out and "'2:1'" not in captured.out
    assert f"file '{path}', line 1: " in captured.err


def test_a_good_libsvm_file_still_hashes(tmp_path, capsys):
    path = tmp_path / "good.svm"
    path.write_bytes(GOOD["libsvm"])
    status, captured = _hash(capsys, path)
    assert status == 0, captured.err
    assert "format: libsvm" in captured.out and "n_features: 3" in captured.out
