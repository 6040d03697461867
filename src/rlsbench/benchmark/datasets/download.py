"""Download raw files: configured mirrors first, then upstream URLs; verify; write atomically.

A dataset's raw files land in ``<raw_dir>/<file name>``; each appears under its final name only
after its content verified (:mod:`.integrity`). ``<raw_dir>/verified.json`` — the record of where
each file came from and its digests — is written last, atomically: its presence marks a complete
download, so an interrupted run leaves nothing that looks finished, and a rerun keeps the files
that already verify and fetches only the rest.
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
from rlsbench.benchmark.datasets.registry import REPO_ROOT, DatasetSpec, FileSpec

log = logging.getLogger("rlsbench.benchmark.datasets")

MANIFEST_NAME = "verified.json"
# Defaults; the environment variables let a caller (a test, a CI job) tune every download
# without touching the workflow config.
DEFAULT_TIMEOUT = float(os.environ.get("RLSBENCH_DOWNLOAD_TIMEOUT", 60.0))
DEFAULT_RETRIES = int(os.environ.get("RLSBENCH_DOWNLOAD_RETRIES", 3))
DEFAULT_BACKOFF = float(os.environ.get("RLSBENCH_DOWNLOAD_BACKOFF", 1.0))
_CHUNK = 1 << 20
# HTTP statuses worth retrying (the others, e.g. 404, are permanent for that URL).
_TRANSIENT_HTTP = {408, 425, 429, 500, 502, 503, 504}


def resolve_mirror(mirror: str, root=REPO_ROOT) -> str:
    """Base URL of a mirror: ``http(s)://`` and ``file://`` as given, a path resolved against root.

    Parameters
    ----------
    mirror : str
        ``http://host/path``, ``https://...``, ``file:///abs/path`` or a filesystem path (absolute,
        ``~``-prefixed, or relative to ``root``).
    root : path-like
        Directory relative mirror paths are resolved against (the repository root).
    """
    mirror = str(mirror).strip()
    scheme = urllib.parse.urlsplit(mirror).scheme.lower()
    if scheme in ("http", "https", "ftp", "file"):
        return mirror.rstrip("/")
    path = Path(mirror).expanduser()
    if not path.is_absolute():
        path = Path(root) / path
    return path.resolve().as_uri().rstrip("/")


def candidate_urls(file: FileSpec, mirrors=(), root=REPO_ROOT) -> list[str]:
    """Every URL to try for ``file``, in order: each mirror (by its mirror path), then upstream."""
    urls = []
    for mirror in mirrors:
        base = resolve_mirror(mirror, root)
        urls.append(f"{base}/{urllib.parse.quote(file.mirror)}")
    urls.extend(file.upstream)
    return urls


class _Failure(Exception):
    def __init__(self, message, transient):
        super().__init__(message)
        self.transient = transient


def _fetch_once(url: str, dest: Path, timeout: float) -> None:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            expected = (
                response.headers.get("Content-Length") if hasattr(response, "headers") else None
            )
            received = 0
            with open(dest, "wb") as out:
                while chunk := response.read(_CHUNK):
                    out.write(chunk)
                    received += len(chunk)
    except urllib.error.HTTPError as exc:
        raise _Failure(f"HTTP {exc.code} {exc.reason}", exc.code in _TRANSIENT_HTTP) from exc
    except urllib.error.URLError as exc:
        reason = exc.reason
        permanent = isinstance(reason, (FileNotFoundError, IsADirectoryError, PermissionError))
        raise _Failure(f"{type(reason).__name__}: {reason}", not permanent) from exc
    except TimeoutError as exc:
        raise _Failure(f"timed out after {timeout:g} s", True) from exc
    except (ConnectionError, http.client.HTTPException, OSError) as exc:
        raise _Failure(f"{type(exc).__name__}: {exc}", True) from exc
    if expected is not None and expected.isdigit() and int(expected) != received:
        raise _Failure(
            f"transfer truncated: received {received} of {expected} bytes (Content-Length)", True
        )


def fetch_url(
    url: str, dest, *, timeout=DEFAULT_TIMEOUT, retries=DEFAULT_RETRIES, backoff=DEFAULT_BACKOFF
) -> None:
    """Copy ``url`` to ``dest`` with up to ``retries`` attempts for transient failures.

    Waits ``backoff * 2**i`` seconds before retry ``i + 1``. Permanent failures (HTTP 404, a
    missing ``file://`` path) are not retried.

    Raises
    ------
    _Failure
        The last failure, with a one-line description.
    """
    attempts = max(1, int(retries))
    for attempt in range(attempts):
        try:
            _fetch_once(url, Path(dest), timeout)
            return
        except _Failure as exc:
            log.warning("attempt %d/%d for %s failed: %s", attempt + 1, attempts, url, exc)
            if not exc.transient or attempt + 1 == attempts:
                if exc.transient and attempts > 1:
                    raise _Failure(f"{exc} (after {attempts} attempts)", True) from exc
                raise
            time.sleep(float(backoff) * 2**attempt)


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
    root=REPO_ROOT,
    timeout=DEFAULT_TIMEOUT,
    retries=DEFAULT_RETRIES,
    backoff=DEFAULT_BACKOFF,
) -> dict:
    """Fetch and verify one raw file into ``raw_dir/file.name`` (kept if it already verifies).

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
        log.info("%s: fetching %s from %s", dataset, file.name, url)
        try:
            # An exception inside atomic_path discards the temporary file: only a verified
            # download ever appears under the final name.
            with atomic_path(target) as tmp:
                fetch_url(url, tmp, timeout=timeout, retries=retries, backoff=backoff)
                how = verify_file(tmp, file.sha256, file.content_sha256, dataset=dataset)
                record = _record(file, tmp, url, how)
                make_readable(tmp)
        except _Failure as exc:
            failures.append((url, str(exc)))
            continue
        except IntegrityError as exc:
            failures.append((url, exc.reason))
            log.warning("%s: %s from %s rejected: %s", dataset, file.name, url, exc.reason)
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
    root=REPO_ROOT,
    timeout=DEFAULT_TIMEOUT,
    retries=DEFAULT_RETRIES,
    backoff=DEFAULT_BACKOFF,
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
    root : path-like
        Directory relative mirror paths are resolved against.
    timeout : float
        Seconds per network operation.
    retries : int
        Attempts per URL for transient failures.
    backoff : float
        Initial wait in seconds between attempts (doubles each time).

    Returns
    -------
    Path
        The ``verified.json`` manifest.
    """
    raw_dir = Path(raw_dir)
    manifest = raw_dir / MANIFEST_NAME
    if not spec.files:
        raise DownloadError(f"format {spec.format!r} has no files to download", dataset=spec.name)
    raw_dir.mkdir(parents=True, exist_ok=True)
    for f in spec.files:  # temporary files a killed earlier run may have left (never final names)
        for leftover in raw_dir.glob(f".{f.name}.*"):
            leftover.unlink()
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
