"""Find the formulas in a post's text: `$…$`, `$$…$$`, `\\(…\\)`, `\\[…\\]` and MSE `math-container` spans.

Positions are character offsets into the original text, so a snippet can show a formula in context.
An escaped dollar (`\\$`) is text, not a delimiter.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

_MATH_CONTAINER = re.compile(r'<span class="math-container"[^>]*>(.*?)</span>', re.S)
_DELIMITED = re.compile(
    r"(?<!\\)\$\$(?P<dd>.+?)(?<!\\)\$\$"
    r"|(?<!\\)\$(?P<d>[^$]+?)(?<!\\)\$"
    r"|\\\[(?P<br>.+?)\\\]"
    r"|\\\((?P<pa>.+?)\\\)",
    re.S,
)
MAX_FORMULA_CHARS = 5000


@dataclass(frozen=True)
class FoundFormula:
    latex: str
    start: int
    end: int
    display: bool


def extract_formulas(text: str) -> list[FoundFormula]:
    """Formulas in order of appearance; math-container spans take precedence over the delimiters inside."""
    found, covered = [], []
    for match in _MATH_CONTAINER.finditer(text):
        inner = html.unescape(match.group(1)).strip()
        display = inner.startswith("$$")
        latex = inner.strip("$").strip()
        if latex:
            found.append(FoundFormula(latex, match.start(), match.end(), display))
        covered.append((match.start(), match.end()))
    for match in _DELIMITED.finditer(text):
        if any(start <= match.start() < end for start, end in covered):
            continue
        kind = match.lastgroup
        if kind is None:  # every alternative of _DELIMITED is a named group
            raise AssertionError(f"delimited formula match without a named group: {match.group(0)!r}")
        latex = match.group(kind).strip()
        if latex and len(latex) <= MAX_FORMULA_CHARS:
            found.append(FoundFormula(latex, match.start(), match.end(), kind in ("dd", "br")))
    return sorted(found, key=lambda formula: formula.start)

