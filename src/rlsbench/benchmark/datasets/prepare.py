"""Prepare: verified raw files -> one canonical ``.npz`` per dataset (X, y, names, provenance).

The prepared file holds

``X``
    float64 array of shape (n_samples, n_features), dense;
``y``
    binary: ±1 float64; multiclass: int64 class index 0..c-1; regression: float64;
``feature_names``
    unicode array of shape (n_features,);
``name``, ``task``
    0-d unicode arrays;
``provenance``
    0-d unicode array holding a JSON object (URLs, checksums, shape, class counts, versions).

It is written atomically, only after the shape and class counts matched the registry.
"""

from __future__ import annotations

import json
import numbers
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from rlsbench.benchmark.atomic import atomic_path
from rlsbench.benchmark.datasets.download import MANIFEST_NAME
from rlsbench.benchmark.datasets.errors import DatasetError, FormatError, IntegrityError
from rlsbench.benchmark.datasets.integrity import make_readable, sha256_file, verify_file
from rlsbench.benchmark.datasets.readers import (
    RawTable,
    read_arff,
    read_delimited,
    read_idx_pairs,
    read_libsvm,
    read_sklearn,
    read_synthetic,
)
from rlsbench.benchmark.datasets.registry import DatasetSpec

FORMAT_VERSION = 1


@dataclass
class Dataset:
    """A prepared benchmark dataset.

    Attributes
    ----------
    name : str
        Registry name.
    task : {"binary", "multiclass", "regression"}
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,)
        Binary: ±1 float64; multiclass: int64 in 0..n_classes-1; regression: float64.
    feature_names : list of str, length n_features
    provenance : dict
        Where the data came from and what was done to it (JSON-able).
    """

    name: str
    task: str
    X: np.ndarray
    y: np.ndarray
    feature_names: list
    provenance: dict = field(default_factory=dict)

    @property
    def shape(self) -> tuple[int, int]:
        return self.X.shape

    def class_counts(self) -> dict:
        """``{"+1": n, "-1": n}`` (binary), ``{"0": n, ...}`` (multiclass), ``{}`` (regression)."""
        return class_counts(self.task, self.y)

    def targets(self) -> np.ndarray:
        """The target matrix the RLS methods take.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes), float64
            Binary and regression: ``y`` as float64; multiclass: one-vs-rest ±1 columns.
        """
        if self.task != "multiclass":
            return np.asarray(self.y, dtype=np.float64)
        n_classes = int(self.provenance.get("n_classes", int(self.y.max()) + 1))
        Y = -np.ones((self.y.shape[0], n_classes))
        Y[np.arange(self.y.shape[0]), self.y] = 1.0
        return Y


def class_counts(task: str, y) -> dict:
    if task == "binary":
        return {"+1": int(np.sum(y == 1)), "-1": int(np.sum(y == -1))}
    if task == "multiclass":
        values, counts = np.unique(y, return_counts=True)
        return {str(int(v)): int(c) for v, c in zip(values, counts)}
    return {}


# ----------------------------------------------------------------------------------- reading
def read_raw(spec: DatasetSpec, raw_dir=None, paths=None) -> RawTable:
    """Dispatch to the reader of ``spec.format`` (files taken from ``raw_dir``, or ``paths``)."""
    opts = dict(spec.read)
    if paths is None:
        paths = [Path(raw_dir) / f.name for f in spec.files] if spec.files else []
    if spec.format == "libsvm":
        return read_libsvm(paths, n_features=opts["n_features"], dataset=spec.name)
    if spec.format in ("uci-csv", "dense-text"):
        opts.setdefault("sep", "whitespace" if spec.format == "dense-text" else ",")
        return read_delimited(paths, dataset=spec.name, **opts)
    if spec.format == "arff":
        return read_arff(paths, dataset=spec.name, **opts)
    if spec.format == "idx":
        return read_idx_pairs(raw_dir, dataset=spec.name, **opts)
    if spec.format in ("mat", "rdata"):
        from rlsbench.benchmark.datasets import matrix_files

        reader = matrix_files.read_mat if spec.format == "mat" else matrix_files.read_rdata
        return reader(paths, dataset=spec.name, **opts)
    if spec.format == "sklearn":
        return read_sklearn(dataset=spec.name, **opts)
    if spec.format == "synthetic":
        return read_synthetic(dataset=spec.name, **opts)
    raise DatasetError(f"unknown format {spec.format!r}", dataset=spec.name)


def _matches(raw: np.ndarray, values) -> np.ndarray:
    """Rows of ``raw`` equal to one of ``values`` (numerically when the values are numbers)."""
    if all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values):
        import pandas as pd

        numeric = pd.to_numeric(pd.Series(raw, dtype=object), errors="coerce").to_numpy(np.float64)
        return np.isin(numeric, np.asarray(values, dtype=np.float64))
    text = np.array([str(v).strip() for v in raw], dtype=object)
    return np.isin(text, np.array([str(v) for v in values], dtype=object))


def _outside(spec, table, known, allowed) -> None:
    if known.all():
        return
    row = int(np.argmin(known))
    n_bad = int((~known).sum())
    value = table.target[row]
    value = value.item() if isinstance(value, np.generic) else value
    raise FormatError(
        f"label {value!r} outside the expected set {allowed} ({n_bad} row(s) affected)",
        dataset=spec.name,
        **table.where(row),
    )


def _at_least_two_classes(spec, table, counts) -> None:
    """A classification task with one class would fit and score trivially (accuracy 1.000)."""
    present = {k: v for k, v in counts.items() if v > 0}
    if len(present) >= 2:
        return
    raise FormatError(
        f"a {spec.task} task needs at least two classes, the data has "
        f"{len(present)} ({present or 'no rows'}); check the registry's `labels` and `read.target`",
        dataset=spec.name,
        file=", ".join(table.files) or None,
    )


def encode_target(spec: DatasetSpec, table: RawTable) -> tuple[np.ndarray, dict]:
    """Raw labels -> ``y`` by the registry's ``labels``; returns ``(y, label_map)``."""
    raw = table.target
    if spec.task == "binary":
        pos, neg = spec.labels["positive"], spec.labels["negative"]
        is_pos, is_neg = _matches(raw, pos), _matches(raw, neg)
        _outside(spec, table, is_pos | is_neg, list(pos) + list(neg))
        y = np.where(is_pos, 1.0, -1.0)
        _at_least_two_classes(spec, table, class_counts("binary", y))
        return y, {"+1": list(pos), "-1": list(neg)}
    if spec.task == "multiclass":
        classes = spec.labels["classes"]
        y = np.full(raw.shape[0], -1, dtype=np.int64)
        for index, value in enumerate(classes):
            y[_matches(raw, [value])] = index
        _outside(spec, table, y >= 0, list(classes))
        _at_least_two_classes(spec, table, class_counts("multiclass", y))
        return y, {str(i): v for i, v in enumerate(classes)}
    try:
        y = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError):
        import pandas as pd

        y = pd.to_numeric(pd.Series(raw, dtype=object), errors="coerce").to_numpy(np.float64)
    bad = ~np.isfinite(y)
    if bad.any():
        row = int(np.argmax(bad))
        value = raw[row].item() if isinstance(raw[row], np.generic) else raw[row]
        raise FormatError(
            f"regression target {value!r} is not a finite number",
            dataset=spec.name,
            **table.where(row),
        )
    return y, {}


def check_expected(spec: DatasetSpec, X, y) -> None:
    """Shape and class counts against the registry's ``expected``; a mismatch is an error."""
    exp = spec.expected
    where = {"dataset": spec.name, "file": ", ".join(f.name for f in spec.files) or None}
    shape = (int(exp["n_samples"]), int(exp["n_features"]))
    if X.shape != shape:
        raise FormatError(
            f"prepared shape {X.shape} differs from the registry's expected {shape}", **where
        )
    if not np.all(np.isfinite(X)):
        raise FormatError("X contains NaN or infinite values", **where)
    if "class_counts" in exp:
        got = class_counts(spec.task, y)
        want = {str(k): int(v) for k, v in exp["class_counts"].items()}
        if got != want:
            raise FormatError(
                f"class counts {got} differ from the registry's expected {want}", **where
            )


def _verify_raw(spec: DatasetSpec, raw_dir: Path) -> list:
    """Re-check the raw files against the download record before trusting them."""
    manifest = raw_dir / MANIFEST_NAME
    redo = (
        f"delete it and download again (`rm -r {raw_dir}`, then rerun the workflow or "
        f"`rlsbench datasets fetch {spec.name} --force`)"
    )
    if not manifest.exists():
        raise IntegrityError(
            "no verified download (verified.json missing); run the download step",
            dataset=spec.name,
            file=manifest,
        )
    try:
        keys = ("name", "url", "sha256", "content_sha256", "verified_by")
        records = {
            r["name"]: {k: r[k] for k in keys} for r in json.loads(manifest.read_text())["files"]
        }
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise IntegrityError(
            f"damaged download record ({type(exc).__name__}: {exc}); {redo}",
            dataset=spec.name,
            file=manifest,
        ) from None
    out = []
    for f in spec.files:
        path = raw_dir / f.name
        record = records.get(f.name)
        if record is None or not path.exists():
            raise IntegrityError(
                f"raw file missing or not in verified.json; {redo}",
                dataset=spec.name,
                file=path,
            )
        if record["content_sha256"] != f.content_sha256 or sha256_file(path) != record["sha256"]:
            try:
                verify_file(path, f.sha256, f.content_sha256, dataset=spec.name)
            except IntegrityError as exc:
                raise IntegrityError(
                    f"raw file changed since it was verified: {exc.reason}; {redo}",
                    dataset=spec.name,
                    file=path,
                ) from None
        out.append(record)
    return out


def _versions() -> dict:
    import pandas
    import scipy
    import sklearn

    from rlsbench import __version__

    return {
        "rlsbench": __version__,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "scikit-learn": sklearn.__version__,
        "pandas": pandas.__version__,
    }


def build(spec: DatasetSpec, raw_dir=None) -> Dataset:
    """Read, encode and check one dataset (nothing written).

    Parameters
    ----------
    spec : DatasetSpec
    raw_dir : path-like, optional
        Directory holding the verified raw files and ``verified.json`` (formats with files).

    Returns
    -------
    Dataset

    Raises
    ------
    DatasetError
        Integrity, format, label or shape problems, naming dataset, file and line.
    """
    files = _verify_raw(spec, Path(raw_dir)) if spec.files else []
    table = read_raw(spec, raw_dir)
    y, label_map = encode_target(spec, table)
    X = np.ascontiguousarray(table.X, dtype=np.float64)
    check_expected(spec, X, y)
    provenance = {
        "dataset": spec.name,
        "description": spec.description,
        "task": spec.task,
        "format": spec.format,
        "files": files,
        "generated_by": None if spec.files else table.files[0],
        "read": spec.read,
        "label_map": label_map,
        "shape": list(X.shape),
        "class_counts": class_counts(spec.task, y),
        "preprocessing": spec.preprocessing,
        "reader_notes": table.notes,
        "paper": spec.paper or None,
        "versions": _versions(),
        "prepared_format_version": FORMAT_VERSION,
    }
    if spec.task == "multiclass":
        provenance["n_classes"] = len(spec.labels["classes"])
    return Dataset(
        name=spec.name,
        task=spec.task,
        X=X,
        y=y,
        feature_names=list(table.feature_names),
        provenance=provenance,
    )


def save_prepared(dataset: Dataset, path) -> Path:
    """Write ``dataset`` to ``path`` (``.npz``) atomically.

    Raises
    ------
    DatasetError
        The file could not be written (a full disk, no permission); the message names ``path``
        and nothing is left under that name.
    """
    path = Path(path)
    try:
        with atomic_path(path, suffix=".tmp.npz") as tmp:
            with open(tmp, "wb") as fh:
                np.savez_compressed(
                    fh,
                    X=dataset.X,
                    y=dataset.y,
                    feature_names=np.asarray(dataset.feature_names, dtype=str),
                    name=np.asarray(dataset.name),
                    task=np.asarray(dataset.task),
                    provenance=np.asarray(
                        json.dumps(dataset.provenance, sort_keys=True, default=str)
                    ),
                )
            make_readable(tmp)
    except OSError as exc:
        # numpy's and zipfile's write errors name no file: say which one could not be written
        raise DatasetError(
            f"cannot write the prepared file: {exc.strerror or exc}",
            dataset=dataset.name,
            file=path,
        ) from exc
    return path


def prepare(spec: DatasetSpec, raw_dir, output) -> Dataset:
    """:func:`build` then :func:`save_prepared` to ``output``; nothing is written on error."""
    dataset = build(spec, raw_dir)
    save_prepared(dataset, output)
    return dataset


def _redo_prepared(path) -> str:
    name = Path(path).stem
    return (
        f"delete it and make it again (`rm {path}`, then rerun the workflow, or "
        f"`rlsbench datasets fetch {name} --force`)"
    )


def load_prepared(path) -> Dataset:
    """Load a prepared ``.npz`` written by the ``prepare`` rule (or :func:`prepare`).

    Parameters
    ----------
    path : path-like
        ``results/datasets/prepared/<dataset>.npz``.

    Returns
    -------
    Dataset
        ``X`` (n_samples, n_features) float64; ``y`` ±1 float64 (binary), int64 0..c-1
        (multiclass) or float64 (regression).

    Raises
    ------
    DatasetError
        The file is missing.
    IntegrityError
        The file cannot be read as a prepared dataset (truncated, corrupted, not ours); the
        message says how to make it again.
    """
    path = Path(path)
    if not path.exists():
        raise DatasetError("prepared file not found; run the prepare step first", file=path)
    try:
        with np.load(path, allow_pickle=False) as data:
            task = str(data["task"])
            y = data["y"]
            dataset = Dataset(
                name=str(data["name"]),
                task=task,
                X=np.asarray(data["X"], dtype=np.float64),
                y=y.astype(np.int64 if task == "multiclass" else np.float64, copy=False),
                feature_names=[str(n) for n in data["feature_names"]],
                provenance=json.loads(str(data["provenance"])),
            )
    except Exception as exc:  # zipfile, zlib, numpy and json each raise their own kinds
        raise IntegrityError(
            f"cannot read the prepared file ({type(exc).__name__}: {exc}); {_redo_prepared(path)}",
            file=path,
        ) from None
    if dataset.X.ndim != 2 or dataset.y.shape != (dataset.X.shape[0],):
        raise IntegrityError(
            f"prepared file holds X {dataset.X.shape} and y {dataset.y.shape}, which do not pair "
            f"up; {_redo_prepared(path)}",
            dataset=dataset.name,
            file=path,
        )
    return dataset


def prepared_problem(path, spec: DatasetSpec) -> str | None:
    """Why a cached prepared file does not belong to ``spec`` (None: it does).

    Cheap: reads the small members only (name, task, provenance), not ``X``. Checks the
    dataset name, task, file format version, shape and the content digests of its raw files.
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            name, task = str(data["name"]), str(data["task"])
            prov = json.loads(str(data["provenance"]))
    except Exception as exc:  # any failure to read means "make it again"
        return f"unreadable ({type(exc).__name__}: {exc})"
    if (name, task) != (spec.name, spec.task):
        return f"holds {name!r} ({task}), not {spec.name!r} ({spec.task})"
    if prov.get("prepared_format_version") != FORMAT_VERSION:
        return f"prepared format version {prov.get('prepared_format_version')} != {FORMAT_VERSION}"
    shape = [int(spec.expected["n_samples"]), int(spec.expected["n_features"])]
    if prov.get("shape") != shape:
        return f"shape {prov.get('shape')} != the registry's {shape}"
    digests = [f.get("content_sha256") for f in prov.get("files", [])]
    if digests != [f.content_sha256 for f in spec.files]:
        return "made from raw files whose content differs from the registry's"
    return None
