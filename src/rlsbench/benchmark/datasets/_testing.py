"""Serve a directory over HTTP on the loopback interface (tests; a quick local mirror)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import socket
import threading
import time


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    #: bytes per write and seconds between writes (a slow or trickling server)
    chunk = 1 << 16
    delay = 0.0
    #: path -> number of GET requests (shared with the caller), or None
    requests = None

    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        pass

    def do_GET(self):  # noqa: N802 - name fixed by the base class
        if self.requests is not None:
            self.requests[self.path] = self.requests.get(self.path, 0) + 1
        super().do_GET()

    def copyfile(self, source, outputfile):
        if not self.delay:
            return super().copyfile(source, outputfile)
        try:
            while data := source.read(self.chunk):
                outputfile.write(data)
                outputfile.flush()
                time.sleep(self.delay)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up
            pass


@contextlib.contextmanager
def serve_directory(directory, *, chunk=1 << 16, delay=0.0, requests=None):
    """Serve ``directory`` at ``http://127.0.0.1:<ephemeral port>``; yields the base URL.

    Parameters
    ----------
    directory : path-like
    chunk, delay : int, float
        Send ``chunk`` bytes, then wait ``delay`` seconds (a slow or trickling server).
    requests : dict, optional
        Filled with path -> number of GET requests.
    """
    attrs = {"chunk": chunk, "delay": delay, "requests": requests}
    handler_class = type("_Handler", (_QuietHandler,), attrs)
    handler = functools.partial(handler_class, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def closed_port() -> int:
    """A loopback TCP port nobody listens on (bound then released, so connections are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


#: Environment for test runs of the download rule: one attempt per URL, 10 s timeout.
FAST_FAIL_ENV = {"RLSBENCH_DOWNLOAD_RETRIES": "1", "RLSBENCH_DOWNLOAD_TIMEOUT": "10"}


def run_snakemake(repo, workdir, targets, mirrors, *extra, env=None, timeout=900):
    """Run ``repo``'s Snakefile in ``workdir`` (outputs land there, not in the repository).

    ``workdir/config`` is linked to the repository's ``config/`` (the Snakefile's ``configfile``
    is relative to the working directory); ``mirrors`` goes to the ``mirrors`` config key.
    Returns the :class:`subprocess.CompletedProcess`.
    """
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo, workdir = Path(repo), Path(workdir)
    if not (workdir / "config").exists():
        (workdir / "config").symlink_to(repo / "config")
    mirror_list = "[" + ",".join(f'"{m}"' for m in mirrors) + "]"
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "-s",
        str(repo / "Snakefile"),
        "--directory",
        str(workdir),
        "--cores",
        "2",
        "--config",
        f"mirrors={mirror_list}",
        *extra,
        "--",
        *targets,
    ]
    return subprocess.run(
        cmd, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}
    )
