"""The input coding of the Buteneers et al. tasks: one-hot categorical columns as one column.

The registry prepares a nominal attribute as one 0/1 column per level (``sex=F``, ``sex=I``,
``sex=M``). Buteneers et al.'s Table 6 counts N = 108 features for Abalone, 100 hidden units
plus 8 inputs: the OP-ELM toolbox they used took the attribute as one numeric column.
:func:`ordinal_categoricals` gives each such group back as one column, the index of the level
in sorted order (numbers by value, then names).
"""

from __future__ import annotations

import numpy as np

CODINGS = ("ordinal", "onehot")


def _level_key(level: str):
    try:
        return (0, float(level), "")
    except ValueError:
        return (1, 0.0, level)


def onehot_groups(names) -> dict[str, list[int]]:
    """Groups of one-hot columns by attribute: ``{"sex": [0, 1, 2]}`` for ``sex=F, sex=I, ...``.

    Only names of the form ``attribute=level`` with at least two levels form a group.
    """
    groups: dict[str, list[int]] = {}
    for j, name in enumerate(names):
        attr, sep, level = str(name).partition("=")
        if sep and level:
            groups.setdefault(attr, []).append(j)
    return {a: cols for a, cols in groups.items() if len(cols) > 1}


def ordinal_categoricals(X, names):
    """Each one-hot group of ``X`` replaced by one column of level indices.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_columns)
    names : sequence of str, length n_columns
        Column names as prepared by the registry (``attribute=level`` for one-hot columns).

    Returns
    -------
    X : ndarray of shape (n_samples, n_columns_out)
        The group's column sits where its first one-hot column was.
    names : list of str

    Raises
    ------
    ValueError
        When a group's columns are not one-hot (a row without exactly one 1).
    """
    X = np.asarray(X, dtype=np.float64)
    names = [str(n) for n in names]
    if len(names) != X.shape[1]:
        raise ValueError(f"{len(names)} column names for {X.shape[1]} columns")
    groups = onehot_groups(names)
    first = {cols[0]: attr for attr, cols in groups.items()}
    grouped = {j for cols in groups.values() for j in cols}
    columns, out_names = [], []
    for j in range(X.shape[1]):
        if j in first:
            attr = first[j]
            cols = groups[attr]
            block = X[:, cols]
            if not (np.isin(block, (0.0, 1.0)).all() and (block.sum(axis=1) == 1).all()):
                raise ValueError(f"columns {attr}=… are not one-hot: a row has not exactly one 1")
            levels = [names[c].partition("=")[2] for c in cols]
            rank = np.empty(len(cols))
            for i, c in enumerate(sorted(range(len(cols)), key=lambda c: _level_key(levels[c]))):
                rank[c] = i
            columns.append(block @ rank)
            out_names.append(attr)
        elif j not in grouped:
            columns.append(X[:, j])
            out_names.append(names[j])
    return np.column_stack(columns), out_names
