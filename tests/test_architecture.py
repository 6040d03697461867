"""The three floors (numerics < benchmark library < studies) hold: no import points upward;
and the paper packages (studies main, scaling, buteneers, ramona, sunyao) stay apart.

The contracts are declared once in ``pyproject.toml`` (``[tool.importlinter]``) and checked here
with import-linter, on the package as it is and on a copy with one upward or cross-paper import
added (so each check is seen to fail where it should, naming the import).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

pytestmark = pytest.mark.skipif(
    not LINT_IMPORTS.exists(), reason="import-linter is not installed (pip install '.[test]')"
)


def _lint_imports(src: Path, config: Path) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(src), "PATH": str(LINT_IMPORTS.parent)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(config), "--no-cache"],
        cwd=src.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _planted(tmp_path: Path, module: str, line: str) -> Path:
    """A copy of the package tree with ``line`` appended to ``module``; its ``src`` folder."""
    src = tmp_path / "src"
    shutil.copytree(
        REPO / "src" / "rlsbench", src / "rlsbench", ignore=shutil.ignore_patterns("__pycache__")
    )
    target = src / "rlsbench" / module
    target.write_text(target.read_text() + f"\n{line}  # deliberate violation\n")
    return src


def test_the_contracts_are_kept():
    result = _lint_imports(REPO / "src", REPO / "pyproject.toml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "numerics < benchmark library < studies KEPT" in result.stdout
    assert "paper packages are independent KEPT" in result.stdout
    assert "2 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "upward_import"),
    [
        ("numerics/rls.py", "import rlsbench.benchmark.protocol"),
        ("numerics/selection/greedy.py", "from rlsbench.studies.scaling import experiment"),
        ("benchmark/protocol.py", "import rlsbench.studies.sunyao.experiments"),
    ],
)
def test_an_upward_import_breaks_the_contract(tmp_path, module, upward_import):
    result = _lint_imports(_planted(tmp_path, module, upward_import), REPO / "pyproject.toml")
    assert result.returncode != 0
    assert "numerics < benchmark library < studies BROKEN" in result.stdout


@pytest.mark.parametrize(
    ("module", "cross_import", "importer", "imported"),
    [
        (
            "studies/sunyao/experiments.py",
            "from rlsbench.studies.ramona import experiments",
            "rlsbench.studies.sunyao.experiments",
            "rlsbench.studies.ramona.experiments",
        ),
        # the greedy RLS paper's two parts stay apart too: its ledger reads scaling's tables
        (
            "studies/main/ledger.py",
            "import rlsbench.studies.scaling.experiment",
            "rlsbench.studies.main.ledger",
            "rlsbench.studies.scaling.experiment",
        ),
        # a paper's knowledge imported by the framework ties every paper that uses the
        # framework to that one (an indirect import)
        (
            "studies/fidelity/ours.py",
            "import rlsbench.studies.ramona.ledger",
            "rlsbench.studies.fidelity.ours",
            "rlsbench.studies.ramona.ledger",
        ),
    ],
)
def test_a_cross_paper_import_breaks_the_independence_contract(
    tmp_path, module, cross_import, importer, imported
):
    result = _lint_imports(_planted(tmp_path, module, cross_import), REPO / "pyproject.toml")
    assert result.returncode != 0
    assert "paper packages are independent BROKEN" in result.stdout
    assert "numerics < benchmark library < studies KEPT" in result.stdout
    # the report names the planted import (rich may wrap its line: compare without spaces)
    report = "".join(result.stdout.split())
    assert f"{importer}->{imported}" in report, result.stdout


def owner(module: str) -> str:
    """The package whose private names ``module`` may use: its floor for the libraries
    (``rlsbench.numerics``, ``rlsbench.benchmark``: one library each), its paper's package
    for a study (``rlsbench.studies.<paper>``)."""
    parts = module.split(".")
    return ".".join(parts[:3] if parts[1:2] == ["studies"] else parts[:2])


def private_imports(src: Path) -> list[str]:
    """``from rlsbench.x import _name`` and ``from rlsbench._x import name`` lines of the
    package under ``src`` where the private name or module belongs to another :func:`owner`
    (a private name used across packages): ``file:line: module.name``."""
    import ast

    found = []
    for path in sorted(src.rglob("*.py")):
        module = ".".join(path.relative_to(src.parent).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            if not node.module.startswith("rlsbench.") or owner(node.module) == owner(module):
                continue
            private_module = any(p.startswith("_") for p in node.module.split("."))
            for alias in node.names:
                if private_module or (alias.name.startswith("_") and alias.name[:2] != "__"):
                    found.append(f"{path.relative_to(src.parent)}:{node.lineno}: "
                                 f"{node.module}.{alias.name}")  # fmt: skip
    return found


def test_no_module_imports_a_private_name_of_another_package(tmp_path):
    assert private_imports(SRC / "rlsbench") == []
    # the check finds one when there is one
    planted = tmp_path / "rlsbench" / "studies" / "toy"
    planted.mkdir(parents=True)
    (planted / "m.py").write_text(
        "from rlsbench.benchmark.results import _short_reason\n"
        "from rlsbench.studies.toy.other import _mine\n"  # its own: allowed
        "from rlsbench.numerics._secret import check_k\n"
    )
    assert private_imports(tmp_path / "rlsbench") == [
        "rlsbench/studies/toy/m.py:1: rlsbench.benchmark.results._short_reason",
        "rlsbench/studies/toy/m.py:3: rlsbench.numerics._secret.check_k",
    ]
