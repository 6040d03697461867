"""The PDF font subsets kept per process (rlsbench.benchmark.pdf_fonts) give the PDF bytes
matplotlib gives without them, and the second file of a figure takes its subsets from them."""

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

SCRIPT = """
import hashlib, io, sys
import matplotlib
matplotlib.use("Agg")
matplotlib.rcParams["pdf.fonttype"] = 42
import matplotlib.pyplot as plt
if sys.argv[1] == "memo":
    from rlsbench.benchmark.pdf_fonts import memoize_font_subsets
    assert memoize_font_subsets()
fig, ax = plt.subplots()
ax.plot([1, 2, 3], [3, 1, 2], label="greedy RLS (λ by LOO), é")
ax.set_title("Bold title", fontweight="bold")
ax.legend()
for width in (7.0, 3.5, 7.0):
    fig.set_size_inches(width, width * 0.6)
    out = io.BytesIO()
    fig.savefig(out, format="pdf", metadata={"CreationDate": None})
    print(hashlib.sha256(out.getvalue()).hexdigest())
if sys.argv[1] == "memo":
    from matplotlib.backends import _backend_pdf_ps
    print("subsets", len(_backend_pdf_ps.get_glyphs_subset.cache))
"""


def _run(mode):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True, check=True
    )
    return done.stdout.split("\n")


def test_memoized_subsets_give_matplotlibs_bytes():
    plain, memo = _run("plain"), _run("memo")
    assert memo[:3] == plain[:3]  # three PDFs, byte for byte
    assert memo[0] == memo[2]
    # two fonts (regular, bold) at most per glyph set: the second and third saves reuse them
    assert memo[3].startswith("subsets ") and 1 <= int(memo[3].split()[1]) <= 4


def test_installing_twice_keeps_one_cache():
    from matplotlib.backends import _backend_pdf_ps

    from rlsbench.benchmark.pdf_fonts import memoize_font_subsets

    if not memoize_font_subsets():
        pytest.skip("this matplotlib has no SubsetResults: the subsets are not kept")
    first = _backend_pdf_ps.get_glyphs_subset
    assert memoize_font_subsets()
    assert _backend_pdf_ps.get_glyphs_subset is first
