"""A post's text shaped for pages, where KaTeX's auto-render finds its formulas by their `$…$` delimiters:
paragraphs, and snippets that never cut a formula in half (half a `$…$` leaves a stray `$` that pairs with the next).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ml.extraction import extract_formulas

ELLIPSIS = "…"
COMMENT = "Comment: "
"""How thread pages write a comment into a post's text (`ml.data.mse_threads`)."""

_BLANK_LINE = re.compile(r"\n[ \t]*\n")


@dataclass(frozen=True)
class Paragraph:
    text: str
    comment: bool


def paragraphs(text: str) -> list[Paragraph]:
    """The blank-line separated paragraphs of a post's text, comments marked so a page can set them apart."""
    parts = (part.strip() for part in _BLANK_LINE.split(text))
    return [Paragraph(part, part.startswith(COMMENT)) for part in parts if part]


def snippet(text: str, limit: int) -> str:
    """The start of `text` (whitespace collapsed) in at most `limit` characters with "…" when cut: between words,
    and before a formula the limit falls in. A formula the text opens with is kept whole, even past the limit."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = limit - len(ELLIPSIS)
    space = text.rfind(" ", 0, cut + 1)
    cut = space if space > 0 else cut
    inside = next((formula for formula in extract_formulas(text) if formula.start < cut < formula.end), None)
    if inside is not None:
        cut = inside.start or inside.end
    return text if cut >= len(text) else text[:cut].rstrip() + ELLIPSIS
