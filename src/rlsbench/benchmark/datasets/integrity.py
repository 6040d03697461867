"""Integrity of raw files: pin the *content*, accept the stored bytes as a shortcut.

A registry file entry carries two SHA-256 digests:

``sha256``
    of the file exactly as the reference mirror stores it (a match is accepted at once);
``content_sha256``
    of the decompressed bytes (equal to ``sha256`` for an uncompressed file).

A file whose stored bytes differ (an upstream archive compressed with other settings, or the
uncompressed file where the mirror has a ``.gz``) is accepted when its decompressed content
matches. Compression is recognised by magic bytes, not by file name, so the same check covers
every packaging of the same content. A truncated or corrupt ``.gz``/``.bz2`` stream, an empty
file or different content is rejected with an :class:`IntegrityError`.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import lzma
import os
import zlib
from pathlib import Path

from rlsbench.benchmark.datasets.errors import IntegrityError

_CHUNK = 1 << 20
_MAGIC = {b"\x1f\x8b": "gz", b"BZh": "bz2", b"\xfd7zXZ\x00": "xz"}


def make_readable(path) -> None:
    """Give a finished file the usual permissions (``mkstemp`` creates 0600): 0666 minus umask."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def compression_of(path) -> str | None:
    """Return ``"gz"``, ``"bz2"``, ``"xz"`` or None, from the file's magic bytes."""
    with open(path, "rb") as fh:
        head = fh.read(6)
    for magic, kind in _MAGIC.items():
        if head.startswith(magic):
            return kind
    return None


def open_content(path):
    """Open ``path`` for binary reading, transparently decompressing gz/bz2/xz by magic bytes."""
    kind = compression_of(path)
    if kind == "gz":
        return gzip.open(path, "rb")
    if kind == "bz2":
        return bz2.open(path, "rb")
    if kind == "xz":
        return lzma.open(path, "rb")
    return open(path, "rb")


def read_content(path, *, dataset=None) -> bytes:
    """Return the decompressed bytes of ``path``.

    A truncated or corrupt stream is an :class:`IntegrityError`.
    """
    try:
        with open_content(path) as fh:
            return fh.read()
    except (EOFError, OSError, zlib.error, lzma.LZMAError, ValueError) as exc:
        raise IntegrityError(_stream_problem(path, exc), dataset=dataset, file=path) from exc


def sha256_file(path) -> str:
    """SHA-256 of the stored bytes of ``path``."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def content_sha256(path, *, dataset=None) -> str:
    """SHA-256 of the decompressed content of ``path`` (streamed; checks the stream's end)."""
    digest = hashlib.sha256()
    try:
        with open_content(path) as fh:
            for chunk in iter(lambda: fh.read(_CHUNK), b""):
                digest.update(chunk)
    except (EOFError, OSError, zlib.error, lzma.LZMAError, ValueError) as exc:
        raise IntegrityError(_stream_problem(path, exc), dataset=dataset, file=path) from exc
    return digest.hexdigest()


def _stream_problem(path, exc) -> str:
    kind = compression_of(path) or "uncompressed"
    if isinstance(exc, EOFError):
        return f"truncated .{kind} stream (ended before its end-of-stream marker): {exc}"
    return f"corrupt or unreadable .{kind} stream: {type(exc).__name__}: {exc}"


def verify_file(path, sha256: str, content_sha256_expected: str, *, dataset=None) -> str:
    """Check ``path`` against the registry digests.

    Parameters
    ----------
    path : path-like
        The file to check.
    sha256 : str
        Expected digest of the stored bytes (shortcut: accepted as is).
    content_sha256_expected : str
        Expected digest of the decompressed content (the pin).
    dataset : str, optional
        For error messages.

    Returns
    -------
    how : str
        ``"stored"`` (byte-identical to the reference copy) or ``"content"`` (same content,
        different packaging).

    Raises
    ------
    IntegrityError
        Empty file, truncated/corrupt compressed stream, or content that differs.
    """
    path = Path(path)
    if path.stat().st_size == 0:
        raise IntegrityError("empty file (0 bytes)", dataset=dataset, file=path)
    stored = sha256_file(path)
    if stored == sha256:
        return "stored"
    content = content_sha256(path, dataset=dataset)
    if content == content_sha256_expected:
        return "content"
    raise IntegrityError(
        f"checksum mismatch{_looks_like(path)}: content sha256 {content} (stored bytes "
        f"{stored}), expected content sha256 {content_sha256_expected} (or stored {sha256})",
        dataset=dataset,
        file=path,
    )


def _looks_like(path) -> str:
    """A hint when a server answered with a web page (an error or login page) instead of data."""
    with open(path, "rb") as fh:
        head = fh.read(512).lstrip().lower()
    if head.startswith((b"<!doctype html", b"<html", b"<?xml", b"<head", b"<body")):
        return " (the file is an HTML page, not data: the server sent an error or login page)"
    return ""
