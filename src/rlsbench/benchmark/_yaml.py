"""YAML's one silent loss: a key given twice in one mapping keeps its last value."""

from __future__ import annotations

import yaml


def repeated_key(node, path=()):
    """The first key given twice in one mapping of a composed YAML node tree.

    Parameters
    ----------
    node : yaml.Node or None
        What ``loader.get_single_node()`` returns.

    Returns
    -------
    tuple or None
        ``(path, first, second)``: the key's path from the root (mapping keys and list indices)
        and the two key nodes (their ``start_mark`` gives line and column); None when every
        key is unique.
    """
    if isinstance(node, yaml.MappingNode):
        seen = {}
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else None
            if name is not None and name in seen:
                return (*path, name), seen[name], key
            if name is not None:
                seen[name] = key
            found = repeated_key(value, (*path, name))
            if found:
                return found
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            found = repeated_key(item, (*path, index))
            if found:
                return found
    return None
