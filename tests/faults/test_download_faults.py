"""Bad bytes on the wire and servers that misbehave: every download is refused with a
DownloadError naming dataset, file and each URL with its failure; nothing partial is kept."""

from __future__ import annotations

import bz2
import gzip
import time

import pytest

from rlsbench.benchmark.datasets import DownloadError
from rlsbench.benchmark.datasets._testing import serve_directory
from rlsbench.benchmark.datasets.locking import dataset_lock

from .conftest import GOOD, assert_nothing_partial

GZ = gzip.compress(GOOD["csv"] * 200, mtime=0)
BZ2 = bz2.compress(GOOD["csv"] * 200)


def _flip(data: bytes, at: int) -> bytes:
    out = bytearray(data)
    out[at] ^= 0xFF
    return bytes(out)


@pytest.mark.parametrize(
    ("served", "pinned", "message"),
    [
        pytest.param(
            GOOD["csv"].replace(b"3.0", b"3.1"),
            GOOD["csv"],
            "checksum mismatch: content",
            id="wrong-checksum",
        ),
        pytest.param(
            b"<!DOCTYPE html>\n<html><body>Rate limited</body></html>\n",
            GOOD["csv"],
            r"checksum mismatch \(the file is an HTML page, not data",
            id="html-page",
        ),
        pytest.param(
            _flip(GZ, len(GZ) // 2), GZ, r"corrupt or unreadable \.gz stream", id="corrupt-gzip"
        ),
        pytest.param(GZ[: len(GZ) // 2], GZ, r"truncated \.gz stream", id="truncated-gzip"),
        pytest.param(BZ2[: len(BZ2) // 2], BZ2, r"truncated \.bz2 stream", id="truncated-bz2"),
        pytest.param(b"", GOOD["csv"], r"empty file \(0 bytes\)", id="empty-download"),
    ],
)
def test_bad_bytes_over_http_are_refused(tiny, served, pinned, message):
    t = tiny({"data": served}, pin={"data": pinned})
    with serve_directory(t.mirror) as url, pytest.raises(DownloadError, match=message) as err:
        t.download(mirrors=[url])
    assert (err.value.dataset, err.value.file) == ("tiny", "data")
    assert f"  - {url}/tiny/data: " in str(err.value)
    assert not (t.raw_dir / "data").exists()
    assert_nothing_partial(t, raw_complete=False)


def test_trickling_server_is_cut_by_the_overall_deadline(tiny):
    """One byte every 50 ms never trips the per-operation timeout; the deadline stops it."""
    t = tiny({"data": GOOD["csv"] * 20})  # 600 bytes: 30 s at this pace
    start = time.monotonic()
    with serve_directory(t.mirror, chunk=1, delay=0.05) as url:
        with pytest.raises(DownloadError, match="overall download deadline exceeded"):
            t.download(mirrors=[url], timeout=10, deadline=1.0)
    assert time.monotonic() - start < 8
    assert_nothing_partial(t, raw_complete=False)
    assert not (t.raw_dir / "data").exists()


def test_deadline_skips_the_urls_not_reached(tiny):
    t = tiny({"data": GOOD["csv"] * 20})
    with serve_directory(t.mirror, chunk=1, delay=0.05) as slow:
        with pytest.raises(DownloadError) as err:
            t.download(mirrors=[slow, t.mirror], timeout=10, deadline=0.5)
    assert "not tried: overall download deadline exceeded" in str(err.value)


def test_waiting_for_another_fetch_is_bounded_by_the_deadline(tiny):
    t = tiny({"data": GOOD["csv"]})
    start = time.monotonic()
    with dataset_lock(t.raw_dir, timeout=1) as lock:
        import threading

        errors = []

        def other():  # a second fetch, in another thread, while this one holds the lock
            try:
                t.download(deadline=0.5)
            except DownloadError as exc:
                errors.append(exc)

        thread = threading.Thread(target=other)
        thread.start()
        thread.join(timeout=10)
        assert not thread.is_alive()
        assert lock.exists()
    assert len(errors) == 1 and "has held the lock" in str(errors[0])
    assert errors[0].dataset == "tiny"
    assert time.monotonic() - start < 5
    assert_nothing_partial(t, raw_complete=False)  # and the lock file went with its holder


def test_leftover_temp_file_of_a_killed_run_is_cleared(tiny):
    t = tiny({"data": GOOD["csv"]})
    t.raw_dir.mkdir(parents=True)
    (t.raw_dir / ".data.abc123.tmp").write_bytes(b"half")
    t.download()
    assert sorted(p.name for p in t.raw_dir.iterdir()) == ["data", "verified.json"]
    assert_nothing_partial(t, raw_complete=True)
