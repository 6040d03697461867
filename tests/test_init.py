"""``rlsbench init DIR`` writes what the documentation works with into a project folder: the
embedded default config, the SLURM profile and the next-paper example (issue 44, item 4); it
never overwrites a file unless ``--force``, and a refusal writes nothing.

From a checkout here; from a wheel in tests/test_install.py.
"""

from pathlib import Path

import pytest

from rlsbench.benchmark import cli
from rlsbench.benchmark.starter import ProjectExistsError, init_project, starter_files

REPO = Path(__file__).resolve().parents[1]


def _sources() -> dict[Path, Path]:
    expected = {Path("config.yaml"): REPO / "config" / "config.yaml"}
    for folder, destination in (
        (REPO / "profiles" / "slurm", Path("profiles/slurm")),
        (REPO / "docs" / "examples" / "next_paper", Path(".")),
    ):
        for path in folder.rglob("*"):
            relative = path.relative_to(folder)
            if path.is_file() and not {"__pycache__", "results"} & set(relative.parts):
                if not any(part.endswith(".egg-info") for part in relative.parts):
                    expected[destination / relative] = path
    return expected


def test_the_starter_project_is_the_default_config_the_slurm_profile_and_the_example():
    files = starter_files()
    assert files == _sources()
    for name in ("config.yaml", "profiles/slurm/config.yaml", "next_paper.yaml"):
        assert Path(name) in files
    assert Path("my-ranker/pyproject.toml") in files and Path("make_my_data.py") in files


def test_init_writes_every_file_as_shipped(tmp_path, capsys):
    project = tmp_path / "project"
    assert cli.main(["init", str(project)]) == 0
    printed = capsys.readouterr().out.split()
    written = sorted(p.relative_to(project) for p in project.rglob("*") if p.is_file())
    assert written == sorted(_sources())
    assert sorted(Path(p).relative_to(project) for p in printed) == written
    for relative, source in _sources().items():
        assert (project / relative).read_bytes() == source.read_bytes()
    make_data = project / "make_my_data.py"
    assert (
        make_data.stat().st_mode & 0o777
        == (REPO / "docs/examples/next_paper/make_my_data.py").stat().st_mode & 0o777
    )


def test_init_refuses_an_existing_file_and_writes_nothing(tmp_path, capsys):
    mine = tmp_path / "profiles" / "slurm" / "config.yaml"
    mine.parent.mkdir(parents=True)
    mine.write_text("executor: slurm  # my site\n")
    assert cli.main(["init", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"rlsbench: error: {mine}: exists") and "--force" in err
    assert err.count("\n") == 1
    assert mine.read_text() == "executor: slurm  # my site\n"
    assert sorted(p for p in tmp_path.rglob("*") if p.is_file()) == [mine]


def test_init_force_overwrites(tmp_path):
    init_project(tmp_path)
    (tmp_path / "config.yaml").write_text("run_name: edited\n")
    with pytest.raises(ProjectExistsError):
        init_project(tmp_path)
    assert (tmp_path / "config.yaml").read_text() == "run_name: edited\n"
    init_project(tmp_path, force=True)
    assert (tmp_path / "config.yaml").read_bytes() == (REPO / "config/config.yaml").read_bytes()
    assert [p for p in tmp_path.rglob(".*") if ".tmp" in p.name] == []
