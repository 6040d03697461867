"""Sphinx configuration of the rlsbench documentation (``make docs``).

The stack scikit-learn uses: the pydata theme, numpydoc for the docstrings, autosummary for the
API reference. Three local extensions (``_ext/``) render what must not go stale: the
configuration reference from the JSON schemas (``schema_doc``), the committed results from
their files under ``results/paper/`` (``results_doc``) and the list of the papers' pages from
the installed parts (``parts_doc``).
"""

from __future__ import annotations

import sys
from importlib.metadata import version as _version
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "rlsbench"
author = "the rlsbench authors"
copyright = "the rlsbench authors, BSD-3-Clause"
release = _version("rlsbench")
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "schema_doc",
    "results_doc",
    "parts_doc",
]

# Pages are reStructuredText; MyST only reads the committed Markdown result tables.
source_suffix = {".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

# API reference: one generated page per module (docs/api/generated/, not committed).
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# MyST: the pipe tables of the result files, nothing else.
myst_enable_extensions = []
myst_heading_anchors = 0

html_theme = "pydata_sphinx_theme"
html_title = f"rlsbench {release}"
html_static_path = ["_static"]
html_css_files = ["rlsbench.css"]
html_show_sourcelink = False
# Pages without sub-pages need no section navigation: their tables get the width.
html_sidebars = {
    page: []
    for page in (
        "index",
        "getting_started",
        "library",
        "datasets",
        "fidelity",
        "cluster",
        "architecture",
        "configuration",
    )
}
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 8,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}


def _skip_metadata_requests(app, what, name, obj, skip, options):
    """scikit-learn generates ``set_*_request`` methods on every estimator class (metadata
    routing); they are scikit-learn's API, documented there, and their docstrings refer to its
    glossary."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_metadata_requests)
