"""The built-in registry is validated once per process and content (a job server's children
inherit it), and a load still gives a registry of its own."""

from __future__ import annotations

from rlsbench.benchmark.datasets import registry as registry_module
from rlsbench.benchmark.datasets.registry import load_registry


def test_the_builtin_files_are_validated_once_and_each_load_is_a_registry_of_its_own(
    monkeypatch,
):
    first = load_registry()
    calls = []
    real = registry_module._validate
    monkeypatch.setattr(
        registry_module, "_validate", lambda *a, **k: calls.append(a) or real(*a, **k)
    )
    second = load_registry()
    assert calls == []  # nothing validated again
    assert list(second) == list(first) and second is not first
    second.pop(next(iter(second)))
    assert len(load_registry()) == len(first)  # changing one load changes no other


def test_a_changed_builtin_file_is_validated_again(monkeypatch, tmp_path):
    path = tmp_path / "registry.yaml"
    source = registry_module.builtin_registry_file()
    path.write_text(source.read_text())
    monkeypatch.setattr(registry_module, "builtin_registry_file", lambda: path)
    monkeypatch.setattr(registry_module, "builtin_collection_files", lambda: [])
    calls = []
    real = registry_module._validate
    monkeypatch.setattr(
        registry_module, "_validate", lambda *a, **k: calls.append(a) or real(*a, **k)
    )
    n = len(load_registry())
    load_registry()
    assert len(calls) == 1
    path.write_text(path.read_text() + "\n# edited\n")
    assert len(load_registry()) == n and len(calls) == 2
