"""The parts of the workflow (one per paper study), found as plugins.

A part is a :class:`Part` object that a distribution declares in the entry-point group
``rlsbench.parts`` of its ``pyproject.toml``; the entry point's name is the part's name (its
config section, the prefix of its rules and targets, its folder ``results/runs/<run>/<name>/``),
its value the object::

    [project.entry-points."rlsbench.parts"]
    my_paper = "my_package.part:PART"

rlsbench's own parts (``rlsbench.studies.<part>.part``) are declared in rlsbench's
``pyproject.toml`` the same way, so there is one path, not two. The ``Snakefile`` includes the
rule file of every installed part, and the framework (``rule all``, the plan a run prints, the
report's views and captions and its first page, the config's list of sections, the README
headline, the docs' list of papers, the columns two runs may differ in) loops over
:func:`installed_parts` instead of naming a part.

The group is read with :func:`importlib.metadata.entry_points` when the parts are first needed,
never at import time. Loading a part imports only the module its entry point names (a
``part.py`` holding the :class:`Part`, paths and dotted names): its numerics, checks and cost
models are imported when the workflow calls them. Every error about a plugin names its
distribution. An installed distribution (an editable ``pip install -e .`` counts) is what
declares entry points: after editing ``pyproject.toml``, reinstall.

A part's files
--------------
``rules``
    A Snakemake rule file. It reads its section with ``part_section("<name>")``
    (``workflow/rules/common.smk``: validated against ``schema``, checked by ``check``, ``{}``
    when absent or disabled) and sets ``PART_TARGETS["<name>"]`` to what ``rule all`` builds
    (empty when the section is off). Paths inside it: ``CALL`` (the script every Python job
    runs) and ``ENVIRONMENT`` (the conda environment) are absolute, from ``common.smk``; a
    ``report(..., caption=...)`` is relative to the rule file.
``schema``
    The JSON schema of the part's config section.
``views``
    Caption files of the report's table views (:class:`View`).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from rlsbench.errors import RLSBenchError

#: The entry-point group every part (rlsbench's own included) is declared in.
GROUP = "rlsbench.parts"

#: ``Part.order`` of a part that gives none: after rlsbench's own parts, by name.
DEFAULT_ORDER = 1000


class PartPluginError(RuntimeError, RLSBenchError):
    """A part plugin that cannot be used; the message names its distribution."""


@dataclass(frozen=True)
class View:
    """Caption, subcategory and title of the report's views of some of a part's tables.

    Parameters
    ----------
    pattern : str
        Regular expression matched (``re.match``) against a table's path under the part's run
        directory (``results/runs/<run>/<part>/``); the first matching view of a part wins.
    caption : Path
        The caption's ``.rst`` file.
    subcategory : str
        The table's subcategory in the report.
    title : str or None
        Title of a file without a heading (and caption of its LaTeX table).
    """

    pattern: str
    caption: Path
    subcategory: str = "Tables"
    title: str | None = None


@dataclass(frozen=True)
class Part:
    """One part of the workflow: a paper's study, declared once.

    Parameters
    ----------
    name : str
        Its config section and the prefix of its rules and targets; equal to the entry
        point's name.
    title : str
        As printed (the plan, listings), e.g. ``"Sun & Yao (2006): Table 1, Fig. 1"``.
    paper : str
        The fidelity ledger's key of the paper it reproduces (two parts may share one).
    citation : str
        The paper as a reader knows it (``"Sun & Yao"``): the README's and the report's first
        page's row names.
    category : str
        Its category in the HTML report (its table views and its rule file's figures).
    rules : Path
        Its Snakemake rule file (see the module docstring).
    schema : Path
        The JSON schema of its config section.
    check : str or None
        ``"module:function"`` of its section check ``check(section, datasets)`` (raises
        :class:`rlsbench.benchmark.config.ConfigError`); run only when the part is enabled.
    plan : str or None
        ``"module:function"`` of ``plan_line(section, datasets) -> str``: what the run will
        do, one line for the plan printed before any job starts (``None``: the plan says only
        that the part runs).
    views : tuple of View
        The report's captions of its tables (any other table gets the generic caption).
    report_data : tuple of str
        Data tables (paths under its run directory) the report shows beside its Markdown
        tables.
    measurement_columns : frozenset of str
        Columns of its tables that hold a measurement of the run itself (times, memory) or a
        number computed only from such measurements: two runs of one config may differ there
        and nowhere else (:data:`rlsbench.benchmark.tables.RUN_DEPENDENT_COLUMNS`).
    ledger : str or None
        Dotted name of the module holding the paper's knowledge for the fidelity ledger
        (reader, claim checks, transcribed numbers); ``None`` while it has none.
    overview : str or None
        ``"module:function"`` of ``answers(tree, sections) -> list of Answer``: what the
        paper's parts found, as answers on the report's first page
        (:mod:`rlsbench.studies.overview`: ``tree`` reads the overview's inputs, the
        ``overview_tables`` of the parts that ran; ``sections`` maps each part's name to its
        section). Called once per function, in listing order, also when its parts did not run
        (it says so); two parts of one paper may name one.
    overview_tables : tuple of str
        Tables of the part (paths under its run directory) that an ``overview`` function
        reads: inputs of the first page whenever the part builds them.
    styles : dict
        Figure styles of the names its tables and figures show that are no method plugin (a
        study's own implementation or variant of a method, a result it quotes): ``{name:
        {"color": ..., "marker": ..., "linestyle": ...}}`` with the colour and line style by
        name, or ``{name: "<plugin>"}`` to share a plugin's style
        (:func:`rlsbench.benchmark.figures.resolve_style`; checked against every other
        style by the figures' rule, ``tests/benchmark/test_figures.py``).
    docs : str or None
        Its documentation page (path relative to ``docs/``).
    investigations : str or None
        Dotted name of the module whose ``INVESTIGATIONS`` (``name -> Investigation``) are
        the part's isolating runs, run by ``rlsbench investigate <name> NAME``
        (:mod:`rlsbench.benchmark.investigate`; their grids in
        ``config/investigations/<name>.yaml``); ``None`` while it has none.
    order : int
        Where it stands in listings: parts sort by ``(order, name)``. rlsbench's own parts
        take 10-50; a plugin that gives none comes after them, by name.
    """

    name: str
    title: str
    paper: str
    citation: str
    category: str
    rules: Path
    schema: Path
    check: str | None = None
    plan: str | None = None
    views: tuple[View, ...] = ()
    report_data: tuple[str, ...] = ()
    measurement_columns: frozenset[str] = field(default_factory=frozenset)
    ledger: str | None = None
    overview: str | None = None
    overview_tables: tuple[str, ...] = ()
    styles: dict = field(default_factory=dict)
    docs: str | None = None
    investigations: str | None = None
    order: int = DEFAULT_ORDER

    def check_function(self) -> Callable | None:
        """The section check (imported now), or ``None``."""
        return None if self.check is None else _resolve(self, "check", self.check)

    def plan_line(self, section, datasets) -> str:
        """One line of the plan: what the part will do with ``section``."""
        if self.plan is None:
            return "no plan given by the part"
        return _resolve(self, "plan", self.plan)(section, datasets)

    def overview_function(self) -> Callable | None:
        """The first page's answers function (imported now), or ``None``."""
        return None if self.overview is None else _resolve(self, "overview", self.overview)


def _resolve(part: Part, what: str, dotted: str) -> Callable:
    where = f"part {part.name!r} of {distribution_of(part.name)}: {what} {dotted!r}"
    module, sep, attribute = dotted.partition(":")
    if not sep or not module or not attribute:
        raise PartPluginError(f"{where} is not 'module:function'")
    try:
        value = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as exc:
        raise PartPluginError(f"{where} cannot be loaded: {type(exc).__name__}: {exc}") from exc
    if not callable(value):
        raise PartPluginError(f"{where} is a {type(value).__name__}, not a function")
    return value


def _distribution(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "an unknown distribution"
    return f"distribution {dist.name} {dist.version}"


def distribution_of(name: str) -> str:
    """Which distribution brings part ``name``, as error messages name it ("distribution
    rlsbench 0.1.0"; "an unregistered part" for none)."""
    ep = _entry_points().get(name)
    return "an unregistered part" if ep is None else _distribution(ep)


@functools.cache
def _entry_points() -> dict[str, EntryPoint]:
    """The group's entry points by name; a name two distributions declare is an error."""
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=GROUP):
        other = found.get(ep.name)
        # an editable install can show one distribution twice (same value): not a clash
        if other is not None and other.value != ep.value:
            raise PartPluginError(
                f"part {ep.name!r} is declared twice in entry-point group {GROUP!r}: by "
                f"{_distribution(other)} ({other.value}) and by {_distribution(ep)} ({ep.value})"
            )
        found[ep.name] = ep
    return found


def _load(name: str) -> Part:
    ep = _entry_points()[name]
    where = f"part {name!r} ({ep.value}) of {_distribution(ep)}"
    try:
        part = ep.load()
    except Exception as exc:
        raise PartPluginError(f"{where} failed to load: {type(exc).__name__}: {exc}") from exc
    if not isinstance(part, Part):
        raise PartPluginError(
            f"{where} is a {type(part).__name__}, not a rlsbench.benchmark.parts.Part"
        )
    if part.name != name:
        raise PartPluginError(f"{where} is named {part.name!r}; the two names must agree")
    files = {"rules": part.rules, "schema": part.schema}
    files.update({f"view {v.pattern!r} caption": v.caption for v in part.views})
    for what, path in files.items():
        if not Path(path).is_file():
            raise PartPluginError(f"{where}: its {what} {path} is not a file")
    return part


@functools.cache
def _installed() -> tuple[Part, ...]:
    parts = [_load(name) for name in _entry_points()]
    if not parts:
        raise PartPluginError(
            f"no part is installed (entry-point group {GROUP!r} is empty): is rlsbench "
            "installed, and reinstalled since its pyproject.toml changed (pip install -e .)?"
        )
    return tuple(sorted(parts, key=lambda p: (p.order, p.name)))


def installed_parts() -> tuple[Part, ...]:
    """Every installed part, loaded, in listing order (``Part.order``, then name).

    Raises
    ------
    PartPluginError
        No part is installed, two distributions declare one name, or a plugin does not load,
        is not a :class:`Part`, names itself otherwise, or lacks its rule file, schema or a
        caption; the message names its distribution.
    """
    return _installed()


def part_names() -> list[str]:
    """Names of the installed parts, in listing order."""
    return [part.name for part in installed_parts()]


def get_part(name: str) -> Part:
    """The installed part called ``name``.

    Raises
    ------
    KeyError
        No installed distribution declares ``name``; the message lists the known names.
    """
    for part in installed_parts():
        if part.name == name:
            return part
    known = ", ".join(part_names())
    raise KeyError(f"unknown part {name!r}; known parts ({GROUP}): {known}")


def papers() -> dict[str, str]:
    """The papers of the installed parts: ledger key -> citation, in listing order."""
    out: dict[str, str] = {}
    for part in installed_parts():
        out.setdefault(part.paper, part.citation)
    return out


def measurement_columns() -> frozenset[str]:
    """The union of every installed part's ``measurement_columns``."""
    return frozenset().union(*(part.measurement_columns for part in installed_parts()))
