"""``main.device`` of the workflow: cpu (default) leaves every job and table as it was; cuda
without a usable GPU stops the run before any job, naming the key."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.protocol_settings import ProtocolSettings
from rlsbench.numerics.selection import cuda
from rlsbench.studies.main import config as main_config

REPO = Path(__file__).resolve().parents[3]
TINY = REPO / "tests" / "configs" / "tiny.yaml"
NO_GPU = cuda.gpu_unavailable_reason()


def job_settings(main, dataset):
    return ProtocolSettings.from_section(main).job_settings(dataset)


def test_device_cpu_keeps_the_job_settings_and_their_provenance_hash():
    main = {"n_folds": 3, "cv_seed": 0, "alphas": [1.0], "criterion": "squared", "bias": 1.0}
    assert job_settings({**main, "device": "cpu"}, "wine") == job_settings(main, "wine")
    assert "device" not in job_settings({**main, "device": "cpu"}, "wine")
    assert job_settings({**main, "device": "cuda"}, "wine")["device"] == "cuda"


@pytest.mark.skipif(NO_GPU is None, reason="a usable GPU is present here")
def test_device_cuda_without_a_gpu_is_a_config_error_naming_the_key():
    main_config.check_device({"device": "cpu"})  # nothing to check
    with pytest.raises(ConfigError, match=r"^config key main\.device: 'cuda' runs greedy_rls"):
        main_config.check_device({"device": "cuda"})


@pytest.mark.slow
@pytest.mark.skipif(NO_GPU is None, reason="a usable GPU is present here")
def _path_without(tool, shadow):
    """PATH with ``tool`` hidden: a folder that holds it is replaced by ``shadow``, links to its
    other programs (dropping the folder would drop bash and which with it where slurm-wlm put
    sbatch in /usr/bin, as ``make test-slurm`` does)."""
    folders = []
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if folder and shutil.which(tool, path=folder):
            shadow.mkdir(parents=True, exist_ok=True)
            for program in Path(folder).iterdir():
                link = shadow / program.name
                if program.name != tool and not link.exists() and not link.is_symlink():
                    link.symlink_to(program)
            folder = str(shadow)
        if folder not in folders:
            folders.append(folder)
    return os.pathsep.join(folders)


def test_workflow_with_device_cuda_and_no_gpu_stops_before_any_job(tmp_path):
    config = yaml.safe_load(TINY.read_text())
    config["main"]["device"] = "cuda"
    path = tmp_path / "cuda.yaml"
    path.write_text(yaml.safe_dump(config))
    # a machine with sbatch on the PATH defers the check to the job (a cluster's submitting
    # node): this test is about a plain local run, whatever the machine has installed
    env = {**os.environ, "PATH": _path_without("sbatch", tmp_path / "bin")}
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--cores", "1"]
        + ["main_all", "-n", "--configfile", str(path), "--directory", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert proc.returncode != 0
    assert re.search(r"config key main\.device: 'cuda'", proc.stdout + proc.stderr), (
        proc.stdout + proc.stderr
    )[-3000:]
    assert not (tmp_path / "results").exists()


def test_device_must_be_cpu_or_cuda():
    schema = yaml.safe_load((REPO / "src/rlsbench/studies/main/workflow/schema.yaml").read_text())
    assert schema["properties"]["device"]["enum"] == ["cpu", "cuda"]
    assert schema["properties"]["device"]["default"] == "cpu"


def test_a_cuda_job_moves_only_greedy_rls_to_the_gpu():
    import numpy as np

    from rlsbench.benchmark.methods import get_method
    from rlsbench.benchmark.protocol import _on_device

    X, Y = np.ones((4, 3)), np.ones(4)
    cuda_settings = ProtocolSettings.from_section({"device": "cuda"})
    assert _on_device(get_method("lowrank_lssvm"), cuda_settings, X, Y) == (X, Y, "cpu")
    assert get_method("greedy_rls").tags["array_api"] is True
    if NO_GPU is not None:  # the job checks again where it runs
        with pytest.raises(RuntimeError, match=r"config key main\.device: 'cuda' here, but"):
            _on_device(get_method("greedy_rls"), cuda_settings, X, Y)
