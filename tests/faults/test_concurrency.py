"""Concurrent fetches of one dataset into one cache, against a slow loopback HTTP server (so
they overlap): all succeed, the file is transferred once, nothing partial or locked is left.
Every wait is bounded (thread joins and subprocess timeouts)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import numpy as np

from rlsbench.benchmark.datasets import load_prepared
from rlsbench.benchmark.datasets._testing import serve_directory

from .conftest import GOOD, assert_nothing_partial

#: ~60 kB served in 4 kB pieces every 20 ms: each transfer takes ~0.3 s, so fetches overlap.
BIG = GOOD["csv"] * 2000
SLOW = {"chunk": 4096, "delay": 0.02}


def wait_for_first_request(requests, timeout=20.0):
    """Return once the server has seen a request (the first fetch is mid-transfer): the others
    start then, when a clean-up of temporary files would hit the first one's."""
    stop = time.monotonic() + timeout
    while not requests:
        assert time.monotonic() < stop, "the first fetch never reached the server"
        time.sleep(0.01)


def test_threads_fetching_one_dataset_take_turns(tiny):
    t = tiny({"data": BIG}, expected={"n_samples": 8000, "n_features": 2})
    requests, results, errors = {}, [], []
    with serve_directory(t.mirror, requests=requests, **SLOW) as url:

        def fetch():
            try:
                results.append(t.fetch(mirrors=[url], timeout=10, deadline=60))
            except Exception as exc:  # noqa: BLE001 - the test reports whatever a thread raised
                errors.append(exc)

        threads = [threading.Thread(target=fetch) for _ in range(4)]
        threads[0].start()
        wait_for_first_request(requests)
        for thread in threads[1:]:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not any(thread.is_alive() for thread in threads)
    assert errors == []
    assert results == [t.output] * 4
    assert requests == {"/tiny/data": 1}  # the others found it verified
    assert load_prepared(t.output).X.shape == (8000, 2)
    assert_nothing_partial(t, prepared=True, raw_complete=True)


def test_processes_fetching_one_dataset_take_turns(tiny):
    t = tiny({"data": BIG}, expected={"n_samples": 8000, "n_features": 2})
    registry = t.registry_file()
    requests = {}
    with serve_directory(t.mirror, requests=requests, **SLOW) as url:
        command = [
            sys.executable,
            "-m",
            "rlsbench",
            "datasets",
            "--registry-extra",
            str(registry),
            "fetch",
            "tiny",
            "--cache-dir",
            str(t.cache),
            "--mirror",
            url,
            "--retries",
            "1",
            "--deadline",
            "60",
        ]

        def start():
            return subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )

        procs = [start()]
        wait_for_first_request(requests)
        procs += [start(), start()]
        outputs = [proc.communicate(timeout=120) for proc in procs]
    for proc, (out, err) in zip(procs, outputs):
        assert proc.returncode == 0, err
        assert out.strip() == str(t.output)
    assert requests == {"/tiny/data": 1}
    np.testing.assert_array_equal(
        load_prepared(t.output).X[:4], [[1, 2], [2, 1], [3, 0.5], [0.5, 3]]
    )
    assert_nothing_partial(t, prepared=True, raw_complete=True)
