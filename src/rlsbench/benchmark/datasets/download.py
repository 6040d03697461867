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
import io
import json
import logging
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from rlsbench.benchmark.atomic import atomic_path
from rlsbench.benchmark.datasets.errors import DatasetError, DownloadError, IntegrityError
from rlsbench.benchmark.datasets.integrity import make_readable, sha256_file, verify_file
from rlsbench.benchmark.datasets.locking import dataset_lock
from rlsbench.benchmark.datasets.registry import DatasetSpec, FileSpec
from rlsbench.benchmark.progress import transfer_bar
from rlsbench.errors import RLSBenchError

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
    mirror = os.fspath(mirror) if isinstance(mirror, os.PathLike) else str(mirror)
    mirror = mirror.strip()
    scheme = urllib.parse.urlsplit(mirror).scheme.lower()
    if scheme in ("http", "https", "ftp", "file"):
        return mirror.rstrip("/")
    path = Path(mirror).expanduser()
    if not path.is_absolute():
        path = Path(root if root is not None else Path.cwd()) / path
    return path.resolve().as_uri().rstrip("/")


def mirror_list(mirrors) -> list:
    """The ``mirrors`` parameter as a list: one str or path-like is one mirror, not a sequence
    of one-character mirrors.

    Raises
    ------
    DownloadError
        ``mirrors`` is neither a mirror nor a sequence of them; the message names the parameter.
    """
    if mirrors is None:
        return []
    if isinstance(mirrors, (str, os.PathLike)):
        return [mirrors]
    if isinstance(mirrors, (bytes, dict)) or not hasattr(mirrors, "__iter__"):
        raise DownloadError(
            "parameter `mirrors` must be a URL or path, or a sequence of them; got "
            f"{type(mirrors).__name__}"
        )
    out = list(mirrors)
    for index, mirror in enumerate(out):
        if not isinstance(mirror, (str, os.PathLike)):
            raise DownloadError(
                f"parameter `mirrors[{index}]` must be a URL or path (str or path-like); got "
                f"{type(mirror).__name__}"
            )
    return out


def candidate_urls(file: FileSpec, mirrors=(), root=None) -> list[str]:
    """Every URL to try for ``file``, in order: each mirror (by its mirror path), the local copy
    a user registry names, then the upstream URLs.

    ``mirrors``: a URL or path, or a sequence of them (see :func:`mirror_list`).
    """
    urls = []
    if file.mirror:
        for mirror in mirror_list(mirrors):
            base = resolve_mirror(mirror, root)
            urls.append(f"{base}/{urllib.parse.quote(file.mirror)}")
    if file.path:
        urls.append(Path(file.path).as_uri())
    urls.extend(file.upstream)
    return urls


class _Failure(RLSBenchError):
    def __init__(self, message, transient):
        super().__init__(message)
        self.transient = transient


def _remaining(stop) -> float:
    return float("inf") if stop is None else stop - time.monotonic()


class _DeadlineExceeded(OSError, RLSBenchError):
    """The overall deadline passed while the socket was waited on (headers or body)."""


class _DeadlineSocket:
    """A connected socket whose every receive is bounded by the overall deadline.

    A per-operation timeout never fires on a server that sends one byte a second, in the
    headers as much as in the body: each receive here waits at most until ``stop``, and none
    starts after it.
    """

    def __init__(self, sock, stop):
        self._sock = sock
        self._stop = stop
        self._timeout = sock.gettimeout()

    def __getattr__(self, name):
        return getattr(self._sock, name)

    def _bounded(self, receive, *args):
        left = _remaining(self._stop)
        if left <= 0:
            raise _DeadlineExceeded("overall download deadline exceeded")
        self._sock.settimeout(left if self._timeout is None else min(self._timeout, left))
        try:
            return receive(*args)
        except TimeoutError:
            if _remaining(self._stop) <= 0:
                raise _DeadlineExceeded("overall download deadline exceeded") from None
            raise

    def recv(self, *args):
        return self._bounded(self._sock.recv, *args)

    def recv_into(self, *args):
        return self._bounded(self._sock.recv_into, *args)

    def makefile(self, mode="r", buffering=None, **kwargs):
        # http.client reads the status line, headers and body through this file: it must call
        # our recv_into, not the wrapped socket's
        if "b" not in mode or "w" in mode:
            return self._sock.makefile(mode, buffering, **kwargs)
        raw = socket.SocketIO(self, "rb")
        self._sock._io_refs += 1
        return io.BufferedReader(raw, io.DEFAULT_BUFFER_SIZE if not buffering else buffering)


def _deadline_connection(base, stop):
    class Connection(base):
        def connect(self):
            super().connect()
            self.sock = _DeadlineSocket(self.sock, stop)

    return Connection


class _DeadlineHTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, stop):
        super().__init__()
        self._stop = stop

    def http_open(self, req):
        return self.do_open(_deadline_connection(http.client.HTTPConnection, self._stop), req)


class _DeadlineHTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, stop):
        super().__init__()
        self._stop = stop

    def https_open(self, req):
        return self.do_open(
            _deadline_connection(http.client.HTTPSConnection, self._stop),
            req,
            context=self._context,
        )


def _open(url: str, timeout: float, stop):
    """``urlopen`` whose connection, headers and body all end by ``stop`` (None: no deadline)."""
    if stop is None:
        return urllib.request.urlopen(url, timeout=timeout)
    opener = urllib.request.build_opener(_DeadlineHTTPHandler(stop), _DeadlineHTTPSHandler(stop))
    return opener.open(url, timeout=timeout)


class _WriteFailure(RLSBenchError):
    """Writing the local copy failed (a full disk): no other attempt or URL can help."""

    def __init__(self, error: OSError):
        super().__init__(error.strerror or str(error))
        self.error = error


def _local(call, *args):
    """``call(*args)`` on the local copy; its OSError is the disk's, not the server's."""
    try:
        return call(*args)
    except OSError as exc:
        raise _WriteFailure(exc) from exc


def _deadline_passed(received) -> str:
    when = (
        "before the response headers were complete"
        if received is None
        else f"after {received} bytes of the body"
    )
    return (
        f"overall download deadline exceeded {when} "
        "(the server is too slow; raise the deadline to wait longer)"
    )


def _fetch_once(url: str, dest: Path, timeout: float, stop=None) -> None:
    left = _remaining(stop)
    if left <= 0:
        raise _Failure("overall download deadline exceeded before this attempt", False)
    received = None  # None until the response headers arrived
    try:
        with _open(url, min(timeout, left), stop) as response:
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
                out = _local(open, dest, "wb")
                try:
                    while chunk := read(_CHUNK):
                        _local(out.write, chunk)
                        received += len(chunk)
                        bar.update(len(chunk))
                        if _remaining(stop) <= 0:
                            raise _Failure(_deadline_passed(received), False)
                finally:
                    _local(out.close)
            finally:
                bar.close()
    except urllib.error.HTTPError as exc:
        raise _Failure(f"HTTP {exc.code} {exc.reason}", exc.code in _TRANSIENT_HTTP) from exc
    except _DeadlineExceeded as exc:
        raise _Failure(_deadline_passed(received), False) from exc
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, _DeadlineExceeded):
            raise _Failure(_deadline_passed(None), False) from exc
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
    deadline=None,
) -> dict:
    """Fetch and verify one raw file into ``raw_dir/file.name`` (kept if it already verifies).

    ``stop``: the :func:`time.monotonic` deadline (see :func:`fetch_url`); URLs not reached by
    then are listed as not tried. ``deadline``: the seconds ``stop`` stands for, named in the
    error when it passed.

    Returns
    -------
    record : dict
        ``name``, ``url`` (where it came from, or ``"cached"``), ``sha256`` (stored bytes),
        ``content_sha256``, ``verified_by`` (``"stored"`` or ``"content"``), ``bytes``.

    Raises
    ------
    DownloadError
        Every candidate URL failed; the message lists each URL with its failure.
    DatasetError
        The local copy could not be written (a full disk); the message names it.
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
        except _WriteFailure as exc:
            raise DatasetError(
                f"cannot write the downloaded file: {exc}", dataset=dataset, file=target
            ) from exc.error
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
        if deadline is not None and any("deadline exceeded" in why for _, why in failures):
            detail += (
                f"\nThe overall download deadline was {float(deadline):g} s (`deadline`, "
                "CLI --deadline, config download.deadline)."
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
    mirrors : str, path-like or sequence of them
        Mirror base URLs or paths (see :func:`resolve_mirror`), tried before the upstream URLs;
        one str or path is one mirror.
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
    mirrors = mirror_list(mirrors)
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
                deadline=deadline,
            )
            for f in spec.files
        ]
        try:
            with atomic_path(manifest) as tmp:
                tmp.write_text(
                    json.dumps({"dataset": spec.name, "files": records}, indent=2) + "\n"
                )
                make_readable(tmp)
        except OSError as exc:
            raise DatasetError(
                f"cannot write the download record: {exc.strerror or exc}",
                dataset=spec.name,
                file=manifest,
            ) from exc
    return manifest


def read_manifest(raw_dir) -> dict:
    """The ``verified.json`` of a completed download."""
    return json.loads((Path(raw_dir) / MANIFEST_NAME).read_text())
