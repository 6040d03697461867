"""Every third-party module the package and the workflow import is a declared dependency.

Reads the imports (``ast`` for Python files, the same for the Python lines of the Snakemake
files), maps each top-level module to the distribution that provides it
(``importlib.metadata.packages_distributions``) and checks that distribution against
``pyproject.toml``: required for ``src/`` and ``workflow/``, or listed in an optional extra when
the import sits in a ``try: ... except ImportError`` guard (optional back-ends, benchmarks).
``environment.yml`` must list the same packages as ``pyproject.toml``.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
FIRST_PARTY = {"rlsbench"}
#: Names Snakemake injects into scripts and Snakefiles; not imports of ours.
INJECTED = {"snakemake"}


def _requirement_name(spec: str) -> str:
    return re.split(r"[\s<>=!~;\[]", spec.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _pyproject():
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    required = {_requirement_name(s) for s in data["dependencies"]}
    extras = {
        name: {_requirement_name(s) for s in specs}
        for name, specs in data.get("optional-dependencies", {}).items()
    }
    return required, extras


def _guarded(node, parents) -> bool:
    """Whether an import sits in a ``try`` whose handlers catch ImportError."""
    for parent in parents:
        if isinstance(parent, ast.Try) and node in ast.walk(ast.Module(parent.body, [])):
            for handler in parent.handlers:
                names = ast.unparse(handler.type) if handler.type else "BaseException"
                if "ImportError" in names or "ModuleNotFoundError" in names:
                    return True
    return False


def _imports(source: str):
    """(top-level module, guarded) for every absolute import in ``source``."""
    tree = ast.parse(source)
    stack = [(tree, [])]
    while stack:
        node, parents = stack.pop()
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], _guarded(node, parents)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0], _guarded(node, parents)
        for child in ast.iter_child_nodes(node):
            stack.append((child, [*parents, node]))


def _snakemake_python(text: str) -> str:
    """The import lines of a Snakefile / rule file (the rest is Snakemake syntax)."""
    lines = [
        line.strip()
        for line in text.splitlines()
        if re.match(r"\s*(import|from)\s+[\w.]+", line) and not line.rstrip().endswith("(")
    ]
    return "\n".join(lines)


def _collect(roots):
    found = {}
    for root in roots:
        paths = [root] if root.is_file() else sorted(root.rglob("*"))
        for path in paths:
            if path.suffix == ".py":
                source = path.read_text()
            elif path.suffix == ".smk" or path.name == "Snakefile":
                source = _snakemake_python(path.read_text())
            else:
                continue
            for module, guarded in _imports(source):
                if module in sys.stdlib_module_names or module in FIRST_PARTY | INJECTED:
                    continue
                # an unguarded import anywhere makes the module required
                found[module] = found.get(module, True) and guarded
                found.setdefault(
                    f"__where__{module}",
                    path.name if not path.is_relative_to(REPO) else str(path.relative_to(REPO)),
                )
    return {k: v for k, v in found.items() if not k.startswith("__where__")}, {
        k[9:]: v for k, v in found.items() if k.startswith("__where__")
    }


def _distribution(module: str) -> str | None:
    dists = importlib.metadata.packages_distributions().get(module)
    return dists[0].lower().replace("_", "-") if dists else None


@pytest.mark.parametrize("roots", [("src", "workflow", "Snakefile"), ("benchmarks",)])
def test_every_third_party_import_is_declared(roots):
    required, extras = _pyproject()
    optional = set().union(*extras.values())
    modules, where = _collect([REPO / r for r in roots])
    assert modules, "no imports found: the scan itself is broken"
    problems = []
    for module, guarded in sorted(modules.items()):
        dist = _distribution(module)
        if dist is None:
            if not guarded:
                problems.append(f"{module} ({where[module]}): not installed, not guarded")
            continue
        in_required = dist in required
        if roots[0] == "benchmarks" or guarded:
            if not (in_required or dist in optional):
                problems.append(f"{module} -> {dist} ({where[module]}): in no extra")
        elif not in_required:
            problems.append(f"{module} -> {dist} ({where[module]}): not in dependencies")
    assert not problems, "undeclared imports:\n" + "\n".join(problems)


def test_the_scan_finds_an_undeclared_import(tmp_path):
    """The check above can fail: a module importing an undeclared package is reported."""
    (tmp_path / "mod.py").write_text(
        "import numpy\nimport pytest\ntry:\n    import abcxyz\nexcept ImportError:\n    pass\n"
    )
    modules, _ = _collect([tmp_path])
    assert modules == {"numpy": False, "pytest": False, "abcxyz": True}
    required, _ = _pyproject()
    assert _distribution("pytest") not in required


def test_environment_yml_lists_the_same_packages():
    required, extras = _pyproject()
    env = yaml.safe_load((REPO / "environment.yml").read_text())
    conda, pip = set(), set()
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            pip |= {_requirement_name(s) for s in dep.get("pip", []) if not s.startswith("-e")}
        else:
            conda.add(_requirement_name(dep))
    listed = (conda | pip) - {"python", "pip"}
    wanted = required | set().union(*(extras.get(x, set()) for x in ("test", "lint", "docs")))
    assert wanted <= listed, f"missing from environment.yml: {sorted(wanted - listed)}"
    declared = required | set().union(*extras.values())
    assert listed <= declared, f"not in pyproject.toml: {sorted(listed - declared)}"


def _lock():
    """{name: (version, n_hashes, marker)} of ``requirements/lock.txt``."""
    text = (REPO / "requirements" / "lock.txt").read_text().replace("\\\n", " ")
    pins = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        spec, _, rest = line.partition(" --hash")
        name, _, version = spec.partition("==")
        version, _, marker = version.partition(";")
        pins[_requirement_name(name)] = (version.strip(), line.count("--hash=sha256:"), marker)
    return pins


def test_the_lock_pins_every_declared_dependency_with_hashes():
    from packaging.requirements import Requirement

    pins = _lock()
    assert all(version and hashes for version, hashes, _ in pins.values()), "unpinned or unhashed"
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    locked_extras = ("test", "lint", "docs")
    specs = list(data["dependencies"]) + [
        s for extra in locked_extras for s in data["optional-dependencies"][extra]
    ]
    for spec in specs:
        req = Requirement(spec)
        name = _requirement_name(req.name)
        assert name in pins, f"{name} is declared in pyproject.toml but not in the lock"
        assert req.specifier.contains(pins[name][0], prereleases=True), (
            f"lock pins {name}=={pins[name][0]}, outside pyproject's range {req.specifier}"
        )
