"""Sun & Yao (2006): forward regression by marginal likelihood against the original RVM
(Tipping 2001) and the fast RVM (Tipping & Faul 2003): Table 1 and Fig. 1 (Section 4).

* :mod:`~rlsbench.studies.sunyao.experiments` — hyperparameters by CV, the random splits of
  Table 1, the growing training sets of Fig. 1, and their tables;
* :mod:`~rlsbench.studies.sunyao.config` — the ``sunyao`` section's checks and job lists;
* :mod:`~rlsbench.studies.sunyao.jobs` — the functions the workflow's rules run.
"""
