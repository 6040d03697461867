"""The verdict rules of the fidelity ledger on small hand-made frames: every verdict reachable,
the match tolerance at its boundary, the ordering rule, hardware times, the item roll-up."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from rlsbench.studies.fidelity.verdicts import (
    INCONCLUSIVE,
    NOISE_Z,
    VERDICTS,
    cell_verdicts,
    claim_verdict,
    combined_se,
    decide_interval,
    draws_text,
    exponent_interval,
    fit_exponent,
    gap_z,
    match_tolerance,
    noise_rule,
    roll_up,
    tolerance,
    welch_bound,
    within_noise,
)

NAN = math.nan


def cell(**kw):
    row = dict(
        paper="p",
        item="Table 1",
        row="r",
        column="c",
        dataset="d",
        method="m",
        setting="",
        metric="error_pct",
        availability="public",
        compare="value",
        group="",
        value=10.0,
        spread=NAN,
        n_reps=NAN,
        precision=0.05,
        ours_value=10.0,
        ours_spread=NAN,
        ours_n=NAN,
        ours_note="",
    )
    row.update(kw)
    return row


def judge(*rows):
    out = cell_verdicts(pd.DataFrame(list(rows)))
    return list(zip(out["verdict"], out["reason"]))


def test_tolerance_is_the_largest_of_the_spreads_and_the_printed_precision():
    assert tolerance(0.3, 1.0, 0.05) == 1.0
    assert tolerance(2.0, NAN, 0.05) == 2.0
    assert tolerance(NAN, NAN, 0.005) == 0.005


@pytest.mark.parametrize(
    ("ours", "expected"),
    [(10.0 + 1.0, "match"), (10.0 - 1.0, "match"), (10.0 + 1.0001, "contradicts")],
)
def test_match_boundary_is_the_tolerance(ours, expected):
    # tolerance = our standard deviation (1.0) > the paper's precision (0.05)
    ((verdict, reason),) = judge(cell(ours_value=ours, ours_spread=1.0, ours_n=30))
    assert verdict == expected, reason


def test_the_papers_spread_widens_the_tolerance():
    ((verdict, _),) = judge(cell(ours_value=12.0, spread=2.5, n_reps=30))
    assert verdict == "match"


def test_without_spreads_the_printed_precision_decides():
    assert judge(cell(ours_value=10.049))[0][0] == "match"
    assert judge(cell(ours_value=10.051))[0][0] == "contradicts"


def test_same_conclusion_when_the_papers_ordering_holds():
    # both numbers outside the tolerance (1.0) but within FAR of it, and method a stays below
    # method b as in the paper
    a = cell(column="a", method="a", group="g", value=5.0, ours_value=7.5, precision=1.0)
    b = cell(column="b", method="b", group="g", value=7.0, ours_value=9.5, precision=1.0)
    assert [v for v, _ in judge(a, b)] == ["same conclusion", "same conclusion"]


@pytest.mark.parametrize(("shift", "verdict"), [(2.9, "same conclusion"), (3.1, "contradicts")])
def test_a_value_far_from_the_paper_contradicts_whatever_the_ordering(shift, verdict):
    # both cells shifted by `shift` tolerances: the ordering holds, only the distance decides
    a = cell(column="a", method="a", group="g", value=5.0, ours_value=5.0 + shift, precision=1)
    b = cell(column="b", method="b", group="g", value=7.0, ours_value=7.0 + shift, precision=1)
    (va, ra), (vb, _) = judge(a, b)
    assert (va, vb) == (verdict, verdict), ra
    if verdict == "contradicts":
        assert ra.startswith("far from the paper") and "ordering holds against b" in ra


def test_contradicts_when_the_papers_ordering_is_reversed():
    a = cell(column="a", method="a", group="g", value=5.0, ours_value=12.0)
    b = cell(column="b", method="b", group="g", value=7.0, ours_value=9.0)
    (va, ra), (vb, _) = judge(a, b)
    assert (va, vb) == ("contradicts", "contradicts")
    assert "reversed against b" in ra


def test_contradicts_when_nothing_to_order_against():
    ((verdict, reason),) = judge(cell(ours_value=20.0))
    assert verdict == "contradicts" and "tolerance" in reason


def test_pairs_the_paper_prints_within_its_standard_error_are_ties():
    # the paper's 5.0 ± 1.0 and 5.2 ± 1.0 over 30 repetitions do not order the two methods
    a = cell(column="a", method="a", group="g", value=5.0, spread=1.0, n_reps=30, ours_value=7.5)
    b = cell(column="b", method="b", group="g", value=5.2, spread=1.0, n_reps=30, ours_value=6.5)
    (va, ra), _ = judge(a, b)
    assert va == "contradicts" and "none of the paper's orderings" in ra


def test_our_ties_do_not_reverse_an_ordering():
    # ours differ by less than the combined standard error: no reversal, but nothing held
    a = cell(column="a", method="a", group="g", value=5.0, ours_value=7.5, ours_spread=1, ours_n=4)
    b = cell(column="b", method="b", group="g", value=7.0, ours_value=7.4, ours_spread=1, ours_n=4)
    c = cell(column="c", method="c", group="g", value=9.0, ours_value=20.0)
    (va, ra), _, _ = judge(a, b, c)
    assert va == "same conclusion" and "holds against c" in ra and "b" not in ra.split(";")[-1]


def test_not_public_and_not_run():
    rows = judge(
        cell(availability="not public", ours_value=NAN),
        cell(method="x", ours_value=NAN, ours_note="cut by the time budget"),
        cell(method="y", availability="quoted", ours_value=NAN),
    )
    assert [v for v, _ in rows] == ["not public", "not run", "not run"]
    assert rows[1][1] == "cut by the time budget"
    assert "quotes" in rows[2][1]


def test_hardware_times_never_match_but_can_keep_their_ordering():
    a = cell(column="a", method="a", group="t", compare="hardware", value=2.0, ours_value=2.0)
    b = cell(column="b", method="b", group="t", compare="hardware", value=600.0, ours_value=30.0)
    assert [v for v, _ in judge(a, b)] == ["same conclusion", "same conclusion"]
    b_rev = dict(b, ours_value=1.0)
    assert [v for v, _ in judge(a, b_rev)] == ["contradicts", "contradicts"]


def test_hardware_without_a_partner_is_not_judged():
    ((verdict, _),) = judge(cell(compare="hardware", group="t", value=2.0, ours_value=3.0))
    assert verdict == "not run"


@pytest.mark.parametrize(("ours", "expected"), [(3.0, "same conclusion"), (800.0, "contradicts")])
def test_a_stated_upper_bound(ours, expected):
    ((verdict, _),) = judge(cell(compare="hardware_bound", value=720.0, ours_value=ours))
    assert verdict == expected


@pytest.mark.parametrize(
    ("reported", "ours", "expected"),
    [(2.5, 3, "match"), (1.4, 1, "match"), (9.9, 10, "match"), (6.6, 6, "contradicts")],
)
def test_settings_are_the_reported_value_rounded_half_up(reported, ours, expected):
    ((verdict, _),) = judge(cell(compare="setting", value=reported, ours_value=ours))
    assert verdict == expected


@pytest.mark.parametrize(("ours", "expected"), [(2.9e11, "match"), (5e16, "contradicts")])
def test_condition_numbers_match_within_half_a_decade(ours, expected):
    ((verdict, _),) = judge(cell(compare="log", value=9.0e11, precision=0.05e11, ours_value=ours))
    assert verdict == expected


def test_every_verdict_is_reachable_by_a_cell():
    rows = judge(
        cell(method="a"),
        cell(method="b", column="b", group="g", value=5.0, ours_value=9.0, precision=2.0),
        cell(method="c", column="c", group="g", value=7.0, ours_value=12.0, precision=2.0),
        cell(method="d", ours_value=99.0),
        cell(method="e", availability="not public", ours_value=NAN),
        cell(method="f", ours_value=NAN),
        # paper orders g2's pair, ours ties it within our repetitions' margin
        cell(
            method="g", column="g", group="g2", value=5.0, ours_value=9.0, ours_spread=2, ours_n=4
        ),
        cell(
            method="h", column="h", group="g2", value=7.0, ours_value=8.5, ours_spread=2, ours_n=4
        ),
    )
    assert {v for v, _ in rows} == set(VERDICTS)


def test_a_gap_within_our_own_noise_is_inconclusive_not_contradicts():
    # the paper orders a < b; ours differ by 0.4 where the combined standard error is 1.0
    a = cell(column="a", method="a", group="g", value=5.0, ours_value=9.0, ours_spread=1, ours_n=2,
             precision=1.5)  # fmt: skip
    b = cell(column="b", method="b", group="g", value=7.0, ours_value=8.6, ours_spread=1, ours_n=2,
             precision=1.5)  # fmt: skip
    (va, ra), (vb, _) = judge(a, b)
    assert (va, vb) == (INCONCLUSIVE, INCONCLUSIVE)
    assert "tie margin of our own repetitions" in ra
    # the same gap with tight repetitions is a real reversal
    (va, _), _ = judge(dict(a, ours_spread=0.01), dict(b, ours_spread=0.01))
    assert va == "contradicts"


def test_hardware_times_tie_within_their_repetitions_spread():
    a = cell(column="a", method="a", group="t", compare="hardware", value=2.0, ours_value=2.0,
             ours_spread=0.5, ours_n=5)  # fmt: skip
    b = cell(column="b", method="b", group="t", compare="hardware", value=600.0, ours_value=1.9,
             ours_spread=0.5, ours_n=5)  # fmt: skip
    assert [v for v, _ in judge(a, b)] == [INCONCLUSIVE, INCONCLUSIVE]


@pytest.mark.parametrize(
    ("interval", "bounds", "expected"),
    [
        ((0.6, 0.9), (0.5, 1.5), True),
        ((0.45, 0.9), (0.5, 1.5), INCONCLUSIVE),
        ((1.6, 2.0), (0.5, 1.5), False),
        ((-0.2, 0.3), (-math.inf, 0.5), True),
        ((0.503 - 0.1, 0.503 + 0.1), (-math.inf, 0.5), INCONCLUSIVE),
        ((-math.inf, math.inf), (0.5, 1.5), INCONCLUSIVE),
    ],
)
def test_an_interval_decides_a_threshold_claim_only_when_it_does_not_straddle(
    interval, bounds, expected
):
    assert decide_interval(*interval, *bounds) == expected


def test_two_exponents_either_side_of_a_threshold_give_one_verdict():
    # the case: 0.503 and 0.479 on either side of "below 0.5", each ± 0.02 from 4 sizes
    verdicts = {
        claim_verdict(decide_interval(*exponent_interval(e, 0.02, 4), upper=0.5), "public")
        for e in (0.503, 0.479)
    }
    assert verdicts == {INCONCLUSIVE}


def test_exponent_interval_widens_with_fewer_sizes_and_has_none_below_three():
    narrow, wide = exponent_interval(1.0, 0.05, 10), exponent_interval(1.0, 0.05, 3)
    assert wide[0] < narrow[0] < 1.0 < narrow[1] < wide[1]
    assert exponent_interval(1.0, 0.05, 2) == (-math.inf, math.inf)


def test_fit_exponent_recovers_a_power_law_inside_its_interval():
    sizes = [100, 200, 400, 800, 1600]
    times = [1e-3 * s**1.5 * (1 + 0.01 * (-1) ** i) for i, s in enumerate(sizes)]
    e, low, high = fit_exponent(sizes, times)
    assert low < 1.5 < high and abs(e - 1.5) < 0.02 and high - low < 0.1


@pytest.mark.parametrize(
    ("rows", "claims", "expected"),
    [
        (["not public", "not public"], [], "not public"),
        (["not public"], ["not public"], "not public"),
        (["not run", "not run"], [], "not run"),
        (["not run"], ["not run"], "not run"),
        (["match", "match", "not run"], [], "match"),
        (["match", "match"], ["same conclusion"], "match"),
        (["match", "contradicts"], ["same conclusion"], "same conclusion"),
        (["same conclusion"], [], "same conclusion"),
        (["match", "match"], ["same conclusion", "contradicts"], "contradicts"),
        (["match", "contradicts"], [], "contradicts"),
        (["not public"], ["contradicts"], "contradicts"),
        (["match", "match"], ["inconclusive"], "match"),
        (["inconclusive"], [], "inconclusive"),
        (["not run"], ["inconclusive"], "inconclusive"),
        (["inconclusive", "contradicts"], [], "contradicts"),
        (["match"], ["inconclusive", "contradicts"], "contradicts"),
    ],
)
def test_item_roll_up(rows, claims, expected):
    verdict, detail = roll_up(rows, claims)
    assert verdict == expected, detail


# ------------------------------------------------------------------------- the within-noise rule
def test_the_noise_threshold_is_the_two_sided_normal_quantile_of_the_confidence():
    assert NOISE_Z == pytest.approx(1.959964, abs=1e-6)


def test_combined_standard_error_of_two_means_skips_a_side_without_repetitions():
    assert combined_se((3.0, 9), (4.0, 16)) == pytest.approx(math.hypot(1.0, 1.0))
    assert combined_se((3.0, 9), (2.1, NAN)) == pytest.approx(1.0)
    assert math.isnan(combined_se((NAN, 30)))


@pytest.mark.parametrize(
    ("gap", "expected"),
    [(-1.0, True), (-NOISE_Z, True), (-NOISE_Z - 1e-9, False), (NOISE_Z, True), (3.0, False)],
)
def test_within_noise_boundary_is_noise_z_standard_errors(gap, expected):
    assert within_noise(gap, 1.0) is expected


def test_a_gap_without_a_standard_error_is_never_within_noise():
    assert within_noise(-0.001, NAN) is False
    assert within_noise(-0.001, 0.0) is False
    assert gap_z(-0.5, 0.0) == -math.inf and gap_z(-0.5, 0.25) == -2.0


@pytest.mark.parametrize(
    ("gap", "verdict"),
    [(-1.0, INCONCLUSIVE), (-NOISE_Z, INCONCLUSIVE), (-2.0, "contradicts"), (-5.0, "contradicts")],
)
def test_a_refutation_within_noise_is_inconclusive_and_beyond_it_contradicts(gap, verdict):
    """A planted claim 'a is not below b' refuted by a gap of ``gap`` standard errors."""
    holds = gap >= 0
    outcome = noise_rule(holds, holds_within_noise=holds or within_noise(gap, 1.0))
    assert claim_verdict(outcome, "public") == verdict


def test_a_refutation_beyond_noise_is_inconclusive_when_a_seed_draw_holds():
    assert noise_rule(False, False, draws=[False, True, False]) == INCONCLUSIVE
    assert noise_rule(False, False, draws=[False, False]) is False
    assert noise_rule(False, False, draws=None) is False


def test_a_confirmation_is_guarded_like_a_refutation():
    # not shared by every seed draw (Buteneers B6: 1 of 5) or not beyond noise: inconclusive
    assert noise_rule(True, False, draws=[True, False, False]) == INCONCLUSIVE
    assert noise_rule(True, True, holds_beyond_noise=False) == INCONCLUSIVE
    assert noise_rule(True, True, draws=[True, True], holds_beyond_noise=True) is True
    assert noise_rule(True) is True  # printed values, no draws: nothing to guard against


@pytest.mark.parametrize(
    ("gap", "verdict"),
    [(1.0, INCONCLUSIVE), (NOISE_Z, INCONCLUSIVE), (2.0, "same conclusion")],
)
def test_a_confirmation_within_noise_is_inconclusive_and_beyond_it_holds(gap, verdict):
    """A planted claim 'a is below b' confirmed by a gap of ``gap`` standard errors."""
    outcome = noise_rule(True, True, holds_beyond_noise=not within_noise(gap, 1.0))
    assert claim_verdict(outcome, "public") == verdict


def test_the_rule_reads_numpy_bools_as_bools():
    import numpy as np

    assert noise_rule(np.True_, True, holds_beyond_noise=np.False_) == INCONCLUSIVE
    assert noise_rule(np.False_, np.False_) is False
    assert noise_rule(np.True_) is True


def test_the_rule_never_touches_a_missing_result():
    assert noise_rule(None, True) is None
    assert noise_rule(INCONCLUSIVE, False) == INCONCLUSIVE
    assert noise_rule(INCONCLUSIVE, False, holds_beyond_noise=True) == INCONCLUSIVE


def test_draws_text_names_the_draws_that_fail():
    text = draws_text([True, False, True], ["0 1 2", "3 4 5", "6 7 8"], "seed triples")
    assert text == "holds in 2 of 3 seed triples (fails at 3 4 5)"
    assert draws_text([True], ["0"], "seeds") == "holds in 1 of 1 seeds"


@pytest.mark.parametrize(
    ("z", "verdict"), [(1.5, INCONCLUSIVE), (NOISE_Z - 1e-6, INCONCLUSIVE), (2.5, "contradicts")]
)
def test_a_cells_reversal_must_exceed_noise_z_combined_standard_errors(z, verdict):
    """The paper orders a < b; ours reverse it by ``z`` combined standard errors (√2 here)."""
    gap = z * math.sqrt(2)
    a = cell(column="a", method="a", group="g", value=5.0, ours_value=4.0 + gap,
             ours_spread=1.0, ours_n=1)  # fmt: skip
    b = cell(column="b", method="b", group="g", value=7.0, ours_value=4.0, ours_spread=1.0,
             ours_n=1)  # fmt: skip
    (va, reason), _ = judge(a, b)  # a within FAR = 3 of its tolerance (|Δ| ≤ 2.6)
    assert va == verdict, reason


def test_where_both_sides_give_spread_and_count_match_is_welchs_test():
    # ours 11.2 ± 1.0 (n = 30) against the paper's 10.0 ± 1.0 (n = 30): within one standard
    # deviation (the old tolerance), but Welch's t = 4.6 rejects equal means
    ours = dict(ours_value=11.2, ours_spread=1.0, ours_n=30, spread=1.0, n_reps=30)
    ((verdict, reason),) = judge(cell(**ours))
    assert verdict != "match" and "Welch t = 4.65" in reason
    ((verdict, reason),) = judge(cell(**dict(ours, ours_value=10.4)))
    assert verdict == "match" and "indistinguishable" in reason


def test_welch_bound_agrees_with_scipys_test():
    from scipy import stats

    bound, t, p = welch_bound(11.2, 1.0, 30, 10.0, 2.0, 12)
    ref = stats.ttest_ind_from_stats(11.2, 1.0, 30, 10.0, 2.0, 12, equal_var=False)
    assert t == pytest.approx(ref.statistic) and p == pytest.approx(ref.pvalue)
    # the bound is where the test's p-value crosses 1 - CONFIDENCE
    at = stats.ttest_ind_from_stats(10.0 + bound, 1.0, 30, 10.0, 2.0, 12, equal_var=False)
    assert at.pvalue == pytest.approx(0.05)


def test_without_count_or_spread_on_a_side_the_tolerance_rule_decides():
    row = pd.DataFrame([cell(ours_value=11.2, ours_spread=1.0, ours_n=30, spread=1.0)])
    tol, welch = match_tolerance(next(row.itertuples(index=False)))
    assert welch is None and tol == 1.0
    assert welch_bound(11.2, 1.0, 1, 10.0, 1.0, 30) is None  # one draw: no Welch test


def test_a_welch_rejected_value_with_tied_orderings_contradicts():
    # Ramona Table V: SAS 32.3 ± 2.8 (n = 7) against the paper's 26.6 ± 2.9 (n = 7), Welch
    # t = 3.8, within FAR tolerances; its orderings tie within our seven splits
    kw = dict(group="g", spread=2.9, n_reps=7, ours_spread=2.8, ours_n=7)
    a = cell(column="a", method="a", value=26.6, ours_value=32.3, **kw)
    b = cell(column="b", method="b", value=29.0, ours_value=32.0, **kw)
    (va, ra), _ = judge(a, b)
    assert va == "contradicts" and "Welch t = 3.74" in ra and "none holds" in ra
    # the same gap judged by the tolerance rule (no paper count) stays inconclusive
    (va, _), _ = judge(dict(a, n_reps=NAN), dict(b, n_reps=NAN))
    assert va == INCONCLUSIVE
