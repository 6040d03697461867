"""One runner for the parts' investigations: runs that isolate why a result differs from its
paper, each changing one thing against the paper run.

A part that has investigations names a module in its
:attr:`rlsbench.benchmark.parts.Part.investigations`; that module exports ``INVESTIGATIONS``,
a dict ``name -> Investigation``. Their grids (the ε values, seeds, λ floors, task subsets...
each one sweeps) live in one YAML file per part, ``config/investigations/<part>.yaml``, one
section per investigation; the runner checks the section's keys against
:attr:`Investigation.keys` (a missing or unknown key is an error naming the file and the key),
and hands the investigation a :class:`Context`: its section, the paper config's section of the
part, the common options, a parallel map (:func:`rlsbench.benchmark.parallel.map_tasks`, one
BLAS thread per task, so no result depends on ``--jobs``) and the writers of its outputs
(atomic, with provenance and the command line)::

    rlsbench investigate                          # the parts with investigations
    rlsbench investigate PART                     # its investigations, one line each
    rlsbench investigate PART NAME [--set KEY=VALUE ...] [--jobs N] [--out DIR]
    rlsbench investigate PART NAME --markdown-only    # rewrite NAME.md from the CSVs in --out
    rlsbench investigate PART NAME --variant VARIANT  # on config/variants/VARIANT.yaml

``--variant`` layers a variant of the paper config (``config/variants/<name>.yaml``, as ``make
variant`` does) on the paper config and writes beside the variant's published tables
(``<publish_dir>/<part>/investigations``), so that the ledger judges the variant on its own
investigations instead of on none.

The framework names no part: it finds them with :func:`rlsbench.benchmark.parts.installed_parts`
and imports an investigations module only when it is asked for.
"""

from __future__ import annotations

import importlib
import json
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import yaml
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.parallel import map_tasks
from rlsbench.benchmark.provenance import provenance
from rlsbench.benchmark.tables import (
    PROVENANCE_COLUMNS,
    with_provenance,
    write_csv,
    write_markdown,
)

#: Where a part's investigation grids are, relative to the working directory.
GRIDS = "config/investigations/{part}.yaml"
#: The paper run's config (the parts' settings the investigations change one thing of).
PAPER_CONFIG = "config/paper.yaml"
#: Where a part's investigations write, relative to the working directory.
OUT = "results/paper/{part}/investigations"
#: A variant of the paper config (``--variant NAME``), relative to the working directory.
VARIANT_CONFIG = "config/variants/{name}.yaml"


def layered(base: Mapping, over: Mapping) -> dict:
    """``base`` with ``over`` laid on it as Snakemake lays a second ``--configfile`` on the
    first: mappings merged key by key, any other value (a list too) replaced."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = layered(out[key], value)
        else:
            out[key] = value
    return out


@dataclass(frozen=True)
class Investigation:
    """One investigation of a part.

    Parameters
    ----------
    run : callable
        ``run(context) -> str``: computes, writes its CSV(s) and Markdown through the
        ``context`` and returns the Markdown text.
    markdown : callable or None
        ``markdown(context) -> str``: rewrites ``<name>.md`` from the CSV(s) already in
        ``context.out`` (``--markdown-only``); ``None``: not offered.
    doc : str
        One line: what it changes and what it shows (``rlsbench investigate PART``).
    keys : tuple of str
        The keys of its section in the part's grid file, all required.
    """

    run: Callable[[Context], str]
    markdown: Callable[[Context], str] | None
    doc: str
    keys: tuple[str, ...] = ()


@dataclass
class Context:
    """What an investigation gets: its grid, the paper config, the common options.

    Attributes
    ----------
    part, name : str
    section : dict
        Its section of the grid file (after ``--set``).
    config : Path
        The grid file.
    paper_config : Path
        The paper run's config; :meth:`paper_section` reads the part's section of it.
    variant : Path or None
        A variant laid on :attr:`paper_config` (:func:`layered`) before its section is read.
    data : Path
        Folder of the prepared datasets (``<name>.npz``).
    mirrors : list of str
        Dataset mirrors (``file://`` URLs).
    cache : Path
        Where datasets are downloaded and prepared when read through the mirrors.
    out : Path
        Output folder.
    jobs : int
        Processes (:meth:`map`); a result never depends on it.
    seed : int or None
        ``--seed`` (None: the investigation's own default, see :meth:`seed_or`).
    command : str
        The command line that made the outputs, without the options that change no result.
    """

    part: str
    name: str
    section: dict
    config: Path
    paper_config: Path = Path(PAPER_CONFIG)
    variant: Path | None = None
    data: Path = Path("results/datasets/prepared")
    mirrors: list = field(default_factory=list)
    cache: Path = Path("results/datasets/cache")
    out: Path = Path(".")
    jobs: int = 1
    seed: int | None = None
    command: str = ""

    def paper_section(self) -> dict:
        """The part's section of :attr:`paper_config`."""
        config = _read_yaml(self.paper_config)
        if not isinstance(config, dict) or not isinstance(config.get(self.part), dict):
            raise ConfigError(f"{self.paper_config}: no section {self.part!r}")
        if self.variant is None:
            return config[self.part]
        over = _read_yaml(self.variant)
        if not isinstance(over, dict):
            raise ConfigError(f"{self.variant}: not a mapping of config keys")
        return layered(config, over)[self.part]

    def seed_or(self, default: int) -> int:
        """``--seed`` if given, else ``default``."""
        return int(default) if self.seed is None else int(self.seed)

    def map(
        self, function: Callable, tasks: Sequence[tuple], what: str = "task", parallel=True
    ) -> list:
        """``[function(*task) for task in tasks]`` on :attr:`jobs` processes, each task on one
        BLAS thread (the results in task order, never depending on ``jobs``); ``parallel=False``
        runs them one after another in this process (timings: no competition for the cores).
        ``function`` must be a module-level function (it is pickled to the workers)."""
        name = getattr(function, "__name__", "task")
        return map_tasks(
            _one_thread,
            [(function, *task) for task in tasks],
            n_jobs=self.jobs,
            what=what,
            label=lambda task: name,
            parallel=parallel,
        )

    def provenance(self, frame: pd.DataFrame, info=None, seed=None) -> pd.DataFrame:
        """``frame`` with the command and the provenance columns of ``info`` (the settings
        that made it, hashed) and ``seed``; the frame's own columns win over a provenance
        column of the same name."""
        prov = {"command": self.command, **provenance(info, seed)}
        return with_provenance(frame, {k: v for k, v in prov.items() if k not in frame.columns})

    def write_csv(self, filename: str, frame: pd.DataFrame, info=None, seed=None, **to_csv):
        """Write ``<out>/<filename>`` with :meth:`provenance` (atomically); returns the frame
        written."""
        frame = self.provenance(frame, info, seed)
        write_csv(frame, self.out / filename, **to_csv)
        return frame

    def write_markdown(self, filename: str, text: str) -> str:
        write_markdown(self.out / filename, text)
        return text

    def read_csv(self, filename: str) -> pd.DataFrame:
        path = self.out / filename
        if not path.is_file():
            raise ConfigError(f"{path}: no such file (run `{self.command}` first)")
        return pd.read_csv(path)


def _one_thread(function, *args, n_jobs=1):
    with threadpool_limits(limits=1):
        return function(*args)


def without_provenance(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` without the columns :meth:`Context.write_csv` adds."""
    added = PROVENANCE_COLUMNS | {"command", "config_hash", "seed"}
    return frame.drop(columns=[c for c in frame.columns if c in added])


# ----------------------------------------------------------------------------------- discovery
def _read_yaml(path) -> object:
    try:
        return yaml.safe_load(Path(path).read_text())
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not YAML ({' '.join(str(exc).split())})") from None


def parts_with_investigations() -> list:
    """The installed parts that name an investigations module, in listing order."""
    from rlsbench.benchmark.parts import installed_parts

    return [part for part in installed_parts() if part.investigations]


def investigations_of(part_name: str) -> dict[str, Investigation]:
    """The ``INVESTIGATIONS`` of part ``part_name`` (its module imported now).

    Raises
    ------
    ConfigError
        No installed part of that name has investigations; the message lists those that do.
    """
    from rlsbench.benchmark.parts import PartPluginError, distribution_of

    parts = {part.name: part for part in parts_with_investigations()}
    if part_name not in parts:
        known = ", ".join(parts) or "none"
        raise ConfigError(f"no part {part_name!r} with investigations; known: {known}")
    part = parts[part_name]
    where = (
        f"part {part.name!r} of {distribution_of(part.name)}: investigations "
        f"{part.investigations!r}"
    )
    try:
        found = importlib.import_module(part.investigations).INVESTIGATIONS
    except (ImportError, AttributeError) as exc:
        raise PartPluginError(f"{where} cannot be loaded: {type(exc).__name__}: {exc}") from exc
    if not isinstance(found, Mapping) or not all(
        isinstance(v, Investigation) for v in found.values()
    ):
        raise PartPluginError(f"{where}: INVESTIGATIONS is not a dict of Investigation")
    return dict(found)


def get_investigation(part_name: str, name: str) -> Investigation:
    found = investigations_of(part_name)
    if name not in found:
        raise ConfigError(
            f"part {part_name!r} has no investigation {name!r}; known: {', '.join(found)}"
        )
    return found[name]


def load_section(path, name: str, keys: Sequence[str], overrides: Mapping | None = None):
    """Section ``name`` of the grid file ``path``, with ``overrides`` applied, checked to hold
    exactly ``keys``."""
    grids = _read_yaml(path)
    if not isinstance(grids, dict) or name not in grids:
        raise ConfigError(f"{path}: no section {name!r}")
    section = grids[name] if grids[name] is not None else {}
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: section {name!r} is a {type(section).__name__}, not a map")
    section = dict(section)
    for key, value in (overrides or {}).items():
        if key not in keys:
            raise ConfigError(
                f"--set {key}: {name} has no key {key!r} ({path}); known: {', '.join(keys)}"
            )
        section[key] = value
    unknown = [k for k in section if k not in keys]
    if unknown:
        raise ConfigError(
            f"{path}: {name}.{unknown[0]} is not a key of this investigation; "
            f"known: {', '.join(keys) or 'none'}"
        )
    missing = [k for k in keys if k not in section]
    if missing:
        raise ConfigError(f"{path}: {name}.{missing[0]} is missing")
    return section


# ----------------------------------------------------------------------------------- running
def command_line(part: str, name: str, options: Sequence[str] = ()) -> str:
    """``rlsbench investigate PART NAME OPTIONS``: the command recorded in the outputs (only
    the options that can change a result: not ``--jobs``, ``--out``, ``--cache``)."""
    return " ".join(["rlsbench investigate", part, name, *map(shlex.quote, options)])


def parse_set(items: Sequence[str]) -> dict:
    """``KEY=VALUE`` pairs, each value read as YAML (``seeds=[0, 1]``, ``repeats=3``)."""
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"--set {item!r}: not KEY=VALUE")
        try:
            out[key] = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            raise ConfigError(f"--set {item!r}: the value is not YAML ({exc})") from None
    return out


def run(
    part: str,
    name: str,
    *,
    config=None,
    overrides: Mapping | None = None,
    markdown_only: bool = False,
    command: str | None = None,
    **options,
) -> str:
    """Run investigation ``name`` of ``part`` (or only rewrite its Markdown) and return the
    Markdown text.

    Parameters
    ----------
    part, name : str
    config : path-like or None
        The grid file (default ``config/investigations/<part>.yaml``).
    overrides : mapping or None
        Keys of the section replaced (``--set``).
    markdown_only : bool
    command : str or None
        The command line recorded in the outputs (default: built from ``overrides``).
    **options
        Fields of :class:`Context` (``paper_config``, ``data``, ``mirrors``, ``cache``,
        ``out``, ``jobs``, ``seed``, ``variant``); ``out`` defaults to
        ``results/paper/<part>/investigations``; ``variant`` (a name) lays
        ``config/variants/<variant>.yaml`` on the paper config, and ``out`` then defaults to
        the variant's ``<publish_dir>/<part>/investigations``.
    """
    investigation = get_investigation(part, name)
    variant = options.pop("variant", None)
    if variant is not None:
        options["variant"] = Path(VARIANT_CONFIG.format(name=variant))
        spec = _read_yaml(options["variant"])
        if not isinstance(spec, dict) or spec.get("variant", {}).get("part") != part:
            raise ConfigError(
                f"{options['variant']}: not a variant of part {part!r} (its variant.part)"
            )
        if options.get("out") is None:
            options["out"] = Path(spec["publish_dir"]) / part / "investigations"
    config = Path(config or GRIDS.format(part=part))
    section = load_section(config, name, investigation.keys, overrides)
    if command is None:
        # JSON is YAML: the values as --set would read them back
        sets = [f"{k}={json.dumps(v, default=str)}" for k, v in (overrides or {}).items()]
        command = command_line(part, name, [a for s in sets for a in ("--set", s)])
    options = {k: v for k, v in options.items() if v is not None}
    options.setdefault("out", OUT.format(part=part))
    for key in ("out", "data", "cache", "paper_config", "variant"):
        if key in options:
            options[key] = Path(options[key])
    context = Context(part, name, section, config, command=command, **options)
    if markdown_only:
        if investigation.markdown is None:
            raise ConfigError(f"{part} {name}: --markdown-only is not offered (no CSV to read)")
        return investigation.markdown(context)
    context.out.mkdir(parents=True, exist_ok=True)
    return investigation.run(context)


# ----------------------------------------------------------------------------------- command line
def _list(part: str | None) -> int:
    if part is None:
        for p in parts_with_investigations():
            names = ", ".join(investigations_of(p.name))
            print(f"{p.name}: {names}")
        return 0
    found = investigations_of(part)
    width = max(map(len, found), default=0)
    for name, inv in found.items():
        print(f"{name.ljust(width)}  {inv.doc}")
    return 0


def _recorded(args) -> list[str]:
    """The options of ``args`` that can change a result, as given."""
    out = []
    for flag, value in (("--config", args.config), ("--paper-config", args.paper_config),
                        ("--variant", args.variant), ("--data", args.data),
                        ("--seed", args.seed)):  # fmt: skip
        if value is not None:
            out += [flag, str(value)]
    for mirror in args.mirror:
        out += ["--mirror", mirror]
    for item in args.set:
        out += ["--set", item]
    return out


def main(args) -> int:
    """``rlsbench investigate`` (parser: :func:`rlsbench.benchmark.cli.add_investigate_command`)."""
    if args.part is None or args.name is None or args.list:
        return _list(args.part)
    mirrors = [Path(m).resolve().as_uri() if "://" not in m else m for m in args.mirror]
    text = run(
        args.part,
        args.name,
        config=args.config,
        overrides=parse_set(args.set),
        markdown_only=args.markdown_only,
        command=command_line(args.part, args.name, _recorded(args)),
        paper_config=args.paper_config,
        variant=args.variant,
        data=args.data,
        mirrors=mirrors,
        cache=args.cache,
        out=args.out,
        jobs=args.jobs,
        seed=args.seed,
    )
    print(text)
    return 0
