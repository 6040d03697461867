"""Download raw files: configured mirrors first, then upstream URLs; verify; write atomically.

A dataset's raw files land in ``<raw_dir>/<file name>``; each appears under its final name only
after its content verified (:mod:`.integrity`). ``<raw_dir>/verified.json`` — the record of where
each file came from and its digests — is written last, atomically: its presence marks a complete
download, so an interrupted run leaves nothing that looks finished, and a rerun keeps the files
that already verify and fetches only the rest.

One download of a dataset runs at a time (:mod:`.locking`), and each has an overall deadline
(``deadline`` seconds for all its files, URLs and attempts) on top of the per-operation
``timeout``, so a server that trickles bytes cannot hold a fetch forever.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from rlsbench.benchmark._io import atomic_path
from rlsbench.benchmark.datasets.errors import DownloadError, IntegrityError
from rlsbench.benchmark.datasets.integrity import make_readable, sha256_file, verify_file
from rlsbench.benchmark.datasets.locking import dataset_lock
from rlsbench.benchmark.datasets.registry import DatasetSpec, FileSpec
from rlsbench.benchmark.progress import transfer_bar

log = logging.getLogger("rlsbench.benchmark.datasets")

MANIFEST_NAME = "verified.json"
# Defaults; the environment variables let a caller (a test, a CI job) tune every download
# without touching the workflow config.
DEFAULT_TIMEOUT = float(os.environ.get("RLSBENCH_DOWNLOAD_TIMEOUT", 60.0))
DEFAULT_RETRIES = int(os.environ.get("RLSBENCH_DOWNLOAD_RETRIES", 3))
DEFAULT_BACKOFF = float(os.environ.get("RLSBENCH_DOWNLOAD_BACKOFF", 1.0))
DEFAULT_DEADLINE = float(os.environ.get("RLSBENCH_DOWNLOAD_DEADLINE", 3600.0))
_CHUNK = 1 << 20
# HTTP statuses worth retrying (the others, e.g. 404, are permanent for that URL).
_TRANSIENT_HTTP = {408, 425, 429, 500, 502, 503, 504}


def resolve_mirror(mirror: str, root=None) -> str:
    """Base URL of a mirror: ``http(s)://`` and ``file://`` as given, a path resolved against root.

    Parameters
    ----------
    mirror : str
        ``http://host/path``, ``https://...``, ``file:///abs/path`` or a filesystem path (absolute,
        ``~``-prefixed, or relative to ``root``).
    root : path-like, optional
        Directory relative mirror paths are resolved against: the current directory by default
        (the workflow passes its own directory).
    """
    mirror = str(mirror).strip()
    scheme = urllib.parse.urlsplit(mirror).scheme.lower()
    if scheme in ("http", "https", "ftp", "file"):
        return mirror.rstrip("/")
    path = Path(mirror).expanduser()
    if not path.is_absolute():
        path = Path(root if root is not None else Path.cwd()) / path
    return path.resolve().as_uri().rstrip("/")


def candidate_urls(file: FileSpec, mirrors=(), root=None) -> list[str]:
    """Every URL to try for ``file``, in order: each mirror (by its mirror path), the local copy
    a user registry names, then the upstream URLs."""
    urls = []
    if file.mirror:
        for mirror in mirrors:
            base = resolve_mirror(mirror, root)
            urls.append(f"{base}/{urllib.parse.quote(file.mirror)}")
    if file.path:
        urls.append(Path(file.path).as_uri())
    urls.extend(file.upstream)
    return urls


class _Failure(Exception):
    def __init__(self, message, transient):
        super().__init__(message)
        self.transient = transient


def _remaining(stop) -> float:
    return float("inf") if stop is None else stop - time.monotonic()


def _fetch_once(url: str, dest: Path, timeout: float, stop=None) -> None:
    left = _remaining(stop)
    if left <= 0:
        raise _Failure("overall download deadline exceeded before this attempt", False)
    try:
        with urllib.request.urlopen(url, timeout=min(timeout, left)) as response:
            expected = (
                response.headers.get("Content-Length") if hasattr(response, "headers") else None
            )
            # read1: at most one read from the socket per call, so the deadline is checked
            # between the small pieces a trickling server sends
            read = getattr(response, "read1", response.read)
            received = 0
            total = int(expected) if expected is not None and expected.isdigit() else None
            bar = transfer_bar(Path(urllib.parse.urlsplit(url).path).name or url, total)
            try:
                with open(dest, "wb") as out:
                    while chunk := read(_CHUNK):
                        out.write(chunk)
                        received += len(chunk)
                        bar.update(len(chunk))
                        if _remaining(stop) <= 0:
                            raise _Failure(
                                f"overall download deadline exceeded after {received} bytes "
                                "(the server is too slow; raise the deadline to wait longer)",
                                False,
                            )
            finally:
                bar.close()
    except urllib.error.HTTPError as exc:
        raise _Failure(f"HTTP {exc.code} {exc.reason}", exc.code in _TRANSIENT_HTTP) from exc
    except urllib.error.URLError as exc:
        reason = exc.reason
        permanent = isinstance(reason, (FileNotFoundError, IsADirectoryError, PermissionError))
        raise _Failure(f"{type(reason).__name__}: {reason}", not permanent) from exc
    except TimeoutError as exc:
        raise _Failure(f"timed out after {min(timeout, left):g} s", True) from exc
    except (ConnectionError, http.client.HTTPException, OSError) as exc:
        raise _Failure(f"{type(exc).__name__}: {exc}", True) from exc
    if expected is not None and expected.isdigit() and int(expected) != received:
        raise _Failure(
            f"transfer truncated: received {received} of {expected} bytes (Content-Length)", True
        )


def fetch_url(
    url: str,
    dest,
    *,
    timeout=DEFAULT_TIMEOUT,
    retries=DEFAULT_RETRIES,
    backoff=DEFAULT_BACKOFF,
    stop=None,
) -> None:
    """Copy ``url`` to ``dest`` with up to ``retries`` attempts for transient failures.

    Waits ``backoff * 2**i`` seconds before retry ``i + 1``. Permanent failures (HTTP 404, a
    missing ``file://`` path, the deadline) are not retried. ``stop`` is the
    :func:`time.monotonic` time by which everything must be done (None: no deadline).

    Raises
    ------
    _Failure
        The last failure, with a one-line description.
    """
    attempts = max(1, int(retries))
    for attempt in range(attempts):
        try:
            _fetch_once(url, Path(dest), timeout, stop)
            return
        except _Failure as exc:
            # info, not warning: a download that fails in the end lists every URL's failure
            log.info("attempt %d/%d for %s failed: %s", attempt + 1, attempts, url, exc)
            if not exc.transient or attempt + 1 == attempts:
                if exc.transient and attempts > 1:
                    raise _Failure(f"{exc} (after {attempts} attempts)", True) from exc
                raise
            wait = float(backoff) * 2**attempt
            if wait >= _remaining(stop):
                raise _Failure(
                    f"{exc} (no time left for another attempt before the deadline)", False
                ) from exc
            time.sleep(wait)


def _describe_sources(file: FileSpec) -> str:
    if file.upstream:
        return ""
    hint = "\nNo upstream URL serves this exact content; configure a mirror (config key `mirrors`)"
    if file.reference:
        hint += f". Published (in another packaging) at: {', '.join(file.reference)}"
    return hint + "."


def download_file(
    dataset: str,
    file: FileSpec,
    raw_dir,
    *,
    mirrors=(),
    root=None,
    timeout=DEFAULT_TIMEOUT,
    retries=DEFAULT_RETRIES,
    backoff=DEFAULT_BACKOFF,
    stop=None,
) -> dict:
    """Fetch and verify one raw file into ``raw_dir/file.name`` (kept if it already verifies).

    ``stop``: the :func:`time.monotonic` deadline (see :func:`fetch_url`); URLs not reached by
    then are listed as not tried.

    Returns
    -------
    record : dict
        ``name``, ``url`` (where it came from, or ``"cached"``), ``sha256`` (stored bytes),
        ``content_sha256``, ``verified_by`` (``"stored"`` or ``"content"``), ``bytes``.

    Raises
    ------
    DownloadError
        Every candidate URL failed; the message lists each URL with its failure.
    """
    raw_dir = Path(raw_dir)
    target = raw_dir / file.name
    if target.exists():
        try:
            how = verify_file(target, file.sha256, file.content_sha256, dataset=dataset)
            log.info("%s: %s already present and verified (%s)", dataset, file.name, how)
            return _record(file, target, "cached", how)
        except IntegrityError as exc:
            log.warning(
                "%s: existing %s fails verification, fetching again: %s",
                dataset,
                file.name,
                exc.reason,
            )
            target.unlink()

    urls = candidate_urls(file, mirrors, root)
    failures = []
    for url in urls:
        if _remaining(stop) <= 0:
            failures.append((url, "not tried: overall download deadline exceeded"))
            continue
        log.info("%s: fetching %s from %s", dataset, file.name, url)
        try:
            # An exception inside atomic_path discards the temporary file: only a verified
            # download ever appears under the final name.
            with atomic_path(target) as tmp:
                fetch_url(url, tmp, timeout=timeout, retries=retries, backoff=backoff, stop=stop)
                how = verify_file(tmp, file.sha256, file.content_sha256, dataset=dataset)
                record = _record(file, tmp, url, how)
                make_readable(tmp)
        except _Failure as exc:
            failures.append((url, str(exc)))
            continue
        except IntegrityError as exc:
            failures.append((url, exc.reason))
            log.info("%s: %s from %s rejected: %s", dataset, file.name, url, exc.reason)
            continue
        log.info("%s: %s verified (%s) from %s", dataset, file.name, how, url)
        return record

    if not urls:
        detail = "no URL to try (no mirror configured and no upstream URL)."
    else:
        detail = f"all {len(urls)} URL(s) failed:\n" + "\n".join(
            f"  - {url}: {why}" for url, why in failures
        )
    raise DownloadError(
        f"could not download: {detail}{_describe_sources(file)}", dataset=dataset, file=file.name
    )


def _record(file: FileSpec, path: Path, url: str, how: str) -> dict:
    stored = sha256_file(path)
    return {
        "name": file.name,
        "url": url,
        "sha256": stored,
        "content_sha256": file.content_sha256,
        "verified_by": how,
        "bytes": path.stat().st_size,
    }


def download(
    spec: DatasetSpec,
    raw_dir,
    *,
    mirrors=(),
    root=None,
    timeout=DEFAULT_TIMEOUT,
    retries=DEFAULT_RETRIES,
    backoff=DEFAULT_BACKOFF,
    deadline=DEFAULT_DEADLINE,
) -> Path:
    """Fetch and verify every raw file of ``spec``; write ``raw_dir/verified.json`` last.

    Parameters
    ----------
    spec : DatasetSpec
        Registry entry (``spec.files`` must be non-empty).
    raw_dir : path-like
        Destination directory (``results/datasets/raw/<dataset>`` in the workflow).
    mirrors : sequence of str
        Mirror base URLs or paths (see :func:`resolve_mirror`), tried before the upstream URLs.
    root : path-like, optional
        Directory relative mirror paths are resolved against (default: the current directory).
    timeout : float
        Seconds per network operation.
    retries : int
        Attempts per URL for transient failures.
    backoff : float
        Initial wait in seconds between attempts (doubles each time).
    deadline : float
        Seconds the whole download may take (every file, URL and attempt, and the wait for
        another download of the same dataset).

    Returns
    -------
    Path
        The ``verified.json`` manifest.
    """
    raw_dir = Path(raw_dir)
    manifest = raw_dir / MANIFEST_NAME
    if not spec.files:
        raise DownloadError(f"format {spec.format!r} has no files to download", dataset=spec.name)
    stop = time.monotonic() + float(deadline)
    with dataset_lock(raw_dir, timeout=deadline, dataset=spec.name):
        raw_dir.mkdir(parents=True, exist_ok=True)
        # Under the lock no other download of this dataset runs, so any temporary file here is
        # what a killed earlier run left (never a final name).
        for f in spec.files:
            for leftover in raw_dir.glob(f".{f.name}.*"):
                leftover.unlink(missing_ok=True)
        records = [
            download_file(
                spec.name,
                f,
                raw_dir,
                mirrors=mirrors,
                root=root,
                timeout=timeout,
                retries=retries,
                backoff=backoff,
                stop=stop,
            )
            for f in spec.files
        ]
        with atomic_path(manifest) as tmp:
            tmp.write_text(json.dumps({"dataset": spec.name, "files": records}, indent=2) + "\n")
            make_readable(tmp)
    return manifest


def read_manifest(raw_dir) -> dict:
    """The ``verified.json`` of a completed download."""
    return json.loads((Path(raw_dir) / MANIFEST_NAME).read_text())
