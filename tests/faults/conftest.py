"""Shared fixtures of the fault-injection suite: a tiny one-dataset registry whose files a
mirror directory (``file://`` or a loopback HTTP server) serves, and the checks that nothing
partial was left behind.

Add a case: build the faulty bytes, ``tiny(files, **entry)``, run the step, assert the error
class, what its message names (dataset, file, line) and :func:`assert_nothing_partial`.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from rlsbench.benchmark.datasets import download, fetch, prepare
from rlsbench.benchmark.datasets.registry import Registry, _spec

#: Registry fields per format for a tiny dataset (files added by the factory).
FORMATS = {
    "libsvm": {
        "task": "binary",
        "format": "libsvm",
        "read": {"n_features": 3},
        "labels": {"positive": [1], "negative": [-1]},
        "expected": {"n_samples": 4, "n_features": 3},
    },
    "csv": {
        "task": "binary",
        "format": "uci-csv",
        "read": {"sep": ",", "header": False, "target": -1},
        "labels": {"positive": ["g"], "negative": ["b"]},
        "expected": {"n_samples": 4, "n_features": 2},
    },
    "multiclass-csv": {
        "task": "multiclass",
        "format": "uci-csv",
        "read": {"sep": ",", "header": False, "target": -1},
        "labels": {"classes": [0, 1, 2]},
        "expected": {"n_samples": 4, "n_features": 2},
    },
    "dense": {
        "task": "regression",
        "format": "dense-text",
        "read": {"sep": "whitespace", "header": False, "target": 0},
        "expected": {"n_samples": 4, "n_features": 2},
    },
    "arff": {
        "task": "regression",
        "format": "arff",
        "read": {"target": "y"},
        "expected": {"n_samples": 4, "n_features": 4},
    },
    "idx": {
        "task": "multiclass",
        "format": "idx",
        "read": {"pairs": [{"images": "img", "labels": "lab"}]},
        "labels": {"classes": [0, 1]},
        "expected": {"n_samples": 3, "n_features": 4},
    },
}

#: Good content per format (the faults are edits of these).
GOOD = {
    "libsvm": b"+1 1:0.5 3:2\n-1 2:1.5\n+1 1:1 2:2 3:3\n-1 3:-1\n",
    "csv": b"1.0,2.0,g\n2.0,1.0,b\n3.0,0.5,g\n0.5,3.0,b\n",
    "multiclass-csv": b"1.0,2.0,0\n2.0,1.0,1\n3.0,0.5,2\n0.5,3.0,1\n",
    "dense": b"1.5 1.0 2.0\n2.5 2.0 1.0\n0.5 3.0 0.5\n1.0 0.5 3.0\n",
    "arff": (
        b"% a comment\n@relation r\n@attribute a numeric\n@attribute b numeric\n"
        b"@attribute c {x,y}\n@attribute y numeric\n@data\n"
        b"1,2,x,0.5\n3,4,y,1.5\n% between rows\n5,6,x,2.5\n7,8,y,3.5\n"
    ),
}


def digest_of_content(data: bytes) -> str:
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    elif data[:3] == b"BZh":
        data = bz2.decompress(data)
    return hashlib.sha256(data).hexdigest()


@dataclass
class Tiny:
    """One tiny dataset: its registry, the mirror serving it, and a cache to fetch into."""

    name: str
    registry: Registry
    mirror: Path
    cache: Path

    @property
    def spec(self):
        return self.registry[self.name]

    @property
    def raw_dir(self) -> Path:
        return self.cache / "raw" / self.name

    @property
    def output(self) -> Path:
        return self.cache / "prepared" / f"{self.name}.npz"

    def download(self, mirrors=None, **kwargs):
        kwargs.setdefault("retries", 1)
        return download(self.spec, self.raw_dir, mirrors=mirrors or [self.mirror], **kwargs)

    def prepare(self):
        return prepare(self.spec, self.raw_dir, self.output)

    def fetch(self, mirrors=None, **kwargs):
        kwargs.setdefault("retries", 1)
        return fetch(
            self.name,
            cache_dir=self.cache,
            mirrors=mirrors or [self.mirror],
            registry=self.registry,
            **kwargs,
        )

    def registry_file(self) -> Path:
        """This dataset as a user registry file (for the CLI's ``--registry-extra``)."""
        entry = self.spec.to_dict()
        for f in entry["files"]:
            f.pop("reference")
            if not f["upstream"]:
                f.pop("upstream")
        entry = {k: v for k, v in entry.items() if k not in ("name", "registry") and v != {}}
        path = self.cache.parent / f"{self.name}-registry.yaml"
        path.write_text(yaml.safe_dump({"version": 1, "datasets": {self.name: entry}}))
        return path


@pytest.fixture
def tiny(tmp_path):
    """Factory: ``tiny(files, kind=..., pin=None, name="tiny", **entry overrides)``.

    ``files`` maps file name -> bytes put in the mirror; ``pin`` maps file name -> the bytes the
    registry's digests describe (default: the served bytes, so the fault reaches the reader).
    """

    def make(files, kind="csv", *, pin=None, name="tiny", **overrides) -> Tiny:
        mirror = tmp_path / "mirror"
        (mirror / name).mkdir(parents=True, exist_ok=True)
        pin = {**files, **(pin or {})}
        specs = []
        for fname, data in files.items():
            (mirror / name / fname).write_bytes(data)
            specs.append(
                {
                    "name": fname,
                    "mirror": f"{name}/{fname}",
                    "upstream": [],
                    "sha256": hashlib.sha256(pin[fname]).hexdigest(),
                    "content_sha256": digest_of_content(pin[fname]),
                }
            )
        entry = {"description": "fault case", "preprocessing": "none", **FORMATS[kind]}
        entry.update(files=specs, **overrides)
        registry = Registry()
        registry.path, registry.sources = "fault suite", ["fault suite"]
        registry[name] = _spec(name, entry, source="fault suite")
        return Tiny(name, registry, mirror, tmp_path / "cache")

    return make


def partial_files(root: Path) -> list:
    """Temporary, lock or half-written files under ``root`` (hidden names, ``.tmp`` parts)."""
    if not root.exists():
        return []
    return sorted(
        p for p in root.rglob("*") if p.is_file() and (p.name.startswith(".") or ".tmp" in p.name)
    )


def assert_nothing_partial(tiny: Tiny, *, prepared=False, raw_complete=None) -> None:
    """No temporary/lock file anywhere in the cache; the prepared file exists only if expected;
    ``verified.json`` exists only if the raw download completed (``raw_complete``)."""
    assert partial_files(tiny.cache) == []
    assert tiny.output.exists() == prepared
    if not prepared and tiny.output.parent.exists():
        assert list(tiny.output.parent.iterdir()) == []
    if raw_complete is not None:
        assert (tiny.raw_dir / "verified.json").exists() == raw_complete
