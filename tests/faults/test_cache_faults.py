"""A damaged cache is never trusted: ``fetch``/``load`` make it again; the workflow's
``prepare`` step (which cannot re-download) reports it with the command that fixes it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rlsbench.benchmark.datasets import IntegrityError, load, load_prepared

from .conftest import GOOD, assert_nothing_partial


@pytest.fixture
def fetched(tiny):
    t = tiny({"data": GOOD["csv"]})
    assert t.fetch() == t.output
    return t


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda p: p.write_text('{"dataset": "tiny", "files": [{"na'), id="truncated"),
        pytest.param(lambda p: p.write_text("[]"), id="wrong-shape"),
        pytest.param(lambda p: p.write_text('{"files": [{"name": "data"}]}'), id="missing-keys"),
        pytest.param(lambda p: p.write_bytes(b"\xff\xfe\x00"), id="binary-garbage"),
    ],
)
def test_damaged_verified_json_is_reported_with_the_fix(fetched, damage):
    damage(fetched.raw_dir / "verified.json")
    fetched.output.unlink()
    with pytest.raises(IntegrityError, match="damaged download record") as err:
        fetched.prepare()
    assert err.value.dataset == "tiny" and err.value.file.endswith("verified.json")
    assert f"rm -r {fetched.raw_dir}" in str(err.value)
    assert "rlsbench datasets fetch tiny --force" in str(err.value)
    assert_nothing_partial(fetched)


def test_damaged_verified_json_is_remade_by_fetch(fetched):
    (fetched.raw_dir / "verified.json").write_text("{not json")
    fetched.output.unlink()
    assert fetched.fetch() == fetched.output
    record = json.loads((fetched.raw_dir / "verified.json").read_text())
    assert record["files"][0]["url"] == "cached"  # the verified raw file was kept
    assert_nothing_partial(fetched, prepared=True, raw_complete=True)


def test_raw_file_changed_after_verification_is_reported(fetched):
    (fetched.raw_dir / "data").write_bytes(GOOD["csv"].replace(b"3.0", b"3.5"))
    fetched.output.unlink()
    with pytest.raises(IntegrityError, match="raw file changed since it was verified") as err:
        fetched.prepare()
    assert err.value.file.endswith("data") and "rm -r" in str(err.value)
    assert_nothing_partial(fetched)
    # fetch re-verifies, fetches the file again and prepares
    fetched.fetch()
    np.testing.assert_array_equal(load_prepared(fetched.output).X[2], [3.0, 0.5])


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda b: b[: len(b) // 2], id="truncated-npz"),
        pytest.param(lambda b: b[:40] + bytes(200) + b[240:], id="corrupted-npz"),
        pytest.param(lambda b: b"", id="empty-npz"),
    ],
)
def test_corrupted_prepared_file_is_reported_then_remade(fetched, damage):
    fetched.output.write_bytes(damage(fetched.output.read_bytes()))
    with pytest.raises(IntegrityError, match="cannot read the prepared file") as err:
        load_prepared(fetched.output)
    assert err.value.file == str(fetched.output)
    assert f"rm {fetched.output}" in str(err.value) and "fetch tiny --force" in str(err.value)
    ds = load("tiny", cache_dir=fetched.cache, mirrors=[fetched.mirror], registry=fetched.registry)
    assert ds.X.shape == (4, 2)
    assert_nothing_partial(fetched, prepared=True, raw_complete=True)


def test_cached_file_of_another_registry_version_is_remade(tiny):
    old = tiny({"data": GOOD["csv"]})
    old.fetch()
    new = tiny({"data": GOOD["csv"] + b"4.0,4.0,g\n"}, expected={"n_samples": 5, "n_features": 2})
    assert new.output == old.output  # same cache, same name, different registered content
    new.fetch()
    assert load_prepared(new.output).X.shape == (5, 2)
    assert_nothing_partial(new, prepared=True, raw_complete=True)


def test_missing_prepared_file_is_a_dataset_error(tmp_path):
    from rlsbench.benchmark.datasets import DatasetError

    with pytest.raises(DatasetError, match="prepared file not found; run the prepare step"):
        load_prepared(tmp_path / "nope.npz")
