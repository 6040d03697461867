"""The runtime scaling study: Pahikkala, Airola and Salakoski (2010), Section 4.1, Figs. 1-3.

* :mod:`~rlsbench.studies.scaling.experiment` — the methods timed, the plan of timing points,
  budgets, timing, and the tables (exponents, speed-ups, selection agreement);
* :mod:`~rlsbench.studies.scaling.config` — the ``scaling`` section's checks and outputs;
* :mod:`~rlsbench.studies.scaling.jobs` — the functions the workflow's rules run.
"""
