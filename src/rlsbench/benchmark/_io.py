"""Atomic output: a file appears under its final name only once it is complete."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


@contextlib.contextmanager
def atomic_path(path, suffix: str | None = None):
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success.

    An exception (or a kill) leaves at most a ``.tmp`` file that never looks finished.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=suffix or f".tmp{path.suffix}", dir=path.parent
    )
    os.close(fd)
    tmp = Path(tmp)
    # mkstemp creates 0600; give the result the permissions a plain open() would have.
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def atomic_write_text(path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text)
