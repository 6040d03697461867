"""The test suite; its folders mirror the package's floors (numerics, benchmark, studies).

Top level: what spans the floors (architecture, install, docs, dependencies, the CLI, the report,
determinism, lint). Every folder is a package, so a test module imports another's helpers by its
full name (``from tests.benchmark.test_latex import ARTICLE``), whatever file pytest is given.
"""
