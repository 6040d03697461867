"""A registry entry for a local data file (``rlsbench datasets hash FILE``).

The digests are exact (stored bytes and decompressed content). The rest is guessed from the
content and then checked by reading the file with the guessed options through the same readers
``prepare`` uses: the shape and class counts in ``expected`` are what the file reads as. The
printed entry says which fields are guesses.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import yaml

from rlsbench.benchmark.datasets.errors import DatasetError, FormatError
from rlsbench.benchmark.datasets.integrity import content_sha256, open_content, sha256_file

_HEAD_BYTES = 1 << 16
# A label, then ``index:value`` tokens. Any ``name:value`` token counts, so that a line with
# a negative index or SVMlight's ``qid:`` is guessed LIBSVM and refused by its reader, naming the
# line, instead of being read as whitespace-separated text with values such as '2:1'.
_LIBSVM_LINE = re.compile(rb"^\s*[-+]?[0-9.eE+-]+(\s+[^\s:#]*:\S*)*\s*(#.*)?$")
_NAME = re.compile(r"[^A-Za-z0-9_.-]+")
_SUFFIXES = (".gz", ".bz2", ".xz", ".data", ".csv", ".tsv", ".txt", ".dat", ".arff", ".libsvm")
#: A numeric target with more distinct values than this is guessed to be a regression target.
_MAX_GUESSED_CLASSES = 20


def _clean_name(text: str) -> str:
    name = _NAME.sub("-", text).strip("-.") or "dataset"
    return name if name[0].isalnum() else f"d{name}"


def _is_number(text) -> bool:
    try:
        float(text)
    except (TypeError, ValueError):
        return False
    return True


def _head_lines(path) -> list:
    with open_content(path) as fh:
        head = fh.read(_HEAD_BYTES)
    lines = head.split(b"\n")
    if len(head) == _HEAD_BYTES:
        lines = lines[:-1]  # the last one may be cut
    return [line for line in lines if line.strip()]


def _head_records(path, sep) -> list:
    """The fields of the rows in the file's first bytes, split as the reader splits them (a
    CSV parser: a quoted field may span lines)."""
    from rlsbench.benchmark.datasets.readers import _records

    with open_content(path) as fh:
        head = fh.read(_HEAD_BYTES)
    records = _records(head.decode("utf-8", errors="replace").splitlines(), sep)
    if len(head) == _HEAD_BYTES:
        records = records[:-1]  # the last one may be cut
    return [[f.strip() for f in fields] for _, fields in records]


#: Opening bytes of the binary formats whose variables only the user can name: format, read.
_BINARY_MATRIX_FILES = (
    (b"MATLAB ", "mat", "{x: X, y: Y} (the names of its feature and target variables)"),
    (b"RDX", "rdata", "{x: ..., y: ...} (the R objects; `df$col` for a data frame's column)"),
    (b"RDA", "rdata", "{x: ..., y: ...} (the R objects; `df$col` for a data frame's column)"),
)


def _refuse_binary_matrix_file(path) -> None:
    with open_content(path) as fh:
        head = fh.read(16)
    for magic, fmt, read in _BINARY_MATRIX_FILES:
        if head.startswith(magic):
            raise FormatError(
                f"a binary {fmt} file: `datasets hash` guesses text formats only; write its "
                f"entry with `format: {fmt}` and `read: {read}` (sha256 {sha256_file(path)})",
                file=path,
            )


def _guess_format(lines) -> str:
    if not lines:
        raise DatasetError("empty file (no data rows)")
    first = lines[0].lstrip()
    if len(first) >= 4 and first[0] == 0 and first[1] == 0 and first[2] in (8, 9, 11, 12, 13, 14):
        return "idx"
    text = [line.decode("utf-8", errors="replace").strip() for line in lines]
    if any(t.lower().startswith("@relation") for t in text if not t.startswith("%")):
        return "arff"
    sample = lines[:20]
    if all(_LIBSVM_LINE.match(line) for line in sample) and any(b":" in line for line in sample):
        return "libsvm"
    return "delimited"


def _guess_sep(first_line: str) -> str:
    for sep in (",", ";", "\t"):
        if sep in first_line:
            return sep
    return "whitespace"


def _label_value(text):
    """A raw label as the registry writes it: a number where it is one, else the string."""
    if isinstance(text, str) and not _is_number(text):
        return text
    value = float(text)
    return int(value) if value.is_integer() else value


def _guess_task(values) -> str:
    distinct = sorted(set(values), key=str)
    if len(distinct) == 2:
        return "binary"
    if all(_is_number(v) for v in distinct):
        integral = all(float(v).is_integer() for v in distinct)
        return "multiclass" if integral and len(distinct) <= _MAX_GUESSED_CLASSES else "regression"
    return "multiclass"


def _labels(task, values) -> dict:
    distinct = sorted({_label_value(v) for v in values}, key=lambda v: (isinstance(v, str), v))
    if task == "binary":
        if len(distinct) != 2:
            return {"positive": distinct[-1:], "negative": distinct[:-1] or distinct}
        return {"positive": [distinct[1]], "negative": [distinct[0]]}
    if task == "multiclass":
        return {"classes": distinct}
    return {}


def _non_numeric_columns(names, rows, target) -> dict:
    """``categorical`` (few distinct values) and ``drop`` (ids, names) for the feature columns
    whose values in ``rows`` are not numbers."""
    width = len(rows[0]) if rows else 0
    if isinstance(target, int):
        target_index = target % width if width else target
    else:
        target_index = names.index(target) if names and target in names else None
    categorical, drop = [], []
    for j in range(width):
        if j == target_index:
            continue
        values = {row[j] for row in rows if j < len(row) and row[j] != "?"}
        if all(_is_number(v) for v in values):
            continue
        ref = names[j] if names else j
        (categorical if len(values) <= _MAX_GUESSED_CLASSES else drop).append(ref)
    out = {}
    if drop:
        out["drop"] = drop
    if categorical:
        out["categorical"] = categorical
    return out


def _target_ref(target):
    if target is None:
        return -1
    try:
        return int(target)
    except ValueError:
        return target


def entry_for_file(
    file,
    *,
    name=None,
    format=None,
    task=None,
    target=None,
    sep=None,
    header=None,
    urls=(),
    registry_dir=None,
) -> tuple[str, dict, str | None]:
    """Registry entry (plain data) for a local file, and why it could not be read (or None).

    Parameters
    ----------
    file : path-like
        The data file (gz/bz2/xz recognised by content).
    name : str, optional
        Dataset name (default: from the file name).
    format : {"libsvm", "uci-csv", "dense-text", "arff"}, optional
        Default: guessed from the content.
    task : {"binary", "multiclass", "regression"}, optional
        Default: guessed from the target's distinct values.
    target : str, optional
        Target column (index or name); default the last column (LIBSVM: the label).
    sep : str, optional
        Delimited text only; default guessed from the first line.
    header : bool, optional
        Delimited text only; default guessed (a first line of names above numbers).
    urls : sequence of str
        Where others download the same bytes; when given, they replace the local path.
    registry_dir : path-like, optional
        The directory of the registry file the entry is meant for: the local ``path`` is
        written relative to it, as registries resolve it (default: the current directory).

    Returns
    -------
    name : str
        The dataset name (``name``, or one made from the file name).
    entry : dict
        The entry, with ``expected`` filled from actually reading the file when that worked.
    problem : str or None
        Why reading with the guessed options failed; the entry then needs editing.
    """
    from rlsbench.benchmark.datasets.prepare import class_counts, encode_target, read_raw
    from rlsbench.benchmark.datasets.readers import libsvm_n_features, read_arff_attributes
    from rlsbench.benchmark.datasets.registry import _spec

    path = Path(file).expanduser()
    if not path.is_file():
        raise DatasetError("not a readable file", file=path)
    stored = sha256_file(path)
    content = content_sha256(path)
    stem = path.name
    for suffix in _SUFFIXES:
        stem = stem.removesuffix(suffix)
    name = name or _clean_name(stem)
    _refuse_binary_matrix_file(path)
    lines = _head_lines(path)
    if not lines:
        raise FormatError("empty file (no data rows)", file=path)
    guessed = format or _guess_format(lines)
    text = [
        s
        for s in (line.decode("utf-8", errors="replace").strip() for line in lines)
        if not s.startswith("%")
    ]

    read: dict = {}
    # the task the file itself declares (an ARFF target declared numeric), over the guess
    declared_task = None
    if guessed == "libsvm":
        read = {"n_features": libsvm_n_features(path)}
    elif guessed == "arff":
        declared = {name: kind for _, name, kind in read_arff_attributes(path)}
        read = {"target": target or (list(declared)[-1] if declared else None)}
        declared_task = {"numeric": "regression"}.get(declared.get(read["target"]))
    elif guessed in ("delimited", "uci-csv", "dense-text"):
        sep = sep or _guess_sep(text[0])
        guessed = "dense-text" if sep == "whitespace" else "uci-csv"
        records = _head_records(path, sep) or [[]]
        first = records[0]
        second = records[1] if len(records) > 1 else []
        if header is None:
            header = not any(_is_number(v) for v in first) and any(_is_number(v) for v in second)
        read = {"sep": sep, "header": bool(header), "target": _target_ref(target)}
        rows = records[1 if header else 0 :]
        if any("?" in row for row in rows):
            read.update(na_values=["?"], missing="drop-rows")
        read.update(_non_numeric_columns(first if header else None, rows, read["target"]))
    file_entry: dict = {"name": _clean_name(path.name)}
    if urls:
        file_entry["upstream"] = list(urls)
    else:
        base = Path(registry_dir if registry_dir is not None else Path.cwd()).resolve()
        file_entry["path"] = Path(os.path.relpath(path.resolve(), base)).as_posix()
    file_entry["sha256"] = stored
    if content != stored:
        file_entry["content_sha256"] = content
    entry = {
        "description": f"{name} (from {path.name})",
        "task": task or "regression",
        "format": guessed,
        "files": [file_entry],
        "read": read,
        "expected": {"n_samples": None, "n_features": None},
        "preprocessing": "none",
    }
    if guessed == "idx":
        return (
            name,
            entry,
            "idx files come in image/label pairs: write read.pairs by hand (see mnist5)",
        )

    try:
        spec = _spec(name, entry)
        table = read_raw(spec, paths=[path])
        raw = [str(v).strip() for v in np.asarray(table.target, dtype=object)]
        entry["task"] = task or declared_task or _guess_task(raw)
        labels = _labels(entry["task"], raw)
        if labels:
            entry["labels"] = labels
        spec = _spec(name, entry)
        y, _ = encode_target(spec, table)
    except DatasetError as exc:
        where = f"line {exc.line}: " if exc.line else ""
        return (
            name,
            entry,
            f"could not read the file as guessed ({where}{exc.reason}); edit read/labels",
        )
    expected = {"n_samples": int(table.X.shape[0]), "n_features": int(table.X.shape[1])}
    counts = class_counts(entry["task"], y)
    if counts:
        expected["class_counts"] = counts
    entry["expected"] = expected
    # the keys in the registry's usual order
    order = ["description", "task", "format", "files", "read", "labels", "expected"]
    entry = {k: entry[k] for k in order if k in entry} | {"preprocessing": "none"}
    return name, entry, None


def render_entry(name: str, entry: dict, *, problem=None, registry_dir=None) -> str:
    """The entry as a user registry file (YAML) with comments on what to check.

    ``registry_dir`` is the directory the file's relative ``path:`` entries were written for.
    """
    lines = [
        "# A user dataset registry, written by `rlsbench datasets hash`.",
        "# The digests are exact; format, read options, task and labels are guesses: check them.",
        "# Use it with `rlsbench datasets --registry-extra THIS_FILE ...` or list it under",
        "# `dataset_registries:` in the workflow config; then `main.datasets: [NAME]` etc. work.",
    ]
    if registry_dir is not None and any("path" in f for f in entry.get("files", ())):
        lines.append(
            f"# `path:` is relative to {Path(registry_dir).resolve()}: save this file there "
            "(a registry resolves it against its own directory)."
        )
    if problem:
        lines.append(f"# NOT READABLE AS GUESSED: {problem}")
    document = {"version": 1, "datasets": {name: entry}}
    body = yaml.safe_dump(document, sort_keys=False, default_flow_style=False, width=100)
    return "\n".join(lines) + "\n" + body
