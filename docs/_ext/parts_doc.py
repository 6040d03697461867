"""Sphinx extension: the list of the papers' pages, from the installed parts.

``.. parts-index::``
    One row per installed part that has a page (``Part.docs``, relative to ``docs/``): its
    name, linked to its page, and its title as printed (:class:`rlsbench.benchmark.parts.Part`,
    entry-point group ``rlsbench.parts``), in the parts' listing order; then the toctree of
    those pages. A part added by a plugin with a page in this documentation is listed without
    an edit here; a page that no part names is left out of every toctree, which ``-W`` makes an
    error.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective


class PartsIndex(SphinxDirective):
    has_content = False

    def run(self):
        from rlsbench.benchmark.parts import installed_parts

        source = Path(self.env.srcdir)
        pages = [
            (part, "/" + str(PurePosixPath(part.docs).with_suffix("")))
            for part in installed_parts()
            if part.docs and (source / part.docs).is_file()
        ]
        lines = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 20 80",
            "",
            "   * - Part",
            "     - Paper, and what the part reproduces of it",
        ]
        for part, page in pages:
            lines += [f"   * - :doc:`{part.name} <{page}>`", f"     - {part.title}"]
        lines += ["", ".. toctree::", "   :maxdepth: 1", ""]
        lines += [f"   {page}" for _, page in pages]
        holder = nodes.container()
        self.state.nested_parse(StringList(lines, "parts-index"), self.content_offset, holder)
        return holder.children


def setup(app):
    app.add_directive("parts-index", PartsIndex)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
