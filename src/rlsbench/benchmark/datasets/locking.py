"""One writer per dataset: an exclusive ``flock`` on a lock file beside the dataset's directory.

Two fetches of the same dataset into one cache (two processes, or two threads) take turns: the
second waits, then finds the first one's verified files and only re-checks them. The lock is
held on an open file description, so a killed holder releases it at once and a stale lock file
never blocks anyone. The file is removed on release; a waiter that locked the removed file sees
that the path no longer names its file and tries again, so removal cannot let two holders in.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from pathlib import Path

from rlsbench.benchmark.datasets.errors import DownloadError

_POLL = 0.05
_held = threading.local()


def lock_path_for(directory) -> Path:
    """The lock file guarding ``directory`` (a dataset's raw directory): ``.<name>.lock`` beside
    it, so that the directory itself holds only data."""
    directory = Path(directory)
    return directory.parent / f".{directory.name}.lock"


def _held_set() -> set:
    if not hasattr(_held, "paths"):
        _held.paths = set()
    return _held.paths


@contextlib.contextmanager
def dataset_lock(directory, *, timeout: float, dataset=None):
    """Hold the exclusive lock of ``directory`` for the ``with`` block.

    Re-entrant within one thread (``fetch`` holds it around ``download``, which takes it too).

    Parameters
    ----------
    directory : path-like
        The dataset directory the lock guards (see :func:`lock_path_for`).
    timeout : float
        Seconds to wait for another holder before giving up.
    dataset : str, optional
        For the error message.

    Raises
    ------
    DownloadError
        Another holder kept the lock for longer than ``timeout``.
    """
    path = lock_path_for(directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    key = str(path.resolve())
    held = _held_set()
    if key in held:
        yield path
        return
    stop = time.monotonic() + float(timeout)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() > stop:
                raise DownloadError(
                    f"another fetch of this dataset has held the lock {path} for over "
                    f"{timeout:g} s; wait for it to finish (a killed holder releases the lock "
                    "by itself)",
                    dataset=dataset,
                ) from None
            time.sleep(_POLL)
            continue
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the previous holder removed this file on release: lock the new one
    held.add(key)
    try:
        yield path
    finally:
        held.discard(key)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        os.close(fd)
