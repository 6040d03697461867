"""tests/_tools.py finds what the tests that need outside tools miss, and names it: a LaTeX
package that ``kpsewhich`` does not find, no ``kpsewhich``, no ``pdflatex``, no chromium, no
SLURM command. Stand-in executables on a ``PATH`` of the test's own make each case."""

from __future__ import annotations

from tests._tools import (
    latex_packages,
    missing_chromium,
    missing_latex,
    missing_slurm,
)
from tests.benchmark.test_latex import ARTICLE

# kpsewhich's contract: the path and exit status 0 when found, nothing and 1 when not
KPSEWHICH = """#!/bin/sh
case "$1" in
  nosuchpackage*) exit 1 ;;
  *) echo "/usr/share/texmf/tex/latex/$1" ;;
esac
"""


def bin_dir(tmp_path, **scripts):
    """A directory holding executables ``name`` with the given script (or a no-op)."""
    directory = tmp_path / "bin"
    directory.mkdir(exist_ok=True)
    for name, text in scripts.items():
        exe = directory / name
        exe.write_text(text or "#!/bin/sh\nexit 0\n")
        exe.chmod(0o755)
    return str(directory)


def test_the_packages_of_the_article_preamble_are_read_from_its_usepackage_lines():
    assert latex_packages(ARTICLE) == ["inputenc", "booktabs", "array", "morefloats"]


def test_a_latex_package_kpsewhich_cannot_find_is_named(tmp_path):
    path = bin_dir(tmp_path, pdflatex="", kpsewhich=KPSEWHICH)
    why = missing_latex(["booktabs", "nosuchpackage", "array"], path=path)
    assert why is not None and "nosuchpackage.sty" in why and "kpsewhich" in why
    assert "booktabs" not in why


def test_with_every_package_found_nothing_is_missing(tmp_path):
    path = bin_dir(tmp_path, pdflatex="", kpsewhich=KPSEWHICH)
    assert missing_latex(latex_packages(ARTICLE), path=path) is None


def test_pdflatex_without_kpsewhich_is_not_enough(tmp_path):
    path = bin_dir(tmp_path, pdflatex="")
    why = missing_latex(["booktabs"], path=path)
    assert why is not None and "no kpsewhich" in why


def test_no_pdflatex_is_named(tmp_path):
    path = bin_dir(tmp_path, kpsewhich=KPSEWHICH)
    why = missing_latex(["booktabs"], path=path)
    assert why is not None and why.startswith("no pdflatex")


def test_a_chromium_under_any_of_its_names_is_found(tmp_path):
    assert "no chromium" in missing_chromium(path=bin_dir(tmp_path))
    assert missing_chromium(path=bin_dir(tmp_path, **{"chromium-browser": ""})) is None


def test_a_missing_slurm_command_is_named(tmp_path):
    # no apt-get on this PATH: even as root, nothing could install it
    commands = {"slurmctld": "", "slurmd": "", "munged": "", "sbatch": "", "squeue": ""}
    why = missing_slurm(path=bin_dir(tmp_path, **commands))
    assert why is not None and why.startswith("no scontrol")
    assert missing_slurm(path=bin_dir(tmp_path, scontrol="")) is None
