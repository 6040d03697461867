"""The within-noise rule of Ramona's R5 and R18 takes the noise of a gap between two methods
from their paired differences (the methods share their splits), not from two independent
means' combined standard error."""

import numpy as np
import pandas as pd
import pytest

from rlsbench.studies.fidelity.claims import INCONCLUSIVE
from rlsbench.studies.fidelity.ours import RunTree
from rlsbench.studies.ramona.ledger import CHECKS

N_REPEATS = 30
SELECTED = (5, 10, 15, 20, 25)


def _write_tree(root, with_rows):
    """Spambase (Fig. 2) with SAS 0.5 points above AROM on every split, while the splits move
    both by ±5 points: combined standard error ≈ 1.3 points (the gap within it), paired
    standard error 0 + a small jitter (the gap far beyond it)."""
    rng = np.random.default_rng(0)
    rows = []
    for kernel in ("linear", "rbf"):
        for S in SELECTED:
            level = 12.0 + rng.normal(0.0, 5.0, N_REPEATS)
            jitter = rng.normal(0.0, 0.05, N_REPEATS)
            for method, err in (
                ("arom", level),
                ("sas", level + 0.5 + jitter),
                ("fisher", level + 3.0),
                ("scss", level + 4.0),
            ):
                rows += [
                    dict(
                        experiment="fig2_spambase",
                        dataset="spambase",
                        kernel=kernel,
                        method=method,
                        repeat=i,
                        n_selected=S,
                        error=e / 100.0,
                    )
                    for i, e in enumerate(err)
                ]
    rows = pd.DataFrame(rows)
    summary = (
        rows.assign(error=100.0 * rows["error"])
        .groupby(["experiment", "dataset", "kernel", "method", "n_selected"])["error"]
        .agg(mean="mean", std="std", n_repeats="count")
        .reset_index()
    )
    folder = root / "ramona" / "realdata"
    folder.mkdir(parents=True)
    summary.to_csv(folder / "summary.csv", index=False)
    if with_rows:
        rows.to_csv(folder / "rows.csv", index=False)
    return RunTree(root)


@pytest.mark.parametrize("with_rows", [True, False])
def test_r5_gap_is_judged_against_the_paired_spread(tmp_path, with_rows):
    outcomes = CHECKS["R5"](_write_tree(tmp_path, with_rows))
    assert [o.scope for o in outcomes] == ["linear", "rbf"]
    for o in outcomes:
        assert "best proposed below best existing at 0 of 5 S" in o.ours
        if with_rows:
            # paired: 0.5 points against a paired SE of about 0.01 -> beyond noise, refuted
            assert o.holds is False
            assert "5 of 5 against it beyond" in o.ours
        else:
            # without the per-split table: two independent means, the gap within noise
            assert o.holds == INCONCLUSIVE
            assert "0 of 5 against it beyond" in o.ours
