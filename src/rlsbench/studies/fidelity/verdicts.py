"""The verdict rules of the fidelity ledger, applied to reported values joined with ours.

Every row of the ledger gets exactly one verdict, computed here and never written by hand:

*not public*
    The paper's data are not available (``availability = not public``): the row is kept, with
    no value of ours.
*not run*
    The data are available but our run has no such output: the part or the table is absent, the
    run was cut by a budget, or the paper quotes another publication's result for a method we
    do not implement (``availability = quoted``). The reason says which.
*match*
    A number (``compare = value``) is reproduced: ours and the paper's are statistically
    indistinguishable. Where both sides give a spread and a count (ours ``ours_spread`` over
    ``ours_n`` repetitions, the paper's ± over its ``n_reps``), that is Welch's unequal-variance
    t-test of the two means (:func:`welch_bound`): match when it does not reject equality at
    level 1 − :data:`CONFIDENCE`, i.e. ``|ours − reported| ≤ t · se`` with Welch's ``se`` and
    degrees of freedom; that bound is the row's ``tolerance``. Only where a side lacks spread
    or count does the tolerance rule decide: ``|ours − reported| ≤ tolerance`` with
    ``tolerance = max(s_ours, s_paper, p_paper)``, where ``s_ours`` is the standard deviation
    of our repetitions (folds, splits, repeats, or of the seed draws an investigation made of
    a single-run number; for a fitted exponent its standard error), ``s_paper`` the ± the paper
    prints, and ``p_paper`` half a unit of the paper's last printed digit (its stated
    precision). ``compare = log`` (condition numbers) compares log10 values with tolerance 0.5
    (the same order of magnitude). ``compare = setting`` (a parameter the comparison reuses,
    e.g. Neumann et al.'s feature counts that we round to integers): match when ours is the
    reported value rounded to the nearest integer.
*far from the paper*
    A number more than :data:`FAR` times its tolerance from the paper's *contradicts* it,
    whatever the ordering of its group (the reason says how far, and whether the ordering
    holds): an ordering that holds does not make a value that far a reproduction.
*same conclusion*
    The number differs but the paper's ordering holds. The cells of one (paper, item, group) are
    compared pairwise: a pair is *ordered* on one side when its difference exceeds that side's
    tie margin (for ours :data:`NOISE_Z` combined standard errors of the two means, the *within
    noise* margin of the claims below, or, without repetitions, half a unit of the paper's last
    printed digit; for times and condition numbers, none; for the paper the combined standard
    error from its ± and repetition count, or else only exactly equal printed values tie). A
    pair the paper orders *holds* when ours orders it the same way and is *reversed* when ours
    orders it the other way. A cell within :data:`FAR` tolerances of the paper reaches the same
    conclusion when at least one of its pairs holds and none is reversed. Times measured on the
    paper's 2006-2012 hardware (``compare = hardware``) can only reach the same conclusion,
    never match (and are *not run* when no other cell of their group ran to order them
    against); ``hardware_bound`` (the
    paper states an upper bound, "a bit less than twelve minutes") reaches it when ours is
    within the bound. A claim in words that our computed check confirms is a *same conclusion*
    row too.

*contradicts*
    Everything else: a number far from the paper; a number outside the tolerance whose group
    has a reversed pair or no pair that holds; a claim our check refutes beyond the noise.

*inconclusive*
    Our run cannot decide: a claim on a measured quantity (a fitted growth exponent of measured
    times) whose confidence interval (level :data:`CONFIDENCE`, Student's t with the fit's
    degrees of freedom) straddles the claim's threshold, or has too few sizes for an interval;
    a cell within :data:`FAR` tolerances, judged by the tolerance rule (a Welch test that
    rejects equal means is beyond the noise already, and *contradicts*), whose every ordering
    against its group falls inside the tie margin of our own repetitions; a claim our check
    refutes or confirms only *within noise*, or not in every seed draw (below). Such a verdict
    depends on the machine's load or on chance, so it says neither *same conclusion* nor
    *contradicts*: two runs of one config and seed give the same verdict.

*Within noise* (claims, :func:`noise_rule`)
    A check decides a claim from gaps between means of our repetitions (folds, splits, seeds),
    or between one of ours and a number the paper prints. A gap is *within noise* when
    ``|gap| ≤ z · se`` (:func:`within_noise`), with ``se`` the combined standard error of the
    two means (ours ``sd/√n``; the paper's only where it prints both a ± and its number of
    repetitions) and ``z`` = :data:`NOISE_Z`, the two-sided normal quantile of
    :data:`CONFIDENCE` (1.96). A refutation stands (*contradicts*) only when

    1. the claim still fails with every gap within noise read in its favour (the check
       computes that second outcome from the numbers it already has), and
    2. where an investigation re-drew the seeds or splits of our run, the claim fails in every
       draw.

    The rule is the same in both directions: a confirmation stands (*same conclusion*) only
    when the claim still holds with every gap within noise read against it (the check computes
    that outcome too, ``holds_beyond_noise`` of :func:`noise_rule`) and, where seeds or splits
    were re-drawn, holds in every draw. Otherwise the row is *inconclusive*, and its ``ours``
    text shows the spread: the deciding gap with its ``z = gap / se``, and the draws the claim
    holds in ("holds in 9 of 10 seed triples"). The standard error is that of unpaired means:
    where the two compared means share their folds or splits it overstates the noise, so the
    rule errs towards *inconclusive*, in both directions.

Series without a number (``compare = claims``) take the verdict of the claims attached to their
item. An *item* row (one per numbered table or figure) rolls its rows up: *not public* when all
of them are; *not run* when none of ours exists and no claim was checked; *contradicts* when a
claim attached to it is contradicted (or, for an item without claims, when a cell is); *match*
when every cell of ours matches and no claim is contradicted; otherwise *same conclusion*.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from rlsbench.lazy import lazy_module

# pandas on first use: Snakemake reads this module with the rule files before any job
pd = lazy_module("pandas")

VERDICTS = ("match", "same conclusion", "inconclusive", "contradicts", "not public", "not run")
GOOD = ("match", "same conclusion")
INCONCLUSIVE = "inconclusive"
#: Two-sided confidence level of the intervals that decide claims on measured quantities.
CONFIDENCE = 0.95
#: A gap within this many combined standard errors is *within noise*: the two-sided normal
#: quantile of :data:`CONFIDENCE` (1.96).
NOISE_Z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)
#: A number more than this many tolerances from the paper's contradicts it whatever its
#: group's ordering (*far from the paper*).
FAR = 3.0


def exponent_interval(exponent, stderr, n_points, level=CONFIDENCE):
    """Confidence interval ``(low, high)`` of a fitted log-log slope.

    Parameters
    ----------
    exponent, stderr : float
        The least-squares slope and its standard error.
    n_points : int
        The number of distinct sizes the slope was fitted on; the interval uses Student's t
        with ``n_points - 2`` degrees of freedom.
    level : float
        Two-sided confidence level.

    Returns
    -------
    tuple of float
        ``(-inf, inf)`` where there is no spread to judge from (fewer than three sizes, or a
        missing standard error).
    """
    from scipy import stats

    if _nan(stderr) or _nan(n_points) or n_points < 3 or _nan(exponent):
        return -math.inf, math.inf
    half = float(stats.t.ppf(0.5 + level / 2, int(n_points) - 2)) * float(stderr)
    return exponent - half, exponent + half


def fit_exponent(x, y, level=CONFIDENCE):
    """Slope of log ``y`` against log ``x`` with its confidence interval.

    Parameters
    ----------
    x, y : array-like of shape (n_points,)
        Sizes and measured times (all > 0); repeated sizes count as repetitions.

    Returns
    -------
    tuple of float
        ``(exponent, low, high)``; the interval as :func:`exponent_interval`, with the number
        of points as ``n_points``.
    """
    from scipy import stats

    x, y = np.log(np.asarray(x, dtype=float)), np.log(np.asarray(y, dtype=float))
    if x.size < 2 or np.ptp(x) == 0:
        return math.nan, -math.inf, math.inf
    fit = stats.linregress(x, y)
    stderr = fit.stderr if x.size > 2 else math.nan
    return (float(fit.slope), *exponent_interval(float(fit.slope), stderr, x.size, level))


def decide_interval(low, high, lower=-math.inf, upper=math.inf):
    """Whether a claim "the quantity lies in (lower, upper)" holds for an interval estimate.

    Returns True when the whole interval ``[low, high]`` lies inside, False when it lies wholly
    outside, and :data:`INCONCLUSIVE` when it straddles a bound.
    """
    if lower < low and high < upper:
        return True
    if high <= lower or low >= upper:
        return False
    return INCONCLUSIVE


def interval_text(low, high):
    """'95 % CI 0.52…0.66' (or 'no interval: too few sizes')."""
    if math.isinf(low) or math.isinf(high):
        return "no confidence interval: fewer than three sizes"
    return f"{CONFIDENCE:.0%} CI {low:.2f}…{high:.2f}"


def combined_se(*pairs):
    """Combined standard error ``√(Σ sd²/n)`` of the means of ``(sd, n)`` pairs; a pair with
    a missing sd or n adds nothing (NaN when none has both)."""
    terms = [_se(sd, n) for sd, n in pairs]
    terms = [t for t in terms if not _nan(t)]
    return math.sqrt(sum(t * t for t in terms)) if terms else math.nan


def gap_z(gap, se):
    """``gap / se`` (±inf for a nonzero gap without spread, NaN for no gap without spread)."""
    if _nan(se) or se <= 0:
        return math.nan if gap == 0 else math.copysign(math.inf, gap)
    return gap / se


def within_noise(gap, se, z=NOISE_Z):
    """Whether ``gap`` is within ``z`` standard errors ``se`` (the rule's *within noise*).

    A gap without a standard error (no repetitions) is never within noise: then the printed
    values decide, as the checks read them.
    """
    if _nan(se) or se <= 0 or _nan(gap):
        return False
    return abs(gap) <= z * se


def noise_rule(holds, holds_within_noise=False, draws=None, holds_beyond_noise=None):
    """A check's outcome after the *within noise* rule, the same in both directions (see the
    module text).

    Parameters
    ----------
    holds : bool, None or str
        The check's outcome on our run: True, False, None (not run) or :data:`INCONCLUSIVE`.
    holds_within_noise : bool
        Whether the claim holds when every gap within noise is read in its favour.
    draws : sequence of bool or None
        The claim's outcome in each re-draw of the seeds/splits an investigation ran (None:
        none ran).
    holds_beyond_noise : bool or None
        Whether the claim holds when every gap within noise is read against it (None: the
        check decides from printed values or single draws, without a standard error).

    Returns
    -------
    bool, None or str
        True only when the confirmation stands beyond the noise and in every draw; False only
        when the refutation stands beyond the noise and in every draw; else
        :data:`INCONCLUSIVE` (None and :data:`INCONCLUSIVE` unchanged).
    """
    if holds is None or isinstance(holds, str):
        return holds
    if bool(holds):  # a NumPy bool too
        if holds_beyond_noise is not None and not holds_beyond_noise:
            return INCONCLUSIVE
        if draws is not None and not all(bool(d) for d in draws):
            return INCONCLUSIVE
        return True
    if holds_within_noise:
        return INCONCLUSIVE
    if draws is not None and any(bool(d) for d in draws):
        return INCONCLUSIVE
    return False


def noise_reason():
    """The rule in words, for the ``reason`` of a check that applies :func:`noise_rule`."""
    return (
        f"a refutation or a confirmation within {NOISE_Z:.2f} combined standard errors of our "
        "repetitions, or not shared by every seed draw an investigation made, is inconclusive"
    )


def draws_text(draws, labels, what):
    """'holds in 9 of 10 seed triples (fails at 0-2)' from the per-draw outcomes."""
    draws = [bool(d) for d in draws]
    failed = [str(label) for label, d in zip(labels, draws, strict=True) if not d]
    text = f"holds in {sum(draws)} of {len(draws)} {what}"
    return text + (f" (fails at {', '.join(failed)})" if failed else "")


def tolerance(ours_spread, spread, precision):
    """``max(s_ours, s_paper, p_paper)`` of the *match* rule, NaN terms ignored."""
    terms = [x for x in (ours_spread, spread, precision) if not _nan(x)]
    return max(terms) if terms else 0.0


def welch_bound(ours, ours_spread, ours_n, reported, spread, n_reps, level=CONFIDENCE):
    """Welch's unequal-variance t-test of our mean against the paper's.

    Parameters
    ----------
    ours, reported : float
        The two means.
    ours_spread, spread : float
        Their standard deviations over repetitions.
    ours_n, n_reps : float
        Their numbers of repetitions.
    level : float
        Two-sided confidence level.

    Returns
    -------
    tuple of float or None
        ``(bound, t, p)``: the largest ``|ours − reported|`` the test does not reject at
        ``1 − level`` (``t`` quantile with Welch's degrees of freedom times the combined
        standard error), the t statistic and its two-sided p-value. None where a side lacks
        a spread or has fewer than two repetitions, or both spreads are zero.
    """
    from scipy import stats

    sides = (ours_spread, ours_n, spread, n_reps)
    if any(_nan(x) for x in sides) or ours_n < 2 or n_reps < 2:
        return None
    v_ours, v_paper = ours_spread**2 / ours_n, spread**2 / n_reps
    se = math.sqrt(v_ours + v_paper)
    if se <= 0:
        return None
    test = stats.ttest_ind_from_stats(
        ours, ours_spread, ours_n, reported, spread, n_reps, equal_var=False
    )
    # Welch-Satterthwaite degrees of freedom, those of the test above
    df = (v_ours + v_paper) ** 2 / (v_ours**2 / (ours_n - 1) + v_paper**2 / (n_reps - 1))
    bound = float(stats.t.ppf(0.5 + level / 2, df)) * se
    return bound, float(test.statistic), float(test.pvalue)


def match_tolerance(row):
    """The *match* bound of a joined row and how it was found: ``(tolerance, welch)``, with
    ``welch`` the :func:`welch_bound` triple where both sides give spread and count (the
    tolerance is then its bound), else None and :func:`tolerance`; for ``compare = log``
    ``(0.5, None)``; NaN for rows not compared by value."""
    if row.compare == "log":
        return 0.5, None
    if row.compare != "value":
        return math.nan, None
    welch = None
    if not _nan(row.ours_value) and not _nan(row.value):
        welch = welch_bound(
            row.ours_value, row.ours_spread, row.ours_n, row.value, row.spread, row.n_reps
        )
    if welch is not None:
        return welch[0], welch
    return tolerance(row.ours_spread, row.spread, row.precision), None


def _nan(x):
    return x is None or (isinstance(x, float) and math.isnan(x)) or pd.isna(x)


def _se(spread, n):
    if _nan(spread) or _nan(n) or n <= 0:
        return math.nan
    return spread / math.sqrt(n)


def _paper_tie(a, b):
    se = math.hypot(_se(a.spread, a.n_reps), _se(b.spread, b.n_reps))
    return 0.0 if math.isnan(se) else se


def _ours_tie(a, b):
    se = math.hypot(_se(a.ours_spread, a.ours_n), _se(b.ours_spread, b.ours_n))
    if not math.isnan(se):
        return NOISE_Z * se  # within noise: the same margin as the claims' rule
    terms = [x for x in (a.precision, b.precision) if not _nan(x)]
    return max(terms) if terms else 0.0


def _scale(row, x):
    return math.log10(x) if row.compare == "log" and x > 0 else x


def _ours_time_tie(a, b):
    """Tie margin of two measured times: their combined standard error where our repetitions
    give one, else none (a single measurement orders by its value)."""
    se = math.hypot(_se(a.ours_spread, a.ours_n), _se(b.ours_spread, b.ours_n))
    return 0.0 if math.isnan(se) else se


def ordering(cell, others):
    """Pairs of ``cell`` against the other cells of its group.

    Returns
    -------
    held, reversed_ : list of str
        The other cells of the pairs the paper orders and ours orders the same way / the other.
    compared : int
        Pairs with a value on both sides.
    tied : int
        Pairs the paper orders but ours ties within our own repetitions' margin.
    """
    held, reversed_, compared, tied = [], [], 0, 0
    for other in others:
        if _nan(other.value) or _nan(other.ours_value):
            continue
        compared += 1
        dp = _scale(cell, cell.value) - _scale(other, other.value)
        do = _scale(cell, cell.ours_value) - _scale(other, other.ours_value)
        tie_p = 0.0 if cell.compare == "log" else _paper_tie(cell, other)
        if cell.compare == "log":
            tie_o = 0.0
        elif cell.compare == "hardware":
            tie_o = _ours_time_tie(cell, other)
        else:
            tie_o = _ours_tie(cell, other)
        if abs(dp) <= tie_p:
            continue
        if abs(do) <= tie_o:
            tied += 1
            continue
        (held if np.sign(dp) == np.sign(do) else reversed_).append(_label(cell, other))
    return held, reversed_, compared, tied


def _label(cell, other):
    """How the other cell of a pair is named: by what differs from ``cell`` (column or row)."""
    if other.row == cell.row:
        return other.column
    if other.column == cell.column:
        return other.row
    return f"{other.row} / {other.column}"


def cell_verdict(cell, others=()):
    """Verdict and reason of one joined row (a namedtuple/Series with reported and ours)."""
    if cell.availability == "not public":
        return "not public", "the paper's data are not public"
    if cell.compare == "claims":
        return None, ""  # decided by the item's claims (see roll_up)
    if _nan(cell.ours_value):
        if cell.availability == "quoted":
            return "not run", (
                "the paper quotes this result from another publication; its method is not "
                "re-implemented here"
            )
        return "not run", cell.ours_note or "our run has no such output"
    if cell.compare == "hardware_bound":
        if cell.ours_value <= cell.value:
            return "same conclusion", "within the paper's stated bound (times on other hardware)"
        return "contradicts", "above the paper's stated bound"
    if cell.compare == "setting":
        target = math.floor(cell.value + 0.5)
        if cell.ours_value == target:
            return "match", f"we run the reported value rounded to {target}"
        return "contradicts", f"we run {cell.ours_value:g}, not the rounded {target}"
    far, welch = None, None
    if cell.compare in ("value", "log"):
        tol, welch = match_tolerance(cell)
        if cell.compare == "log":
            diff = abs(math.log10(cell.ours_value) - math.log10(cell.value))
            within = f"|Δlog10| = {diff:.2f} ≤ 0.5"
        elif welch is not None:
            diff = abs(cell.ours_value - cell.value)
            within = (
                f"|Δ| = {diff:.3g} ≤ tolerance {tol:.3g} (Welch t = {welch[1]:.2f}, "
                f"p = {welch[2]:.2g}: indistinguishable)"
            )
        else:
            diff = abs(cell.ours_value - cell.value)
            within = f"|Δ| = {diff:.3g} ≤ tolerance {tol:.3g}"
        if diff <= tol:
            return "match", within
        outside = within.replace("≤", ">").replace(": indistinguishable", "")
        if diff > FAR * tol:
            far = f"far from the paper: {outside}" + (
                f", {diff / tol:.1f} times the tolerance" if tol > 0 else ""
            )
    else:
        outside = "times on the paper's hardware are not compared by value"
    held, reversed_, compared, tied = ordering(cell, others)
    if far is not None:
        order = ""
        if reversed_:
            order = f"; ordering reversed against {', '.join(reversed_)}"
        elif held:
            order = f"; ordering holds against {', '.join(held)}, the value does not"
        return "contradicts", far + order
    if reversed_:
        return "contradicts", f"{outside}; ordering reversed against {', '.join(reversed_)}"
    if held:
        return "same conclusion", f"{outside}; ordering holds against {', '.join(held)}"
    if compared == 0:
        if cell.compare == "hardware":
            return "not run", f"{outside}; no other cell of ours in its group to order it against"
        return "contradicts", outside
    if tied and welch is not None:
        # the value differs beyond the noise of both sides: a tied ordering does not undo that
        return "contradicts", (
            f"{outside}; each of the paper's orderings is within the tie margin of our own "
            f"repetitions ({tied} pair(s)), none holds"
        )
    if tied:
        near = f" (within {FAR:g} times it)" if cell.compare in ("value", "log") else ""
        return INCONCLUSIVE, (
            f"{outside}{near}; each of the paper's orderings is within the tie margin of our "
            f"own repetitions ({tied} pair(s))"
        )
    return "contradicts", f"{outside}; none of the paper's orderings is reproduced (ties)"


def cell_verdicts(joined):
    """Add ``verdict`` and ``reason`` to the joined frame of reported rows and ours."""
    verdicts, reasons = [], []
    groups = {
        key: list(g.itertuples(index=False))
        for key, g in joined[joined["group"] != ""].groupby(["paper", "item", "group"])
    }
    for row in joined.itertuples(index=False):
        others = [
            o
            for o in groups.get((row.paper, row.item, row.group), [])
            if (o.dataset, o.method, o.setting, o.metric)
            != (row.dataset, row.method, row.setting, row.metric)
        ]
        v, r = cell_verdict(row, others)
        verdicts.append(v)
        reasons.append(r)
    return joined.assign(verdict=verdicts, reason=reasons)


def claim_verdict(outcomes, availability):
    """Verdict of one claim scope from its check's outcome (holds: True/False/None, or
    :data:`INCONCLUSIVE`)."""
    if availability == "not public":
        return "not public"
    if outcomes is None:
        return "not run"
    if isinstance(outcomes, str) and outcomes == INCONCLUSIVE:
        return INCONCLUSIVE
    return {True: "same conclusion", False: "contradicts", None: "not run"}[outcomes]


def roll_up(rows, claim_rows):
    """Verdict and reason of an item from its rows (cells, series) and its claims' rows.

    An *inconclusive* row or claim counts as checked but decides nothing: the item is
    *inconclusive* only when nothing else decided it.
    """
    checked = [v for v in claim_rows if v in ("same conclusion", "contradicts")]
    undecided = [v for v in rows + claim_rows if v == INCONCLUSIVE]
    if rows and all(v == "not public" for v in rows) and not checked and not undecided:
        return "not public", "the paper's data are not public"
    ran = [v for v in rows if v in ("match", "same conclusion", "contradicts")]
    counts = ", ".join(f"{rows.count(v)} {v}" for v in VERDICTS if rows.count(v))
    claims = ", ".join(f"{claim_rows.count(v)} {v}" for v in VERDICTS if claim_rows.count(v))
    detail = f"rows: {counts or 'none'}" + (f"; claims: {claims}" if claims else "")
    if not ran and not checked:
        if undecided:
            return INCONCLUSIVE, detail
        if any(v == "not public" for v in rows + claim_rows) and not any(
            v == "not run" for v in rows + claim_rows
        ):
            return "not public", detail
        return "not run", detail
    if "contradicts" in claim_rows:
        return "contradicts", detail
    if ran and all(v == "match" for v in ran):
        return "match", detail
    if checked:
        return "same conclusion", detail
    if "contradicts" in ran:
        return "contradicts", detail
    return "same conclusion", detail
