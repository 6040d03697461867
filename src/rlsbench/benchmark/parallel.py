"""Independent tasks of one job (folds, seeds) on the job's threads, with joblib.

A Snakemake job of the main part runs every fold (and seed) of one (dataset, method): one
Python start and one data load per job instead of one per fold, and the folds side by side on
the job's ``threads``. :func:`map_tasks` splits ``n_jobs`` into ``workers`` joblib processes
(loky) of ``inner`` threads each (``workers × inner ≤ n_jobs``), caps the BLAS/OpenMP pools of
every worker to ``inner`` with threadpoolctl, and returns the results in task order, so that
the result of a job never depends on how many threads it had. Progress goes to the job's log
(:class:`rlsbench.benchmark.progress.Progress`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from threadpoolctl import threadpool_limits

from rlsbench.benchmark.progress import Progress

log = logging.getLogger(__name__)


def split_threads(n_jobs: int, n_tasks: int) -> tuple[int, int]:
    """(workers, threads per worker) for ``n_tasks`` tasks on ``n_jobs`` threads.

    Examples
    --------
    >>> split_threads(2, 10), split_threads(8, 3), split_threads(1, 5), split_threads(4, 1)
    ((2, 1), (3, 2), (1, 1), (1, 4))
    """
    n_jobs = max(1, int(n_jobs or 1))
    workers = max(1, min(n_jobs, int(n_tasks)))
    return workers, max(1, n_jobs // workers)


def _call(function, task, inner):
    with threadpool_limits(limits=inner):
        return function(*task, n_jobs=inner)


def map_tasks(
    function: Callable,
    tasks: Sequence[tuple],
    *,
    n_jobs: int = 1,
    what: str = "task",
    label: Callable[[tuple], str] = str,
    parallel: bool = True,
) -> list:
    """``[function(*task, n_jobs=inner) for task in tasks]``, on up to ``n_jobs`` threads.

    Parameters
    ----------
    function : callable
        A module-level function (it is pickled to the workers); it receives the threads it
        may use as ``n_jobs``.
    tasks : sequence of tuple
        Positional arguments of each call (numpy arrays in them reach the workers as
        memory maps, not copies).
    n_jobs : int
        Threads of the whole job.
    what, label : str, callable
        How the progress lines name the tasks and one task.
    parallel : bool
        False runs the tasks one after another in this process (tiny jobs: no worker start).

    Returns
    -------
    list
        The results, in the order of ``tasks``.
    """
    workers, inner = split_threads(n_jobs, len(tasks)) if parallel else (1, max(1, n_jobs))
    progress = Progress(len(tasks), what)
    log.info("%d %s(s) on %d worker(s) x %d thread(s)", len(tasks), what, workers, inner)
    if workers == 1:
        results = []
        for task in tasks:
            results.append(_call(function, task, inner))
            progress.done(label(task))
        return results
    from joblib import Parallel, delayed

    results = []
    runner = Parallel(n_jobs=workers, backend="loky", return_as="generator")
    for task, result in zip(
        tasks, runner(delayed(_call)(function, task, inner) for task in tasks), strict=True
    ):
        results.append(result)
        progress.done(label(task))
    return results
