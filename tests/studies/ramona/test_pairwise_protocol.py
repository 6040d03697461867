"""The paper's USPS protocol (Ramona et al. 2012, Sec. V-B4): one ranking and one SVM per pair
of classes, pairwise coupling of their probabilities (Hastie & Tibshirani 1998), tested on
the training pool's rest."""

from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.config import ConfigError, validate_section
from rlsbench.studies.ramona.coupling import pairwise_coupling
from rlsbench.studies.ramona.experiments import draw_split, pairwise_errors, realdata_rows

REPO = Path(__file__).resolve().parents[3]
SCHEMA = REPO / "src/rlsbench/studies/ramona/workflow/schema.yaml"


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with threadpool_limits(limits=1):
        yield


def _consistent(p):
    """r_ij = p_i / (p_i + p_j) of known class distributions p (n_samples, K)."""
    return p[:, :, None] / (p[:, :, None] + p[:, None, :])


def test_coupling_recovers_the_distribution_of_consistent_pairwise_probabilities():
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(5), size=20)
    weights = rng.integers(50, 150, size=(5, 5)).astype(float)
    weights = weights + weights.T
    np.testing.assert_allclose(pairwise_coupling(_consistent(p)), p, atol=1e-8)
    np.testing.assert_allclose(pairwise_coupling(_consistent(p), weights), p, atol=1e-8)


def test_coupling_of_two_classes_is_the_pairwise_probability_and_rows_sum_to_one():
    r = np.array([0.1, 0.5, 0.93])
    R = np.empty((3, 2, 2))
    R[:, 0, 1], R[:, 1, 0] = r, 1 - r
    np.testing.assert_allclose(pairwise_coupling(R), np.c_[r, 1 - r], atol=1e-10)
    # inconsistent pairwise estimates (a cycle 0 > 1 > 2 > 0) still give a distribution
    R = np.full((1, 3, 3), 0.5)
    R[0, 0, 1], R[0, 1, 2], R[0, 2, 0] = 0.8, 0.8, 0.8
    R[0, 1, 0], R[0, 2, 1], R[0, 0, 2] = 0.2, 0.2, 0.2
    p = pairwise_coupling(R)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    np.testing.assert_allclose(p, 1 / 3, atol=1e-8)  # the symmetric cycle has no favourite


def test_coupling_refuses_inconsistent_shapes_and_complements():
    with pytest.raises(ValueError, match="shape"):
        pairwise_coupling(np.full((2, 3, 4), 0.5))
    R = np.full((1, 3, 3), 0.5)
    R[0, 0, 1] = 0.9  # R[0, 1, 0] stays 0.5
    with pytest.raises(ValueError, match="1 - R"):
        pairwise_coupling(R)


def _four_classes(seed=0, n_per_class=30):
    """Class c differs from the others in feature 2c only (features 2c+1 and 8.. are noise):
    every pair of classes has its own two informative features."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(4), n_per_class)
    X = rng.normal(size=(y.size, 10))
    X[np.arange(y.size), 2 * y] += 4.0
    return X, y


def test_every_pair_ranks_on_its_own_samples_and_gets_its_own_features():
    X, y = _four_classes()
    train = np.flatnonzero(np.arange(y.size) % 3 != 0)
    test = np.flatnonzero(np.arange(y.size) % 3 == 0)
    results, _ = pairwise_errors(
        X, y, train, train, test, method="fisher", kernel="rbf", n_selected=[1, 2]
    )
    (S1, error1, union1), (S2, error2, union2) = results
    assert (S1, S2) == (1, 2)
    # one feature per pair, but the six pairs pick among the four informative ones: no single
    # ranking for all classes would give one SVM per pair a feature of its own
    assert set(union1.tolist()) <= {0, 2, 4, 6} and union1.size >= 3
    assert set(union2.tolist()) == {0, 2, 4, 6}
    assert 0.0 <= error2 <= 1.0 and error2 < 0.1  # chance is 0.75


def test_the_pairwise_protocol_is_reproducible_and_its_error_a_fraction():
    X, y = _four_classes(seed=1)
    kw = dict(
        experiment="e",
        dataset="d",
        kernel="rbf",
        n_selected=[1, 2, 4],
        n_train=0,
        train_per_class=12,
        pools={"train": [0, y.size], "test": "rest"},
        n_repeats=2,
        multiclass="pairwise",
    )
    for method in ("fisher", "sas"):
        rows = realdata_rows(X, y, method=method, **kw)
        again = realdata_rows(X, y, method=method, **kw)
        side = realdata_rows(X, y, method=method, n_jobs=2, **kw)  # repetitions side by side
        strip = [{k: v for k, v in r.items() if k != "fit_seconds"} for r in rows]
        assert strip == [{k: v for k, v in r.items() if k != "fit_seconds"} for r in again]
        assert strip == [{k: v for k, v in r.items() if k != "fit_seconds"} for r in side]
        assert [(r["repeat"], r["n_selected"]) for r in rows] == [
            (r, S) for r in range(2) for S in (1, 2, 4)
        ]
        assert all(0.0 <= r["error"] <= 1.0 for r in rows)
        assert all(r["n_train"] == 48 and r["n_test"] == y.size - 48 for r in rows)
        assert all(r["multiclass"] == "pairwise" and r["selected"] for r in rows)
    with pytest.raises(ValueError, match="multiclass"):
        realdata_rows(X, y, method="fisher", **{**kw, "multiclass": "ovr"})


def test_the_rest_of_the_pool_is_the_test_set():
    y = np.arange(200) % 4
    rng = np.random.default_rng(3)
    train, test = draw_split(
        y, rng, n_train=0, train_per_class=10, pools={"train": [0, 150], "test": "rest"}
    )
    assert np.intersect1d(train, test).size == 0
    np.testing.assert_array_equal(np.union1d(train, test), np.arange(150))
    np.testing.assert_array_equal(np.bincount(y[train]), [10, 10, 10, 10])
    # n_test draws that many of the rest (the paper's Table I: 2007 of zip.train's rest)
    train, test = draw_split(
        y, rng, n_train=0, train_per_class=10, n_test=30, pools={"train": [0, 150], "test": "rest"}
    )
    assert test.size == 30 and np.isin(test, np.setdiff1d(np.arange(150), train)).all()


def _experiment(**changes):
    exp = {"dataset": "usps", "kernels": ["rbf"], "n_train": 1000, "n_selected": [5]}
    return {"enabled": True, "realdata": {"methods": ["sas"], "experiments": {"t": exp | changes}}}


@pytest.mark.parametrize(
    "changes, key",
    [
        ({"multiclass": "one-vs-rest"}, "ramona.realdata.experiments.t.multiclass"),
        ({"pools": {"train": [0, 10], "test": "others"}}, "ramona.realdata.experiments.t.pools"),
        (
            {"method_options": {"r2w2": {"radius": "cvxopt"}}},
            "ramona.realdata.experiments.t.method_options.r2w2.radius",
        ),
        (
            {"method_options": {"kfds": {"mu": 0.0}}},
            "ramona.realdata.experiments.t.method_options.kfds.mu",
        ),
    ],
)
def test_the_schema_refuses_a_bad_value_naming_its_key(changes, key):
    with pytest.raises(ConfigError, match=rf"config key {key}"):
        validate_section(_experiment(**changes), SCHEMA, "ramona")


def test_the_schema_refuses_a_bad_part_wide_radius_naming_its_key():
    section = _experiment()
    section["method_options"] = {"r2w2": {"radius": "dense"}}
    with pytest.raises(ConfigError, match=r"config key ramona.method_options.r2w2.radius"):
        validate_section(section, SCHEMA, "ramona")


def test_part_wide_options_reach_every_experiment_below_the_realdata_and_own_ones():
    from rlsbench.studies.ramona.config import check, experiment, method_options

    section = _experiment(method_options={"kfds": {"mu": 0.5}}, methods=["r2w2", "kfds"])
    section["method_options"] = {"r2w2": {"radius": "qp"}, "kfds": {"mu": 1e-3, "n_iter": 4}}
    section["realdata"]["method_options"] = {"kfds": {"mu": 0.2}}
    section = validate_section(section, SCHEMA, "ramona")
    check(section, {})
    assert method_options(section) == {"r2w2": {"radius": "qp"}, "kfds": {"mu": 1e-3, "n_iter": 4}}
    assert experiment(section, "t")["method_options"] == {
        "r2w2": {"radius": "qp"},
        "kfds": {"mu": 0.5, "n_iter": 4},
    }
    # an experiment without R2W2 keeps its settings (and its job) when R2W2's radius changes
    section["realdata"]["experiments"]["u"] = {**section["realdata"]["experiments"]["t"]}
    section["realdata"]["experiments"]["u"]["methods"] = ["sas", "kfds"]
    assert experiment(section, "u")["method_options"] == {"kfds": {"mu": 0.5, "n_iter": 4}}
    section["realdata"]["experiments"]["u"]["methods"] = ["sas"]
    assert experiment(section, "u")["method_options"] == {}
    # null restores a ranker's default: the settings of a config that never set the option
    section["realdata"]["method_options"] = {"kfds": {"mu": 0.2, "n_iter": None}}
    section["realdata"]["experiments"]["u"]["method_options"] = {}
    section["realdata"]["experiments"]["u"]["methods"] = ["sas", "kfds"]
    assert experiment(section, "u")["method_options"] == {"kfds": {"mu": 0.2}}
    section["realdata"]["method_options"] = {"kfds": {"mu": None, "n_iter": None}}
    section["method_options"] = {"r2w2": {"radius": "qp"}}
    assert experiment(section, "u")["method_options"] == {}
    section["method_options"]["sas"] = {"radius": "qp"}
    with pytest.raises(ConfigError, match=r"ramona.method_options.sas.radius: not an option"):
        check(section, {})


def test_toy_and_cputime_jobs_get_the_options_only_where_the_part_sets_them():
    from rlsbench.studies.ramona.config import cputime_job_settings, toy_job_settings

    section = _experiment()
    section["toy"] = {"n_train": [10], "methods": ["r2w2", "sas"]}
    section["cputime"] = {"N": [10], "D": [5], "methods": ["r2w2"]}
    # no options: the jobs' settings are the sections' (a run without them re-runs nothing)
    assert toy_job_settings(section, "r2w2") == {"n_train": [10]}
    assert cputime_job_settings(section) == section["cputime"]
    section["method_options"] = {"r2w2": {"radius": "qp"}}
    assert toy_job_settings(section, "r2w2")["method_options"] == {"radius": "qp"}
    assert "method_options" not in toy_job_settings(section, "sas")
    assert cputime_job_settings(section)["method_options"] == {"r2w2": {"radius": "qp"}}
    # options of a method the timings do not run leave the CPU-time jobs as they were
    section["method_options"] = {"scss": {"n_iter": 10}}
    assert cputime_job_settings(section) == section["cputime"]
    # the part's stopping rule does not reach the timings (they fix cputime.n_iter
    # themselves), so it leaves their jobs as they were; the toy jobs take it
    section["method_options"] = {"r2w2": {"radius": "qp", "n_iter": 10}}
    assert cputime_job_settings(section)["method_options"] == {"r2w2": {"radius": "qp"}}
    assert toy_job_settings(section, "r2w2")["method_options"] == {"radius": "qp", "n_iter": 10}
    section["method_options"] = {"r2w2": {"n_iter": 10}}
    assert cputime_job_settings(section) == section["cputime"]


def test_the_schema_takes_the_papers_protocol_and_defaults_to_joint():
    section = validate_section(
        _experiment(multiclass="pairwise", pools={"train": [0, 7291], "test": "rest"}),
        SCHEMA,
        "ramona",
    )
    assert section["realdata"]["experiments"]["t"]["multiclass"] == "pairwise"
    assert (
        validate_section(_experiment(), SCHEMA, "ramona")["realdata"]["experiments"]["t"][
            "multiclass"
        ]
        == "joint"
    )


def test_section_defaults_reach_every_experiment_and_its_own_settings_win():
    from rlsbench.studies.ramona.config import check, experiment

    section = _experiment(method_options={"sas": {"epsilon": 1.0}})
    section["realdata"]["experiments"]["u"] = {
        "dataset": "usps",
        "kernels": ["rbf"],
        "n_train": 100,
        "n_selected": [5],
        "standardize": True,
        "method_options": {"sas": {"n_iter": None}},
    }
    section["realdata"].update(standardize=False, method_options={"sas": {"n_iter": 10}})
    section = validate_section(section, SCHEMA, "ramona")
    t, u = experiment(section, "t"), experiment(section, "u")
    assert t["standardize"] is False and u["standardize"] is True
    assert t["method_options"] == {"sas": {"n_iter": 10, "epsilon": 1.0}}
    assert u["method_options"] == {}  # its own null restores SAS's default (convergence)
    with pytest.raises(ConfigError, match=r"experiments.t.method_options.sas.epsilon"):
        check(section, {})  # the experiment's epsilon is not an option of SAS
    section["realdata"]["experiments"]["t"].pop("method_options")
    section["realdata"]["method_options"]["fisher"] = {"n_iter": 3, "epsilon": 0.5}
    with pytest.raises(ConfigError, match=r"ramona.realdata.method_options.fisher.epsilon"):
        check(section, {})
