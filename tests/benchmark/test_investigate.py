"""`rlsbench investigate`: one runner for every part's investigations, their grids in config."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml

from rlsbench.benchmark import parts
from rlsbench.benchmark.cli import main
from rlsbench.benchmark.investigate import investigations_of

REPO = Path(__file__).resolve().parents[2]
GRIDS = REPO / "config" / "investigations"

TOY_MODULE = """
import pandas as pd

from rlsbench.benchmark.investigate import Investigation


def square(x, offset):
    return {"x": x, "square": x * x + offset}


def run(ctx):
    rows = ctx.map(square, [(x, ctx.section["offset"]) for x in ctx.section["xs"]])
    frame = ctx.write_csv("squares.csv", pd.DataFrame(rows), ctx.section, ctx.seed_or(7))
    return ctx.write_markdown("squares.md", markdown_text(ctx, frame))


def markdown(ctx):
    return ctx.write_markdown("squares.md", markdown_text(ctx, ctx.read_csv("squares.csv")))


def markdown_text(ctx, frame):
    return f"Made by `{ctx.command}`: {frame['square'].sum()}\\n"


INVESTIGATIONS = {"squares": Investigation(run, markdown, "x² + offset", keys=("xs", "offset"))}
"""


@pytest.fixture()
def toy(tmp_path, monkeypatch):
    """A toy part whose investigations module is out of tree, beside rlsbench's parts."""
    (tmp_path / "toy_investigations.py").write_text(TOY_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    # joblib reuses its loky workers across calls: workers started by an earlier test (same
    # pytest process) have the old sys.path and cannot import the toy module, so start afresh
    # (a new worker gets this process's sys.path)
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)
    toy_part = parts.Part(
        name="toy",
        title="Toy (2024)",
        paper="toy",
        citation="Toy",
        category="Toy",
        rules=tmp_path / "rules.smk",
        schema=tmp_path / "schema.yaml",
        investigations="toy_investigations",
    )
    installed = parts.installed_parts()
    monkeypatch.setattr(parts, "installed_parts", lambda: (*installed, toy_part))
    grids = tmp_path / "toy.yaml"
    grids.write_text(yaml.safe_dump({"squares": {"xs": [1, 2, 3], "offset": 1}}))
    return grids


def _investigate(*argv):
    return main(["investigate", *map(str, argv)])


def test_the_parts_and_their_investigations_are_listed(capsys):
    assert _investigate() == 0
    listed = capsys.readouterr().out
    for part in ("main", "buteneers", "ramona", "sunyao"):
        assert f"{part}: " in listed
    assert "scaling" not in listed  # a part without investigations is not listed
    assert _investigate("ramona") == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(investigations_of("ramona"))
    assert all(len(line.split(maxsplit=1)) == 2 for line in lines)  # a name and its doc


def test_every_investigation_has_its_section_in_the_grids():
    for part in ("main", "buteneers", "ramona", "sunyao"):
        grids = yaml.safe_load((GRIDS / f"{part}.yaml").read_text())
        found = investigations_of(part)
        assert set(grids) == set(found), part
        for name, inv in found.items():
            assert set(grids[name] or {}) == set(inv.keys), (part, name)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nopart", "x"], "no part 'nopart' with investigations; known: main, "),
        (["ramona", "nope"], "part 'ramona' has no investigation 'nope'; known: scss_epsilon, "),
        (["ramona", "seeds", "--set", "sedes=[1]"], "--set sedes: seeds has no key 'sedes'"),
        (["ramona", "seeds", "--set", "seeds"], "--set 'seeds': not KEY=VALUE"),
    ],
)
def test_an_unknown_part_name_or_key_is_refused_naming_it(argv, message, capsys):
    assert _investigate(*argv) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"xs": [1], "offset": 0, "ofset": 1}, "squares.ofset is not a key of this investigation"),
        ({"xs": [1]}, "squares.offset is missing"),
    ],
)
def test_a_grid_file_with_a_wrong_key_is_refused_naming_file_and_key(
    toy, tmp_path, section, message, capsys
):
    toy.write_text(yaml.safe_dump({"squares": section}))
    assert _investigate("toy", "squares", "--config", toy, "--out", tmp_path / "o") == 1
    err = capsys.readouterr().err
    assert f"{toy}: {message}" in err


def test_a_missing_section_names_the_file(toy, tmp_path, capsys):
    toy.write_text(yaml.safe_dump({"other": {}}))
    assert _investigate("toy", "squares", "--config", toy, "--out", tmp_path) == 1
    assert f"{toy}: no section 'squares'" in capsys.readouterr().err


def test_a_toy_parts_investigation_runs_through_the_same_runner(toy, tmp_path, capsys):
    assert _investigate("toy") == 0
    assert capsys.readouterr().out.split() == ["squares", "x²", "+", "offset"]
    outs = {}
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}"
        argv = ["toy", "squares", "--config", toy, "--out", out, "--jobs", jobs]
        assert _investigate(*argv, "--set", "offset=10") == 0
        outs[jobs] = pd.read_csv(out / "squares.csv")
    # the rows in task order, whatever --jobs; provenance and the command recorded
    assert outs[1]["square"].tolist() == [11, 14, 19]
    pd.testing.assert_frame_equal(outs[1], outs[2])
    assert set(outs[1]["seed"]) == {7} and "git_commit" in outs[1]
    assert set(outs[1]["command"]) == {
        f"rlsbench investigate toy squares --config {toy} --set offset=10"
    }
    text = (tmp_path / "jobs1" / "squares.md").read_text()
    assert text.endswith(": 44\n")
    (tmp_path / "jobs1" / "squares.md").unlink()
    argv = ["toy", "squares", "--config", toy, "--out", tmp_path / "jobs1", "--markdown-only"]
    assert _investigate(*argv) == 0
    assert (tmp_path / "jobs1" / "squares.md").read_text().endswith(": 44\n")


def test_markdown_only_without_the_csv_names_the_missing_file(toy, tmp_path, capsys):
    argv = ["toy", "squares", "--config", toy, "--out", tmp_path, "--markdown-only"]
    assert _investigate(*argv) == 1
    assert f"{tmp_path / 'squares.csv'}: no such file" in capsys.readouterr().err


def test_ramona_paper_self_check_runs_end_to_end(tmp_path):
    """No data needed: the claim rules on the paper's own numbers (reported.csv)."""
    from rlsbench.studies.fidelity.transcription import load_reported
    from rlsbench.studies.ramona.ledger import LEDGER

    argv = ["ramona", "paper_self_check", "--config", GRIDS / "ramona.yaml", "--out", tmp_path]
    assert _investigate(*argv) == 0
    frame = pd.read_csv(tmp_path / "paper_self_check.csv")
    rep = load_reported([LEDGER])
    rep = rep[rep["paper"] == "ramona"]
    # one R25 row per (dataset, S) of Table VI; four R24 rows per S of Table V
    n_t6 = len(rep[rep["item"] == "Table VI"].groupby(["dataset", "setting"]))
    t5 = rep[(rep["item"] == "Table V") & (rep["metric"] == "error_pct")]
    assert (frame["check"] == "R25").sum() == n_t6 > 0
    assert (frame["check"] == "R24").sum() == 4 * t5["setting"].nunique() > 0
    t7 = frame[frame["check"] == "Table VII"]
    assert set(t7["method"]) == {"sas", "scss", "kfds"}
    assert "the paper's" in set(t7["numbers"])
    text = (tmp_path / "paper_self_check.md").read_text()
    assert "Made by `rlsbench investigate ramona paper_self_check --config" in text


def test_the_old_module_mains_are_gone():
    for part in ("main", "buteneers", "ramona", "sunyao"):
        module = REPO / "src" / "rlsbench" / "studies" / part / "investigations.py"
        source = module.read_text()
        assert "argparse" not in source and "__main__" not in source, part


def test_layered_merges_mappings_and_replaces_everything_else():
    from rlsbench.benchmark.investigate import layered

    base = {"p": {"a": 1, "b": {"c": [1, 2], "d": 2}}, "q": [1]}
    over = {"p": {"b": {"c": [3]}, "e": 5}, "q": {"x": 1}}
    assert layered(base, over) == {"p": {"a": 1, "b": {"c": [3], "d": 2}, "e": 5}, "q": {"x": 1}}
    assert base["p"]["b"]["c"] == [1, 2]  # the base is left as it was


def test_a_variant_is_laid_on_the_paper_config_and_written_beside_its_tables(
    tmp_path, monkeypatch, capsys
):
    """`--variant NAME`: config/variants/NAME.yaml over the paper config, as `make variant`
    layers it; the outputs go to the variant's published folder and name the variant."""
    monkeypatch.chdir(tmp_path)
    timing = {"M_fixed": 200, "n_folds": 3, "n_lambdas": 4, "M_values": [200], "N_fixed": 4}
    paper = tmp_path / "paper.yaml"
    paper.write_text(yaml.safe_dump({"buteneers": {"seed": 0, "tasks": [], "timing": timing}}))
    (tmp_path / "config" / "variants").mkdir(parents=True)
    variant = {
        "variant": {"name": "two-folds", "part": "buteneers", "description": "two folds"},
        "publish_dir": "published/two-folds",
        "buteneers": {"timing": {"n_folds": 2}},
    }
    (tmp_path / "config" / "variants" / "two-folds.yaml").write_text(yaml.safe_dump(variant))
    argv = ["buteneers", "timing_n", "--config", GRIDS / "buteneers.yaml"]
    argv += ["--paper-config", paper, "--set", "N_values=[3, 6]", "--set", "repeats=1"]
    assert _investigate(*argv, "--variant", "two-folds") == 0
    frame = pd.read_csv(tmp_path / "published/two-folds/buteneers/investigations/timing_n.csv")
    # the variant's folds, the paper config's M
    assert set(frame["n_folds"]) == {2} and set(frame["M"]) == {200}
    assert all("--variant two-folds" in c for c in frame["command"])
    capsys.readouterr()
    # a variant of another part is refused, naming its file
    variant["variant"]["part"] = "ramona"
    (tmp_path / "config" / "variants" / "two-folds.yaml").write_text(yaml.safe_dump(variant))
    assert _investigate(*argv, "--variant", "two-folds") == 1
    assert "config/variants/two-folds.yaml: not a variant of part 'buteneers'" in (
        capsys.readouterr().err
    )
