"""Every error rlsbench raises shares one root, :class:`rlsbench.RLSBenchError`, and keeps its
built-in base; every warning shares :class:`rlsbench.RLSBenchWarning`.

The check walks every module of the installed package, so an error class added anywhere on
another root fails it; a copy of the walk on a throw-away package shows that it does.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
from pathlib import Path

import pytest

import rlsbench
from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.datasets.download import _DeadlineExceeded
from rlsbench.benchmark.datasets.errors import DatasetError, IntegrityError
from rlsbench.benchmark.provenance import DirtyTreeError
from rlsbench.benchmark.workflow import KNOWN_ERRORS, JobError
from rlsbench.errors import RLSBenchError, RLSBenchWarning
from rlsbench.numerics.marglik.rvm import BudgetExceeded

#: Off the root on purpose, with the reason (the module docstring of rlsbench.errors says it too).
EXEMPT = {
    # Must escape the ``except Exception`` of libraries inside a timed selection
    # (scikit-learn's cross-validation turns a failing split into a NaN score).
    "rlsbench.studies.scaling.experiment.PointTimeout": BaseException,
}

#: Classes in files another change owns; each needs ``RLSBenchError`` (or ``RLSBenchWarning``)
#: added to its bases. Empty this list when those lines land.
PENDING = set()


def _defined_exceptions(package):
    """``{qualified name: class}`` of every exception or warning class defined in ``package``."""
    found = {}
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseException)
                and obj.__module__ == module.__name__
            ):
                found[f"{module.__name__}.{name}"] = obj
    return found


def _off_root(package, error_root=RLSBenchError, warning_root=RLSBenchWarning):
    """Names of the classes of ``package`` that miss the root of their kind."""
    return {
        name
        for name, cls in _defined_exceptions(package).items()
        if not issubclass(cls, warning_root if issubclass(cls, Warning) else error_root)
    }


def test_every_error_and_warning_defined_in_rlsbench_is_on_the_root():
    strays = _off_root(rlsbench) - set(EXEMPT) - PENDING
    assert not strays, (
        f"{sorted(strays)} do not subclass rlsbench.RLSBenchError (warnings: RLSBenchWarning); "
        "add it to their bases, next to their built-in base"
    )


def test_the_walk_finds_an_error_on_another_root(tmp_path, monkeypatch):
    package = tmp_path / "strays_pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "mod.py").write_text(
        textwrap.dedent(
            """
            from rlsbench.errors import RLSBenchError, RLSBenchWarning

            class OnRoot(ValueError, RLSBenchError):
                pass

            class OffRoot(ValueError):
                pass

            class WarningOnRoot(RLSBenchWarning):
                pass

            class WarningOffRoot(UserWarning):
                pass

            class WarningOnTheErrorRoot(UserWarning, RLSBenchError):
                pass

            Imported = ConnectionError
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _off_root(importlib.import_module("strays_pkg")) == {
        "strays_pkg.sub.mod.OffRoot",
        "strays_pkg.sub.mod.WarningOffRoot",
        "strays_pkg.sub.mod.WarningOnTheErrorRoot",
    }


def test_pending_classes_are_still_off_the_root():
    defined = _defined_exceptions(rlsbench)
    missing = PENDING - set(defined)
    assert not missing, f"{sorted(missing)} are no longer defined there: update PENDING"
    done = PENDING - _off_root(rlsbench)
    assert not done, f"{sorted(done)} are on the root now: remove them from PENDING"


def test_exempt_classes_escape_except_exception():
    defined = _defined_exceptions(rlsbench)
    for name, base in EXEMPT.items():
        assert issubclass(defined[name], base)
        assert not issubclass(defined[name], Exception), name


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (ConfigError, ValueError),
        (DatasetError, RuntimeError),
        (IntegrityError, RuntimeError),
        (DirtyTreeError, RuntimeError),
        (BudgetExceeded, RuntimeError),
        (_DeadlineExceeded, OSError),
    ],
)
def test_project_errors_keep_their_builtin_base(error, builtin):
    assert issubclass(error, RLSBenchError)
    assert issubclass(error, builtin)


def test_one_except_clause_catches_a_dataset_error_with_its_message():
    with pytest.raises(RLSBenchError, match="dataset 'yeast', line 3: bad label"):
        raise DatasetError("bad label", dataset="yeast", line=3)


def test_every_known_job_error_of_the_project_is_on_the_root():
    # The builtins (OSError, ValueError) are the library's refusals from numpy, scipy and the OS.
    ours = [e for e in KNOWN_ERRORS if e.__module__.startswith("rlsbench.")]
    assert JobError in ours
    assert all(issubclass(e, RLSBenchError) for e in ours)


def test_the_root_package_reexports_the_roots():
    assert rlsbench.RLSBenchError is RLSBenchError
    assert rlsbench.RLSBenchWarning is RLSBenchWarning
    assert issubclass(RLSBenchWarning, UserWarning)


def test_the_errors_module_imports_nothing_from_rlsbench():
    # Every floor imports it, so it may import no floor.
    tree = ast.parse(Path(rlsbench.errors.__file__).read_text())
    imported = [
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    ]
    assert not [name for name in imported if name and name.startswith("rlsbench")]
