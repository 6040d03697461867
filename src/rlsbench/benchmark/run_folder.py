"""The folders a run writes, checked before the first job: a results folder that cannot be
written is named in one line, not found by a job's traceback (or Snakemake's, when it lists the
outputs of a folder that is a file)."""

from __future__ import annotations

import os
from pathlib import Path


def unwritable(folder) -> str | None:
    """Why ``folder`` cannot be made and written, or None when it can.

    Nothing is created: the first part of ``folder`` that exists must be a folder this process
    may write into (and enter); a part that is a file, or a folder without write permission
    (or on a read-only file system), is named.

    Parameters
    ----------
    folder : str or Path
        A folder the run writes (relative to the working directory, or absolute).

    Returns
    -------
    str or None
        ``results folder <folder> cannot be written: <part> is a file, not a folder`` (or
        ``... <part> is not writable by this user``), one line.
    """
    folder = Path(folder)
    head = f"results folder {folder} cannot be written"
    for part in [folder, *folder.parents]:
        if not os.path.lexists(part):
            continue
        if not part.is_dir():
            what = "a file" if part.is_file() else "neither a folder nor a file"
            return f"{head}: {part} is {what}, not a folder"
        if not os.access(part, os.W_OK | os.X_OK):
            return f"{head}: {part} is not writable by this user (or is on a read-only disk)"
        return None
    return None
