"""Plain text as LaTeX text that plain pdflatex typesets (special characters, the tables'
symbols and Greek letters).
"""

from __future__ import annotations

import re
import unicodedata

_LATEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_\allowbreak{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "/": r"/\allowbreak{}",
}
#: Characters beyond ASCII in the parts' tables, in a form plain pdflatex typesets.
_LATEX_UNICODE = {
    "±": r"$\pm$",
    "×": r"$\times$",
    "−": r"$-$",
    "–": "--",
    "—": "---",
    "≤": r"$\le$",
    "≥": r"$\ge$",
    "≈": r"$\approx$",
    "≠": r"$\ne$",
    "→": r"$\to$",
    "…": r"\ldots{}",
    "·": r"$\cdot$",
    "°": r"$^\circ$",
    "²": r"$^2$",
    "³": r"$^3$",
    "ᵀ": r"$^{\mathrm{T}}$",
    "√": r"$\surd$",
    "∞": r"$\infty$",
    "‖": r"$\|$",
    "’": "'",
    "‘": "`",
    "“": "``",
    "”": "''",
    "\u00a0": "~",
    "α": r"$\alpha$",
    "β": r"$\beta$",
    "γ": r"$\gamma$",
    "δ": r"$\delta$",
    "Δ": r"$\Delta$",
    "ε": r"$\varepsilon$",
    "η": r"$\eta$",
    "θ": r"$\theta$",
    "κ": r"$\kappa$",
    "λ": r"$\lambda$",
    "μ": r"$\mu$",
    "π": r"$\pi$",
    "ρ": r"$\rho$",
    "σ": r"$\sigma$",
    "Σ": r"$\Sigma$",
    "τ": r"$\tau$",
    "ω": r"$\omega$",
}


def latex_escape(text: str) -> str:
    """Plain text as LaTeX text for pdflatex: special characters escaped, the symbols and
    Greek letters of the tables as math, line breaks allowed after ``_`` and ``/``; a letter
    with a combining macron (R̄) as ``$\\bar{R}$``."""
    out = []
    # "0.91 ± 0.02" stays on one line in a wrapped column
    chars = unicodedata.normalize("NFC", re.sub(r" ?± ?", "\u00a0±\u00a0", text))
    for k, ch in enumerate(chars):
        if ch == "\u0304":
            continue  # drawn with the letter before it
        if k + 1 < len(chars) and chars[k + 1] == "\u0304":
            out.append(r"$\bar{" + ch + "}$")
        elif ch in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[ch])
        elif ch in _LATEX_UNICODE:
            out.append(_LATEX_UNICODE[ch])
        elif ord(ch) < 128 or unicodedata.category(ch).startswith("L") and ord(ch) < 0x250:
            out.append(ch)  # ASCII and Latin letters (pdflatex's utf8 input handles these)
        else:
            out.append(f"[U+{ord(ch):04X}]")
    return "".join(out)
