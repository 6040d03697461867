"""A module imported on first use of one of its attributes.

The workflow reads every rule file, and with them the modules they name, before any job
starts; a module whose functions need a heavy library (``scipy.stats`` takes about a second)
holds it as ``stats = lazy_module("scipy.stats")`` so that reading the workflow does not pay
for it.
"""

from __future__ import annotations

import importlib


class lazy_module:  # noqa: N801  (stands where a module would)
    """``lazy_module("scipy.stats").norm`` imports ``scipy.stats`` there, not before."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str):
        return getattr(importlib.import_module(self._name), attribute)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"
