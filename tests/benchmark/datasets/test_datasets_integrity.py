"""Integrity: content pinned, stored bytes as a shortcut; truncated/corrupt/empty files rejected."""

import bz2
import gzip
import hashlib

import pytest

from rlsbench.benchmark.datasets import IntegrityError
from rlsbench.benchmark.datasets.integrity import content_sha256, sha256_file, verify_file

CONTENT = b"".join(b"%+d 1:%d.5 3:%d\n" % ((-1) ** i, i, i * 7) for i in range(2000))
PIN = hashlib.sha256(CONTENT).hexdigest()


@pytest.fixture
def stored(tmp_path):
    """The 'reference mirror' copy: bz2 at level 9, with its stored-bytes digest."""
    path = tmp_path / "ref.bz2"
    path.write_bytes(bz2.compress(CONTENT, 9))
    return path, sha256_file(path)


def test_identical_copy_passes_by_stored_digest(stored):
    path, digest = stored
    assert verify_file(path, digest, PIN) == "stored"


@pytest.mark.parametrize(
    "pack",
    [lambda b: bz2.compress(b, 1), lambda b: gzip.compress(b, 3), lambda b: b],
    ids=["bz2-level1", "gzip", "uncompressed"],
)
def test_recompressed_same_content_passes_by_content_digest(tmp_path, stored, pack):
    _, digest = stored
    other = tmp_path / "other"
    other.write_bytes(pack(CONTENT))
    assert sha256_file(other) != digest
    assert verify_file(other, digest, PIN) == "content"


def test_truncated_bz2_is_named_truncated(tmp_path, stored):
    path, digest = stored
    cut = tmp_path / "cut.bz2"
    cut.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(IntegrityError, match=r"truncated \.bz2") as err:
        verify_file(cut, digest, PIN, dataset="demo")
    assert err.value.dataset == "demo" and err.value.file.endswith("cut.bz2")


def test_truncated_gz_is_named_truncated(tmp_path, stored):
    _, digest = stored
    cut = tmp_path / "cut.gz"
    cut.write_bytes(gzip.compress(CONTENT)[:-20])
    with pytest.raises(IntegrityError, match=r"truncated \.gz"):
        verify_file(cut, digest, PIN)


def test_corrupted_content_is_a_checksum_mismatch(tmp_path, stored):
    _, digest = stored
    bad = tmp_path / "bad"
    bad.write_bytes(CONTENT.replace(b"1:7.5", b"1:8.5", 1))
    with pytest.raises(IntegrityError, match="checksum mismatch") as err:
        verify_file(bad, digest, PIN, dataset="demo")
    assert PIN in str(err.value) and "'demo'" in str(err.value)


def test_corrupted_compressed_stream_is_rejected(tmp_path, stored):
    path, digest = stored
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "flip.bz2"
    bad.write_bytes(bytes(data))
    with pytest.raises(IntegrityError, match="corrupt|checksum mismatch|truncated"):
        verify_file(bad, digest, PIN)


def test_empty_file_is_rejected(tmp_path, stored):
    _, digest = stored
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    with pytest.raises(IntegrityError, match="empty file"):
        verify_file(empty, digest, PIN)


def test_content_digest_ignores_packaging(tmp_path):
    a, b = tmp_path / "a.gz", tmp_path / "b"
    a.write_bytes(gzip.compress(CONTENT, 9))
    b.write_bytes(CONTENT)
    assert content_sha256(a) == content_sha256(b) == PIN
