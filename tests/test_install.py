"""Every install form works: a wheel built from the sources, installed into a fresh venv, used
from a directory outside the clone (no file of the clone is reachable from the package).

The wheel is built offline (``--no-build-isolation``) from a copy of the sources; the fresh venv
gets the wheel with ``--no-deps`` and its dependencies from this test environment through a
``.pth`` line (a path added that way does not run the editable install's own ``.pth`` hooks, so
``rlsbench`` can only come from the wheel).
"""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from rlsbench.benchmark.datasets._testing import serve_directory

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "datasets"
pytestmark = pytest.mark.slow

CSV = b"1.0,2.0,a\n2.0,1.0,b\n3.0,0.5,a\n0.5,3.0,b\n"


def _run(cmd, cwd, timeout=300, env=None):
    # no PYTHONPATH: rlsbench must come from the wheel, not from a source tree named there
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**clean, **(env or {})},
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """``(venv python, venv bin, an empty directory outside the clone)``."""
    root = tmp_path_factory.mktemp("install")
    source = root / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    shutil.copytree(REPO / "src", source / "src", ignore=ignore)
    for name in ("pyproject.toml", "README.md", "LICENSE", "CITATION.cff"):
        if (REPO / name).exists():
            shutil.copy(REPO / name, source / name)
    # the workflow the wheel ships (setup.py's build step copies it into rlsbench/_workflow)
    for name in ("setup.py", "MANIFEST.in", "Snakefile", "environment.yml", "config/config.yaml"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / name, source / name)
    for name in ("workflow", "profiles/default", "profiles/slurm", "docs/examples/next_paper"):
        shutil.copytree(REPO / name, source / name, ignore=ignore)
    dist = root / "dist"
    built = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            dist,
            source,
        ],
        cwd=root,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (wheel,) = dist.glob("rlsbench-*.whl")

    venv = root / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=root)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    purelib = _run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=root
    ).stdout.strip()
    deps = sysconfig.get_paths()["purelib"]
    Path(purelib, "_rlsbench_test_deps.pth").write_text(deps + "\n")
    install = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            python,
            "install",
            "--no-deps",
            "--no-index",
            wheel,
        ],
        cwd=root,
    )
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-2000:]
    outside = root / "elsewhere"
    outside.mkdir()
    return python, venv / "bin", outside


def test_the_package_comes_from_the_wheel(installed):
    python, _, outside = installed
    where = _run([python, "-c", "import rlsbench; print(rlsbench.__file__)"], cwd=outside)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(python.parent.parent)
    assert not Path(where.stdout.strip()).is_relative_to(REPO)


def test_version_and_help(installed):
    python, bin_dir, outside = installed
    version = _run([bin_dir / "rlsbench", "--version"], cwd=outside)
    assert version.returncode == 0 and version.stdout.strip() == "rlsbench 0.1.0"
    helped = _run([python, "-m", "rlsbench", "--help"], cwd=outside)
    assert helped.returncode == 0 and "datasets" in helped.stdout


def test_datasets_list_reads_the_packaged_registry(installed):
    _, bin_dir, outside = installed
    listed = _run([bin_dir / "rlsbench", "datasets", "list"], cwd=outside)
    assert listed.returncode == 0, listed.stderr
    names = [line.split()[0] for line in listed.stdout.splitlines()[1:]]
    assert {"australian", "ijcnn1", "mnist5", "servo", "synth_small"} <= set(names)
    assert (
        "registry.yaml"
        in _run([bin_dir / "rlsbench", "datasets", "info", "servo"], cwd=outside).stdout
    )


def test_fetch_a_user_dataset_over_http(installed, tmp_path):
    """A user registry (from `rlsbench datasets hash`) names a file served over loopback HTTP."""
    _, bin_dir, outside = installed
    served = tmp_path / "served"
    served.mkdir()
    (served / "tiny.csv").write_bytes(CSV)
    with serve_directory(served) as url:
        hashed = _run(
            [
                bin_dir / "rlsbench",
                "datasets",
                "hash",
                served / "tiny.csv",
                "--name",
                "tiny",
                "--url",
                f"{url}/tiny.csv",
            ],
            cwd=outside,
        )
        assert hashed.returncode == 0, hashed.stderr
        (outside / "mine.yaml").write_text(hashed.stdout)
        fetched = _run(
            [
                bin_dir / "rlsbench",
                "datasets",
                "--registry-extra",
                "mine.yaml",
                "fetch",
                "tiny",
                "--cache-dir",
                tmp_path / "cache",
                "--retries",
                "1",
            ],
            cwd=outside,
        )
    assert fetched.returncode == 0, fetched.stderr
    assert Path(fetched.stdout.strip()) == tmp_path / "cache" / "prepared" / "tiny.npz"
    assert "tiny: binary, X 4 x 2" in fetched.stderr


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"no dataset mirror at {SHARED}")
def test_fetch_a_builtin_dataset_from_a_loopback_mirror(installed, tmp_path):
    _, bin_dir, outside = installed
    with serve_directory(SHARED) as url:
        fetched = _run(
            [
                bin_dir / "rlsbench",
                "datasets",
                "fetch",
                "heart",
                "--mirror",
                url,
                "--cache-dir",
                tmp_path / "cache",
                "--retries",
                "1",
            ],
            cwd=outside,
        )
    assert fetched.returncode == 0, fetched.stderr
    assert "heart: binary, X 270 x 13" in fetched.stderr


def test_run_dry_runs_the_packaged_workflow_from_an_empty_directory(installed, tmp_path):
    python, bin_dir, _ = installed
    root = _run(
        [
            python,
            "-c",
            "from rlsbench.benchmark.runner import workflow_root; print(workflow_root())",
        ],
        cwd=tmp_path,
    )
    assert root.returncode == 0, root.stderr
    assert Path(root.stdout.strip()).is_relative_to(python.parent.parent)
    assert Path(root.stdout.strip()).name == "_workflow"

    empty = tmp_path / "empty"
    empty.mkdir()
    done = _run([bin_dir / "rlsbench", "run", "--dry-run", "--cores", "1"], cwd=empty)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    # the embedded default config's plan, into the empty directory
    assert "rlsbench plan for run 'default'" in output
    assert "results/runs/default/main/tables/summary.csv" in output
    assert (empty / ".snakemake").is_dir()


def _workflow_root(python, cwd) -> Path:
    code = "from rlsbench.benchmark.runner import workflow_root; print(workflow_root())"
    root = _run([python, "-c", code], cwd=cwd)
    assert root.returncode == 0, root.stderr
    return Path(root.stdout.strip())


def test_the_installed_snakefile_runs_with_its_own_default_config(installed, tmp_path):
    """Plain ``snakemake -s <installed Snakefile>``, no --configfile, from an empty directory
    (no config/config.yaml there): the workflow falls back to the config it ships."""
    python, _, _ = installed
    snakefile = _workflow_root(python, tmp_path) / "Snakefile"
    assert snakefile.is_relative_to(python.parent.parent)
    empty = tmp_path / "empty"
    empty.mkdir()
    done = _run([python, "-m", "snakemake", "-s", snakefile, "-n", "--cores", "1"], cwd=empty)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert "rlsbench plan for run 'default'" in output
    assert "results/runs/default/main/tables/summary.csv" in output


def test_init_writes_the_starter_project_from_the_wheel(installed, tmp_path):
    _, bin_dir, outside = installed
    project = tmp_path / "project"
    done = _run([bin_dir / "rlsbench", "init", project], cwd=outside)
    assert done.returncode == 0, done.stderr
    shipped = {
        "config.yaml": "config/config.yaml",
        "profiles/slurm/config.yaml": "profiles/slurm/config.yaml",
        "next_paper.yaml": "docs/examples/next_paper/next_paper.yaml",
        "make_my_data.py": "docs/examples/next_paper/make_my_data.py",
        "my-ranker/my_ranker.py": "docs/examples/next_paper/my-ranker/my_ranker.py",
        "my-ranker/pyproject.toml": "docs/examples/next_paper/my-ranker/pyproject.toml",
    }
    written = sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file())
    assert written == sorted(shipped)
    for name, source in shipped.items():
        assert (project / name).read_bytes() == (REPO / source).read_bytes(), name
    again = _run([bin_dir / "rlsbench", "init", project], cwd=outside)
    assert again.returncode == 1
    assert again.stderr == (
        f"rlsbench: error: {project / 'config.yaml'}: exists (and 5 more); nothing written "
        "(rlsbench init --force overwrites)\n"
    )


def test_the_report_dependencies_are_declared(installed, tmp_path):
    """`rlsbench run main_all -- --report ...` needs Snakemake's report extra (pygments): a
    dependency of the wheel, not of the test environment alone."""
    from packaging.requirements import Requirement

    python, _, _ = installed
    code = "from importlib.metadata import requires; print(chr(10).join(requires('{}')))"
    ours = _run([python, "-c", code.format("rlsbench")], cwd=tmp_path)
    assert ours.returncode == 0, ours.stderr
    requirements = [Requirement(line) for line in ours.stdout.splitlines()]
    (snakemake,) = [r for r in requirements if r.name == "snakemake" and r.marker is None]
    theirs = _run([python, "-c", code.format("snakemake")], cwd=tmp_path).stdout.splitlines()
    brought = {
        Requirement(line).name
        for line in theirs
        if Requirement(line).marker is not None
        and any(Requirement(line).marker.evaluate({"extra": e}) for e in snakemake.extras)
    }
    assert "pygments" in brought
