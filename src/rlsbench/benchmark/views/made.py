"""How a table was made, in one HTML line: the run, its config files, the part's folds,
splits, repeats and seeds, and the part's config section.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence

import yaml

#: Config keys that say how a part's numbers were drawn: folds, splits, repeats and seeds.
_PROTOCOL_KEYS = re.compile(r"seed|fold|split|repeat", re.I)


def protocol_settings(section: Mapping, prefix: str = "") -> list[tuple[str, object]]:
    """``(dotted key, value)`` of every setting of a config section whose name mentions
    seeds, folds, splits or repeats, at any depth, in the section's order."""
    found = []
    items = section.items() if isinstance(section, Mapping) else enumerate(section)
    for key, value in items:
        name = f"{prefix}.{key}" if isinstance(key, str) else f"{prefix}[{key}]"
        if isinstance(value, Mapping) or (
            isinstance(value, list) and value and isinstance(value[0], (Mapping, list))
        ):
            found += protocol_settings(value, name)
        elif isinstance(key, str) and _PROTOCOL_KEYS.search(key):
            found.append((name.lstrip("."), value))
    return found


def made_line(*, part: str, run: str, configfiles: Sequence[str], section: Mapping, source: str):
    """One HTML line: the run, its config file(s), the part's folds, splits, repeats and
    seeds, and the file the view shows; the whole config section follows, folded."""
    settings = "; ".join(
        f"<code>{k}</code> = {html.escape(str(v))}" for k, v in protocol_settings(section, part)
    )
    config = ", ".join(f"<code>{html.escape(str(c))}</code>" for c in configfiles) or "–"
    text = (
        f"Run <code>{html.escape(run)}</code>, config {config}, part <code>{part}</code>. "
        + (f"Folds, splits, repeats and seeds: {settings}. " if settings else "")
        + f"Source: <code>{html.escape(source)}</code>."
    )
    if section:
        dump = yaml.safe_dump({part: dict(section)}, sort_keys=False, allow_unicode=True)
        text += (
            f"<details><summary>the part's config section</summary><pre>{html.escape(dump)}"
            "</pre></details>"
        )
    return text
