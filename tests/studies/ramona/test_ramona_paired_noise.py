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


def _tree_of(root, rows, with_rows):
    """A run tree holding ``rows`` (per-split errors, fractions) as the part's
    ``realdata/summary.csv`` (means, standard deviations in %) and, ``with_rows``, as
    ``realdata/rows.csv``."""
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
    return _tree_of(root, pd.DataFrame(rows), with_rows)


@pytest.mark.parametrize("with_rows", [True, False])
def test_r5_gap_is_judged_against_the_paired_spread(tmp_path, with_rows):
    outcomes = CHECKS["R5"](_write_tree(tmp_path, with_rows))
    assert [o.scope for o in outcomes] == ["linear", "rbf"]
    for o in outcomes:
        assert "best proposed below best existing at 0 of 5 S" in o.ours
        if with_rows:
            # paired: 0.5 points against a paired SE of about 0.01 -> beyond noise, refuted
            assert o.holds is False
            assert "0 for it and 5 against it of 5 beyond" in o.ours
        else:
            # without the per-split table: two independent means, the gap within noise
            assert o.holds == INCONCLUSIVE
            assert "0 for it and 0 against it of 5 beyond" in o.ours


def _ionosphere_tree(root, seed0_offset):
    """Fig. 3 (Ionosphere) summary with its lowest linear cell 12.0 % (below the claim's
    12.5 %, within noise), and a seeds investigation whose seed 0 (the run's own draw) is the
    run's table shifted by ``seed0_offset`` points, seeds 1-2 above 12.5 %."""
    methods, selected = ("fisher", "sas"), (5, 10)
    summary, seeds = [], []
    for kernel, level in (("linear", 12.0), ("rbf", 5.5)):
        for i, m in enumerate(methods):
            for j, S in enumerate(selected):
                mean = level + i + j
                summary.append(
                    dict(
                        experiment="fig3_ionosphere",
                        dataset="ionosphere",
                        kernel=kernel,
                        method=m,
                        n_selected=S,
                        mean=mean,
                        std=5.0,
                        n_repeats=30,
                    )
                )
                if kernel == "linear":
                    for split_seed, shift in ((0, seed0_offset), (1, 1.0), (2, 1.5)):
                        seeds.append(
                            dict(
                                experiment="fig3_ionosphere",
                                kernel=kernel,
                                method=m,
                                n_selected=S,
                                repeat=0,
                                error=(mean + shift) / 100.0,
                                split_seed=split_seed,
                                seed=0,
                            )
                        )
    (root / "ramona" / "realdata").mkdir(parents=True)
    (root / "ramona" / "investigations").mkdir(parents=True)
    pd.DataFrame(summary).to_csv(root / "ramona" / "realdata" / "summary.csv", index=False)
    pd.DataFrame(seeds).to_csv(root / "ramona" / "investigations" / "seeds.csv", index=False)
    return RunTree(root)


def test_r11_uses_the_seeds_investigation_only_when_it_was_made_under_the_runs_setting(
    tmp_path,
):
    same = CHECKS["R11"](_ionosphere_tree(tmp_path / "same", 0.0))[0]
    assert "holds in 2 of 3 split seeds" in same.ours
    assert "not used" not in same.ours
    other = CHECKS["R11"](_ionosphere_tree(tmp_path / "other", 0.7))[0]
    assert "another setting" in other.ours and "not used" in other.ours
    assert "split seeds" not in other.ours
    # without the draws the failure within noise is inconclusive all the same
    assert other.holds == INCONCLUSIVE


def _rbf_tree(root, offsets, *, paired):
    """Spambase RBF (Fig. 2) rows: method m errs ``12 + offsets[m]`` points plus a split level
    shared by every method (``paired``: the methods move together, so their paired
    differences have almost no spread) or one drawn per method (independent: ±3 points)."""
    rng = np.random.default_rng(1)
    rows = []
    for S in SELECTED:
        shared = rng.normal(0.0, 3.0, N_REPEATS)
        for method, offset in offsets.items():
            own = shared if paired else rng.normal(0.0, 3.0, N_REPEATS)
            err = 12.0 + offset + own + rng.normal(0.0, 0.02, N_REPEATS)
            rows += [
                dict(
                    experiment="fig2_spambase",
                    dataset="spambase",
                    kernel="rbf",
                    method=method,
                    repeat=i,
                    n_selected=S,
                    error=e / 100.0,
                )
                for i, e in enumerate(err)
            ]
    return _tree_of(root, pd.DataFrame(rows), with_rows=True)


@pytest.mark.parametrize("paired, verdict", [(True, False), (False, INCONCLUSIVE)])
def test_r8_sas_above_sfs_is_refuted_only_beyond_the_paired_noise(tmp_path, paired, verdict):
    # SAS 0.3 points above SFS at every S
    tree = _rbf_tree(tmp_path, {"sas": 0.3, "sfs": 0.0, "fisher": 1.0}, paired=paired)
    (outcome,) = CHECKS["R8"](tree)
    if paired:
        assert "SAS below SFS at 0 of 5 S; 0 for it and 5 against it of 5 beyond" in outcome.ours
    else:  # the split noise (±3 points per method) hides the gap at every S
        assert "0 for it and 0 against it of 5 beyond" in outcome.ours
    assert outcome.holds == verdict
    # the confirmation passes the same rule: beyond the paired noise it holds, within the
    # unpaired one it is inconclusive
    below = _rbf_tree(tmp_path / "below", {"sas": -0.3, "sfs": 0.0}, paired=paired)
    assert CHECKS["R8"](below)[0].holds == (True if paired else INCONCLUSIVE)


@pytest.mark.parametrize("paired, verdict", [(True, False), (False, INCONCLUSIVE)])
def test_r9_kfds_above_the_median_is_refuted_only_beyond_the_paired_noise(
    tmp_path, paired, verdict
):
    # KFDS 0.2 points above the median of the other three (fisher at +0.0)
    offsets = {"kfds": 0.2, "arom": -1.0, "fisher": 0.0, "sas": 1.0}
    (outcome,) = CHECKS["R9"](_rbf_tree(tmp_path, offsets, paired=paired))
    assert "fisher at the median" in outcome.ours
    assert outcome.holds == verdict
    offsets["kfds"] = -0.2  # a confirmation: the same rule (see R8)
    below = CHECKS["R9"](_rbf_tree(tmp_path / "below", offsets, paired=paired))[0]
    assert below.holds == (True if paired else INCONCLUSIVE)


@pytest.mark.parametrize(
    "r2w2, holds",
    [
        (3.7, True),  # close to AROM and KFDS, far below the failing methods
        (13.0, False),  # below them, but nearer the failing ones than the succeeding ones
        (16.0, False),  # above SAS, SCSS and Fisher
    ],
)
def test_r1_asks_r2w2_arom_kfds_to_succeed_with_very_close_results(tmp_path, r2w2, holds):
    means = {"r2w2": r2w2, "arom": 2.6, "kfds": 3.6, "sas": 15.4, "scss": 15.4, "fisher": 15.4}
    folder = tmp_path / "ramona" / "toy"
    folder.mkdir(parents=True)
    pd.DataFrame(
        [
            dict(problem="linear", kernel="linear", method=m, n_train=100, mean=v, std=1.0,
                 n_repeats=40)
            for m, v in means.items()
        ]
    ).to_csv(folder / "summary.csv", index=False)  # fmt: skip
    (outcome,) = CHECKS["R1"](RunTree(tmp_path))
    assert outcome.holds is holds
