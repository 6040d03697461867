"""Tests of :mod:`rlsbench.studies.buteneers`."""
