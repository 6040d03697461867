"""Readers of files that store a feature matrix and a target vector as named variables.

Two formats, each read by a well-kept library:

``mat``
    MATLAB v5 files (scikit-feature's ``X``/``Y`` datasets) through :func:`scipy.io.loadmat`.
    Integer matrices (``uint8`` pixels, ``int16`` discretised expression) are cast to float64
    before any arithmetic, as the mirror's README asks.
``rdata``
    R's ``.RData``/``.rda`` files (CRAN packages' data sets) through the ``rdata`` package: the
    file is parsed into R objects, then converted with data frames kept as mappings of columns,
    so that a data frame holding a matrix column (``riboflavin$x``, an ``AsIs`` matrix) is read
    as the matrix it is.

Rows of either format have no line in a file; a row is named by its 1-based index instead.
"""

from __future__ import annotations

import io
import warnings

import numpy as np

from rlsbench.benchmark.datasets.errors import FormatError
from rlsbench.benchmark.datasets.integrity import read_content
from rlsbench.benchmark.datasets.readers import RawTable


def _table(X, target, path, *, dataset, names=None) -> RawTable:
    X = np.asarray(X)
    if X.ndim == 2 and 0 in X.shape:
        raise FormatError(
            f"the feature matrix has shape {X.shape}: no rows or no columns",
            dataset=dataset,
            file=path,
        )
    if X.ndim != 2:
        raise FormatError(
            f"the feature matrix has shape {X.shape}, not 2-D", dataset=dataset, file=path
        )
    if X.dtype.kind not in "biuf":
        raise FormatError(
            f"the feature matrix has dtype {X.dtype}, not numeric", dataset=dataset, file=path
        )
    X = X.astype(np.float64)  # a copy: uint8 pixel arithmetic would wrap around
    target = np.asarray(target)
    if target.ndim == 2 and 1 in target.shape:
        target = target.ravel()
    if target.ndim != 1 or target.shape[0] != X.shape[0]:
        raise FormatError(
            f"the target has shape {target.shape}; expected ({X.shape[0]},), one value per row "
            f"of the {X.shape[0]} x {X.shape[1]} feature matrix",
            dataset=dataset,
            file=path,
        )
    if not np.isfinite(X).all():
        row = int(np.argmax(~np.isfinite(X).all(axis=1)))
        raise FormatError(
            f"row {row + 1} of the feature matrix holds a missing or non-finite value",
            dataset=dataset,
            file=path,
        )
    _check_target_values(target, path, dataset)
    n, m = X.shape
    if names is None or len(names) != m:
        names = [f"x{j}" for j in range(1, m + 1)]
    return RawTable(
        X=X,
        target=target,
        feature_names=[str(name) for name in names],
        row_file=np.zeros(n, dtype=np.int64),
        row_line=np.zeros(n, dtype=np.int64),
        files=[str(path)],
        notes={"rows": "numbered by position (the format has no lines)"},
    )


def _check_target_values(target, path, dataset) -> None:
    # a label is a number or a text; a MATLAB cell or struct, or R's NA, is neither
    if target.dtype.kind == "O":
        for row, value in enumerate(target):
            if not isinstance(value, str | int | float | np.integer | np.floating):
                raise FormatError(
                    f"row {row + 1} of the target holds a {type(value).__name__}, not a number "
                    "or a text (a MATLAB cell array or struct?)",
                    dataset=dataset,
                    file=path,
                )
        values = np.array([v if not isinstance(v, str) else 0.0 for v in target], dtype=float)
    elif target.dtype.kind in "biuf":
        values = target.astype(np.float64)
    elif target.dtype.kind in "US":
        return
    else:
        raise FormatError(
            f"the target has dtype {target.dtype}, not numbers or text", dataset=dataset, file=path
        )
    if not np.isfinite(values).all():
        row = int(np.argmax(~np.isfinite(values)))
        raise FormatError(
            f"row {row + 1} of the target holds a missing or non-finite value",
            dataset=dataset,
            file=path,
        )


def _no_other_options(options, fmt, takes, path, dataset) -> None:
    if options:
        name = sorted(options)[0]
        raise FormatError(
            f"read option {name!r} does not apply to the {fmt} format (it takes {takes})",
            dataset=dataset,
            file=path,
        )


def _one_file(paths, dataset, what):
    paths = list(paths)
    if len(paths) != 1:
        raise FormatError(
            f"the {what} format reads exactly one file; got {len(paths)}", dataset=dataset
        )
    return paths[0]


def read_mat(paths, *, x="X", y="Y", dataset=None, **options) -> RawTable:
    """A MATLAB v5 file holding the features ``x`` (n_samples, n_features) and the target ``y``.

    Parameters
    ----------
    paths : list of one path-like
    x, y : str
        Variable names of the feature matrix and the target (scikit-feature: ``X``, ``Y``).
    dataset : str, optional
        For error messages.
    **options
        Refused (a read option of another format), naming the first.
    """
    from scipy.io import loadmat, whosmat
    from scipy.sparse import issparse

    path = _one_file(paths, dataset, "mat")
    _no_other_options(options, "mat", "x, y", path, dataset)
    data = read_content(path, dataset=dataset)
    if data[:19] == b"MATLAB 7.3 MAT-file" or data[512:520] == b"\x89HDF\r\n\x1a\n":
        raise FormatError(
            "a MATLAB v7.3 (HDF5) file, which scipy's loadmat does not read: save it again "
            "with MATLAB's `save(..., '-v7')`",
            dataset=dataset,
            file=path,
        )
    try:
        variables = loadmat(io.BytesIO(data), variable_names=[x, y])
    except Exception as exc:  # scipy raises MatReadError, ValueError, IndexError, ... on cut files
        raise FormatError(
            f"not a readable MATLAB v5 file: {type(exc).__name__}: {exc}",
            dataset=dataset,
            file=path,
        ) from None
    for name in (x, y):
        if name not in variables:
            found = sorted(entry[0] for entry in whosmat(io.BytesIO(data)))
            raise FormatError(
                f"the file has no variable {name!r} (read option {'x' if name == x else 'y'}); "
                f"it holds {found}",
                dataset=dataset,
                file=path,
            )
    X = variables[x]
    if issparse(X):
        X = X.toarray()
    return _table(X, variables[y], path, dataset=dataset)


def _rdata_objects(path, data, dataset) -> dict:
    try:
        import rdata
    except ImportError as exc:  # a declared dependency; a broken environment otherwise
        raise FormatError(
            f"reading R data files needs the `rdata` package: {exc}", dataset=dataset, file=path
        ) from None
    class_map = dict(rdata.conversion.DEFAULT_CLASS_MAP)
    # data frames as {column: values}: pandas refuses a data frame with a matrix column
    class_map["data.frame"] = lambda obj, attrs: obj
    class_map["AsIs"] = lambda obj, attrs: obj
    try:
        parsed = rdata.parser.parse_data(data)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "missing constructor" notes for plain classes
            return rdata.conversion.convert(parsed, class_map)
    except Exception as exc:  # the parser raises plain ValueError/NotImplementedError/...
        raise FormatError(
            f"not a readable R data file: {type(exc).__name__}: {exc}", dataset=dataset, file=path
        ) from None


def _lookup(objects, dotted, path, dataset, option):
    value = objects
    for part in dotted.split("$"):
        if not isinstance(value, dict) or part not in value:
            where = sorted(map(str, value)) if isinstance(value, dict) else type(value).__name__
            raise FormatError(
                f"the file has no object {dotted!r} (read option {option}; R's `$` separates "
                f"a data frame's column); found {where}",
                dataset=dataset,
                file=path,
            )
        value = value[part]
    return value


def _frame_matrix(frame, option, path, dataset):
    """The columns of a data frame (a mapping of columns) as one matrix, and their names."""
    columns = []
    for name, column in frame.items():
        if hasattr(column, "categories"):
            raise FormatError(
                f"column {str(name)!r} of {option} is a factor (categorical); the rdata reader "
                "takes numbers only: code it as numbers in R, or use another format",
                dataset=dataset,
                file=path,
            )
        values = np.asarray(column)
        if values.ndim != 1 or values.dtype.kind not in "biuf":
            raise FormatError(
                f"column {str(name)!r} of {option} holds {values.dtype} values of shape "
                f"{values.shape}, not one number per row",
                dataset=dataset,
                file=path,
            )
        columns.append(values)
    if not columns:
        return np.zeros((0, 0)), []
    return np.column_stack(columns), [str(name) for name in frame]


def read_rdata(paths, *, x, y, dataset=None, **options) -> RawTable:
    """An R data file (``.RData``/``.rda``) holding a feature matrix and a target vector.

    Parameters
    ----------
    paths : list of one path-like
    x, y : str
        Objects holding the features (n_samples, n_features) and the target, as R names them:
        ``"x"`` for a top-level object, ``"riboflavin$x"`` for a data frame's column.
    dataset : str, optional
        For error messages.
    **options
        Refused (a read option of another format), naming the first.
    """
    path = _one_file(paths, dataset, "rdata")
    _no_other_options(options, "rdata", "x, y", path, dataset)
    objects = _rdata_objects(path, read_content(path, dataset=dataset), dataset)
    X = _lookup(objects, x, path, dataset, "x")
    target = _lookup(objects, y, path, dataset, "y")
    if isinstance(target, dict):
        raise FormatError(
            f"read option y ({y!r}) is a data frame, not a vector: name its column, "
            f"e.g. {y + '$' + next(iter(map(str, target)), 'y')!r}",
            dataset=dataset,
            file=path,
        )
    names = None
    if isinstance(X, dict):  # a data frame: its columns are the features
        X, names = _frame_matrix(X, x, path, dataset)
    coords = getattr(X, "coords", None)
    if coords is not None and len(getattr(X, "dims", ())) == 2:
        dim = X.dims[1]
        if dim in coords:
            names = [str(v) for v in coords[dim].values]
    return _table(np.asarray(X), np.asarray(target), path, dataset=dataset, names=names)
