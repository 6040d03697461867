"""Reading a part's config section, one way for every part.

The workflow's config has one section per installed part (:mod:`rlsbench.benchmark.parts`)
beside the top-level keys of ``workflow/schemas/config.schema.yaml`` (checked by
:func:`validate_config`). Each rule file reads its section with :func:`part_section`:

1. the section is validated against the part's JSON schema (``Part.schema``), which fills in
   the schema's defaults;
2. when the section says ``enabled``, the part's own ``check(section, datasets)``
   (``Part.check``) looks at what a schema cannot express: names that must
   exist in the dataset registry or among the installed methods, sizes that must fit a
   dataset. It raises :class:`ConfigError` naming the config key.

Before both, the Snakefile reads every config file again (:func:`read_config_file`: a YAML
error or a key given twice names the file, line and column), and the top-level check refuses a
number that is NaN, infinite or subnormal anywhere in the config (:func:`check_numbers`); a λ
grid is checked by :func:`check_lambda_grid` (λ and 1/λ normal float64).

All happen when the workflow is parsed, so a bad config stops before any job runs; the rule
files read the config inside :func:`config_errors_end_the_run`, so that it stops with the
error's one line (exit status 1), not a traceback.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
from collections.abc import Callable, Mapping

from rlsbench.errors import RLSBenchError


class ConfigError(ValueError, RLSBenchError):
    """A config value that is wrong; the message starts with ``config key <key>:``."""


@contextlib.contextmanager
def config_errors_end_the_run():
    """A :class:`ConfigError` (or the :class:`~rlsbench.benchmark.datasets.errors.DatasetError`
    of a bad user registry) raised inside ends the process with its message alone.

    For the Snakefile's parse: Snakemake prints an exception with the frames of the library
    that raised it, but a ``SystemExit`` with its one line and exit status 1.
    """
    from rlsbench.benchmark.datasets.errors import DatasetError

    try:
        yield
    except (ConfigError, DatasetError) as exc:
        raise SystemExit(" ".join(str(exc).split("\n"))) from None


class _RepeatedJSONKey(RLSBenchError):
    """A key given twice in one JSON object (not a ValueError: that means "not JSON")."""


def _unique_pairs(pairs):
    names = set()
    for name, _ in pairs:
        if name in names:
            raise _RepeatedJSONKey(name)
        names.add(name)
    return dict(pairs)


def _json_yte_marker(data) -> bool:
    from rlsbench.benchmark._yaml import YTE_MARKER

    if isinstance(data, dict):
        return any(YTE_MARKER in k or _json_yte_marker(v) for k, v in data.items())
    if isinstance(data, list):
        return any(_json_yte_marker(v) for v in data)
    return isinstance(data, str) and YTE_MARKER in data


def _refuse_yte(path, where: str) -> ConfigError:
    from rlsbench.benchmark._yaml import YTE_MARKER

    return ConfigError(
        f"config file {path}{where}: {YTE_MARKER!r} would make Snakemake render the file with "
        "YTE templating, which runs Python while the file is read; a config file is plain "
        f"YAML or JSON (remove {YTE_MARKER!r})"
    )


def _where(mark) -> str:
    return f", line {mark.line + 1}, column {mark.column + 1}" if mark else ""


def read_config_file(path) -> dict:
    """A config file (JSON or YAML) as Snakemake reads it, with the errors it lets pass named.

    Snakemake's own message of a YAML error names neither the file nor the line; a key
    given twice in one mapping or JSON object silently keeps its last value (a second
    ``main:`` drops the first whole); a file with ``__use_yte__: true`` is rendered through
    YTE templating, whose ``?expression`` keys and values are Python run while the file is
    read; and aliases can expand a few kilobytes to hundreds of millions of values. All four
    are refused here, before anything constructs the file's values.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    dict
        The file's config.

    Raises
    ------
    ConfigError
        ``config file <path>, line L, column C: <what is wrong>`` (a key given twice, a tab
        in the indentation, the YTE marker ``__use_yte__`` anywhere, aliases expanding to
        more than :data:`~rlsbench.benchmark._yaml.MAX_EXPANDED` values, ...), or a file
        that is missing or holds no mapping. A JSON file's message names the key, not the
        line (the JSON reader gives none).
    """
    import json

    import yaml

    from rlsbench.benchmark._yaml import (
        MAX_EXPANDED,
        YTE_MARKER,
        oversized,
        repeated_key,
        yte_marker,
    )

    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise ConfigError(f"config file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config file {path}: not UTF-8 text ({exc.reason})") from None
    try:
        data = json.loads(text, object_pairs_hook=_unique_pairs)
    except _RepeatedJSONKey as exc:
        raise ConfigError(
            f"config file {path}: key {exc.args[0]!r} is given twice in the same JSON object"
        ) from None
    except ValueError:
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            marker = yte_marker(node)
            if marker is not None:
                raise _refuse_yte(path, _where(marker.start_mark))
            bomb = oversized(node)
            if bomb:
                raise ConfigError(
                    f"config file {path}{_where(bomb[0].start_mark)}: its aliases expand this "
                    f"value to {bomb[1]} values, more than the {MAX_EXPANDED} a config may "
                    "hold (write the values out, or alias fewer)"
                )
            found = repeated_key(node)
            if found:
                key_path, _, second = found
                raise ConfigError(
                    f"config file {path}{_where(second.start_mark)}: "
                    f"key {key_path[-1]!r} is given twice in the same mapping"
                )
            data = None if node is None else loader.construct_document(node)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            what = " ".join(str(part) for part in (exc.context, exc.problem) if part)
            raise ConfigError(f"config file {path}{_where(mark)}: {what}") from None
        except yaml.YAMLError as exc:
            raise ConfigError(f"config file {path}: {exc}") from None
        finally:
            loader.dispose()
    else:
        if _json_yte_marker(data):
            line = text[: text.find(YTE_MARKER)].count("\n") + 1
            where = f", line {line}" if YTE_MARKER in text else ""
            raise _refuse_yte(path, where)
    if not isinstance(data, dict):
        raise ConfigError(
            f"config file {path}: holds {type(data).__name__}, not a mapping of config keys"
        )
    return data


#: Snakemake's own search for a Snakefile when no ``--snakefile`` is given (its cwd).
SNAKEFILE_CHOICES = ("Snakefile", "snakefile", "workflow/Snakefile", "workflow/snakefile")


def _snakefile_of(argv) -> str | None:
    """The Snakefile a Snakemake command line runs (``-s``/``--snakefile``, else the first of
    :data:`SNAKEFILE_CHOICES` in the working directory)."""
    for i, arg in enumerate(argv):
        if arg in ("-s", "--snakefile") and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--snakefile="):
            return arg.split("=", 1)[1]
    return next((name for name in SNAKEFILE_CHOICES if os.path.isfile(name)), None)


def runs_this_workflow(argv) -> bool:
    """Whether the Snakemake command line ``argv`` runs rlsbench's own workflow (the
    checkout's Snakefile or the wheel's copy, :func:`rlsbench.benchmark.runner.workflow_root`)."""
    from rlsbench.benchmark.runner import workflow_root  # it reads configs with this module

    snakefile = _snakefile_of(argv)
    if snakefile is None:
        return False
    try:
        ours = workflow_root() / "Snakefile"
    except ConfigError:
        return False
    return os.path.realpath(snakefile) == os.path.realpath(ours)


def guard_snakemake_config_files(argv=None) -> bool:
    """Make Snakemake read a config file of this workflow only after :func:`read_config_file`
    accepts it.

    Snakemake reads every ``--configfile`` (``snakemake.common.configfile.load_configfile``)
    before it parses the Snakefile, through YTE when the file says ``__use_yte__: true``: the
    Snakefile's own check comes after the file's Python has run. Called while Snakemake builds
    its command-line options (the plugin module ``snakemake_logger_plugin_rlsbench_config_guard``,
    which Snakemake imports then), this wraps Snakemake's reader so that a refused file stops
    the process with :func:`read_config_file`'s one line (exit status 1) before YTE sees it.
    Other workflows' config files are left to Snakemake: nothing changes unless ``argv`` runs
    this workflow (:func:`runs_this_workflow`).

    Parameters
    ----------
    argv : list of str, optional
        Snakemake's command line (default ``sys.argv``).

    Returns
    -------
    bool
        Whether Snakemake's reader is guarded now.
    """
    try:
        from snakemake.common import configfile

        snakemake_reader = configfile._load_configfile
    except (ImportError, AttributeError):  # another Snakemake: its reader is not guarded
        return False
    if getattr(snakemake_reader, "rlsbench_guard", False):
        return True
    if not runs_this_workflow(sys.argv if argv is None else argv):
        return False

    def _load_configfile(configpath_or_obj, filetype="Config"):
        if filetype == "Config" and isinstance(configpath_or_obj, (str, os.PathLike)):
            with config_errors_end_the_run():
                read_config_file(configpath_or_obj)
        return snakemake_reader(configpath_or_obj, filetype)

    _load_configfile.rlsbench_guard = True
    # load_configfile looks _load_configfile up in its module at each call
    configfile._load_configfile = _load_configfile
    return True


def _closest(error):
    """The error of a oneOf/anyOf branch that says what is wrong: not a branch of another type
    than the value (``null`` of an optional section), the deepest one (it names the key)."""
    while error.context:
        branches = [
            e
            for e in error.context
            if not (e.validator == "type" and e.absolute_path == error.absolute_path)
        ]
        error = max(branches or error.context, key=lambda e: len(e.absolute_path))
    return error


def validate_section(data: dict, schema, key: str) -> dict:
    """Validate ``data`` against a JSON schema, filling in the schema's defaults in place.

    Parameters
    ----------
    data : dict
        A config (section), modified in place: missing keys with a default get it.
    schema : str or Path
        The schema file (YAML or JSON), an absolute path.
    key : str
        Where ``data`` sits in the config (``"main"``; ``""`` for the whole config), for the
        message.

    Returns
    -------
    dict
        ``data``.

    Raises
    ------
    ConfigError
        The first violation, as ``config key <key>.<path>: <what is wrong> (<schema>)``.
    """
    import jsonschema
    from snakemake.exceptions import WorkflowError
    from snakemake.utils import validate

    try:
        # Snakemake's validator: defaults are filled at every level of the schema
        validate(data, str(schema), set_default=True)
    except WorkflowError as exc:
        # Snakemake raises it while handling jsonschema's error, which says where and what
        error = exc.__cause__ or exc.__context__
        if not isinstance(error, jsonschema.ValidationError):
            raise ConfigError(f"config key {key or '(top level)'}: {exc}") from exc
        error = _closest(error)
        where = (
            ".".join([key, *map(str, error.absolute_path)])
            if key
            else ".".join(map(str, error.absolute_path))
        )
        raise ConfigError(
            f"config key {where or '(top level)'}: {error.message} ({schema})"
        ) from None
    check_numbers(data, key)
    return data


#: The smallest normal float64 (2.2e-308): a value below it, other than 0, is subnormal.
SMALLEST_NORMAL = sys.float_info.min


def _key_of(key: str, name) -> str:
    if isinstance(name, int):
        return f"{key}[{name}]"
    return f"{key}.{name}" if key else str(name)


def check_numbers(data, key: str = "") -> None:
    """No number of the config is NaN, infinite or subnormal (ConfigError naming its key).

    A JSON schema's ``minimum`` lets NaN and infinity through (NaN compares false with every
    bound), and no job can use them; a subnormal float64 (``0 < |x| < 2.2e-308``, e.g.
    ``1.0e-320``) loses its precision and its reciprocal overflows to infinity.
    """
    if isinstance(data, Mapping):
        for name, value in data.items():
            check_numbers(value, _key_of(key, name))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            check_numbers(value, _key_of(key, i))
    elif isinstance(data, float):
        if not math.isfinite(data):
            raise ConfigError(f"config key {key or '(top level)'}: {data} is not a finite number")
        if 0 < abs(data) < SMALLEST_NORMAL:
            raise ConfigError(
                f"config key {key or '(top level)'}: {data!r} is subnormal in float64 (below "
                f"{SMALLEST_NORMAL:.4g}), its reciprocal overflows; use 0 or a normal number"
            )


def validate_config(config: dict, schema, parts) -> dict:
    """Validate the top level of a workflow config, filling in its defaults in place.

    Parameters
    ----------
    config : dict
        The whole workflow config.
    schema : str or Path
        The top-level schema (``workflow/schemas/config.schema.yaml``), which knows no part.
    parts : iterable of str
        The installed parts' names: their sections are allowed at the top level and left to
        :func:`part_section` (each part's own schema).

    Returns
    -------
    dict
        ``config``.

    Raises
    ------
    ConfigError
        The first violation; an unknown top-level key is one.
    """
    sections = set(parts)
    top = {key: value for key, value in config.items() if key not in sections}
    validate_section(top, schema, "")
    config.update(top)
    check_numbers({key: config[key] for key in sections if key in config}, "")
    return config


def part_section(
    config: Mapping,
    part: str,
    schema,
    *,
    check: Callable[[dict, Mapping], None] | None = None,
    datasets: Mapping | None = None,
) -> dict:
    """The config section of one part, validated and checked; ``{}`` when the part is off.

    Parameters
    ----------
    config : mapping
        The whole workflow config.
    part : str
        Section name (``"main"``, ``"scaling"``, ...).
    schema : str or Path
        The part's schema file.
    check : callable, optional
        ``check(section, datasets)``, the part's semantic checks; run only when the part is
        enabled. Raises :class:`ConfigError`.
    datasets : mapping, optional
        The dataset registry (name -> entry), for ``check``.

    Returns
    -------
    dict
        The section with the schema's defaults, or ``{}`` when the section is absent or says
        ``enabled: false``: a part runs only when its section is present and enabled.
    """
    section = config.get(part)
    if section is None:
        return {}
    if not isinstance(section, Mapping):
        # the part's schema validates what is inside a section; the section itself is a mapping
        raise ConfigError(
            f"config key {part}: {section!r} is not of type 'object' (the {part} part's "
            "section is a mapping of its settings)"
        )
    validate_section(section, schema, part)
    if not section.get("enabled", False):
        return {}
    if check is not None:
        check(section, datasets or {})
    return section


# ---------------------------------------------------------------------------------------------
# Checks every part's `check` shares: names against the registry, sizes against the data's
# shape (the registry's `expected`, after preprocessing), grids and lists non-empty.
# Each raises ConfigError with one line starting `config key <key>:`.
# ---------------------------------------------------------------------------------------------
CLASSIFICATION = ("binary", "multiclass")


def _count(value) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def dataset_entry(
    datasets: Mapping, name: str, key: str, *, tasks: tuple[str, ...] | None = None, part=""
) -> Mapping:
    """The registry entry of the dataset ``name`` that config key ``key`` names.

    Parameters
    ----------
    datasets : mapping
        The registry (name -> entry); empty = not checked (``{}`` returned).
    name : str
    key : str
        Where the name sits, e.g. ``"main.datasets[1]"``.
    tasks : tuple of str, optional
        The tasks the part supports (``"binary"``, ``"multiclass"``, ``"regression"``).
    part : str
        Who needs the task, for the message (e.g. ``"the part's protocol"``).

    Raises
    ------
    ConfigError
        Unknown dataset, or one of a task the part does not support.
    """
    if not datasets:
        return {}
    if name not in datasets:
        raise ConfigError(
            f"config key {key}: unknown dataset {name!r}; known datasets "
            f"(rlsbench datasets list): {', '.join(sorted(datasets))}"
        )
    entry = datasets[name] or {}
    task = entry.get("task")
    if tasks is not None and task is not None and task not in tasks:
        raise ConfigError(
            f"config key {key}: dataset {name!r} is a {task} task; {part or 'this part'} "
            f"needs {' or '.join(tasks)}"
        )
    return entry


def select_datasets(spec, datasets: Mapping, key: str) -> list[str]:
    """The dataset names a config's ``datasets`` key stands for.

    Parameters
    ----------
    spec : list of str or mapping
        A list of names (returned as it is), or a selection ``{"registry": [tasks],
        "except": [names]}``: every registered dataset of those tasks, in registry order, that
        is neither a ``duplicate_of`` another nor named in ``except``. A registry entry added
        later joins such a run without another edit.
    datasets : mapping
        The registry (name -> entry, as :meth:`Registry.as_dicts` gives it).
    key : str
        Where ``spec`` sits (``"main.datasets"``), for the message.

    Raises
    ------
    ConfigError
        A selection without a registry to select from, a name in ``except`` that is not
        registered, or a selection that is empty.
    """
    if not isinstance(spec, Mapping):
        return list(spec)
    if not datasets:
        raise ConfigError(f"config key {key}: a registry selection needs the dataset registry")
    for i, name in enumerate(spec.get("except", [])):
        if name not in datasets:
            raise ConfigError(
                f"config key {key}.except[{i}]: unknown dataset {name!r} (rlsbench datasets list)"
            )
    tasks, left_out = set(spec["registry"]), set(spec.get("except", []))
    names = [
        name
        for name, entry in datasets.items()
        if entry.get("task") in tasks and not entry.get("duplicate_of") and name not in left_out
    ]
    if not names:
        raise ConfigError(f"config key {key}: the selection {dict(spec)!r} names no dataset")
    return names


def n_samples_of(entry: Mapping) -> int | None:
    """Examples of a registry entry after preprocessing (None when not given)."""
    return _count((entry or {}).get("expected", {}).get("n_samples"))


def n_features_of(entry: Mapping) -> int | None:
    """Features of a registry entry after preprocessing (None when not given)."""
    return _count((entry or {}).get("expected", {}).get("n_features"))


def smallest_class_of(entry: Mapping) -> int | None:
    """Examples of the smallest class of a classification entry (None when not given)."""
    counts = (entry or {}).get("expected", {}).get("class_counts") or {}
    sizes = [_count(v) for v in counts.values()]
    sizes = [s for s in sizes if s is not None and s > 0]
    return min(sizes) if sizes else None


def check_at_most(value, limit, key: str, what: str) -> None:
    """``value`` <= ``limit`` (nothing checked when either is None); ``what`` says what the
    limit is, e.g. ``"the 30 features of dataset 'wine'"``."""
    if value is not None and limit is not None and value > limit:
        raise ConfigError(f"config key {key}: {value} exceeds {what}")


def check_splittable(n_folds: int, entry: Mapping, key: str, *, dataset: str) -> None:
    """The protocol can split the dataset (:func:`rlsbench.benchmark.protocol.cv_plan`): every
    class has two examples (a class smaller than ``n_folds`` gets fewer folds, not an error),
    and a regression set at least ``n_folds`` examples.

    Parameters
    ----------
    n_folds : int
    entry : mapping
        The dataset's registry entry (:func:`dataset_entry`).
    key : str
        The config key that names the dataset.
    dataset : str
    """
    if entry.get("task") in CLASSIFICATION:
        smallest = smallest_class_of(entry)
        if smallest is not None and smallest < 2:
            raise ConfigError(
                f"config key {key}: dataset {dataset!r} has a class of {smallest} example(s); "
                "a stratified split needs two"
            )
        return
    total = n_samples_of(entry)
    check_at_most(n_folds, total, key, f"the {total} examples of dataset {dataset!r}")


#: The largest λ whose reciprocal is a normal float64 (4.5e307): λ and 1/λ both normal.
LARGEST_LAMBDA = 1 / SMALLEST_NORMAL


def check_lambda(value, key: str) -> None:
    """One regularization parameter λ: finite, > 0, and with λ and 1/λ both normal float64
    (2.2e-308 <= λ <= 4.5e307), since the solvers divide by λ as well as add it."""
    lam = float(value)
    if not (SMALLEST_NORMAL <= lam <= LARGEST_LAMBDA):
        raise ConfigError(
            f"config key {key}: λ = {lam!r} is outside {SMALLEST_NORMAL:.4g} ... "
            f"{LARGEST_LAMBDA:.4g} (a λ must be finite and > 0 with 1/λ finite in float64)"
        )


def check_lambda_grid(spec, key: str) -> None:
    """A λ grid of the config, checked by :class:`~rlsbench.benchmark.protocol_settings.
    LambdaGrid` (the one place of its rules): an explicit list (each value by
    :func:`check_lambda`, the key ``<key>[i]``) or ``{base, min_exp, max_exp}``
    (base**min_exp and base**max_exp in float64, the keys ``<key>.min_exp`` and
    ``<key>.max_exp``); a grid that gives no value is empty."""
    from rlsbench.benchmark.protocol_settings import LambdaGrid  # it builds on the checks here

    LambdaGrid.from_spec(spec, key=key)


def check_not_empty(values, key: str, what: str = "list") -> None:
    """A grid or list that must give at least one value."""
    if len(values) == 0:
        raise ConfigError(f"config key {key}: the {what} is empty")
