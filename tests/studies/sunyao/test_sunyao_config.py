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
