"""A post's text shaped for pages, where KaTeX's auto-render finds its formulas by their `$…$` delimiters:
paragraphs, snippets and parts of a long text that never cut a formula in half (half a `$…$` leaves a stray `$` that
pairs with the next).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from ml.extraction import FoundFormula, extract_formulas

ELLIPSIS = "…"
COMMENT = "Comment: "
"""How thread pages write a comment into a post's text (`ml.data.mse_threads`)."""

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
PART_CHARS = 200_000
"""Characters of a post's text one page shows; the rest follows in parts (`?part=2`). A post page of 50 MB of text
took 154 s to load; real posts have 1–50 KB."""


@dataclass(frozen=True)
class Part:
    text: str
    anchor: str = ""
    """The id of the formula this part is, which a result's link lands on; "" for words."""


@dataclass(frozen=True)
class Paragraph:
    parts: tuple[Part, ...]
    comment: bool

    @property
    def text(self) -> str:
        return "".join(part.text for part in self.parts)


def paragraphs(text: str, anchors: dict[tuple[int, int], str] | None = None) -> list[Paragraph]:
    """The blank-line separated paragraphs of a post's text, comments marked so a page can set them apart; the
    formulas at `anchors` ((start, end) of their `$…$` in `text` → id) are parts of their own."""
    anchors = anchors or {}
    found, start = [], 0
    for gap in [*_BLANK_LINE.finditer(text), None]:
        end = gap.start() if gap else len(text)
        stripped = text[start:end].strip()
        if stripped:
            first = start + text[start:end].index(stripped)
            found.append(Paragraph(_parts(text, first, first + len(stripped), anchors), stripped.startswith(COMMENT)))
        start = gap.end() if gap else end
    return found


def _parts(text: str, start: int, end: int, anchors: dict[tuple[int, int], str]) -> tuple[Part, ...]:
    parts, last = [], start
    for (first, after), anchor in sorted(anchors.items()):
        if start <= first and after <= end:
            parts += [Part(text[last:first]), Part(text[first:after], anchor)]
            last = after
    return tuple(part for part in [*parts, Part(text[last:end])] if part.text)


def snippet(text: str, limit: int, more: bool = False) -> str:
    """The start of `text` (whitespace collapsed) in at most `limit` characters with "…" when cut: between words,
    and before a formula the limit falls in. A formula the text opens with is kept whole, even past the limit.
    `more`: the text was already cut after its end, so "…" follows it anyway."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text + ELLIPSIS if more and text else text
    cut = limit - len(ELLIPSIS)
    space = text.rfind(" ", 0, cut + 1)
    cut = space if space > 0 else cut
    inside = _formula_around(text, cut)
    if inside is not None:
        cut = inside.start or inside.end
    return text if cut >= len(text) and not more else text[:cut].rstrip() + ELLIPSIS


def ending(text: str, limit: int, more: bool = False) -> str:
    """The end of `text` (whitespace collapsed) in at most `limit` characters with "…" in front when cut: between
    words, and after a formula the limit falls in. A formula the text closes with is kept whole, even past the limit.
    `more`: the text was already cut before its start, so "…" leads it anyway."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return ELLIPSIS + text if more and text else text
    cut = len(text) - (limit - len(ELLIPSIS))
    space = text.find(" ", cut - 1)
    cut = space + 1 if 0 <= space < len(text) - 1 else cut
    inside = _formula_around(text, cut)
    if inside is not None:
        cut = inside.end if inside.end < len(text) else inside.start
    return text if cut <= 0 and not more else ELLIPSIS + text[cut:].lstrip()


def _formula_around(text: str, position: int) -> FoundFormula | None:
    """The formula of `text` that `position` falls strictly inside, if any."""
    return next((formula for formula in extract_formulas(text) if formula.start < position < formula.end), None)


@dataclass(frozen=True)
class TextPart:
    """Part `number` of `parts` of a text: its characters `start` to `end` (of `length`)."""

    text: str
    number: int
    parts: int
    start: int
    end: int
    length: int

    def paragraphs(self, anchors: dict[tuple[int, int], str]) -> list[Paragraph]:
        """The part's paragraphs, the formulas at `anchors` (their places in the whole text) parts of their own."""
        return paragraphs(self.text, {(first - self.start, after - self.start): anchor
                                      for (first, after), anchor in anchors.items()
                                      if self.start <= first and after <= self.end})


def text_part(text: str, number: int, formulas: list[tuple[int, int]]) -> TextPart | None:
    """Part `number` (1-based) of `text` cut every PART_CHARS, or None past the last part. Each cut moves back to
    the end of a paragraph (at most a tenth of a part back), else between words, and never into one of `formulas` (the
    (start, end) of each `$…$` in the text, as indexing stored them: read from a cut, the text's dollars would pair
    wrongly)."""
    parts = max(1, -(-len(text) // PART_CHARS))
    if not 1 <= number <= parts:
        return None
    spans = sorted(formulas)
    start = _cut(text, number - 1, spans) if number > 1 else 0
    end = _cut(text, number, spans) if number < parts else len(text)
    return TextPart(text[start:end], number, parts, start, end, len(text))


def _cut(text: str, boundary: int, spans: list[tuple[int, int]]) -> int:
    """Where part `boundary` ends and the next begins: found near `boundary * PART_CHARS` alone, so every part finds
    the same cuts without reading the parts before it."""
    limit, slack = boundary * PART_CHARS, PART_CHARS // 10
    breaks = list(_BLANK_LINE.finditer(text, limit - slack, limit))
    if breaks:
        return breaks[-1].end()
    space = text.rfind(" ", limit - slack, limit)
    cut = space + 1 if space > 0 else limit
    before = bisect.bisect_left(spans, (cut, cut))  # spans[before - 1] is the last formula starting before the cut
    start, end = spans[before - 1] if before else (0, 0)
    return start if start < cut < end and start > limit - PART_CHARS else cut
