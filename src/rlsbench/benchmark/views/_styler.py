"""What the LaTeX and the HTML writers share about pandas' ``Styler``."""

from __future__ import annotations


def _literal(label: str) -> str:
    # Styler.relabel_index reads a label as a str.format template
    return label.replace("{", "{{").replace("}", "}}")
