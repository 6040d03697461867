"""Faulty MATLAB (.mat) and R data (.RData/.rda) files: the readers of
:mod:`rlsbench.benchmark.datasets.matrix_files` either read the numbers a user meant or refuse
with one FormatError naming the dataset and the file (and the row, variable, column or read
option at fault); ``prepare`` then writes nothing."""

from __future__ import annotations

import io

import numpy as np
import pytest
import scipy.io
import scipy.sparse

from rlsbench.benchmark.datasets import DatasetError, FormatError
from rlsbench.benchmark.datasets.matrix_files import read_mat, read_rdata

from .conftest import assert_nothing_partial

rdata = pytest.importorskip("rdata")

X = np.arange(12.0).reshape(4, 3)
Y = np.array([[1], [2], [1], [2]])


def _mat(tmp_path, variables, name="d.mat", **kwargs):
    path = tmp_path / name
    scipy.io.savemat(path, variables, **kwargs)
    return path


def _mat_bytes(variables, **kwargs) -> bytes:
    buffer = io.BytesIO()
    scipy.io.savemat(buffer, variables, **kwargs)
    return buffer.getvalue()


def _rda(tmp_path, objects, name="d.rda", **kwargs):
    path = tmp_path / name
    rdata.write_rda(path, objects, **kwargs)
    return path


def _refused(reader, path, pattern, **options):
    with pytest.raises(FormatError, match=pattern) as info:
        reader([path], dataset="tiny", **options)
    message = str(info.value)
    assert "tiny" in message and path.name in message
    assert "\n" not in message
    return message


# ---------------------------------------------------------------------------------------------
# .mat
# ---------------------------------------------------------------------------------------------
def test_a_sparse_feature_matrix_is_read_as_its_dense_numbers(tmp_path):
    path = _mat(tmp_path, {"X": scipy.sparse.csc_matrix(X), "Y": Y})
    table = read_mat([path], dataset="tiny")
    np.testing.assert_array_equal(table.X, X)
    assert table.X.dtype == np.float64


def test_integer_pixels_are_cast_before_arithmetic(tmp_path):
    pixels = np.array([[250, 5], [255, 0], [1, 2], [3, 4]], dtype=np.uint8)
    table = read_mat([_mat(tmp_path, {"X": pixels, "Y": Y})], dataset="tiny")
    assert table.X.dtype == np.float64
    assert table.X.max() == 255.0 and (table.X + 10).max() == 265.0  # no uint8 wrap-around


def test_a_three_dimensional_feature_array_is_refused(tmp_path):
    path = _mat(tmp_path, {"X": np.zeros((4, 3, 2)), "Y": Y})
    _refused(read_mat, path, r"shape \(4, 3, 2\), not 2-D")


def test_a_target_of_the_wrong_length_is_refused(tmp_path):
    path = _mat(tmp_path, {"X": X, "Y": Y[:3]})
    _refused(read_mat, path, r"target has shape \(3,\); expected \(4,\)")


def test_a_two_column_target_is_refused(tmp_path):
    path = _mat(tmp_path, {"X": X, "Y": np.ones((4, 2))})
    _refused(read_mat, path, r"target has shape \(4, 2\)")


@pytest.mark.parametrize(
    "features, dtype",
    [
        (X + 1j, "complex128"),
        (np.array([[1, 2], [3]], dtype=object), "object"),  # a cell array
        ({"a": X}, r"\[\('a', 'O'\)\]"),  # a struct
    ],
    ids=["complex", "cell-array", "struct"],
)
def test_a_non_real_feature_matrix_is_refused(tmp_path, features, dtype):
    path = _mat(tmp_path, {"X": features, "Y": Y})
    _refused(read_mat, path, rf"dtype {dtype}, not numeric")


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_a_non_finite_feature_value_is_refused_naming_its_row(tmp_path, bad):
    features = X.copy()
    features[2, 1] = bad
    _refused(read_mat, _mat(tmp_path, {"X": features, "Y": Y}), r"row 3 of the feature matrix")


def test_a_missing_target_value_is_refused_naming_its_row(tmp_path):
    path = _mat(tmp_path, {"X": X, "Y": np.array([[1.0], [np.nan], [1.0], [2.0]])})
    _refused(read_mat, path, r"row 2 of the target")


def test_a_cell_array_target_is_refused(tmp_path):
    labels = np.empty((4, 1), dtype=object)
    labels[:, 0] = [np.array(["a"]), np.array(["b"]), np.array(["a"]), np.array(["b"])]
    path = _mat(tmp_path, {"X": X, "Y": labels})
    _refused(read_mat, path, r"target holds .*not a number or a text")


def test_an_empty_feature_matrix_is_refused(tmp_path):
    path = _mat(tmp_path, {"X": np.zeros((0, 3)), "Y": np.zeros((0, 1))})
    _refused(read_mat, path, r"no rows or no columns")


def test_a_v73_hdf5_file_is_refused_saying_how_to_save_it(tmp_path):
    header = bytearray(b" " * 128)
    header[:19] = b"MATLAB 7.3 MAT-file"
    header[124:128] = b"\x00\x02IM"
    path = tmp_path / "d.mat"
    path.write_bytes(bytes(header) + b"\0" * 384 + b"\x89HDF\r\n\x1a\n" + b"\0" * 64)
    _refused(read_mat, path, r"v7\.3 \(HDF5\).*-v7")


@pytest.mark.parametrize("cut", ["empty", "header-only", "half"])
def test_a_truncated_mat_file_is_refused(tmp_path, cut):
    data = _mat_bytes({"X": X, "Y": Y})
    data = {"empty": b"", "header-only": data[:100], "half": data[: len(data) // 2]}[cut]
    path = tmp_path / "d.mat"
    path.write_bytes(data)
    _refused(read_mat, path, r"not a readable MATLAB")


def test_a_missing_variable_is_named_with_the_ones_the_file_holds(tmp_path):
    path = _mat(tmp_path, {"fea": X, "gnd": Y})
    _refused(read_mat, path, r"no variable 'X' \(read option x\); it holds \['fea', 'gnd'\]")


def test_a_read_option_of_another_format_is_refused_by_name(tmp_path):
    path = _mat(tmp_path, {"X": X, "Y": Y})
    _refused(read_mat, path, r"read option 'sep' .*mat.* x, y", sep=",")


def test_prepare_of_a_faulty_mat_file_writes_nothing(tiny):
    features = X.copy()
    features[0, 0] = np.nan
    data = _mat_bytes({"X": features, "Y": Y.astype(float)})
    t = tiny(
        {"d.mat": data},
        kind="dense",
        format="mat",
        read={"x": "X", "y": "Y"},
        expected={"n_samples": 4, "n_features": 3},
    )
    t.download()
    with pytest.raises(FormatError, match=r"row 1 of the feature matrix"):
        t.prepare()
    assert_nothing_partial(t, raw_complete=True)


# ---------------------------------------------------------------------------------------------
# R data files
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("compression", ["gzip", "bzip2", "xz", None])
def test_r_files_are_read_whatever_their_compression(tmp_path, compression):
    path = _rda(tmp_path, {"x": X, "y": np.arange(4.0)}, compression=compression)
    table = read_rdata([path], x="x", y="y", dataset="tiny")
    np.testing.assert_array_equal(table.X, X)
    np.testing.assert_array_equal(table.target, np.arange(4.0))


def test_a_data_frame_of_numbers_is_read_as_its_columns(tmp_path):
    import pandas as pd

    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [5, 6, 7, 8]})
    path = _rda(tmp_path, {"x": frame, "y": np.arange(4.0)})
    table = read_rdata([path], x="x", y="y", dataset="tiny")
    np.testing.assert_array_equal(table.X, frame.to_numpy(np.float64))
    assert table.feature_names == ["a", "b"]


def test_a_data_frame_of_factors_is_refused_naming_the_column(tmp_path):
    import pandas as pd

    frame = pd.DataFrame(
        {"a": [1.0, 2.0, 3.0, 4.0], "colour": pd.Categorical(["u", "v", "u", "v"])}
    )
    path = _rda(tmp_path, {"x": frame, "y": np.arange(4.0)})
    _refused(read_rdata, path, r"column 'colour' of x is a factor", x="x", y="y")


def test_a_character_vector_as_features_is_refused(tmp_path):
    path = _rda(tmp_path, {"x": np.array(["a", "b"]), "y": np.arange(2.0)})
    _refused(read_rdata, path, r"not 2-D|not numeric", x="x", y="y")


def test_a_list_as_features_is_refused(tmp_path):
    path = _rda(tmp_path, {"x": [1, "a"], "y": np.arange(2.0)})
    _refused(read_rdata, path, r"not numeric|not 2-D", x="x", y="y")


def test_an_r_na_in_the_features_is_refused_naming_its_row(tmp_path):
    path = _rda(tmp_path, {"x": np.array([[1.0, 2.0], [np.nan, 3.0]]), "y": np.arange(2.0)})
    _refused(read_rdata, path, r"row 2 of the feature matrix", x="x", y="y")


def test_a_factor_target_is_read_as_its_labels(tmp_path):
    import pandas as pd

    path = _rda(tmp_path, {"x": X, "y": pd.Categorical(["a", "b", "a", "b"])})
    table = read_rdata([path], x="x", y="y", dataset="tiny")
    assert list(table.target) == ["a", "b", "a", "b"]


def test_a_data_frame_as_target_is_refused_saying_which_column(tmp_path):
    import pandas as pd

    frame = pd.DataFrame({"y": [1.0, 2.0, 3.0, 4.0]})
    path = _rda(tmp_path, {"x": X, "d": frame})
    _refused(read_rdata, path, r"y \('d'\) is a data frame.*'d\$y'", x="x", y="d")


@pytest.mark.parametrize("compression", ["gzip", None])
def test_a_truncated_r_file_is_refused(tmp_path, compression):
    path = _rda(tmp_path, {"x": X, "y": np.arange(4.0)}, compression=compression)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 20])
    with pytest.raises(DatasetError) as info:  # IntegrityError for a cut compressed stream
        read_rdata([path], x="x", y="y", dataset="tiny")
    assert "tiny" in str(info.value) and "d.rda" in str(info.value)


def test_an_r_read_option_of_another_format_is_refused_by_name(tmp_path):
    path = _rda(tmp_path, {"x": X, "y": np.arange(4.0)})
    _refused(read_rdata, path, r"read option 'target' .*rdata", x="x", y="y", target="y")
