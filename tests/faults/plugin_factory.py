"""Method plugins made on the fly for the plugin fault cases: a module and the ``.dist-info``
of a distribution that declares it in the entry-point group ``rlsbench.methods``, on a fresh
``sys.path`` entry, as ``pip install`` would leave them (see
tests/benchmark/methods/test_methods_plugins.py for plugins built as wheels).

A test module makes its fixture of :func:`plugins` (``yield from plugins(tmp_path,
monkeypatch)``); the fixture's ``install(body)`` installs a method named ``bad``
whose ``run`` computes the RLS path of the first k features (:func:`ridge_path`) and then runs
``body`` (Python lines that may replace ``path``, or change ``X`` and ``y``), and returns the
entry point's value for the messages to name.
"""

from __future__ import annotations

import importlib
import sys
import textwrap

from rlsbench.benchmark import methods

NAME = "bad"
DISTRIBUTION = "fake-plugin-numbers"

_SOURCE = """
import dataclasses

import numpy as np

from rlsbench.benchmark.methods import Method
from rlsbench.numerics.selection import ridge_path


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    path = ridge_path(X, y, np.arange(k), alpha, bias=bias, criterion=criterion)
{body}
    return path


method = Method(
    name="{name}",
    run=run,
    description="a plugin of the fault cases",
    flops=lambda m, n, k, t: 1.0,
)
"""


def plugins(tmp_path, monkeypatch):
    """Generator of a fixture: yields ``install(body) -> "module:method"`` (the method
    ``bad``), then removes what it installed from the caches and ``sys.modules``."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    made = []

    def install(body: str) -> str:
        module = f"fake_plugin_numbers_{len(made)}"
        indented = textwrap.indent(textwrap.dedent(body).strip(), "    ")
        (site / f"{module}.py").write_text(_SOURCE.format(body=indented, name=NAME))
        for old in site.glob("*.dist-info"):  # one distribution declares `bad` at a time
            for f in old.iterdir():
                f.unlink()
            old.rmdir()
        info = site / f"{DISTRIBUTION.replace('-', '_')}-{len(made)}.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {DISTRIBUTION}\nVersion: {len(made)}.0\n"
        )
        (info / "entry_points.txt").write_text(f"[{methods.GROUP}]\n{NAME} = {module}:method\n")
        made.append(module)
        importlib.invalidate_caches()
        methods._entry_points.cache_clear()
        methods._load.cache_clear()
        return f"{module}:method"

    yield install
    methods._entry_points.cache_clear()
    methods._load.cache_clear()
    for module in made:
        sys.modules.pop(module, None)
