"""Build step shipping the Snakemake workflow inside the wheel (everything else: pyproject.toml).

The workflow's files (``Snakefile``, ``workflow/``, the embedded default config, the workflow
profile, ``environment.yml`` for ``conda:`` directives) live once, at the top of the checkout,
where ``snakemake`` run in a clone finds them. A wheel has no checkout, so ``build_py`` copies
them into the built package as ``rlsbench/_workflow/`` with the same layout, the relative paths
inside the workflow (``include:``, ``script:``, ``report:``) staying valid.
``rlsbench.benchmark.runner.workflow_root`` finds the checkout or this copy. An editable
install reads the checkout, so nothing is copied for it.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent

#: Paths relative to the checkout that make up the runnable workflow, then what `rlsbench init`
#: writes into a project besides its config (rlsbench.benchmark.starter: the SLURM profile, the
#: next-paper example).
WORKFLOW_FILES = (
    "Snakefile",
    "workflow",
    "config/config.yaml",
    "profiles/default",
    "environment.yml",
    "profiles/slurm",
    "docs/examples/next_paper",
)


class build_py_with_workflow(build_py):  # noqa: N801 - setuptools command naming
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "rlsbench" / "_workflow"
        if target.exists():
            shutil.rmtree(target)
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".snakemake", "*.egg-info")
        for name in WORKFLOW_FILES:
            source = ROOT / name
            if not source.exists():
                # a wheel without its workflow would fail at `rlsbench run`, not at build time
                raise FileNotFoundError(f"setup.py: workflow file {source} is missing")
            dest = target / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, dest, ignore=ignore)
            else:
                shutil.copy2(source, dest)


setup(cmdclass={"build_py": build_py_with_workflow})
