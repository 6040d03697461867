"""One public module, :mod:`rlsbench.estimators`, exports every user-facing estimator."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from sklearn.base import BaseEstimator

import rlsbench
from rlsbench import estimators


def _public_estimators_of_the_package() -> set[type]:
    """Every public BaseEstimator subclass defined in a public module of rlsbench."""
    found = set()
    for info in pkgutil.walk_packages(rlsbench.__path__, "rlsbench."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if (
                cls.__module__ == module.__name__
                and not name.startswith("_")
                and issubclass(cls, BaseEstimator)
            ):
                found.add(cls)
    return found


@pytest.mark.parametrize("name", estimators.__all__)
def test_every_exported_name_is_a_scikit_learn_estimator(name):
    cls = getattr(estimators, name)
    assert inspect.isclass(cls) and issubclass(cls, BaseEstimator), name
    assert cls.__name__ == name
    assert getattr(rlsbench, name) is cls  # and importable from the package itself
    assert name in rlsbench.__all__


def test_no_estimator_of_the_package_is_missing_from_the_module():
    exported = {getattr(estimators, name) for name in estimators.__all__}
    missing = sorted(
        f"{cls.__module__}.{cls.__name__}" for cls in _public_estimators_of_the_package() - exported
    )
    assert not missing, f"add to rlsbench.estimators.__all__: {missing}"
    assert len(exported) == len(estimators.__all__) >= 17


def test_the_package_lists_exactly_the_modules_estimators():
    listed = set(rlsbench.__all__) - {
        "RLSBenchError",
        "RLSBenchWarning",
        "SelectionPath",
        "__version__",
    }
    assert listed == set(estimators.__all__)
