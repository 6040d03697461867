"""The papers the ledger judges: the interface a paper implements, and where they are found.

The ledger knows no paper. Each paper's study package holds one *ledger module* that defines
``LEDGER``, a :class:`PaperLedger`: the paper's key and reference, its numbered tables and
figures, the reader of our numbers, the check of each claim in words, and its transcribed
numbers as package data next to the module (``reported.csv``, ``claims.csv``,
``investigations.csv``, with the columns of :mod:`~rlsbench.studies.fidelity.transcription`
and :mod:`~rlsbench.studies.fidelity.investigations`, and only that paper's rows).

A ledger module builds its :class:`PaperLedger` from the framework's public names:
:class:`~rlsbench.studies.fidelity.ours.RunTree` (the tables of a run),
:func:`~rlsbench.studies.fidelity.ours.row` / :func:`~rlsbench.studies.fidelity.ours.series`
(one row of our numbers), :class:`~rlsbench.studies.fidelity.claims.ClaimChecks` and
:class:`~rlsbench.studies.fidelity.claims.Outcome` (claim checks), and
:func:`~rlsbench.studies.fidelity.transcription.load_reported` (its own transcribed numbers).
It never imports another paper's package.

The framework finds the ledger modules in one place, :func:`ledger_modules`, and imports them
when it needs them (:func:`paper_ledgers`), never when it is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module, resources
from importlib.resources.abc import Traversable

#: The transcription files every paper brings, next to its ledger module.
DATA_FILES = ("reported.csv", "claims.csv", "investigations.csv")


@dataclass(frozen=True)
class PaperLedger:
    """What one paper brings to the ledger.

    Parameters
    ----------
    paper : str
        The paper's key: the ``paper`` column of the ledger and of its transcription files.
    title : str
        The full reference, as the ledger's item rows cite it.
    items : tuple of str
        The paper's numbered tables and figures, in the paper's order, as it names them
        ("Table 5", "Fig. 4", "Table VII"); every one has rows in ``reported.csv``.
    part_files : mapping of str to tuple of str
        Part name -> the tables of that part's folder (relative to it) that ``reader`` and
        ``checks`` read. A paper may read several parts; a missing table makes the rows that
        need it *not run*.
    reader : callable
        ``reader(tree)`` with a :class:`~rlsbench.studies.fidelity.ours.RunTree`: our numbers,
        a list of rows made by :func:`~rlsbench.studies.fidelity.ours.row` or
        :func:`~rlsbench.studies.fidelity.ours.series` (columns
        :data:`~rlsbench.studies.fidelity.ours.OURS_COLUMNS`), keyed like ``reported.csv``.
    checks : mapping of str to callable
        Claim id of ``claims.csv`` -> ``check(tree)``, a list of
        :class:`~rlsbench.studies.fidelity.claims.Outcome` (one per scope it tests). Every
        claim on public data has one.
    heading : str
        A regular expression (case-insensitive) that a Markdown heading naming this paper
        matches (:mod:`~rlsbench.studies.fidelity.text` finds which paper a line speaks of).
    data : str
        The package holding :data:`DATA_FILES` (normally the ledger module's own package).
    """

    paper: str
    title: str
    items: tuple[str, ...]
    part_files: Mapping[str, tuple[str, ...]]
    reader: Callable
    checks: Mapping[str, Callable]
    heading: str
    data: str

    def data_file(self, name: str) -> Traversable:
        """One of :data:`DATA_FILES`, read through :mod:`importlib.resources`."""
        if name not in DATA_FILES:
            raise ValueError(f"{name!r} is not one of the ledger's files {DATA_FILES}")
        return resources.files(self.data).joinpath(name)

    def where(self, name: str) -> str:
        """How an error names one of this paper's files: ``package/name``."""
        return f"{self.data.replace('.', '/')}/{name}"


def ledger_modules() -> tuple[str, ...]:
    """The dotted names of the papers' ledger modules, in the ledger's order (of its blocks
    and of its summary rows): the ``ledger`` field of every installed part
    (:func:`rlsbench.benchmark.parts.installed_parts`, entry-point group ``rlsbench.parts``)
    that has one, in the parts' order, each once (two parts of one paper may name one)."""
    from rlsbench.benchmark.parts import installed_parts

    return tuple(dict.fromkeys(part.ledger for part in installed_parts() if part.ledger))


def paper_ledgers() -> tuple[PaperLedger, ...]:
    """The :class:`PaperLedger` of every paper, in the order of :func:`ledger_modules`.

    Raises
    ------
    ValueError
        A module defines no ``LEDGER`` (or not a :class:`PaperLedger`), or two papers share
        a key.
    """
    ledgers, seen = [], {}
    for name in ledger_modules():
        ledger = getattr(import_module(name), "LEDGER", None)
        if not isinstance(ledger, PaperLedger):
            raise ValueError(f"ledger module {name} defines no LEDGER (a PaperLedger)")
        if ledger.paper in seen:
            raise ValueError(
                f"ledger modules {seen[ledger.paper]} and {name} both bring paper {ledger.paper!r}"
            )
        seen[ledger.paper] = name
        ledgers.append(ledger)
    return tuple(ledgers)


def paper_ledger(paper: str) -> PaperLedger:
    """The :class:`PaperLedger` of ``paper`` (a key of the ledger's ``paper`` column)."""
    for ledger in paper_ledgers():
        if ledger.paper == paper:
            return ledger
    known = ", ".join(ledger.paper for ledger in paper_ledgers())
    raise KeyError(f"no ledger module brings paper {paper!r} (known: {known})")


def items() -> dict[str, tuple[str, ...]]:
    """Paper -> its numbered tables and figures (every one has rows in ``reported.csv``)."""
    return {ledger.paper: tuple(ledger.items) for ledger in paper_ledgers()}


def titles() -> dict[str, str]:
    """Paper -> its full reference."""
    return {ledger.paper: ledger.title for ledger in paper_ledgers()}


def part_files() -> dict[str, tuple[str, ...]]:
    """Part -> the tables of its folder that some paper's ledger reads (the rule's inputs)."""
    out: dict[str, list[str]] = {}
    for ledger in paper_ledgers():
        for part, rels in ledger.part_files.items():
            out.setdefault(part, [])
            out[part] += [rel for rel in rels if rel not in out[part]]
    return {part: tuple(rels) for part, rels in out.items()}
