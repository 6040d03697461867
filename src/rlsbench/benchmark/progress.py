"""Progress of a long job: units done, elapsed time and an estimate of the time left.

Jobs write it to their log (one line per unit, e.g. a fold) so that a run that takes minutes
says where it is; on a terminal the CLI shows the same with a tqdm bar. Times here are for the
reader only: nothing decides on them.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import sys
import time

log = logging.getLogger(__name__)

#: Whether progress bars are drawn (set by :func:`terminal_bars`; off in jobs and tests).
_BARS = contextvars.ContextVar("rlsbench_progress_bars", default=False)


@contextlib.contextmanager
def terminal_bars(enabled: bool | None = None):
    """Draw tqdm progress bars (downloads) inside the block; by default only when standard
    error is a terminal, so logs and pipes stay free of them."""
    token = _BARS.set(sys.stderr.isatty() if enabled is None else bool(enabled))
    try:
        yield
    finally:
        _BARS.reset(token)


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def transfer_bar(description: str, total_bytes: int | None):
    """A bar counting the bytes of one transfer (``update(n)``, ``close()``); a no-op object
    unless :func:`terminal_bars` is on."""
    if not _BARS.get():
        return _NoBar()
    from tqdm import tqdm

    return tqdm(
        total=total_bytes,
        desc=description,
        unit="B",
        unit_scale=True,
        unit_divisor=1024,
        leave=False,
        file=sys.stderr,
    )


def _duration(seconds: float) -> str:
    seconds = max(0.0, float(seconds))
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """Count units of work and log ``what i/total (detail), elapsed, about T left``.

    The estimate of the time left is the mean time per unit so far times the units left.

    Examples
    --------
    >>> p = Progress(3, "fold", logger=None)
    >>> p.done("fold 0").startswith("fold 1/3 (fold 0)")
    True
    """

    def __init__(self, total: int, what: str = "step", logger: logging.Logger | None = log):
        self.total, self.what, self.logger = int(total), what, logger
        self.count = 0
        self._t0 = time.perf_counter()

    def done(self, detail: str = "", n: int = 1) -> str:
        """Record ``n`` more units done; log and return the progress line."""
        self.count += n
        elapsed = time.perf_counter() - self._t0
        left = elapsed / self.count * (self.total - self.count) if self.count else float("nan")
        line = f"{self.what} {self.count}/{self.total}"
        if detail:
            line += f" ({detail})"
        line += f", elapsed {_duration(elapsed)}"
        if self.count < self.total:
            line += f", about {_duration(left)} left"
        if self.logger is not None:
            self.logger.info("%s", line)
        return line
