"""No raw traceback from the CLI: every bad input ends with one readable line naming the
file, line, key or parameter, and a non-zero exit status; options are range-checked by the
parser. The commands run as a user runs them (``python -m rlsbench`` in a subprocess)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import GOOD


def rlsbench(*args, cwd=None, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "rlsbench", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
    )


def error_line(run) -> str:
    """The stderr of a failed command: exactly one line, no traceback."""
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--timeout", "0", "argument --timeout: '0' is out of range: must be > 0"),
        ("--timeout", "-3", "argument --timeout: '-3' is out of range: must be > 0"),
        ("--retries", "0", "argument --retries: '0' is out of range: must be >= 1"),
        ("--retries", "1.5", "argument --retries: '1.5' is not an integer"),
        ("--backoff", "-1", "argument --backoff: '-1' is out of range: must be >= 0"),
        ("--deadline", "nan", "argument --deadline: 'nan' is not a finite number"),
        ("--deadline", "soon", "argument --deadline: 'soon' is not a number"),
    ],
)
def test_out_of_range_options_are_refused_by_the_parser(option, value, message):
    run = rlsbench("datasets", "fetch", "heart", option, value)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines()[-1].endswith(message)


def test_unknown_dataset(tmp_path):
    line = error_line(rlsbench("datasets", "fetch", "no-such-set", "--cache-dir", tmp_path))
    assert line.startswith("rlsbench: error: unknown dataset 'no-such-set'")
    assert "registry.yaml" in line and "australian" in line


def test_bad_registry_file_names_file_and_line(tmp_path):
    bad = tmp_path / "mine.yaml"
    bad.write_text("version: 1\ndatasets:\n  x:\n    task: [binary\n")
    line = error_line(rlsbench("datasets", "--registry-extra", bad, "list"))
    assert f"file '{bad}', line 5: invalid YAML" in line


def test_unreadable_registry_file(tmp_path):
    line = error_line(rlsbench("datasets", "--registry-extra", tmp_path, "list"))
    assert f"file '{tmp_path}': cannot read registry file" in line


def test_hash_of_a_missing_file(tmp_path):
    line = error_line(rlsbench("datasets", "hash", tmp_path / "nope.csv"))
    assert line == f"rlsbench: error: file '{tmp_path / 'nope.csv'}': not a readable file"


def test_hash_of_a_corrupt_archive(tmp_path):
    import gzip

    path = tmp_path / "data.csv.gz"
    path.write_bytes(gzip.compress(GOOD["csv"] * 100)[:-30])
    line = error_line(rlsbench("datasets", "hash", path))
    assert f"file '{path}'" in line and "truncated .gz stream" in line


def test_prepare_step_with_damaged_cache(tiny):
    t = tiny({"data": GOOD["csv"]})
    t.fetch()
    (t.raw_dir / "verified.json").write_text("{")
    line = error_line(
        rlsbench(
            "datasets",
            "--registry-extra",
            t.registry_file(),
            "prepare",
            "tiny",
            "--raw-dir",
            t.raw_dir,
            "--output",
            t.cache / "again.npz",
        )
    )
    assert "dataset 'tiny'" in line and "verified.json" in line and "rm -r" in line
    assert not (t.cache / "again.npz").exists()


def test_fetch_remakes_a_corrupt_cached_file(tiny):
    t = tiny({"data": GOOD["csv"]})
    t.fetch()
    t.output.write_bytes(b"PK\x03\x04 not really a zip")
    run = rlsbench(
        "datasets",
        "--registry-extra",
        t.registry_file(),
        "fetch",
        "tiny",
        "--cache-dir",
        t.cache,
        "--mirror",
        t.mirror,
    )
    assert run.returncode == 0, run.stderr
    assert "is not usable" in run.stderr and "making it again" in run.stderr
    assert run.stdout.strip() == str(t.output)


def test_download_failure_names_every_url(tiny):
    t = tiny({"data": GOOD["csv"]}, pin={"data": GOOD["csv"] + b"\n"})
    run = rlsbench(
        "datasets",
        "--registry-extra",
        t.registry_file(),
        "fetch",
        "tiny",
        "--cache-dir",
        t.cache,
        "--mirror",
        t.mirror,
        "--retries",
        "1",
    )
    assert run.returncode == 1 and "Traceback" not in run.stderr
    first = run.stderr.splitlines()[0]
    assert first.startswith("rlsbench: error: dataset 'tiny', file 'data': could not download")
    assert f"{t.mirror.as_uri()}/tiny/data: checksum mismatch" in run.stderr


def test_version():
    run = rlsbench("--version")
    assert run.returncode == 0 and run.stdout.strip().startswith("rlsbench ")


def test_a_registry_that_is_no_mapping_is_one_short_line(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("some notes " * 200)
    line = error_line(rlsbench("datasets", "--registry-extra", bad, "list"))
    assert f"file '{bad}', line 1: registry entry does not match the schema at <root>" in line
    assert "is not of type 'object'" in line and len(line) < 300


def test_unwritable_cache_directory(tmp_path):
    (tmp_path / "file").write_text("not a directory")
    line = error_line(rlsbench("datasets", "fetch", "wine", "--cache-dir", tmp_path / "file" / "c"))
    assert line == f"rlsbench: error: {tmp_path / 'file' / 'c' / 'raw'}: Not a directory"
