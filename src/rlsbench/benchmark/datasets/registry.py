"""The dataset registry: ``config/datasets.yaml`` validated against its JSON schema."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from rlsbench.benchmark.datasets.errors import RegistryError

#: Repository root when the package is installed editable (src layout).
REPO_ROOT = Path(__file__).resolve().parents[4]
DEFAULT_REGISTRY = REPO_ROOT / "config" / "datasets.yaml"
SCHEMA = REPO_ROOT / "workflow" / "schemas" / "datasets.schema.yaml"

DOWNLOAD_FORMATS = ("libsvm", "uci-csv", "dense-text", "arff", "idx")


@dataclass(frozen=True)
class FileSpec:
    """One raw file of a dataset (see the registry's header comment for the fields)."""

    name: str
    mirror: str
    upstream: tuple[str, ...]
    sha256: str
    content_sha256: str
    reference: tuple[str, ...] = ()


@dataclass(frozen=True)
class DatasetSpec:
    """One registry entry.

    Attributes
    ----------
    name, task, format, description, preprocessing : str
    files : tuple of FileSpec
        Empty for the ``sklearn`` and ``synthetic`` formats (nothing to download).
    read : dict
        Reader options (format specific).
    labels : dict
        ``positive``/``negative`` raw values (binary) or ``classes`` (multiclass).
    expected : dict
        ``n_samples``, ``n_features`` and optionally ``class_counts``.
    paper : dict
        Shape a paper reports when it differs from the data.
    """

    name: str
    task: str
    format: str
    description: str
    preprocessing: str
    files: tuple[FileSpec, ...] = ()
    read: dict = field(default_factory=dict)
    labels: dict = field(default_factory=dict)
    expected: dict = field(default_factory=dict)
    paper: dict = field(default_factory=dict)

    @property
    def needs_download(self) -> bool:
        return bool(self.files)

    def file(self, name: str) -> FileSpec:
        for spec in self.files:
            if spec.name == name:
                return spec
        raise RegistryError(f"registry has no file named {name!r}", dataset=self.name)

    def to_dict(self) -> dict:
        """Plain-data view (JSON-able), for provenance records and ``rlsbench datasets info``."""
        out = {
            "name": self.name,
            "description": self.description,
            "task": self.task,
            "format": self.format,
            "files": [
                {
                    "name": f.name,
                    "mirror": f.mirror,
                    "upstream": list(f.upstream),
                    "reference": list(f.reference),
                    "sha256": f.sha256,
                    "content_sha256": f.content_sha256,
                }
                for f in self.files
            ],
            "read": self.read,
            "labels": self.labels,
            "expected": self.expected,
            "preprocessing": self.preprocessing,
        }
        if self.paper:
            out["paper"] = self.paper
        return out


class Registry(dict):
    """Mapping name -> :class:`DatasetSpec`, remembering the file it was read from."""

    path: Path | None = None

    def get_spec(self, name: str) -> DatasetSpec:
        try:
            return self[name]
        except KeyError:
            raise RegistryError(
                f"unknown dataset {name!r}; the registry {self.path} has: {', '.join(sorted(self))}"
            ) from None


def _validate(data, path) -> None:
    import jsonschema

    if not SCHEMA.exists():  # pragma: no cover - only in a non-editable install without workflow/
        return
    schema = yaml.safe_load(SCHEMA.read_text())
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        lines = [
            f"  at {'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
            for e in errors[:10]
        ]
        raise RegistryError("registry does not match its schema:\n" + "\n".join(lines), file=path)


def _spec(name: str, entry: dict) -> DatasetSpec:
    files = tuple(
        FileSpec(
            name=f["name"],
            mirror=f["mirror"],
            upstream=tuple(f.get("upstream", ())),
            sha256=f["sha256"],
            content_sha256=f["content_sha256"],
            reference=tuple(f.get("reference", ())),
        )
        for f in entry.get("files", ())
    )
    names = [f.name for f in files]
    if len(set(names)) != len(names):
        raise RegistryError("two files share a name", dataset=name)
    return DatasetSpec(
        name=name,
        task=entry["task"],
        format=entry["format"],
        description=entry["description"],
        preprocessing=entry["preprocessing"],
        files=files,
        read=dict(entry.get("read", {})),
        labels=dict(entry.get("labels", {})),
        expected=dict(entry["expected"]),
        paper=dict(entry.get("paper", {})),
    )


def load_registry(path=None) -> Registry:
    """Read and validate the dataset registry.

    Parameters
    ----------
    path : path-like, optional
        Registry YAML file. Default: ``$RLSBENCH_DATASETS_REGISTRY`` if set, else the repository's
        ``config/datasets.yaml``.

    Returns
    -------
    Registry
        Mapping dataset name -> :class:`DatasetSpec`, in file order.

    Raises
    ------
    RegistryError
        Missing file, invalid YAML, or content not matching the registry schema
        (``workflow/schemas/datasets.schema.yaml``).
    """
    path = Path(path or os.environ.get("RLSBENCH_DATASETS_REGISTRY") or DEFAULT_REGISTRY)
    try:
        data = yaml.safe_load(path.read_text())
    except FileNotFoundError:
        raise RegistryError("registry file not found", file=path) from None
    except yaml.YAMLError as exc:
        raise RegistryError(f"invalid YAML: {exc}", file=path) from exc
    _validate(data, path)
    registry = Registry((name, _spec(name, entry)) for name, entry in data["datasets"].items())
    registry.path = path
    return registry
