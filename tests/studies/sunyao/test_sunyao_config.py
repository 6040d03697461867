"""The sunyao config section: the deterministic budget keys and the input selection."""

from pathlib import Path

import pytest
import yaml

from rlsbench.benchmark.config import ConfigError, validate_section
from rlsbench.studies.sunyao.config import check

REPO = Path(__file__).resolve().parents[3]
SCHEMA = REPO / "src" / "rlsbench" / "studies" / "sunyao" / "workflow" / "schema.yaml"


def _section(name):
    return yaml.safe_load((REPO / "config" / name).read_text())["sunyao"]


@pytest.mark.parametrize("name", ["config.yaml", "paper.yaml"])
def test_shipped_sections_have_a_flop_budget_and_no_clock(name):
    section = _section(name)
    validate_section(section, SCHEMA, "sunyao")
    assert section["fig1"]["flop_budget"] > 0
    assert "time_budget_s" not in section["fig1"]
    assert all("time_budget_s" not in r for r in section["rvm"].values())


def test_a_clock_budget_is_refused_naming_its_replacement():
    section = _section("config.yaml")
    section["fig1"]["time_budget_s"] = 60
    with pytest.raises(
        ConfigError, match=r"sunyao\.fig1\.time_budget_s: replaced by .*flop_budget"
    ):
        check(section, {})
    section = _section("config.yaml")
    section["rvm"]["rvm_old"]["time_budget_s"] = 60
    with pytest.raises(ConfigError, match="time_budget_s"):
        validate_section(section, SCHEMA, "sunyao")


def test_paper_config_selects_the_papers_input_dimensions():
    entries = {e["name"]: e for e in _section("paper.yaml")["table1"]["datasets"]}
    assert entries["ozone"]["features"] == {"drop": ["doy"]}
    assert entries["boston-housing"]["features"] == {"drop": ["CHAS"]}
    assert entries["abalone"]["features"] == {"codes": {"sex": ["M", "F", "I"]}}
    bad = _section("paper.yaml")
    bad["table1"]["datasets"][0]["features"] = {"keep": ["vh"]}
    with pytest.raises(ConfigError, match="keep"):
        validate_section(bad, SCHEMA, "sunyao")


def test_a_search_with_the_same_inputs_runs_once():
    # the default config's Fig. 1 data are Table 1's sinc data: both RVMs' searches are shared,
    # Forward's is not (Fig. 1 has its own k_max grid)
    from copy import deepcopy

    from rlsbench.studies.sunyao.config import search_source

    section = _section("config.yaml")
    assert search_source(section, "fig1", "sinc-scaling", "rvm_new") == ("table1", "sinc")
    assert search_source(section, "fig1", "sinc-scaling", "rvm_old") == ("table1", "sinc")
    assert search_source(section, "fig1", "sinc-scaling", "forward") == ("fig1", "sinc-scaling")
    assert search_source(section, "table1", "sinc", "rvm_new") == ("table1", "sinc")
    # anything the search reads tells them apart: the data, σ², the target, the width grid
    for change in (
        lambda s: s["fig1"].update(noise=0.2),
        lambda s: s["fig1"].update(data_seed=1),
        lambda s: s["fig1"].update(sigma2=0.1),
        lambda s: s["fig1"].update(target="standardize"),
        lambda s: s["fig1"].update(n_samples=1200),
    ):
        changed = deepcopy(section)
        change(changed)
        assert search_source(changed, "fig1", "sinc-scaling", "rvm_new") == ("fig1", "sinc-scaling")
    # what an RVM's search does not read does not: Forward's λ and k_max grids
    changed = deepcopy(section)
    changed["cv"]["lams"] = [0.5]
    assert search_source(changed, "fig1", "sinc-scaling", "rvm_new") == ("table1", "sinc")
    # the paper config has no two searches alike
    paper = _section("paper.yaml")
    for name in ("ozone", "boston-housing", "abalone"):
        for method in ("forward", "rvm_old", "rvm_new"):
            assert search_source(paper, "table1", name, method) == ("table1", name)
