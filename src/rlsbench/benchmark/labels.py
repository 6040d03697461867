"""The names a reader sees: a method's label (``tags["label"]`` of its plugin,
:class:`rlsbench.benchmark.methods.Method`) where figures and tables show methods.

Tables of results keep the names configs use (the ``method`` column is a key); the views of
them that a reader sees (figures, the LaTeX table a paper prints, the critical-difference
diagrams) show the label, which a plugin declares as its "short name for legends". A name
that is no installed method's (a study's own variant, a quoted result), a plugin without a
label, or one that does not load keeps its name; so do two methods whose labels would be the
same, so that no two methods shown read alike.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable


@functools.cache
def method_label(name: str) -> str:
    """``tags["label"]`` of the method plugin ``name``, else ``name``.

    A name that is no installed method, or whose plugin does not load, keeps its name (the
    run that produced the rows has already said what went wrong with it).
    """
    from rlsbench.benchmark.methods import get_method

    try:
        label = get_method(name).tags.get("label")
    except Exception:  # noqa: BLE001  (a label is cosmetic; the name is always correct)
        return name
    return label.strip() if isinstance(label, str) and label.strip() else name


def method_labels(names: Iterable[str]) -> dict[str, str]:
    """``{name: label}`` of the methods shown together (:func:`method_label`): a label that
    two of them share is replaced by their names."""
    names = list(dict.fromkeys(names))
    labels = {name: method_label(name) for name in names}
    counts: dict[str, int] = {}
    for name, label in labels.items():
        if label != name:
            counts[label] = counts.get(label, 0) + 1
    return {name: label if counts.get(label, 0) <= 1 else name for name, label in labels.items()}
