"""Faulty data files, one table row each: the download verifies (the registry pins the faulty
bytes, as a user registry would), so the fault reaches the reader; ``prepare`` must refuse it
with a FormatError naming dataset, file and line, and write nothing."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from rlsbench.benchmark.datasets import FormatError

from .conftest import GOOD, assert_nothing_partial


def _idx(array, code):
    array = np.asarray(array)
    header = struct.pack(">BBBB", 0, 0, code, array.ndim) + struct.pack(
        f">{array.ndim}I", *array.shape
    )
    return header + array.astype(array.dtype.newbyteorder(">")).tobytes()


IMAGES = np.arange(12, dtype=np.uint8).reshape(3, 2, 2)
LABELS = np.array([0, 1, 0], dtype=np.uint8)


def _arff(rows: bytes) -> bytes:
    return GOOD["arff"].split(b"@data\n")[0] + b"@data\n" + rows


# id, kind, file content, message (regex), line (None: not applicable)
CASES = [
    # ---- LIBSVM
    ("libsvm-truncated", "libsvm", GOOD["libsvm"][:-4], r"not index:value", 4),
    (
        "libsvm-index-beyond-width",
        "libsvm",
        GOOD["libsvm"].replace(b"3:-1", b"4:-1"),
        r"feature index 4 beyond the expected 3",
        4,
    ),
    (
        "libsvm-non-numeric",
        "libsvm",
        GOOD["libsvm"].replace(b"2:1.5", b"2:abc"),
        r"is not integer:number",
        2,
    ),
    (
        "libsvm-nan",
        "libsvm",
        GOOD["libsvm"].replace(b"2:1.5", b"2:nan"),
        r"value nan in feature 'f2' is not a finite number",
        2,
    ),
    (
        "libsvm-inf",
        "libsvm",
        GOOD["libsvm"].replace(b"3:3", b"3:inf"),
        r"value inf in feature 'f3' is not a finite number",
        3,
    ),
    (
        "libsvm-single-class",
        "libsvm",
        GOOD["libsvm"].replace(b"-1 ", b"+1 "),
        r"a binary task needs at least two classes, the data has 1",
        None,
    ),
    ("libsvm-blank", "libsvm", b"\n \n", r"empty file \(no data rows\)", None),
    # ---- CSV
    (
        "csv-truncated",
        "csv",
        GOOD["csv"][:-4],
        r"row has 2 fields, the first row \(line 1\) has 3",
        4,
    ),
    (
        "csv-row-too-wide",
        "csv",
        GOOD["csv"].replace(b"2.0,1.0,b", b"2.0,1.0,9,b"),
        r"row has 4 fields, the first row \(line 1\) has 3",
        2,
    ),
    (
        "csv-non-numeric",
        "csv",
        GOOD["csv"].replace(b"3.0,0.5", b"3.0,abc"),
        r"non-numeric value 'abc' in feature column 'col2': is not a number",
        3,
    ),
    (
        "csv-nan",
        "csv",
        GOOD["csv"].replace(b"3.0,0.5", b"3.0,nan"),
        r"'nan' in feature column 'col2': is not a finite number",
        3,
    ),
    (
        "csv-inf",
        "csv",
        GOOD["csv"].replace(b"0.5,3.0", b"-inf,3.0"),
        r"value -inf in feature 'col1' is not a finite number",
        4,
    ),
    (
        "csv-label-outside",
        "csv",
        GOOD["csv"].replace(b"3.0,0.5,g", b"3.0,0.5,x"),
        r"label 'x' outside the expected set",
        3,
    ),
    (
        "csv-single-class",
        "csv",
        GOOD["csv"].replace(b",b\n", b",g\n"),
        r"needs at least two classes, the data has 1 \(\{'\+1': 4\}\)",
        None,
    ),
    (
        "multiclass-single-class",
        "multiclass-csv",
        b"1,2,1\n2,1,1\n3,4,1\n5,6,1\n",
        r"a multiclass task needs at least two classes",
        None,
    ),
    ("csv-empty", "csv", b"", r"empty file", None),
    # ---- whitespace-separated dense text
    (
        "dense-short-row",
        "dense",
        GOOD["dense"].replace(b"0.5 3.0 0.5", b"0.5 3.0"),
        r"row has 2 fields, the first row \(line 1\) has 3",
        3,
    ),
    (
        "dense-target-nan",
        "dense",
        GOOD["dense"].replace(b"2.5 2.0", b"nan 2.0"),
        r"regression target 'nan' is not a finite number",
        2,
    ),
    # ---- ARFF
    (
        "arff-row-one-field-too-many",
        "arff",
        _arff(b"1,2,x,0.5\n3,99,4,y,1.5\n5,6,x,2.5\n"),
        r"row has 5 fields, the header declares 4 attributes",
        9,
    ),
    (
        "arff-short-row",
        "arff",
        _arff(b"1,2,x,0.5\n3,4,y\n5,6,x,2.5\n"),
        r"row has 3 fields, the header declares 4 attributes",
        9,
    ),
    (
        "arff-non-numeric",
        "arff",
        _arff(b"1,2,x,0.5\n3,abc,y,1.5\n"),
        r"non-numeric value 'abc' for numeric attribute 'b'",
        9,
    ),
    (
        "arff-undeclared-nominal",
        "arff",
        _arff(b"1,2,x,0.5\n3,4,z,1.5\n"),
        r"value 'z' of nominal attribute 'c' is not one of the declared \['x', 'y'\]",
        9,
    ),
    (
        "arff-inf",
        "arff",
        _arff(b"1,2,x,0.5\n3,inf,y,1.5\n"),
        r"value inf in feature 'b' is not a finite number",
        9,
    ),
    (
        "arff-no-data-line",
        "arff",
        GOOD["arff"].replace(b"@data", b"@dota"),
        r"malformed ARFF: no @data line",
        None,
    ),
    ("arff-no-rows", "arff", _arff(b"% nothing\n"), r"no data rows", None),
    ("arff-sparse", "arff", _arff(b"{0 1, 3 2}\n"), r"sparse ARFF rows are not supported", 8),
]


@pytest.mark.parametrize(
    ("kind", "data", "message", "line"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_bad_file_is_refused_naming_dataset_file_line(tiny, kind, data, message, line):
    t = tiny({"data": data}, kind=kind)
    if not data:  # an empty file never verifies: refused at download, named by URL
        from rlsbench.benchmark.datasets import DownloadError

        with pytest.raises(DownloadError, match="empty file") as err:
            t.download()
        assert err.value.dataset == "tiny" and err.value.file == "data"
        assert_nothing_partial(t, raw_complete=False)
        return
    t.download()
    with pytest.raises(FormatError, match=message) as err:
        t.prepare()
    assert err.value.dataset == "tiny"
    assert err.value.file.endswith("data") and err.value.line == line
    assert f"dataset 'tiny', file '{err.value.file}'" in str(err.value)
    assert_nothing_partial(t, raw_complete=True)


def test_good_files_of_every_format_prepare(tiny):
    """The table's faults are edits of these files, which prepare cleanly."""
    for kind in ("libsvm", "csv", "dense", "arff"):
        t = tiny({"data": GOOD[kind]}, kind=kind, name=f"good-{kind}")
        t.download()
        ds = t.prepare()
        assert ds.X.shape[0] == 4 and np.isfinite(ds.X).all()
    t = tiny({"img": _idx(IMAGES, 0x08), "lab": _idx(LABELS, 0x08)}, kind="idx", name="good-idx")
    t.download()
    assert t.prepare().X.shape == (3, 4)


@pytest.mark.parametrize(
    ("images", "labels", "message"),
    [
        pytest.param(
            _idx(IMAGES, 0x08)[:-1],
            _idx(LABELS, 0x08),
            "idx payload has 11 bytes",
            id="idx-truncated",
        ),
        pytest.param(
            b"\x08\x08" + _idx(IMAGES, 0x08)[2:],
            _idx(LABELS, 0x08),
            "not an idx file",
            id="idx-bad-magic",
        ),
        pytest.param(
            _idx(np.where(IMAGES > 5, np.nan, 1.0), 0x0E),
            _idx(LABELS, 0x08),
            "is not a finite number",
            id="idx-nan-pixels",
        ),
        pytest.param(
            _idx(IMAGES, 0x08),
            _idx(np.zeros(3, np.uint8), 0x08),
            "needs at least two classes",
            id="idx-single-class",
        ),
    ],
)
def test_bad_idx_pair_is_refused(tiny, images, labels, message):
    t = tiny({"img": images, "lab": labels}, kind="idx")
    t.download()
    with pytest.raises(FormatError, match=message) as err:
        t.prepare()
    assert err.value.dataset == "tiny"
    assert_nothing_partial(t, raw_complete=True)


def test_arff_trailing_separator_is_not_an_extra_field(tiny):
    """Torgo's bank files end every row with a comma: accepted, and read as without it."""
    t = tiny(
        {"data": GOOD["arff"].replace(b"0.5\n", b"0.5,\n").replace(b"3.5\n", b"3.5,\n")},
        kind="arff",
    )
    t.download()
    ds = t.prepare()
    np.testing.assert_array_equal(ds.y, [0.5, 1.5, 2.5, 3.5])
    np.testing.assert_array_equal(ds.X[:, :2], [[1, 2], [3, 4], [5, 6], [7, 8]])
