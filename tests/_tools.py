"""The outside tools some tests need (pdflatex and the LaTeX packages the tables load, a
chromium, a SLURM cluster): what is missing, as the reason a test skips with.

Each ``missing_*`` returns None where every piece is there (the tests then run in full, as in
CI), else one line naming the first missing piece and the Debian package that brings it. A
LaTeX package counts as there when ``kpsewhich NAME.sty`` finds it: ``pdflatex`` alone is not
enough (without texlive-latex-extra, ``morefloats.sty`` is missing).

``python tests/_tools.py slurm`` prints the reason and exits 1 when a piece is missing, for the
shell scripts (tests/slurm/run_test.sh).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

#: Where Debian keeps the LaTeX packages the tests load.
LATEX_DEBIAN = "texlive-latex-recommended texlive-latex-extra"
CHROMIUMS = ("chromium", "chromium-browser", "google-chrome")
#: What the SLURM test runs besides the executor plugin: the daemons and the client commands.
SLURM_COMMANDS = ("slurmctld", "slurmd", "munged", "sbatch", "squeue", "scontrol")

_USEPACKAGE = re.compile(r"\\usepackage(?:\[[^\]]*\])?\{([^}]*)\}")


def latex_packages(preamble: str) -> list[str]:
    """The packages a LaTeX preamble loads (``\\usepackage[opt]{a,b}`` gives a and b)."""
    names = [n.strip() for group in _USEPACKAGE.findall(preamble) for n in group.split(",")]
    return list(dict.fromkeys(n for n in names if n))


def _env(path):
    return os.environ if path is None else {**os.environ, "PATH": path}


def missing_latex(packages, *, path: str | None = None) -> str | None:
    """Why LaTeX documents loading ``packages`` cannot be compiled here (None: they can).

    Parameters
    ----------
    packages : iterable of str
        LaTeX package names (``booktabs``), looked up as ``NAME.sty`` with ``kpsewhich``.
    path : str, optional
        The ``PATH`` to search (default: the process's).
    """
    if shutil.which("pdflatex", path=path) is None:
        return f"no pdflatex on PATH (Debian: apt-get install {LATEX_DEBIAN})"
    kpsewhich = shutil.which("kpsewhich", path=path)
    if kpsewhich is None:
        return "no kpsewhich on PATH to find the LaTeX packages (it comes with pdflatex)"
    for name in packages:
        found = subprocess.run(
            [kpsewhich, f"{name}.sty"], capture_output=True, text=True, env=_env(path)
        )
        if found.returncode != 0 or not found.stdout.strip():
            return (
                f"LaTeX package {name}.sty not found (kpsewhich {name}.sty; "
                f"Debian: apt-get install {LATEX_DEBIAN})"
            )
    return None


def chromium(*, path: str | None = None) -> str | None:
    """The first chromium on PATH (None where there is none)."""
    return next((found for n in CHROMIUMS if (found := shutil.which(n, path=path))), None)


def missing_chromium(*, path: str | None = None) -> str | None:
    """Why the report cannot be checked in a real browser here (None: it can)."""
    if chromium(path=path) is None:
        return (
            f"no chromium on PATH ({', '.join(CHROMIUMS)}): the report is checked in a real "
            "browser (Debian: apt-get install chromium)"
        )
    return None


def missing_slurm(*, path: str | None = None) -> str | None:
    """Why the SLURM test cannot start a cluster here (None: it can): a command of
    slurm-wlm or munge is missing and cannot be installed (no root or no apt-get)."""
    missing = [c for c in SLURM_COMMANDS if shutil.which(c, path=path) is None]
    if not missing:
        return None
    if os.geteuid() == 0 and shutil.which("apt-get", path=path) is not None:
        return None  # tests/slurm/cluster.sh installs them
    return (
        f"no {missing[0]} on PATH and no root with apt-get to install it "
        "(Debian: apt-get install slurm-wlm munge)"
    )


if __name__ == "__main__":
    checks = {"slurm": missing_slurm, "chromium": missing_chromium}
    why = checks[sys.argv[1]]() if len(sys.argv) == 2 and sys.argv[1] in checks else "usage"
    if why:
        print(why)
    sys.exit(1 if why else 0)
