"""Sphinx extension: the configuration reference, rendered from the JSON schemas at build time.

``.. config-schema:: src/rlsbench/studies/main/workflow/schema.yaml`` (a path relative to the
repository root; option ``:prefix: main`` puts the section's name in front of every key) renders the
schema's description and one table row per key: its dotted path (``download.timeout``; a
mapping's free keys as ``<name>``, an array's items as ``[]``), type and constraints, default
and description. Conditions (``if``/``then``/``else``) are listed under the table.

The rows come from :func:`schema_rows`, which walks every keyword a schema here uses and refuses
any other (so a new construct fails the build instead of vanishing from the page), and the
directive checks that every key the schema declares anywhere reached the table
(:func:`declared_keys`), so the page cannot go stale or incomplete.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

#: JSON-schema keywords the walker understands; any other one is an error.
KNOWN = {
    "$schema",
    "$defs",
    "definitions",
    "$ref",
    "title",
    "description",
    "type",
    "properties",
    "additionalProperties",
    "unevaluatedProperties",
    "patternProperties",
    "propertyNames",
    "required",
    "items",
    "enum",
    "const",
    "default",
    "oneOf",
    "anyOf",
    "allOf",
    "if",
    "then",
    "else",
    "not",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "minProperties",
}


class SchemaError(ValueError):
    """A schema uses a construct this extension does not render."""


@dataclass
class Row:
    """One key of a schema, as the reference table shows it."""

    path: str
    type: str
    default: str = ""
    required: bool = False
    description: str = ""


@dataclass
class Rendered:
    rows: list[Row] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _resolve(node: dict, root: dict) -> dict:
    """``node`` with its ``$ref`` (``#/$defs/<name>`` or any local JSON pointer) merged in."""
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        if not ref.startswith("#/"):
            raise SchemaError(f"only local $ref are rendered, not {ref!r}")
        target = root
        for part in ref[2:].split("/"):
            target = target[part]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _check_keywords(node: dict, where: str) -> None:
    unknown = set(node) - KNOWN
    if unknown:
        raise SchemaError(f"{where or '<root>'}: unsupported schema keyword(s) {sorted(unknown)}")


def describe_type(node: dict, root: dict) -> str:
    """Type and constraints of one (sub)schema in words: ``integer ≥ 1``, ``one of: a, b``."""
    node = _resolve(node, root)
    _check_keywords(node, "")
    parts = []
    if "const" in node:
        return f"= {_json(node['const'])}"
    if "enum" in node:
        parts.append("one of: " + ", ".join(_json(v) for v in node["enum"]))
    alternatives = node.get("oneOf") or node.get("anyOf")
    if alternatives and "type" not in node:
        parts.append(" or ".join(describe_type(alt, root) for alt in alternatives))
    if "allOf" in node and "type" not in node and not alternatives:
        known = {describe_type(part, root) for part in node["allOf"]} - {"any"}
        parts.extend(sorted(known))
    if "type" in node:
        types = node["type"] if isinstance(node["type"], list) else [node["type"]]
        text = " or ".join(types)
        if "array" in types and isinstance(node.get("items"), dict):
            text = text.replace("array", f"array of ({describe_type(node['items'], root)})")
        parts.insert(0, text)
    for key, symbol in (
        ("minimum", "≥"),
        ("exclusiveMinimum", ">"),
        ("maximum", "≤"),
        ("exclusiveMaximum", "<"),
    ):
        if key in node:
            parts.append(f"{symbol} {_json(node[key])}")
    for key, text in (
        ("minItems", "at least {} item(s)"),
        ("maxItems", "at most {} item(s)"),
        ("minLength", "at least {} character(s)"),
        ("maxLength", "at most {} character(s)"),
        ("minProperties", "at least {} key(s)"),
    ):
        if key in node:
            parts.append(text.format(node[key]))
    if node.get("uniqueItems"):
        parts.append("unique items")
    if "pattern" in node:
        parts.append(f"matching {node['pattern']}")
    return ", ".join(parts) if parts else "any"


def _condition_text(node: dict, root: dict) -> str:
    """An ``if`` schema in words: ``format is one of "sklearn", "synthetic"``."""
    node = _resolve(node, root)
    words = []
    for name, sub in node.get("properties", {}).items():
        sub = _resolve(sub, root)
        if "const" in sub:
            words.append(f"{name} = {_json(sub['const'])}")
        elif "enum" in sub:
            words.append(f"{name} is one of " + ", ".join(_json(v) for v in sub["enum"]))
        else:
            words.append(f"{name}: {describe_type(sub, root)}")
    absent_from_words = [r for r in node.get("required", ()) if r not in node.get("properties", {})]
    if absent_from_words:
        words.append("present: " + ", ".join(absent_from_words))
    return " and ".join(words) or "always"


def _consequence_text(node: dict, root: dict, prefix: str = "") -> str:
    """A ``then`` / ``else`` schema in words (required keys, forbidden keys, nested ones)."""
    node = _resolve(node, root)
    words = []
    if node.get("required"):
        words.append("required: " + ", ".join(prefix + r for r in node["required"]))
    if "not" in node and node["not"].get("required"):
        words.append("not allowed: " + ", ".join(prefix + r for r in node["not"]["required"]))
    for name, sub in node.get("properties", {}).items():
        inner = _consequence_text(sub, root, f"{prefix}{name}.")
        if inner:
            words.append(inner)
    return "; ".join(words)


def _walk(node: dict, root: dict, path: str, out: Rendered, required: bool, seen: tuple) -> None:
    """A row for ``node`` (the key at ``path``), then rows for everything nested in it."""
    resolved = _resolve(node, root)
    _check_keywords(resolved, path)
    if any(row.path == path for row in out.rows):  # an alternative tightening a known key
        return
    out.rows.append(
        Row(
            path=path,
            type=describe_type(resolved, root),
            default=_json(resolved["default"]) if "default" in resolved else "",
            required=required,
            description=" ".join(str(resolved.get("description", "")).split()),
        )
    )
    _children(node, root, path, out, seen)


def _children(node: dict, root: dict, path: str, out: Rendered, seen: tuple) -> None:
    """Rows for the keys nested in ``node`` (none for ``node`` itself): its properties, its
    free keys (``<name>``, ``<pattern>``), its array items (``[]``), the object forms among
    its ``oneOf`` / ``anyOf`` / ``allOf`` parts, and its conditions."""
    ref = node.get("$ref")
    if ref is not None and ref in seen:  # a recursive definition is rendered once
        return
    seen = (*seen, ref) if ref else seen
    node = _resolve(node, root)
    _check_keywords(node, path)
    dot = f"{path}." if path else ""
    required_here = set(node.get("required", ()))
    for name, sub in node.get("properties", {}).items():
        _walk(sub, root, f"{dot}{name}", out, name in required_here, seen)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        names = _resolve(node.get("propertyNames", {}), root)
        key = "<" + "|".join(names["enum"]) + ">" if "enum" in names else "<name>"
        _walk(extra, root, f"{dot}{key}", out, False, seen)
    for pattern, sub in node.get("patternProperties", {}).items():
        _walk(sub, root, f"{dot}<{pattern.strip('^$')}>", out, False, seen)
    if isinstance(node.get("items"), dict):
        _children(node["items"], root, f"{path}[]", out, seen)
    where = f"{path}: " if path else ""
    undeclared = [r for r in node.get("required", ()) if r not in node.get("properties", {})]
    if undeclared:
        out.conditions.append(f"{where}required: " + ", ".join(undeclared))
    for keyword, words in (("oneOf", "exactly one of"), ("anyOf", "at least one of")):
        alternatives = [_resolve(alt, root) for alt in node.get(keyword, ())]
        # alternatives that only say which keys are present (no type of their own)
        presence = [alt for alt in alternatives if "type" not in alt and alt.get("required")]
        if presence and len(presence) == len(alternatives):
            out.conditions.append(
                f"{where}{words}: " + " | ".join(", ".join(a["required"]) for a in presence)
            )
            continue
        for alternative in alternatives:
            _children(alternative, root, path, out, seen)
    for part in node.get("allOf", ()):
        _children(part, root, path, out, seen)
    if "if" in node:
        text = f"{where}if {_condition_text(node['if'], root)}"
        if "then" in node:
            text += f" → {_consequence_text(node['then'], root) or 'no further rule'}"
        if "else" in node:
            text += f"; otherwise → {_consequence_text(node['else'], root) or 'no further rule'}"
        out.conditions.append(text)


def schema_rows(schema: dict) -> Rendered:
    """Every key of ``schema`` as :class:`Row` objects, and its conditions in words."""
    out = Rendered()
    _children(schema, schema, "", out, ())
    return out


def declared_keys(schema) -> set[str]:
    """Every name under any ``properties`` anywhere in ``schema`` (``$defs`` included)."""
    found = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, dict):
                found |= set(value)
            found |= declared_keys(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= declared_keys(value)
    return found


def load_schema(path: Path) -> dict:
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def _table(rows: list[Row]) -> nodes.table:
    headers = ("key", "type and constraints", "default", "description")
    table = nodes.table(classes=["config-schema"])
    group = nodes.tgroup(cols=len(headers))
    table += group
    for width in (25, 25, 12, 38):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    head += _row([nodes.paragraph(text=h) for h in headers])
    body = nodes.tbody()
    group += body
    for row in rows:
        key = nodes.paragraph()
        key += nodes.literal(text=row.path)
        if row.required:
            key += nodes.Text(" (required)")
        default = nodes.paragraph()
        if row.default:
            default += nodes.literal(text=row.default)
        body += _row(
            [key, nodes.paragraph(text=row.type), default, nodes.paragraph(text=row.description)]
        )
    return table


def _row(cells) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += cell
        row += entry
    return row


class ConfigSchema(SphinxDirective):
    """``.. config-schema:: <path from the repository root>`` (option ``:prefix:``)."""

    required_arguments = 1
    option_spec = {"prefix": directives.unchanged}

    def run(self):
        root = Path(self.config.rlsbench_repo_root)
        path = root / self.arguments[0]
        if not path.is_file():
            raise self.error(f"config-schema: no schema file {path}")
        self.env.note_dependency(str(path))
        schema = load_schema(path)
        try:
            rendered = schema_rows(schema)
        except SchemaError as exc:
            raise self.error(f"config-schema: {self.arguments[0]}: {exc}") from exc
        shown = {part.strip("[]") for row in rendered.rows for part in row.path.split(".")}
        missing = declared_keys(schema) - shown
        if missing:
            raise self.error(f"config-schema: {self.arguments[0]}: keys not rendered {missing}")
        prefix = self.options.get("prefix")
        if prefix:
            for row in rendered.rows:
                row.path = f"{prefix}.{row.path}"
        result = []
        if schema.get("description"):
            result.append(nodes.paragraph(text=" ".join(schema["description"].split())))
        source = nodes.paragraph()
        source += nodes.Text("Schema: ")
        source += nodes.literal(text=self.arguments[0])
        result.append(source)
        result.append(_table(rendered.rows))
        if rendered.conditions:
            result.append(nodes.paragraph(text="Conditions:"))
            items = nodes.bullet_list()
            for text in rendered.conditions:
                item = nodes.list_item()
                item += nodes.paragraph(text=(f"{prefix}.{text}" if prefix else text))
                items += item
            result.append(items)
        return result


def setup(app):
    app.add_config_value("rlsbench_repo_root", str(Path(__file__).resolve().parents[2]), "env")
    app.add_directive("config-schema", ConfigSchema)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
