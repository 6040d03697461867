"""Reading a part's config section, one way for every part.

The workflow's config has one section per part (``main``, ``scaling``, ``buteneers``,
``ramona``, ``sunyao``). Each rule file reads its section with :func:`part_section`:

1. the section is validated against the part's JSON schema
   (``workflow/schemas/<part>.schema.yaml``), which fills in the schema's defaults;
2. when the section says ``enabled``, the part's own ``check(section, datasets)`` (in
   ``rlsbench.studies.<part>.config``) looks at what a schema cannot express: names that must
   exist in the dataset registry or among the installed methods, sizes that must fit a
   dataset. It raises :class:`ConfigError` naming the config key.

Both happen when the workflow is parsed, so a bad config stops before any job runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping


class ConfigError(ValueError):
    """A config value that is wrong; the message starts with ``config key <key>:``."""


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
        where = (
            ".".join([key, *map(str, error.absolute_path)])
            if key
            else ".".join(map(str, error.absolute_path))
        )
        raise ConfigError(
            f"config key {where or '(top level)'}: {error.message} ({schema})"
        ) from None
    return data


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
    validate_section(section, schema, part)
    if not section.get("enabled", False):
        return {}
    if check is not None:
        check(section, datasets or {})
    return section
