"""Datasets, second round (issue 29): duplicated column names and registry keys, a server that
trickles its headers, one mirror given as a str or a path, a full disk while preparing; then
an outside tester's cases on readers, registries and the ``rlsbench datasets`` CLI.

Each refusal is a named error whose message names the file, line, column, key or parameter,
and leaves nothing partial behind."""

from __future__ import annotations

import errno
import importlib
import socket
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import yaml

from rlsbench.benchmark import cli
from rlsbench.benchmark.datasets import (
    DatasetError,
    DownloadError,
    FormatError,
    RegistryError,
    candidate_urls,
    download,
    load,
    load_registry,
)
from rlsbench.benchmark.datasets import registry as registry_module

from .conftest import GOOD, assert_nothing_partial

# the package exports the function `download`, which hides the module of that name
download_module = importlib.import_module("rlsbench.benchmark.datasets.download")

DUPLICATED_TARGET = b"a1,a2,rej,a3,rej\n1,2,3,4,g\n2,3,4,5,b\n3,4,5,6,g\n4,5,6,7,b\n"


def _headed(target, n_features=3):
    """Entry overrides for a headed CSV of 4 rows whose target is named."""
    return {
        "read": {"sep": ",", "header": True, "target": target},
        "expected": {"n_samples": 4, "n_features": n_features},
    }


# ----------------------------------------------------------------------------------- issue 29
@pytest.mark.parametrize(
    ("data", "target", "name", "positions"),
    [
        pytest.param(DUPLICATED_TARGET, "rej", "rej", (3, 5), id="target-twice"),
        pytest.param(
            b"a,b,a,y\n1,2,3,g\n2,3,4,b\n3,4,5,g\n4,5,6,b\n", "y", "a", (1, 3), id="feature-twice"
        ),
        pytest.param(
            b"a, b ,b,y\n1,2,3,g\n2,3,4,b\n3,4,5,g\n4,5,6,b\n", "y", "b", (2, 3), id="after-strip"
        ),
    ],
)
def test_duplicated_header_name_is_refused_naming_file_line_and_both_columns(
    tiny, data, target, name, positions
):
    t = tiny({"data": data}, **_headed(target))
    t.download()
    with pytest.raises(FormatError) as err:
        t.prepare()
    assert (err.value.dataset, Path(err.value.file).name, err.value.line) == ("tiny", "data", 1)
    assert f"column name {name!r} appears twice in the header" in err.value.reason
    assert f"columns {positions[0]} and {positions[1]}" in err.value.reason
    assert_nothing_partial(t, raw_complete=True)


def test_datasets_hash_warns_about_a_duplicated_header_name(tmp_path, capsys):
    data = tmp_path / "user.csv"
    data.write_bytes(DUPLICATED_TARGET)
    assert cli.main(["datasets", "hash", str(data), "--target", "rej"]) == 0
    captured = capsys.readouterr()
    assert "rlsbench: warning:" in captured.err
    assert "column name 'rej' appears twice in the header (columns 3 and 5)" in captured.err
    assert "line 1" in captured.err
    assert "NOT READABLE AS GUESSED" in captured.out


def _entry_text(name: str) -> str:
    entry = {
        name: {
            "description": "d",
            "task": "regression",
            "format": "synthetic",
            "read": {"n_samples": 10, "n_features": 2},
            "expected": {"n_samples": 10, "n_features": 2},
            "preprocessing": "none",
        }
    }
    return yaml.safe_dump(entry, sort_keys=False)


def _line_numbers(text: str, line: str) -> list:
    return [i + 1 for i, s in enumerate(text.splitlines()) if s == line]


def _twice(name: str) -> str:
    body = _entry_text(name) + _entry_text(name)
    return "version: 1\ndatasets:\n" + "".join(f"  {s}\n" for s in body.splitlines())


@pytest.mark.parametrize("role", ["extra", "base", "builtin"])
def test_same_dataset_key_twice_in_a_registry_names_file_key_and_both_lines(
    tmp_path, monkeypatch, role
):
    text = _twice("mine")
    path = tmp_path / "twice.yaml"
    path.write_text(text)
    first, second = _line_numbers(text, "  mine:")
    with pytest.raises(RegistryError) as err:
        if role == "extra":
            load_registry(extra=[path])
        elif role == "base":
            load_registry(path)
        else:
            monkeypatch.setattr(registry_module, "builtin_registry_file", lambda: path)
            load_registry()
    assert (Path(err.value.file), err.value.line) == (path, second)
    assert "'datasets/mine' appears twice" in err.value.reason
    assert f"lines {first} and {second}" in err.value.reason


def test_a_nested_key_twice_in_a_registry_entry_is_refused(tmp_path):
    text = "version: 1\ndatasets:\n" + "".join(f"  {s}\n" for s in _entry_text("mine").splitlines())
    text += "    read: {n_samples: 20, n_features: 2}\n"
    path = tmp_path / "nested.yaml"
    path.write_text(text)
    first, second = _line_numbers(text, "    read:") + _line_numbers(
        text, "    read: {n_samples: 20, n_features: 2}"
    )
    with pytest.raises(RegistryError) as err:
        load_registry(extra=[path])
    assert err.value.line == second
    assert f"'datasets/mine/read' appears twice (lines {first} and {second})" in err.value.reason


class _TricklingHeaders:
    """A loopback server that sends a status line and then one header byte every ``delay``
    seconds, never ending the headers; it stops by itself after ``limit`` bytes."""

    def __init__(self, delay=0.2, limit=40):
        self.delay, self.limit = delay, limit
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/tiny/data"
        self.client_hung_up = threading.Event()
        self.sent_everything = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self):
        self.listener.settimeout(10)
        try:
            connection, _ = self.listener.accept()
        except OSError:
            return
        with connection:
            payload = b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * self.limit
            try:
                for byte in payload:
                    connection.sendall(bytes([byte]))
                    time.sleep(self.delay)
            except OSError:
                self.client_hung_up.set()
                return
            self.sent_everything.set()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.thread.join(timeout=30)
        self.listener.close()


def test_trickled_headers_are_cut_by_the_overall_deadline(tiny):
    """Each header byte arrives well within the 10 s per-operation timeout; only the 1.5 s
    deadline over the whole request can stop it, long before the server's 40 bytes (8 s)."""
    t = tiny({"data": GOOD["csv"]})
    with _TricklingHeaders() as server:
        with pytest.raises(DownloadError) as err:
            t.download(mirrors=[server.url.removesuffix("/tiny/data")], timeout=10, deadline=1.5)
    assert not server.sent_everything.is_set()
    assert (err.value.dataset, err.value.file) == ("tiny", "data")
    assert (
        f"  - {server.url}: overall download deadline exceeded before the response headers "
        "were complete" in str(err.value)
    )
    assert "overall download deadline was 1.5 s" in str(err.value)
    assert not (t.raw_dir / "data").exists()
    assert_nothing_partial(t, raw_complete=False)


@pytest.mark.parametrize("as_type", [str, Path], ids=["str", "Path"])
def test_one_mirror_given_as_str_or_path_is_one_mirror(tiny, as_type):
    t = tiny({"data": GOOD["csv"]})
    mirror = as_type(t.mirror)
    file = t.spec.files[0]
    assert candidate_urls(file, mirror) == [(t.mirror / "tiny" / "data").as_uri()]
    manifest = download(t.spec, t.raw_dir, mirrors=mirror, retries=1)
    assert manifest.exists()
    dataset = load("tiny", cache_dir=t.cache, mirrors=mirror, registry=t.registry, retries=1)
    assert dataset.X.shape == (4, 2)
    assert t.fetch(mirrors=mirror) == t.output


@pytest.mark.parametrize(
    ("mirrors", "message"),
    [
        pytest.param(5, "parameter `mirrors` must be a URL or path", id="int"),
        pytest.param([Path("m"), 5], "parameter `mirrors[1]` must be a URL or path", id="item"),
    ],
)
def test_mirrors_of_another_type_are_refused_naming_the_parameter(tiny, mirrors, message):
    t = tiny({"data": GOOD["csv"]})
    for call in (
        lambda: candidate_urls(t.spec.files[0], mirrors),
        lambda: download(t.spec, t.raw_dir, mirrors=mirrors),
        lambda: load("tiny", cache_dir=t.cache, mirrors=mirrors, registry=t.registry),
    ):
        with pytest.raises(DownloadError, match=message.replace("[", r"\[")):
            call()
    assert_nothing_partial(t, raw_complete=False)


def test_disk_full_while_writing_the_prepared_file_names_it(tiny, monkeypatch):
    t = tiny({"data": GOOD["csv"]})
    t.download()

    def full_disk(fh, **arrays):
        fh.write(b"PK\x03\x04 half an archive")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(np, "savez_compressed", full_disk)
    with pytest.raises(DatasetError) as err:
        t.prepare()
    assert (err.value.dataset, err.value.file) == ("tiny", str(t.output))
    assert "cannot write the prepared file: No space left on device" in err.value.reason
    assert isinstance(err.value.__cause__, OSError)
    assert err.value.__cause__.errno == errno.ENOSPC
    assert_nothing_partial(t, raw_complete=True)


# ----------------------------------------------------------------------------------- own cases
def test_hash_of_an_empty_file_names_the_file(tmp_path, capsys):
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"\n  \n")
    assert cli.main(["datasets", "hash", str(empty)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"rlsbench: error: file {str(empty)!r}: empty file (no data rows)"


def test_a_byte_that_is_not_utf8_is_named_by_line_and_column(tiny):
    data = b"a,b,y\n1,2,g\n2,3,b\n3,4,caf\xe9\n4,5,b\n"
    t = tiny({"data": data}, **_headed("y", n_features=2))
    t.download()
    with pytest.raises(FormatError) as err:
        t.prepare()
    assert (Path(err.value.file).name, err.value.line) == ("data", 4)
    assert "not UTF-8 text: byte b'\\xe9' at column 8" in err.value.reason
    assert_nothing_partial(t, raw_complete=True)


def test_a_name_twice_in_the_registry_column_names_is_refused(tiny):
    t = tiny(
        {"data": GOOD["csv"]},
        read={"sep": ",", "header": False, "target": "y", "column_names": ["a", "a", "y"]},
    )
    t.download()
    with pytest.raises(FormatError) as err:
        t.prepare()
    assert Path(err.value.file).name == "data"
    assert "registry key read.column_names lists 'a' twice" in err.value.reason
    assert_nothing_partial(t, raw_complete=True)


@pytest.mark.parametrize(
    "declaration",
    # scipy refuses the first without a line and takes the quoted one as a second feature "'a'"
    [b"@attribute a numeric", b"@attribute 'a' numeric"],
    ids=["plain", "quoted"],
)
def test_an_arff_attribute_declared_twice_is_named_by_both_lines(tiny, declaration):
    data = GOOD["arff"].replace(b"@attribute b numeric", declaration)
    t = tiny({"data": data}, kind="arff")
    t.download()
    with pytest.raises(FormatError) as err:
        t.prepare()
    assert (Path(err.value.file).name, err.value.line) == ("data", 4)
    assert "attribute 'a' declared twice (lines 3 and 4)" in err.value.reason
    assert_nothing_partial(t, raw_complete=True)


def test_a_utf8_byte_order_mark_does_not_hide_the_first_column_name(tiny):
    data = b"\xef\xbb\xbfy,a,b\ng,1,2\nb,2,1\ng,3,0.5\nb,0.5,3\n"
    t = tiny({"data": data}, **_headed("y", n_features=2))
    t.download()
    dataset = t.prepare()
    assert dataset.feature_names == ["a", "b"]
    assert dataset.y.tolist() == [1.0, -1.0, 1.0, -1.0]
    assert dataset.X[:, 0].tolist() == [1.0, 2.0, 3.0, 0.5]


def test_crlf_line_ends_read_like_lf(tiny):
    t = tiny({"data": GOOD["csv"].replace(b"\n", b"\r\n")})
    t.download()
    crlf = t.prepare()
    lf = tiny({"data": GOOD["csv"]}, name="lf")
    lf.download()
    expected = lf.prepare()
    assert crlf.y.tolist() == expected.y.tolist()
    np.testing.assert_array_equal(crlf.X, expected.X)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param(b"-1 2:1 2:3\n", "feature indices are not strictly increasing", id="twice"),
        pytest.param(b"-1 3:1 2:3\n", "feature indices are not strictly increasing", id="unsorted"),
        pytest.param(b"-1 0:1 2:3\n", r"feature index 0 < 1 \(indices are 1-based\)", id="zero"),
    ],
)
def test_libsvm_duplicated_unsorted_or_zero_index_is_named_by_line(tiny, line, message):
    lines = GOOD["libsvm"].splitlines(keepends=True)
    lines[3] = line
    t = tiny({"data": b"".join(lines)}, kind="libsvm")
    t.download()
    with pytest.raises(FormatError, match=message) as err:
        t.prepare()
    assert (Path(err.value.file).name, err.value.line) == ("data", 4)
    assert_nothing_partial(t, raw_complete=True)


def test_a_target_name_not_in_the_header_lists_the_columns(tiny):
    t = tiny({"data": b"a,b,y\n1,2,g\n2,1,b\n3,0.5,g\n0.5,3,b\n"}, **_headed("label"))
    t.download()
    with pytest.raises(FormatError) as err:
        t.prepare()
    assert Path(err.value.file).name == "data"
    assert "target column 'label' not found; columns: ['a', 'b', 'y']" in err.value.reason
    assert_nothing_partial(t, raw_complete=True)


class _FullDisk:
    """A file whose every write fails as on a full disk."""

    def __init__(self, fh):
        self.fh = fh

    def write(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    def close(self):
        self.fh.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@pytest.mark.parametrize("where", ["raw-file", "download-record"])
def test_disk_full_while_downloading_names_the_file_and_tries_no_other_url(
    tiny, monkeypatch, where
):
    t = tiny({"data": GOOD["csv"]})
    if where == "raw-file":
        written = t.raw_dir / "data"
        monkeypatch.setattr(
            download_module, "open", lambda path, mode: _FullDisk(open(path, mode)), raising=False
        )
    else:
        written = t.raw_dir / "verified.json"
        write_text = Path.write_text

        def full_disk(self, *args, **kwargs):
            if "verified.json" in self.name:
                raise OSError(errno.ENOSPC, "No space left on device")
            return write_text(self, *args, **kwargs)

        monkeypatch.setattr(Path, "write_text", full_disk)
    with pytest.raises(DatasetError) as err:
        t.download(mirrors=[t.mirror, t.mirror / "elsewhere"])
    assert not isinstance(err.value, DownloadError)  # the disk failed, not the URLs
    assert (err.value.dataset, err.value.file) == ("tiny", str(written))
    assert "No space left on device" in err.value.reason
    assert "URL(s) failed" not in str(err.value)
    assert_nothing_partial(t, raw_complete=False)
