"""Readers: raw files -> a numeric table, using library parsers (sklearn, pandas, scipy, numpy).

Each reader returns a :class:`RawTable` whose rows remember the file and line they came from, so
that later checks (labels outside the expected set, missing values) can name the line. Parsing
itself is left to the libraries; only when a library rejects a file do we scan it ourselves to
name the offending line.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from rlsbench.benchmark.datasets.errors import FormatError
from rlsbench.benchmark.datasets.integrity import read_content


@dataclass
class RawTable:
    """Parsed content before label encoding.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    target : ndarray of shape (n_samples,)
        Raw labels (any dtype) or regression targets.
    feature_names : list of str, length n_features
    row_file : ndarray of shape (n_samples,), int
        Index into ``files`` of the file each row came from.
    row_line : ndarray of shape (n_samples,), int
        1-based line of each row in its (decompressed) file; 0 when unknown.
    files : list of str
    notes : dict
        What the reader changed (rows dropped, ...), for the provenance record.
    """

    X: np.ndarray
    target: np.ndarray
    feature_names: list
    row_file: np.ndarray
    row_line: np.ndarray
    files: list
    notes: dict = field(default_factory=dict)

    def where(self, row: int) -> dict:
        """``file``/``line`` keywords locating ``row`` for a :class:`DatasetError`."""
        line = int(self.row_line[row])
        return {"file": self.files[int(self.row_file[row])], "line": line or None}


def _content(path, dataset) -> bytes:
    data = read_content(path, dataset=dataset)
    if not data.strip():
        raise FormatError("empty file (no data rows)", dataset=dataset, file=path)
    return data


def _data_lines(text_lines, skip=0, is_data=lambda s: bool(s.strip())) -> np.ndarray:
    """1-based numbers of the lines that hold data rows (after ``skip`` header rows)."""
    numbers = [i + 1 for i, line in enumerate(text_lines) if is_data(line)]
    return np.asarray(numbers[skip:], dtype=np.int64)


def _check_part(dataset, X, names, lines, path) -> None:
    """Every reader's output passes here: rows present, every feature value finite."""
    if X.shape[0] == 0:
        raise FormatError("no data rows", dataset=dataset, file=path)
    bad = ~np.isfinite(X)
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        raise FormatError(
            f"value {float(X[row, col])!r} in feature {names[col]!r} is not a finite number "
            f"({int(bad.any(axis=1).sum())} row(s) affected)",
            dataset=dataset,
            file=path,
            line=int(lines[row]) or None,
        )


def _concat(dataset, parts, files) -> RawTable:
    names = parts[0][2]
    for (_, _, other, _), path in zip(parts[1:], files[1:]):
        if other != names:
            raise FormatError(
                f"columns differ from those of {Path(files[0]).name}", dataset=dataset, file=path
            )
    for (X, _, part_names, lines), path in zip(parts, files):
        _check_part(dataset, np.asarray(X, dtype=np.float64), part_names, lines, path)
    return RawTable(
        X=np.vstack([p[0] for p in parts]).astype(np.float64, copy=False),
        target=np.concatenate([p[1] for p in parts]),
        feature_names=list(names),
        row_file=np.concatenate([np.full(len(p[1]), i) for i, p in enumerate(parts)]),
        row_line=np.concatenate([p[3] for p in parts]),
        files=[str(f) for f in files],
    )


# ----------------------------------------------------------------------------------- LIBSVM
def _libsvm_problem(data: bytes, n_features=None):
    """First (line, message) making ``data`` invalid LIBSVM (1-based indices <= n_features, no
    bound when ``n_features`` is None), or None."""
    for number, raw in enumerate(data.split(b"\n"), start=1):
        tokens = raw.split(b"#", 1)[0].split()
        if not tokens:
            continue
        try:
            float(tokens[0])
        except ValueError:
            return (
                number,
                "malformed LIBSVM line: label "
                f"{tokens[0].decode(errors='replace')!r} is not a number",
            )
        previous = 0
        for token in tokens[1:]:
            text = token.decode(errors="replace")
            index, sep, value = text.partition(":")
            if index == "qid" and sep:
                # scikit-learn's parser drops it silently: a ranking file's query grouping would
                # be lost without a word, and its rows read as one regression problem
                return number, (
                    f"SVMlight query id {text!r}: a ranking file's query grouping has no meaning "
                    "here (remove the qid: tokens to read it as plain LIBSVM)"
                )
            if not sep or ":" in value:
                return number, f"malformed LIBSVM line: token {text!r} is not index:value"
            try:
                index = int(index)
                float(value)
            except ValueError:
                return number, f"malformed LIBSVM line: token {text!r} is not integer:number"
            if index < 1:
                return (
                    number,
                    f"malformed LIBSVM line: feature index {index} < 1 (indices are 1-based)",
                )
            if n_features is not None and index > n_features:
                return number, (
                    f"feature index {index} beyond the expected {n_features} features "
                    f"(registry read.n_features)"
                )
            if index <= previous:
                return number, "malformed LIBSVM line: feature indices are not strictly increasing"
            previous = index
    return None


def _load_svmlight(data: bytes, n_features, dataset, path):
    """``(X, y)`` of LIBSVM ``data`` by scikit-learn's parser; its refusals, and ``qid:`` tokens it
    would skip, become a FormatError naming the line."""
    from sklearn.datasets import load_svmlight_file

    try:
        X, y = load_svmlight_file(
            io.BytesIO(data), n_features=n_features, dtype=np.float64, zero_based=False
        )
    except ValueError as exc:
        line, message = _libsvm_problem(data, n_features) or (
            None,
            f"LIBSVM reader failed: {exc}",
        )
        raise FormatError(message, dataset=dataset, file=path, line=line) from exc
    if b"qid:" in data:
        problem = _libsvm_problem(data, n_features)
        if problem is not None:
            line, message = problem
            raise FormatError(message, dataset=dataset, file=path, line=line)
    return X, y


def libsvm_n_features(path, *, dataset=None) -> int:
    """The largest feature index of a LIBSVM file (1-based), after the same checks as
    :func:`read_libsvm`; a bad line is a FormatError naming it."""
    X, _ = _load_svmlight(_content(path, dataset), None, dataset, path)
    return int(X.shape[1])


def read_libsvm(paths, *, n_features: int, dataset=None) -> RawTable:
    """Read LIBSVM/SVMlight files with :func:`sklearn.datasets.load_svmlight_file`.

    Parameters
    ----------
    paths : list of path-like
        Files, concatenated in order (gz/bz2/xz decompressed by magic bytes).
    n_features : int
        Expected feature count; 1-based indices 1..n_features. An index beyond it is an error.
    dataset : str, optional
        For error messages.

    Notes
    -----
    Index 0, a negative index, indices not strictly increasing along a line, and SVMlight's
    ``qid:`` query ids (ranking files) are refused, naming the line.
    """
    parts = []
    for path in paths:
        data = _content(path, dataset)
        X, y = _load_svmlight(data, n_features, dataset, path)
        lines = _data_lines(data.split(b"\n"), is_data=lambda s: bool(s.split(b"#", 1)[0].strip()))
        if len(lines) != X.shape[0]:  # pragma: no cover - defensive: unknown line mapping
            lines = np.zeros(X.shape[0], dtype=np.int64)
        names = [f"f{j}" for j in range(1, n_features + 1)]
        parts.append((X.toarray(), y, names, lines))
    return _concat(dataset, parts, list(paths))


# ----------------------------------------------------------------------------------- delimited text
def _is_float(text) -> bool:
    try:
        float(text)
    except (TypeError, ValueError):
        return False
    return True


def _column(ref, columns, dataset, path, what):
    if isinstance(ref, int) and not isinstance(ref, bool):
        try:
            return columns[ref]
        except IndexError:
            raise FormatError(
                f"{what} column index {ref} out of range: the file has {len(columns)} columns",
                dataset=dataset,
                file=path,
            ) from None
    if ref not in columns:
        raise FormatError(
            f"{what} column {ref!r} not found; columns: {list(columns)}", dataset=dataset, file=path
        )
    return ref


_PANDAS_LINE = re.compile(r"\bline (\d+)\b")


def _records(text_lines, sep) -> list:
    """``(first line, fields)`` of every non-blank row, 1-based lines.

    Delimited text is split by :mod:`csv` with pandas' quoting rules (``"`` quotes, doubled
    inside), so that a quoted field spanning lines stays one field of one row and the rows after
    it keep their own line numbers; whitespace-separated text is split line by line.
    """
    if sep == "whitespace":
        return [(i + 1, s.split()) for i, s in enumerate(text_lines) if s.strip()]
    reader = csv.reader(
        io.StringIO("\n".join(text_lines) + "\n", newline=""),
        delimiter=sep,
        skipinitialspace=True,
    )
    out, consumed = [], 0
    for fields in reader:
        if any(f.strip() for f in fields):
            out.append((consumed + 1, fields))
        consumed = reader.line_num
    return out


def _check_width(records, dataset, path) -> None:
    """Every row has as many fields as the first one: a short or long row (a truncated file, a
    stray separator) is named by its line instead of shifting or padding values."""
    if not records:
        return
    first_line, first = records[0]
    for number, fields in records[1:]:
        if len(fields) != len(first):
            message = f"row has {len(fields)} fields, the first row (line {first_line}) has "
            message += str(len(first))
            if any("\n" in f for f in fields):  # csv reads an unclosed quote to the file's end
                message += " (a quoted field runs over several lines: a closing quote missing?)"
            raise FormatError(
                message,
                dataset=dataset,
                file=path,
                line=number,
            )


def _undecodable(data: bytes) -> tuple:
    """``(line, column, byte)`` of the first byte of ``data`` that is not valid UTF-8 (1-based)."""
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return number, exc.start + 1, raw[exc.start : exc.start + 1]
    return None, None, b""


def _check_header(records, dataset, path) -> None:
    """Every column name in the header is distinct: pandas would rename a repeated one (``rej``
    -> ``rej.1``), so that ``target: rej`` silently picked the first of the two columns."""
    if not records:
        return
    number, fields = records[0]
    if fields:
        fields = [fields[0].removeprefix("\ufeff"), *fields[1:]]  # a BOM, which pandas skips
    seen = {}
    for position, name in enumerate((f.strip() for f in fields), start=1):
        if name in seen:
            raise FormatError(
                f"column name {name!r} appears twice in the header (columns {seen[name]} and "
                f"{position}); rename one, or read the file with `header: false` and "
                "`column_names`",
                dataset=dataset,
                file=path,
                line=number,
            )
        seen[name] = position


def _check_column_names(column_names, dataset, path) -> None:
    seen = set()
    for name in column_names:
        if name in seen:
            raise FormatError(
                f"registry key read.column_names lists {name!r} twice",
                dataset=dataset,
                file=path,
            )
        seen.add(name)


def read_delimited(
    paths,
    *,
    target,
    sep=",",
    header=False,
    drop=(),
    categorical=(),
    na_values=(),
    missing="error",
    column_names=None,
    dataset=None,
) -> RawTable:
    """Read CSV or whitespace-separated files with :func:`pandas.read_csv`.

    Parameters
    ----------
    paths : list of path-like
        Files, concatenated in order (gz/bz2/xz decompressed by magic bytes).
    target : int or str
        The label/target column (0-based index, negative from the end, or name).
    sep : str
        ``","``, ``";"``, ``"\\t"`` or ``"whitespace"``.
    header : bool
        Whether the first line holds column names.
    drop : sequence of int or str
        Columns that are not features (ids, names).
    categorical : sequence of int or str
        Columns one-hot encoded (one 0/1 column per sorted distinct value, named ``col=value``).
    na_values : sequence of str
        Strings that mean "missing" (e.g. ``"?"``).
    missing : {"error", "drop-rows", "drop-rows-any"}
        What a missing value does: stop with an error naming its line, or drop the row
        (``"drop-rows"``: a missing value in a feature or the target column;
        ``"drop-rows-any"``: in any column, dropped ones included, for data sets published as
        "the complete cases").
    column_names : list of str, optional
        Names for a headerless file (must match its column count).
    dataset : str, optional
        For error messages.
    """
    import pandas as pd

    parts = []
    dropped = []
    for path in paths:
        data = _content(path, dataset)
        text_lines = data.decode("utf-8", errors="replace").splitlines()
        records = _records(text_lines, sep)
        _check_width(records, dataset, path)
        if header:
            _check_header(records, dataset, path)
        try:
            frame = pd.read_csv(
                io.BytesIO(data),
                sep=r"\s+" if sep == "whitespace" else sep,
                header=0 if header else None,
                dtype=str,
                na_values=list(na_values),
                keep_default_na=False,
                skipinitialspace=True,
                engine="c",
            )
        except UnicodeDecodeError as exc:
            # the codec's position counts bytes from the start of a buffer, not of the file
            line, column, byte = _undecodable(data)
            raise FormatError(
                f"not UTF-8 text: byte {byte!r} at column {column} (convert the file to UTF-8)",
                dataset=dataset,
                file=path,
                line=line,
            ) from exc
        except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
            where = _PANDAS_LINE.search(str(exc))
            raise FormatError(
                f"malformed delimited text: {str(exc).strip()}",
                dataset=dataset,
                file=path,
                line=int(where.group(1)) if where else None,
            ) from exc
        lines = np.asarray([number for number, _ in records[1 if header else 0 :]], dtype=np.int64)
        if len(lines) != len(frame):  # pragma: no cover - defensive
            lines = np.zeros(len(frame), dtype=np.int64)
        if column_names is not None and not header:
            if len(column_names) != frame.shape[1]:
                raise FormatError(
                    f"file has {frame.shape[1]} columns, the registry's "
                    f"column_names lists {len(column_names)}",
                    dataset=dataset,
                    file=path,
                )
            _check_column_names(column_names, dataset, path)
            frame.columns = list(column_names)
        elif not header:
            frame.columns = [f"col{j}" for j in range(1, frame.shape[1] + 1)]
        frame.columns = [str(c).strip() for c in frame.columns]
        columns = list(frame.columns)
        target_col = _column(target, columns, dataset, path, "target")
        drop_cols = {_column(c, columns, dataset, path, "drop") for c in drop}
        cat_cols = {_column(c, columns, dataset, path, "categorical") for c in categorical}
        feature_cols = [c for c in columns if c != target_col and c not in drop_cols]

        # Categorical levels from the whole file, so that dropping rows cannot change the columns.
        levels = {c: sorted(frame[c].dropna().str.strip().unique()) for c in cat_cols}
        # Missing values (NaN from na_values or short rows) in any used column.
        used = frame if missing == "drop-rows-any" else frame[feature_cols + [target_col]]
        missing_rows = used.isna().any(axis=1).to_numpy()
        if missing_rows.any():
            first = int(np.argmax(missing_rows))
            if missing == "error":
                col = used.columns[used.iloc[first].isna().to_numpy()][0]
                raise FormatError(
                    f"missing value in column {col!r}",
                    dataset=dataset,
                    file=path,
                    line=int(lines[first]) or None,
                )
            dropped.extend(f"{Path(path).name}:{int(n)}" for n in lines[missing_rows])
            frame = frame.loc[~missing_rows].reset_index(drop=True)
            lines = lines[~missing_rows]

        blocks, names = [], []
        for col in feature_cols:
            values = frame[col].str.strip()
            if col in cat_cols:
                blocks.append(
                    np.stack([(values == v).to_numpy(np.float64) for v in levels[col]], 1)
                )
                names.extend(f"{col}={v}" for v in levels[col])
                continue
            numbers = pd.to_numeric(values, errors="coerce")
            bad = numbers.isna().to_numpy()
            if bad.any():
                row = int(np.argmax(bad))
                value = values.iloc[row]
                what = "is not a finite number" if _is_float(value) else "is not a number"
                raise FormatError(
                    f"non-numeric value {value!r} in feature column {col!r}: {what}",
                    dataset=dataset,
                    file=path,
                    line=int(lines[row]) or None,
                )
            blocks.append(numbers.to_numpy(np.float64)[:, None])
            names.append(col)
        X = np.hstack(blocks) if blocks else np.empty((len(frame), 0))
        parts.append((X, frame[target_col].str.strip().to_numpy(dtype=object), names, lines))
    table = _concat(dataset, parts, list(paths))
    if dropped:
        table.notes["rows_dropped_missing"] = len(dropped)
        table.notes["rows_dropped_at"] = dropped
    return table


# ----------------------------------------------------------------------------------- ARFF
_ARFF_ATTRIBUTE = re.compile(r"""\s*@attribute\s+('[^']*'|"[^"]*"|\S+)\s*(\S*)""", re.IGNORECASE)
#: ARFF type keywords of a number (Weka reads ``integer`` and ``real`` as ``numeric``).
_ARFF_NUMERIC = ("numeric", "real", "integer")


def arff_attributes(header_lines) -> list:
    """``(line, name, kind)`` of each ``@attribute`` declaration in ``header_lines``.

    ``line`` is 1-based; ``kind`` is ``"numeric"`` (numeric, real, integer), ``"nominal"`` (a
    ``{...}`` list) or the declared keyword in lower case (``"string"``, ``"date"``,
    ``"relational"``).
    """
    out = []
    for index, line in enumerate(header_lines):
        match = _ARFF_ATTRIBUTE.match(line)
        if match is None:
            continue
        name, keyword = match.group(1).strip("'\""), match.group(2).lower()
        if keyword.startswith("{"):
            kind = "nominal"
        else:
            kind = "numeric" if keyword in _ARFF_NUMERIC else keyword
        out.append((index + 1, name, kind))
    return out


def _check_attributes(header_lines, dataset, path) -> None:
    """Attribute names are distinct (scipy refuses a repeated one without naming its line), and
    every attribute is a number or a nominal: a string, date or relational attribute has no
    numeric encoding here (scipy raises NotImplementedError on strings)."""
    seen = {}
    for number, name, kind in arff_attributes(header_lines):
        if name in seen:
            raise FormatError(
                f"attribute {name!r} declared twice (lines {seen[name]} and {number})",
                dataset=dataset,
                file=path,
                line=number,
            )
        seen[name] = number
        if kind not in ("numeric", "nominal"):
            raise FormatError(
                f"attribute {name!r} has type {kind}, which has no numeric encoding (numeric "
                "and nominal attributes only): delete the attribute, or declare its values "
                "as a nominal {...}",
                dataset=dataset,
                file=path,
                line=number,
            )


def _arff_rows(text_lines, start, dataset, path):
    """``(line number, fields)`` of each data row after the ``@data`` line (ARFF quoting)."""
    for index in range(start + 1, len(text_lines)):
        row = text_lines[index].strip()
        if not row or row.startswith("%"):
            continue
        if row.startswith("{"):
            raise FormatError(
                "sparse ARFF rows are not supported", dataset=dataset, file=path, line=index + 1
            )
        quote = "'" if "'" in row else '"'
        fields = [
            f.strip() for f in next(csv.reader([row], quotechar=quote, skipinitialspace=True))
        ]
        if len(fields) > 1 and fields[-1] == "" and row.endswith(","):
            fields.pop()  # a trailing separator (Torgo's bank files end every row with one)
        yield index + 1, fields


def _arff_problem(rows, meta):
    """First ``(line, message)`` of a value that is neither a number of a numeric attribute nor a
    declared value of a nominal one (``?``, missing, passes), or None."""
    for number, fields in rows:
        for name, value in zip(meta.names(), fields):
            kind, levels = meta[name]
            if value == "?":
                continue
            if kind == "numeric" and not _is_float(value):
                return number, f"non-numeric value {value!r} for numeric attribute {name!r}"
            if kind == "nominal" and value not in levels:
                return number, (
                    f"value {value!r} of nominal attribute {name!r} is not one of the declared "
                    f"{list(levels)}"
                )
    return None


def _arff_header_end(text_lines, dataset, path) -> int:
    """0-based index of the ``@data`` line."""
    start = next((i for i, s in enumerate(text_lines) if s.strip().lower() == "@data"), None)
    if start is None:
        raise FormatError("malformed ARFF: no @data line", dataset=dataset, file=path)
    return start


def read_arff_attributes(path, *, dataset=None) -> list:
    """``(line, name, kind)`` of the attributes an ARFF file declares (see
    :func:`arff_attributes`), after the header checks of :func:`read_arff`."""
    text_lines = _content(path, dataset).decode("utf-8", errors="replace").splitlines()
    header = text_lines[: _arff_header_end(text_lines, dataset, path)]
    _check_attributes(header, dataset, path)
    return arff_attributes(header)


def read_arff(paths, *, target, missing="error", dataset=None, **_ignored) -> RawTable:
    """Read ARFF files; nominal attributes are one-hot encoded.

    The header is parsed by :func:`scipy.io.arff.loadarff`, the data rows by :mod:`csv` (quoted
    values in ``'`` or ``"``). One 0/1 column per declared value, in the order the header
    declares them, named ``attribute=value``. ``target`` names the attribute to predict.
    String, date and relational attributes are refused, naming their declaration's line.
    """
    from scipy.io import arff

    parts = []
    for path in paths:
        data = _content(path, dataset)
        text = data.decode("utf-8", errors="replace")
        text_lines = text.splitlines()
        start = _arff_header_end(text_lines, dataset, path)
        _check_attributes(text_lines[:start], dataset, path)
        try:
            _, meta = arff.loadarff(io.StringIO("\n".join(text_lines[: start + 1]) + "\n"))
        except (arff.ArffError, ValueError, IndexError) as exc:
            raise FormatError(f"malformed ARFF header: {exc}", dataset=dataset, file=path) from exc
        rows = list(_arff_rows(text_lines, start, dataset, path))
        # scipy drops fields beyond the declared attributes and fails on short rows without
        # naming the line: check the width first, so that no value lands in the wrong column.
        n_attributes = len(meta.names())
        for number, fields in rows:
            if len(fields) != n_attributes:
                raise FormatError(
                    f"row has {len(fields)} fields, the header declares {n_attributes} attributes",
                    dataset=dataset,
                    file=path,
                    line=number,
                )
        # The values come from our own rows, not from scipy's data parser: scipy guesses the
        # quote character from the first data row only, so that `'b c'` after a row without
        # quotes kept its quotes and was refused as "not in ('a', 'b c')".
        problem = _arff_problem(rows, meta)
        if problem is not None:
            line, message = problem
            raise FormatError(message, dataset=dataset, file=path, line=line)
        records = {name: [fields[j] for _, fields in rows] for j, name in enumerate(meta.names())}
        lines = np.asarray([number for number, _ in rows], dtype=np.int64)
        attributes = list(meta.names())
        if target not in attributes:
            raise FormatError(
                f"target attribute {target!r} not found; attributes: {attributes}",
                dataset=dataset,
                file=path,
            )
        blocks, names = [], []
        missing_rows = np.zeros(len(rows), dtype=bool)
        for name in attributes:
            kind, levels = meta[name]
            column = records[name]
            if kind == "nominal":
                decoded = np.array(column, dtype=object)
                missing_rows |= decoded == "?"
                if name == target:
                    target_values = decoded
                    continue
                blocks.append(np.stack([(decoded == v).astype(np.float64) for v in levels], 1))
                names.extend(f"{name}={v}" for v in levels)
            elif kind == "numeric":
                values = np.array([np.nan if v == "?" else float(v) for v in column])
                missing_rows |= np.isnan(values)
                if name == target:
                    target_values = values
                    continue
                blocks.append(values[:, None])
                names.append(name)
            else:
                raise FormatError(
                    f"attribute {name!r} has unsupported ARFF type {kind!r}",
                    dataset=dataset,
                    file=path,
                )
        X = np.hstack(blocks)
        if missing_rows.any():
            first = int(np.argmax(missing_rows))
            if missing == "error":
                raise FormatError(
                    "missing value ('?')",
                    dataset=dataset,
                    file=path,
                    line=int(lines[first]) or None,
                )
            keep = ~missing_rows
            X, target_values, lines = X[keep], target_values[keep], lines[keep]
        parts.append((X, target_values, names, lines))
    return _concat(dataset, parts, list(paths))


# ----------------------------------------------------------------------------------- idx (MNIST)
_IDX_DTYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path, *, dataset=None) -> np.ndarray:
    """Read one idx file (LeCun's MNIST format) with numpy; checks the header against the size."""
    data = _content(path, dataset)
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] not in _IDX_DTYPES:
        raise FormatError("not an idx file (bad magic number)", dataset=dataset, file=path)
    ndim = data[3]
    header = 4 + 4 * ndim
    if len(data) < header:
        raise FormatError("idx header truncated", dataset=dataset, file=path)
    dims = tuple(int(d) for d in np.frombuffer(data, dtype=">u4", count=ndim, offset=4))
    dtype = np.dtype(_IDX_DTYPES[data[2]])
    expected = int(np.prod(dims)) * dtype.itemsize
    if len(data) - header != expected:
        raise FormatError(
            f"idx payload has {len(data) - header} bytes, header dims {dims} need {expected}",
            dataset=dataset,
            file=path,
        )
    return np.frombuffer(data, dtype=dtype, offset=header).reshape(dims)


def read_idx_pairs(raw_dir, *, pairs, keep_pixels=None, dataset=None) -> RawTable:
    """Images/labels idx pairs -> rows of row-major pixels (1-based pixel ``j`` = feature ``j``).

    Pixels beyond ``keep_pixels`` are dropped after checking they are zero in every image (so the
    features are exactly LIBSVM's indices 1..keep_pixels).
    """
    raw_dir = Path(raw_dir)
    parts, files = [], []
    for pair in pairs:
        images_path, labels_path = raw_dir / pair["images"], raw_dir / pair["labels"]
        images = read_idx(images_path, dataset=dataset)
        labels = read_idx(labels_path, dataset=dataset)
        if images.ndim < 2 or labels.ndim != 1 or images.shape[0] != labels.shape[0]:
            raise FormatError(
                f"images {images.shape} and labels {labels.shape} do not pair up",
                dataset=dataset,
                file=labels_path,
            )
        pixels = images.reshape(images.shape[0], -1)
        keep = pixels.shape[1] if keep_pixels is None else int(keep_pixels)
        if keep > pixels.shape[1]:
            raise FormatError(
                f"keep_pixels={keep} exceeds the {pixels.shape[1]} pixels per image",
                dataset=dataset,
                file=images_path,
            )
        if np.any(pixels[:, keep:]):
            row = int(np.argmax(np.any(pixels[:, keep:], axis=1)))
            raise FormatError(
                f"image {row} has non-zero pixels beyond pixel {keep}, which "
                f"keep_pixels={keep} would drop",
                dataset=dataset,
                file=images_path,
            )
        names = [f"pixel{j}" for j in range(1, keep + 1)]
        # "line" of an idx row = its record number (1-based) in the labels file.
        parts.append(
            (
                pixels[:, :keep].astype(np.float64),
                labels.astype(np.int64),
                names,
                np.arange(1, len(labels) + 1),
            )
        )
        files.append(labels_path)
    return _concat(dataset, parts, files)


# ----------------------------------------------------------------------------------- no download
def read_sklearn(*, loader, dataset=None) -> RawTable:
    """A dataset shipped inside scikit-learn (``sklearn.datasets.<loader>``)."""
    import sklearn.datasets

    bunch = getattr(sklearn.datasets, loader)()
    X = np.asarray(bunch.data, dtype=np.float64)
    names = getattr(bunch, "feature_names", None)
    if names is None or len(names) != X.shape[1]:
        names = [f"f{j}" for j in range(1, X.shape[1] + 1)]
    names = [str(n) for n in names]
    n = X.shape[0]
    return RawTable(
        X=X,
        target=np.asarray(bunch.target),
        feature_names=names,
        row_file=np.zeros(n, dtype=np.int64),
        row_line=np.arange(1, n + 1),
        files=[f"sklearn.datasets.{loader}"],
    )


def read_synthetic(
    *,
    generator="make_two_gaussians",
    n_samples,
    n_features,
    seed=0,
    n_informative=None,
    class_sep=1.0,
    dataset=None,
) -> RawTable:
    """Generate a synthetic dataset with :mod:`rlsbench.numerics.synthetic` (imported lazily)."""
    try:
        from rlsbench.numerics import synthetic
    except ImportError as exc:
        raise FormatError(
            f"rlsbench.numerics.synthetic is not available: {exc}", dataset=dataset
        ) from exc
    X, y = getattr(synthetic, generator)(
        n_samples, n_features, seed=seed, n_informative=n_informative, class_sep=class_sep
    )
    X = np.asarray(X, dtype=np.float64)
    return RawTable(
        X=X,
        target=np.asarray(y),
        feature_names=[f"x{j}" for j in range(1, X.shape[1] + 1)],
        row_file=np.zeros(X.shape[0], dtype=np.int64),
        row_line=np.arange(1, X.shape[0] + 1),
        files=[f"rlsbench.numerics.synthetic.{generator}"],
    )
