"""The main part: Pahikkala, Airola and Salakoski (2010), Section 4.2, the accuracy experiment.

Greedy RLS against the low-rank updated LS-SVM, the standard wrapper (black-box and LOO
shortcut) and random selection, by the evaluation protocol of
:mod:`rlsbench.benchmark.protocol` on every (dataset, method, fold, seed) of the config's
``main`` section. The protocol, the methods and the generic tables (steps, curves, summary,
run times) belong to the benchmark library; what is here exists for the paper:

* :mod:`~rlsbench.studies.main.config` — the ``main`` section's checks and its job plan
  (jobs, seeds, threads and resources);
* :mod:`~rlsbench.studies.main.report` — the paper's findings measured on a run
  (:func:`~rlsbench.studies.main.report.paper_checks`) and its Figs. 4-15;
* :mod:`~rlsbench.studies.main.jobs` — the functions the workflow's report rules run.
"""
