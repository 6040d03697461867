"""Atomic output: a file appears under its final name only once it is complete."""

from __future__ import annotations

import contextlib
import glob
import os
import socket
import tempfile
from pathlib import Path


def _owner_tag() -> str:
    # host and pid in the temporary name: a later write can tell a dead writer's file
    return f"{socket.gethostname().replace('.', '_')}-{os.getpid()}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_temporaries(path, suffix: str | None = None) -> list[Path]:
    """Delete the temporary files of ``path`` left by writers of this host that died mid-write
    (a kill -9 between creating the file and renaming it); a live writer's file stays.

    Returns
    -------
    list of Path
        The files removed.
    """
    path = Path(path)
    suffix = suffix or f".tmp{path.suffix}"
    host = socket.gethostname().replace(".", "_")
    removed = []
    for other in path.parent.glob(f".{glob.escape(path.name)}.{glob.escape(host)}-*"):
        pid = other.name[len(f".{path.name}.{host}-") :].split(".", 1)[0]
        if other.name.endswith(suffix) and pid.isdigit() and not _alive(int(pid)):
            with contextlib.suppress(FileNotFoundError):
                other.unlink()
                removed.append(other)
    return removed


@contextlib.contextmanager
def atomic_path(path, suffix: str | None = None):
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success.

    An exception removes the temporary file; a kill leaves at most a hidden ``.tmp`` file that
    never looks finished, removed by the next successful write of ``path``
    (:func:`remove_stale_temporaries`).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{path.name}.{_owner_tag()}.",
        suffix=suffix or f".tmp{path.suffix}",
        dir=path.parent,
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
        remove_stale_temporaries(path, suffix)
    finally:
        if tmp.exists():
            tmp.unlink()


def atomic_write_text(path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text)
