"""The three floors (numerics < benchmark library < studies) hold: no import points upward.

The contract is declared once in ``pyproject.toml`` (``[tool.importlinter]``) and checked here
with import-linter, on the package as it is and on a copy with one upward import added (so the
check is seen to fail where it should).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
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


def test_the_layer_contract_is_kept():
    result = _lint_imports(REPO / "src", REPO / "pyproject.toml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "upward_import"),
    [
        ("numerics/rls.py", "import rlsbench.benchmark.protocol"),
        ("numerics/selection/greedy.py", "from rlsbench.studies.scaling import experiment"),
        ("benchmark/protocol.py", "import rlsbench.studies.sunyao.experiments"),
    ],
)
def test_an_upward_import_breaks_the_contract(tmp_path, module, upward_import):
    src = tmp_path / "src"
    shutil.copytree(
        REPO / "src" / "rlsbench", src / "rlsbench", ignore=shutil.ignore_patterns("__pycache__")
    )
    target = src / "rlsbench" / module
    target.write_text(target.read_text() + f"\n{upward_import}  # deliberate violation\n")
    result = _lint_imports(src, REPO / "pyproject.toml")
    assert result.returncode != 0
    assert "BROKEN" in result.stdout or "broken" in result.stdout
