"""The roots of every error and warning rlsbench raises.

Each project error keeps the built-in base that says what kind of failure it is
(``ValueError`` for a bad value, ``OSError`` for a file, ...), so ``except ValueError`` keeps
working, and adds :class:`RLSBenchError`, so that a caller can tell the project's refusals
from a bug in a dependency with one ``except`` clause. Warnings do the same with
:class:`RLSBenchWarning`.

This module imports nothing from rlsbench, so every floor (numerics, benchmark library,
studies) may import it without pointing upward.

The one exemption is :class:`rlsbench.studies.scaling.experiment.PointTimeout`, a
:class:`BaseException` on purpose (like :class:`KeyboardInterrupt`): it must escape the
``except Exception`` of libraries running inside a timed selection, which no subclass of
:class:`RLSBenchError` (an :class:`Exception`) could.
"""

from __future__ import annotations

__all__ = ["RLSBenchError", "RLSBenchWarning"]


class RLSBenchError(Exception):
    """Root of the errors rlsbench raises; each also keeps its built-in base.

    Examples
    --------
    >>> from rlsbench.benchmark.config import ConfigError
    >>> issubclass(ConfigError, RLSBenchError), issubclass(ConfigError, ValueError)
    (True, True)
    """


class RLSBenchWarning(UserWarning):
    """Root of the warnings rlsbench issues (``warnings.simplefilter("error", RLSBenchWarning)``
    turns them all into errors)."""
