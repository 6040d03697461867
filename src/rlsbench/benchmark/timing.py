"""Timing a piece of a job: wall-clock and CPU seconds of the process, one way for every part.

The papers time differently (Pahikkala et al. and Sun & Yao report CPU time, Buteneers et al.
and Ramona et al. wall time); a :class:`Stopwatch` measures both, and each table says which
one it shows. Times only ever fill timing columns: no result may depend on them (apart from
the budgets that decide, and record, that a run is skipped).
"""

from __future__ import annotations

import time


class Stopwatch:
    """Wall-clock (:func:`time.perf_counter`) and process CPU (:func:`time.process_time`)
    seconds of a ``with`` block, or since :meth:`start`.

    Examples
    --------
    >>> with Stopwatch() as clock:
    ...     _ = sum(range(1000))
    >>> clock.wall_s >= 0.0 and clock.cpu_s >= 0.0
    True
    """

    def __init__(self):
        self.wall_s = float("nan")
        self.cpu_s = float("nan")
        self._wall0 = self._cpu0 = None

    def start(self) -> Stopwatch:
        self._wall0, self._cpu0 = time.perf_counter(), time.process_time()
        return self

    def elapsed(self) -> tuple[float, float]:
        """(wall, CPU) seconds since :meth:`start`, without stopping."""
        return time.perf_counter() - self._wall0, time.process_time() - self._cpu0

    def stop(self) -> Stopwatch:
        self.wall_s, self.cpu_s = self.elapsed()
        return self

    def __enter__(self) -> Stopwatch:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
