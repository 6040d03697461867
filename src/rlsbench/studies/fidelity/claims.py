"""Claim checks: what a check returns, how a paper registers its checks, shared helpers.

Each paper's ledger module registers one computed check per claim of its ``claims.csv`` in a
:class:`ClaimChecks` (``CHECKS = ClaimChecks(); @CHECKS.register("P1")``). A check reads our
tables from a :class:`~rlsbench.studies.fidelity.ours.RunTree` and returns one
:class:`Outcome` per scope it tests (a dataset, a kernel, or the whole claim). An outcome
``holds`` (True: the claim holds on our results, verdict *same conclusion*; False: it does not,
*contradicts*; None: a table it needs is absent, *not run*; :data:`INCONCLUSIVE`: a claim on a
measured time whose confidence interval straddles the claim's threshold, or a refutation
within our run's own noise, *inconclusive*).
Claims on data that are not public have no check and are *not public*.

A claim on measured times (a growth exponent) is decided from the confidence interval of the
fitted exponent (:func:`~rlsbench.studies.fidelity.verdicts.fit_exponent`, here
:func:`exponent_claim`), never from the point estimate alone, so that two runs of one config,
on a quiet or a loaded machine, give the same verdict.

A check that refutes a claim from gaps between means passes its outcome through
:func:`~rlsbench.studies.fidelity.verdicts.noise_rule` (re-exported here): it says whether the
claim would hold with every gap within noise (:func:`within_noise`, ``NOISE_Z`` combined
standard errors) read in its favour, and, where an investigation re-drew the seeds or splits,
the claim's outcome in each draw; its ``ours`` text shows the deciding gap's ``z`` and the
draws (:func:`draws_text`).

Where the paper's words leave a threshold open, the check states the one it uses in its
docstring and reason (for example "most cases" = more than half of them, :func:`majority`;
"comparable" = within one standard deviation of our repetitions).
"""

from __future__ import annotations

from dataclasses import dataclass

from rlsbench.studies.fidelity.verdicts import (
    INCONCLUSIVE,
    NOISE_Z,
    combined_se,
    decide_interval,
    draws_text,
    fit_exponent,
    gap_z,
    interval_text,
    noise_reason,
    noise_rule,
    within_noise,
)

__all__ = [
    "INCONCLUSIVE",
    "NOISE_Z",
    "ClaimChecks",
    "Outcome",
    "above",
    "combined_se",
    "draws_text",
    "exponent_claim",
    "gap_z",
    "majority",
    "noise_reason",
    "noise_rule",
    "not_run",
    "sig",
    "within_noise",
]


@dataclass(frozen=True)
class Outcome:
    """What one check found for one scope of a claim."""

    scope: str
    holds: bool | None | str  # str: INCONCLUSIVE
    ours: str
    reason: str


class ClaimChecks(dict):
    """Claim id -> check (``check(tree)``, a list of :class:`Outcome`) of one paper."""

    def register(self, claim_id):
        """Register the decorated function as the check of ``claim_id``."""

        def register(fn):
            if claim_id in self:
                raise ValueError(f"claim {claim_id} has two checks")
            self[claim_id] = fn
            return fn

        return register


def not_run(what, scope=""):
    """The outcome of a check whose table ``what`` is absent: *not run*."""
    return [Outcome(scope, None, "", f"our run has no {what}")]


def majority(flags):
    """More than half of ``flags`` are true ("most cases")."""
    flags = list(flags)
    return sum(flags) > len(flags) / 2


def exponent_claim(scope, x, y, lower, upper, what, rule):
    """Outcome of "the growth exponent of y in x lies in (lower, upper)", decided on the
    exponent's confidence interval (inconclusive where it straddles a bound)."""
    e, low, high = fit_exponent(x, y)
    return Outcome(
        scope,
        decide_interval(low, high, lower, upper),
        f"{what} {e:.2f} ({interval_text(low, high)})",
        f"{rule}; decided on the exponent's confidence interval",
    )


def above(a, b):
    """Whether interval ``a`` lies above interval ``b``: True / False / INCONCLUSIVE."""
    if a[0] > b[1]:
        return True
    if a[1] < b[0]:
        return False
    return INCONCLUSIVE


def sig(x, digits=3):
    """``x`` with ``digits`` significant digits."""
    return f"{x:.{digits}g}"
