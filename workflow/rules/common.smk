# Config validation and helpers shared by every rule file.
import os

from snakemake.utils import validate


validate(config, "../schemas/config.schema.yaml")

RUN = config.get("run_name", "default")
RUNDIR = f"results/runs/{RUN}"


def part_enabled(name):
    """A part (main, scaling, buteneers, ramona, sunyao) runs when its section says enabled."""
    return bool(config.get(name, {}).get("enabled", False))
