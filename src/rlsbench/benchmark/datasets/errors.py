"""Errors of the dataset pipeline.

Each names the dataset, the file and, where it applies, the line.
"""

from __future__ import annotations

from rlsbench.errors import RLSBenchError


class DatasetError(RuntimeError, RLSBenchError):
    """A dataset could not be downloaded, verified or prepared.

    Parameters
    ----------
    message : str
        What went wrong, in words.
    dataset : str, optional
        Registry name of the dataset.
    file : str, optional
        File (path or registry file name) the problem was found in.
    line : int, optional
        1-based line number in ``file`` (decompressed content) where it applies.
    """

    def __init__(self, message, *, dataset=None, file=None, line=None):
        self.reason = message
        self.dataset = dataset
        self.file = None if file is None else str(file)
        self.line = line
        where = []
        if dataset is not None:
            where.append(f"dataset {dataset!r}")
        if file is not None:
            where.append(f"file {str(file)!r}")
        if line is not None:
            where.append(f"line {line}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class RegistryError(DatasetError):
    """A registry file (built-in or a user's) is invalid, clashes, or lacks the dataset."""


class DownloadError(DatasetError):
    """Every candidate URL failed (unreachable, 404, bad content).

    The message lists each URL and its failure.
    """


class IntegrityError(DatasetError):
    """Stored bytes and decompressed content both disagree with the registry (or cannot be read)."""


class FormatError(DatasetError):
    """A file's content cannot be parsed into the expected dataset (malformed line, bad label)."""
