"""Ramona, Richard and David (2012), kernel Gram-matrix feature selection: the toy problems
of Fig. 1, the real-data protocol of Section V-B/C (Tables II, IV, VI) and the CPU-time
Tables VIII-IX. The rankers themselves are numerics (:mod:`rlsbench.numerics.kernel`).

* :mod:`~rlsbench.studies.ramona.experiments` — the evaluation protocol as tidy rows;
* :mod:`~rlsbench.studies.ramona.paper_tables` / :mod:`~rlsbench.studies.ramona.report` —
  the paper's numbers, our tables beside them, paired t-tests, figure styles;
* :mod:`~rlsbench.studies.ramona.config` — the ``ramona`` section's checks and job lists;
* :mod:`~rlsbench.studies.ramona.jobs` — the functions the workflow's rules run.
"""
