"""The registry's collections (scikit-feature / NIPS 2003 / CRAN, and PMLB) against their mirrors.

The mirrors sit beside the repository (``../shared/datasets-highdim``, ``../shared/datasets-pmlb``,
laid out as each entry's ``mirror:`` path); tests that need their bytes skip without them.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from rlsbench.benchmark.datasets import load
from rlsbench.benchmark.datasets.errors import FormatError, RegistryError
from rlsbench.benchmark.datasets.matrix_files import read_mat, read_rdata
from rlsbench.benchmark.datasets.registry import (
    BUILTIN_COLLECTIONS,
    load_registry,
)

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared"
MIRRORS = [SHARED / "datasets", SHARED / "datasets-highdim", SHARED / "datasets-pmlb"]
REGISTRY = load_registry()
COLLECTION = {
    name: spec for name, spec in REGISTRY.items() if Path(spec.source).name in BUILTIN_COLLECTIONS
}
needs_mirrors = pytest.mark.skipif(
    not all(m.is_dir() for m in MIRRORS), reason=f"no dataset mirrors under {SHARED}"
)


def _mirror_file(mirror_path: str) -> Path | None:
    for root in MIRRORS:
        if (root / mirror_path).is_file():
            return root / mirror_path
    return None


def test_the_collections_hold_the_high_dimensional_and_pmlb_sets():
    sources = {Path(spec.source).name for spec in COLLECTION.values()}
    assert sources == set(BUILTIN_COLLECTIONS)
    high = [s for s in COLLECTION.values() if s.expected["n_features"] >= 1000]
    assert len(high) >= 18  # the scikit-feature microarray, text and face sets, riboflavin
    assert {s.format for s in COLLECTION.values()} == {"mat", "rdata", "uci-csv"}
    tasks = {s.task for s in COLLECTION.values()}
    assert tasks == {"binary", "multiclass", "regression"}


def test_upstream_urls_are_pinned_or_the_publishers_own():
    pinned = re.compile(r"/(raw/)?[0-9a-f]{40}/")
    for name, spec in COLLECTION.items():
        for file in spec.files:
            assert file.upstream, name
            first = file.upstream[0]
            assert pinned.search(first) or first.startswith(
                (
                    "https://jundongl.github.io/scikit-feature/",
                    "https://github.com/EpistasisLab/pmlb/raw/master/",
                )
            ), (name, first)
            assert pinned.search(file.upstream[-1]), (name, "the pinned URL is tried last")
            assert any(pinned.search(url) for url in file.upstream), (name, file.upstream)


@needs_mirrors
def test_every_collection_file_is_in_a_mirror_with_its_digest():
    missing, wrong = [], []
    for name, spec in COLLECTION.items():
        for file in spec.files:
            path = _mirror_file(file.mirror)
            if path is None:
                missing.append(name)
            elif hashlib.sha256(path.read_bytes()).hexdigest() != file.sha256:
                wrong.append(name)
    assert not missing and not wrong


@needs_mirrors
@pytest.mark.parametrize(
    "name",
    # one of each stored dtype and format: float64 / int16 (-1/+1 labels) / uint8 .mat files,
    # a data frame with a matrix column and two top-level R objects, PMLB binary, multiclass
    # (the thyroid family), regression and a deprecated-upstream set
    [
        "ALLAML",
        "colon",
        "Yale",
        "riboflavin",
        "eyedata",
        "pmlb-hepatitis",
        "pmlb-allbp",
        "pmlb-1089_USCrime",
        "pmlb-glass",
    ],
)
def test_entries_load_with_the_registered_shape_and_classes(name, tmp_path):
    spec = REGISTRY[name]
    ds = load(name, cache_dir=tmp_path, mirrors=[str(m) for m in MIRRORS])  # checks `expected`
    assert ds.X.dtype == np.float64 and np.isfinite(ds.X).all()
    assert ds.X.shape == (spec.expected["n_samples"], spec.expected["n_features"])
    if spec.task == "binary":
        assert set(np.unique(ds.y)) == {-1.0, 1.0}


@needs_mirrors
def test_uint8_pixels_are_cast_before_arithmetic():
    table = read_mat([SHARED / "datasets-highdim" / "Yale" / "Yale.mat"], dataset="Yale")
    assert table.X.dtype == np.float64
    # uint8 arithmetic would wrap: 255 + 1 == 0
    assert (table.X + 1).max() == table.X.max() + 1 > 255


@needs_mirrors
@pytest.mark.parametrize(
    "name", sorted(n for n, s in COLLECTION.items() if s.duplicate_of is not None)
)
def test_a_duplicate_holds_the_same_numbers_as_its_original(name, tmp_path):
    """Counted once: the PMLB copy of a registered set has its rows, in another order."""
    mirrors = [str(m) for m in MIRRORS]
    copy = load(name, cache_dir=tmp_path, mirrors=mirrors)
    original = load(REGISTRY[name].duplicate_of, cache_dir=tmp_path, mirrors=mirrors)

    def rows(ds):
        table = np.column_stack([ds.X, ds.y])
        return table[np.lexsort(table.T[::-1])]

    np.testing.assert_allclose(rows(copy), rows(original), rtol=0, atol=1e-12)


def test_families_group_one_source():
    families = {}
    for name, spec in REGISTRY.items():
        families.setdefault(spec.family, []).append(name)
    assert set(families["golub-leukemia"]) == {"ALLAML", "leukemia"}
    assert set(families["colon-cancer"]) == {"colon-cancer", "colon"}
    assert len(families["mfeat"]) == 5
    # a duplicate is in its original's family
    for name, spec in REGISTRY.items():
        if spec.duplicate_of:
            assert spec.family == REGISTRY[spec.duplicate_of].family, name


def test_duplicate_of_must_name_a_dataset_of_its_own(tmp_path):
    good = REGISTRY["ionosphere"].to_dict()
    entry = {
        k: good[k]
        for k in ("description", "task", "format", "read", "labels", "expected", "preprocessing")
    }
    entry["files"] = [
        {k: v for k, v in f.items() if k in ("name", "mirror", "upstream", "sha256")}
        for f in good["files"]
    ]
    user = tmp_path / "mine.yaml"
    import yaml

    user.write_text(
        yaml.safe_dump(
            {"version": 1, "datasets": {"iono2": {**entry, "duplicate_of": "no-such-set"}}}
        )
    )
    with pytest.raises(RegistryError, match="iono2.*no-such-set"):
        load_registry(extra=[user])


# ------------------------------------------------------------------------------ reader errors
@needs_mirrors
def test_a_mat_file_without_the_named_variable_names_what_it_holds(tmp_path):
    path = SHARED / "datasets-highdim" / "Yale" / "Yale.mat"
    with pytest.raises(FormatError, match=r"no variable 'fea' \(read option x\).*\['X', 'Y'\]"):
        read_mat([path], x="fea", dataset="Yale")


def test_a_file_that_is_not_matlab_is_named(tmp_path):
    path = tmp_path / "x.mat"
    path.write_bytes(b"not a matlab file at all, just text\n" * 10)
    with pytest.raises(FormatError, match=r"x\.mat.*not a readable MATLAB v5 file"):
        read_mat([path], dataset="x")


@needs_mirrors
def test_an_r_object_that_is_not_there_names_the_option_and_what_is(tmp_path):
    path = tmp_path / "riboflavin.RData"
    shutil.copy(SHARED / "datasets-highdim" / "riboflavin" / "riboflavin.RData", path)
    with pytest.raises(
        FormatError, match=r"no object 'riboflavin\$z' \(read option x.*\['x', 'y'\]"
    ):
        read_rdata([path], x="riboflavin$z", y="riboflavin$y", dataset="riboflavin")


def test_a_file_that_is_not_r_data_is_named(tmp_path):
    path = tmp_path / "bad.rda"
    path.write_bytes(b"RDX3\nthis is not serialised R\n")
    with pytest.raises(FormatError, match=r"bad\.rda.*not a readable R data file"):
        read_rdata([path], x="x", y="y", dataset="bad")
