"""The dataset registry: package data (``registry.yaml``) plus the user's own registries.

The built-in registry and its JSON schema ship inside the package (read with
:mod:`importlib.resources`, so every install form finds them). A user adds datasets without
editing the package, in a file of the same form (``rlsbench datasets hash FILE`` writes an entry)
passed as ``extra`` (CLI ``--registry-extra``, workflow key ``dataset_registries``) or as an inline
mapping (workflow key ``datasets``). Every entry is validated against the same schema; a user entry
may replace a registered name only when it says so (``override: true``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import yaml

from rlsbench.benchmark._yaml import repeated_key
from rlsbench.benchmark.datasets.errors import RegistryError

_PACKAGE = "rlsbench.benchmark.datasets"
BUILTIN_NAME = "registry.yaml"
# further package registries merged after the base one, by collection: scikit-feature's and the
# NIPS 2003 challenge's high-dimensional sets with two CRAN regression sets, and PMLB's
BUILTIN_COLLECTIONS = ("registry_highdim.yaml", "registry_pmlb.yaml")
SCHEMA_NAME = "registry.schema.yaml"

DOWNLOAD_FORMATS = ("libsvm", "uci-csv", "dense-text", "arff", "idx", "mat", "rdata")


def builtin_registry_file():
    """The built-in registry (a :class:`importlib.resources.abc.Traversable`)."""
    return resources.files(_PACKAGE) / BUILTIN_NAME


def builtin_collection_files() -> list:
    """The package registries merged after :func:`builtin_registry_file` (Traversables)."""
    return [resources.files(_PACKAGE) / name for name in BUILTIN_COLLECTIONS]


def schema_file():
    """The registry's JSON schema (YAML), shipped beside the built-in registry."""
    return resources.files(_PACKAGE) / SCHEMA_NAME


@dataclass(frozen=True)
class FileSpec:
    """One raw file of a dataset (see the registry's header comment for the fields).

    ``path`` is the resolved absolute path of a local copy (user registries), or None.
    """

    name: str
    mirror: str | None
    upstream: tuple[str, ...]
    sha256: str
    content_sha256: str
    reference: tuple[str, ...] = ()
    path: str | None = None


@dataclass(frozen=True)
class DatasetSpec:
    """One registry entry.

    Attributes
    ----------
    name, task, format, description, preprocessing : str
    files : tuple of FileSpec
        Empty for the ``sklearn`` and ``synthetic`` formats (nothing to download).
    read : dict
        Reader options (format specific).
    labels : dict
        ``positive``/``negative`` raw values (binary) or ``classes`` (multiclass).
    expected : dict
        ``n_samples``, ``n_features`` and optionally ``class_counts``.
    paper : dict
        Shape a paper reports when it differs from the data.
    family : str
        Datasets drawn from one source share a family (rank tests count a family once); by
        default the dataset's own name.
    duplicate_of : str or None
        The registered dataset with the same numbers (this entry is a loader cross-check).
    source : str
        The registry file (or config key) the entry was read from.
    """

    name: str
    task: str
    format: str
    description: str
    preprocessing: str
    files: tuple[FileSpec, ...] = ()
    read: dict = field(default_factory=dict)
    labels: dict = field(default_factory=dict)
    expected: dict = field(default_factory=dict)
    paper: dict = field(default_factory=dict)
    source: str = ""
    family: str = ""
    duplicate_of: str | None = None

    def __post_init__(self):
        if not self.family:
            object.__setattr__(self, "family", self.name)

    @property
    def needs_download(self) -> bool:
        return bool(self.files)

    def file(self, name: str) -> FileSpec:
        for spec in self.files:
            if spec.name == name:
                return spec
        raise RegistryError(f"registry has no file named {name!r}", dataset=self.name)

    def to_dict(self) -> dict:
        """Plain-data view (JSON-able), for provenance records and ``rlsbench datasets info``."""
        files = []
        for f in self.files:
            entry = {
                "name": f.name,
                "mirror": f.mirror,
                "upstream": list(f.upstream),
                "reference": list(f.reference),
                "sha256": f.sha256,
                "content_sha256": f.content_sha256,
            }
            if f.path is not None:
                entry["path"] = f.path
            files.append(entry)
        out = {
            "name": self.name,
            "description": self.description,
            "task": self.task,
            "format": self.format,
            "files": files,
            "read": self.read,
            "labels": self.labels,
            "expected": self.expected,
            "preprocessing": self.preprocessing,
            "registry": self.source,
        }
        if self.paper:
            out["paper"] = self.paper
        if self.family != self.name:
            out["family"] = self.family
        if self.duplicate_of:
            out["duplicate_of"] = self.duplicate_of
        return out


class Registry(dict):
    """Mapping name -> :class:`DatasetSpec`, remembering the files it was read from.

    Attributes
    ----------
    path : str
        The base registry (the built-in one unless replaced).
    sources : list of str
        Every registry file (or config key) merged in, base first.
    """

    path: str | None = None
    sources: list

    def get_spec(self, name: str) -> DatasetSpec:
        try:
            return self[name]
        except KeyError:
            raise RegistryError(
                f"unknown dataset {name!r}; the registries ({', '.join(self.sources)}) have: "
                f"{', '.join(sorted(self))}"
            ) from None

    def as_dicts(self) -> dict:
        """``{name: spec.to_dict()}``: the plain-data view the workflow's config checks use."""
        return {name: spec.to_dict() for name, spec in self.items()}


# ----------------------------------------------------------------------------------- reading
def _line_of(node, path) -> int | None:
    """1-based line of the YAML key (or sequence item) at ``path`` below ``node``, or of its
    nearest ancestor's."""
    if node is None:
        return None
    line = node.start_mark.line
    for key in path:
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if str(k.value) == str(key)), None)
            if pair is None:
                break
            line, node = pair[0].start_mark.line, pair[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line
        else:
            break
    return line + 1


@functools.lru_cache(maxsize=1)
def _validator():
    import jsonschema

    return jsonschema.Draft202012Validator(yaml.safe_load(schema_file().read_text()))


def _short(value, limit=60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(error) -> str:
    """A schema error in one short line (jsonschema's own repeats the whole offending value)."""
    if error.validator == "anyOf" and "files" in error.absolute_path:
        return "give the file a mirror path, a local path or at least one upstream URL"
    if error.validator == "type":
        return f"{_short(error.instance)} is not of type {error.validator_value!r}"
    if error.validator in ("enum", "const"):
        return f"{_short(error.instance)} is not one of {error.validator_value!r}"
    if error.validator == "pattern":
        return f"{_short(error.instance)} does not match {error.validator_value!r}"
    return error.message if len(error.message) <= 200 else error.message[:197] + "..."


def _validate(data, source, node=None) -> None:
    """Check ``data`` against the registry schema; the error names file, line and key path."""
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if not errors:
        return
    first = errors[0]
    key = "/".join(map(str, first.absolute_path)) or "<root>"
    message = _describe(first)
    more = f" (and {len(errors) - 1} more problem(s) in this file)" if len(errors) > 1 else ""
    raise RegistryError(
        f"registry entry does not match the schema at {key}: {message}{more}",
        file=source,
        line=_line_of(node, first.absolute_path),
    )


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _check_unique_keys(node, source) -> None:
    """A key repeated in one mapping is an error: YAML loaders keep the last value silently, so
    a second entry of one dataset (or a second ``read:``) would replace the first unseen."""
    found = repeated_key(node)
    if found:
        path, first, second = found
        where = "/".join(map(str, path))
        raise RegistryError(
            f"key {where!r} appears twice (lines {first.start_mark.line + 1} and "
            f"{second.start_mark.line + 1}); the second would silently replace the first: "
            "remove or rename one",
            file=source,
            line=second.start_mark.line + 1,
        )


def _read_yaml(text: str, source: str):
    """``(data, node)``: the document and its node tree (for line numbers), parsed once."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        _check_unique_keys(node, source)
        data = None if node is None else loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise RegistryError(
            f"invalid YAML: {problem}",
            file=source,
            line=None if mark is None else mark.line + 1,
        ) from None
    finally:
        loader.dispose()
    return data, node


def _spec(name: str, entry: dict, *, source: str = "", base_dir=None) -> DatasetSpec:
    files = []
    for f in entry.get("files", ()):
        local = None
        if f.get("path"):
            local = Path(f["path"]).expanduser()
            if not local.is_absolute():
                local = Path(base_dir if base_dir is not None else Path.cwd()) / local
            local = str(local.resolve())
        files.append(
            FileSpec(
                name=f["name"],
                mirror=f.get("mirror"),
                upstream=tuple(f.get("upstream", ())),
                sha256=f["sha256"],
                content_sha256=f.get("content_sha256", f["sha256"]),
                reference=tuple(f.get("reference", ())),
                path=local,
            )
        )
    names = [f.name for f in files]
    if len(set(names)) != len(names):
        raise RegistryError("two files share a name", dataset=name, file=source or None)
    return DatasetSpec(
        name=name,
        task=entry["task"],
        format=entry["format"],
        description=entry["description"],
        preprocessing=entry["preprocessing"],
        files=tuple(files),
        read=dict(entry.get("read", {})),
        labels=dict(entry.get("labels", {})),
        expected=dict(entry["expected"]),
        paper=dict(entry.get("paper", {})),
        source=source,
        family=entry.get("family", ""),
        duplicate_of=entry.get("duplicate_of"),
    )


def _entries(data, node, source, base_dir) -> list:
    """Validated ``(name, spec, line)`` of a parsed registry document."""
    _validate(data, source, node)
    datasets_node = None
    if isinstance(node, yaml.MappingNode):
        datasets_node = next((v for k, v in node.value if k.value == "datasets"), None)
    return [
        (
            name,
            _spec(name, entry, source=source, base_dir=base_dir),
            _line_of(datasets_node, [name]),
            bool(entry.get("override", False)),
        )
        for name, entry in data["datasets"].items()
    ]


#: Validated entries of the package's own registry files, by (path, text): their schema check
#: is most of a registry load (~0.5 s), and a job server's children inherit what it loaded
#: (:func:`rlsbench.benchmark.jobserver.serve`). The specs are frozen, so sharing them is safe.
_BUILTIN_ENTRIES: dict = {}


def _builtin_entries(path: Path) -> list:
    """:func:`_entries` of a built-in registry file, validated once per process and content."""
    text = path.read_text()
    key = (str(path), text)
    if key not in _BUILTIN_ENTRIES:
        data, node = _read_yaml(text, str(path))
        _BUILTIN_ENTRIES[key] = _entries(data, node, str(path), None)
    return _BUILTIN_ENTRIES[key]


def _read_file(path) -> tuple:
    path = Path(path).expanduser()
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise RegistryError("registry file not found", file=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RegistryError(f"cannot read registry file: {exc}", file=path) from None
    data, node = _read_yaml(text, str(path))
    return data, node, str(path), path.resolve().parent


def _merge(registry: Registry, entries, source) -> None:
    for name, spec, line, override in entries:
        if name in registry and not override:
            raise RegistryError(
                f"dataset {name!r} is already registered in {registry[name].source}; rename it, "
                "or set `override: true` on this entry to replace that one deliberately",
                file=source,
                line=line,
            )
        registry[name] = spec


def _replaced_later(registry: Registry, spec: DatasetSpec, other: DatasetSpec) -> bool:
    """Whether ``other`` comes from a later file than ``spec`` (a user's ``override: true``
    of the dataset that ``spec`` was written as a duplicate of)."""
    order = {source: i for i, source in enumerate(registry.sources)}
    return order.get(other.source, -1) > order.get(spec.source, -1)


def _check_duplicates(registry: Registry) -> None:
    for name, spec in registry.items():
        if spec.duplicate_of is None:
            continue
        if spec.duplicate_of == name:
            raise RegistryError(
                "duplicate_of names itself; name the registered dataset with the same numbers",
                dataset=name,
                file=spec.source or None,
            )
        other = registry.get(spec.duplicate_of)
        if (
            other is not None
            and other.duplicate_of is None
            and other.task != spec.task
            and not _replaced_later(registry, spec, other)
        ):
            # the same numbers read as another task are not the same dataset
            raise RegistryError(
                f"duplicate_of {spec.duplicate_of!r} has task {other.task} ({other.source}); "
                f"this entry's is {spec.task}",
                dataset=name,
                file=spec.source or None,
            )
        if other is None or other.duplicate_of is not None:
            raise RegistryError(
                f"duplicate_of: {spec.duplicate_of!r} is not a registered dataset of its own"
                + ("" if other is None else f" (it is a duplicate of {other.duplicate_of!r})"),
                dataset=name,
                file=spec.source or None,
            )


def load_registry(path=None, *, extra=(), inline=None, inline_base=None) -> Registry:
    """Read and validate the dataset registry, with the user's registries merged in.

    Parameters
    ----------
    path : path-like, optional
        A registry file replacing the built-in ones (default: the package's ``registry.yaml``
        with its collections, :data:`BUILTIN_COLLECTIONS`, merged in).
    extra : sequence of path-like
        User registry files (same schema), merged in order after the base registry. Relative
        ``path:`` entries resolve against each file's directory.
    inline : dict, optional
        ``{name: entry}`` given directly (the workflow's ``datasets`` config key); relative
        ``path:`` entries resolve against ``inline_base`` (default: the current directory).
    inline_base : path-like, optional

    Returns
    -------
    Registry
        Mapping dataset name -> :class:`DatasetSpec`, base entries first, in file order.

    Raises
    ------
    RegistryError
        Missing or unreadable file, invalid YAML, content not matching the schema (file, line
        and key named), or a user entry reusing a registered name without ``override: true``.
    """
    if path is None:
        builtin = builtin_registry_file()
        source = str(builtin)
        entries = _builtin_entries(builtin)
    else:
        data, node, source, base_dir = _read_file(path)
        entries = _entries(data, node, source, base_dir)
    registry = Registry()
    registry.path = source
    registry.sources = [source]
    for name, spec, _, _ in entries:
        registry[name] = spec
    if path is None:
        for collection in builtin_collection_files():
            source = str(collection)
            _merge(registry, _builtin_entries(collection), source)
            registry.sources.append(source)
    for extra_path in extra or ():
        data, node, source, base_dir = _read_file(extra_path)
        _merge(registry, _entries(data, node, source, base_dir), source)
        registry.sources.append(source)
    if inline:
        source = "config key datasets"
        if not isinstance(inline, dict):
            raise RegistryError(
                "config key datasets: expected a mapping name -> entry, "
                f"got {type(inline).__name__}"
            )
        base = Path(inline_base) if inline_base is not None else Path.cwd()
        _merge(registry, _entries({"version": 1, "datasets": inline}, None, source, base), source)
        registry.sources.append(source)
    _check_duplicates(registry)
    return registry
