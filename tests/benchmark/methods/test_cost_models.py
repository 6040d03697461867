"""The methods' cost models against their measured points (issue 41 item 2).

A method module that records measured CPU seconds (``MEASURED_S``: method name -> (data, m, n,
k, t, seconds), from ``benchmarks/bench_cost_models.py``) keeps its cost model within a factor
3 of each of them at the protocol's nominal 2 GFLOP/s: the budgets decide from the model
alone, so a model edited without measuring again, or a method changed without its model,
fails here. No clock is read: the seconds are the recorded measurements.
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import rlsbench.benchmark.methods as methods_package
from rlsbench.benchmark.methods import get_method

NOMINAL_FLOPS_PER_S = 2.0e9
FACTOR = 3.0


def _measured_points():
    points = []
    for info in pkgutil.iter_modules(methods_package.__path__):
        module = importlib.import_module(f"{methods_package.__name__}.{info.name}")
        for name, rows in getattr(module, "MEASURED_S", {}).items():
            points += [
                pytest.param(
                    name, *row, id=f"{name}-{row[0]}-{row[1]}x{row[2]}-k{row[3]}-t{row[4]}"
                )
                for row in rows
            ]
    return points


POINTS = _measured_points()


def test_the_methods_fixed_for_issue_41_record_their_measured_points():
    recorded = {point.values[0] for point in POINTS}
    assert {"enet_path", "lasso_path", "omp", "stability_selection"} <= recorded
    assert {"svm_rfe_fraction", "arom_l2svm", "sas_primal"} <= recorded


@pytest.mark.parametrize(("name", "data", "m", "n", "k", "t", "seconds"), POINTS)
def test_the_cost_model_is_within_a_factor_3_of_the_measured_cpu_time(
    name, data, m, n, k, t, seconds
):
    estimate = get_method(name).estimate_flops(m, n, k, t) / NOMINAL_FLOPS_PER_S
    assert 1 / FACTOR <= seconds / estimate <= FACTOR, (
        f"{name} on {data} ({m} x {n}, k={k}, t={t}): measured {seconds} s, "
        f"the model says {estimate:.3g} s"
    )
