"""Buteneers et al. (2013): K-fold λ search at a cost independent of M, FFS/BFS with λ per
candidate set, against LARS, OP-LR and OP-RR (Section 5, Tables 3-6).

* :mod:`~rlsbench.studies.buteneers.experiment` — every method on one task, and the timing
  against M and N;
* :mod:`~rlsbench.studies.buteneers.paper_tables` / :mod:`~rlsbench.studies.buteneers.report`
  — the paper's numbers and the Markdown tables beside ours;
* :mod:`~rlsbench.studies.buteneers.config` — the ``buteneers`` section's checks and jobs;
* :mod:`~rlsbench.studies.buteneers.jobs` — the functions the workflow's rules run.
"""
