"""One font subset per glyph set and process: matplotlib's PDF backend subsets again at every save.

Our PDFs embed their fonts as TrueType (``pdf.fonttype: 42``, what publishers ask for), and
matplotlib has fontTools cut the font down to the glyphs a file uses at every save: it parses
DejaVu Sans's layout tables each time, about 0.12 s a font, a third of a figure's time. Every
figure is saved twice as PDF (two-column and one-column width) with the same text, so the
second subset repeats the first. :func:`memoize_font_subsets` keeps each subset's bytes for the
process, keyed by the font file and the glyphs, and hands them out again: the PDF files get
the same bytes as without it (a test saves a figure both ways).

It wraps matplotlib's private ``_backend_pdf_ps.get_glyphs_subset`` (matplotlib >= 3.10: a
context manager of ``SubsetResults``) and ``font_as_file``; with any other matplotlib it does
nothing, and figures are saved as matplotlib saves them.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from io import BytesIO


class _SubsetFont:
    """A subset font held as the bytes ``font_as_file`` wrote for it; opened by fontTools
    only where a caller asks for more than its bytes (the PostScript backend reads tables)."""

    def __init__(self, data: bytes, font_class):
        self.data = data
        self._font_class = font_class  # fontTools' TTFont, as matplotlib's subset gave it
        self._font = None

    def _opened(self):
        if self._font is None:
            self._font = self._font_class(BytesIO(self.data))
        return self._font

    def __getattr__(self, name):
        return getattr(self._opened(), name)

    def __getitem__(self, key):
        return self._opened()[key]

    def __contains__(self, key):
        return key in self._opened()

    def close(self):
        if self._font is not None:
            self._font.close()
            self._font = None


def memoize_font_subsets() -> bool:
    """Install the per-process subset cache (once); False where this matplotlib differs.

    Returns
    -------
    bool
        Whether the cache is in place.
    """
    try:
        from matplotlib.backends import _backend_pdf_ps as pdf_ps
    except ImportError:  # pragma: no cover - matplotlib always has it today
        return False
    original = getattr(pdf_ps, "get_glyphs_subset", None)
    if getattr(original, "rlsbench_memo", False):
        return True
    to_file = getattr(pdf_ps, "font_as_file", None)
    results = getattr(pdf_ps, "SubsetResults", None)
    if original is None or to_file is None or results is None or not hasattr(results, "_as_cm"):
        return False
    cache: dict = {}

    @contextmanager
    def get_glyphs_subset(fontfile, glyphs):
        glyphs = tuple(glyphs)
        key = (os.fspath(fontfile), getattr(fontfile, "face_index", 0), frozenset(glyphs))
        if key not in cache:
            with original(fontfile, glyphs) as result:
                cache[key] = (
                    to_file(result.font).getvalue(),
                    dict(result.glyph_index_map),
                    type(result.font),
                )
        data, index_map, font_class = cache[key]
        font = _SubsetFont(data, font_class)
        try:
            yield results(font, dict(index_map))
        finally:
            font.close()

    def font_as_file(font):
        if isinstance(font, _SubsetFont):
            return BytesIO(font.data)
        return to_file(font)

    get_glyphs_subset.rlsbench_memo = True
    get_glyphs_subset.cache = cache
    get_glyphs_subset.original = original
    pdf_ps.get_glyphs_subset = get_glyphs_subset
    pdf_ps.font_as_file = font_as_file
    return True
