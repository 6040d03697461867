"""What a composed YAML node tree hides from ``yaml.safe_load``: a key given twice in one
mapping (the last value silently wins), aliases that expand without bound (an alias bomb: nine
levels of nine aliases are 9**9 values), and the marker that makes Snakemake run the file
through YTE templating, which evaluates Python while the file is read.

Every walk here visits each node once (an alias is the anchored node itself, shared), so a
tree with aliases costs its size in the file, not its expanded size.
"""

from __future__ import annotations

import yaml

#: The top-level key with which Snakemake (``snakemake.common.configfile``) renders a config
#: file through YTE, whose ``?expression`` keys and values are Python run by ``eval``.
YTE_MARKER = "__use_yte__"

#: The most values a config may expand to through its aliases: the largest config of the
#: repository has a few hundred, and a bomb of a few kilobytes has hundreds of millions.
MAX_EXPANDED = 100_000


def _children(node):
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield key
            yield value
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value


def repeated_key(node, path=(), _seen=None):
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
        key is unique. A node reached again through an alias is not walked again.
    """
    seen = set() if _seen is None else _seen
    if id(node) in seen:
        return None
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        names = {}
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else None
            if name is not None and name in names:
                return (*path, name), names[name], key
            if name is not None:
                names[name] = key
            found = repeated_key(value, (*path, name), seen)
            if found:
                return found
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            found = repeated_key(item, (*path, index), seen)
            if found:
                return found
    return None


def yte_marker(node, _seen=None):
    """The first scalar (key or value) of the tree that holds :data:`YTE_MARKER`, or None."""
    seen = set() if _seen is None else _seen
    if node is None or id(node) in seen:
        return None
    seen.add(id(node))
    if isinstance(node, yaml.ScalarNode):
        return node if YTE_MARKER in str(node.value) else None
    for child in _children(node):
        found = yte_marker(child, seen)
        if found is not None:
            return found
    return None


def _expanded_sizes(node, sizes):
    """Fill ``sizes`` (id -> values the node expands to, itself included), each node once."""
    if id(node) in sizes:
        return sizes[id(node)]
    sizes[id(node)] = 1  # a node that contains itself (a recursive alias) counts once
    total = 1 + sum(_expanded_sizes(child, sizes) for child in _children(node))
    sizes[id(node)] = total
    return total


def oversized(node, limit: int = MAX_EXPANDED):
    """Where the tree's aliases expand to more than ``limit`` values, or None.

    Returns
    -------
    tuple or None
        ``(node, size)``: the innermost node that expands to more than ``limit`` values (its
        ``start_mark`` is the line of the anchored list or mapping the aliases repeat) and
        that size; None when the whole tree expands to at most ``limit``.
    """
    if node is None:
        return None
    sizes = {}
    if _expanded_sizes(node, sizes) <= limit:
        return None
    walked = {id(node)}
    while True:
        bigger = [
            child
            for child in _children(node)
            if sizes[id(child)] > limit and id(child) not in walked
        ]
        if not bigger:
            return node, sizes[id(node)]
        node = bigger[0]
        walked.add(id(node))
