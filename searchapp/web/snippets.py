"""A post's text shaped for pages, where the browser (static/js/render_math.js) finds its formulas by their
delimiters: paragraphs, snippets and parts of a long text that never cut a formula in half (half a `$…$` leaves a
stray `$` that pairs with the next, and the words after it are drawn as math).

`tex_spans` finds the formulas exactly as the page script does, so a cut between them is a cut the browser agrees
with: `$$…$$`, `$…$`, `\\[…\\]`, `\\(…\\)` and environments (`\\begin{align}…\\end{align}`), a delimiter inside
braces or after a backslash not closing its formula, and an escaped dollar (`\\$`) outside one being text.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from mathparse.extraction import extract_formulas

ENVIRONMENTS = ("equation", "align", "alignat", "gather", "multline", "flalign", "eqnarray", "displaymath", "split",
                "aligned", "alignedat", "gathered", "cases", "array", "matrix", "pmatrix", "bmatrix", "Bmatrix",
                "vmatrix", "Vmatrix", "smallmatrix", "CD")
"""Environments drawn as display math where they stand in a text, as MathJax (which Math StackExchange uses) draws
them; each also starred. The same list is in static/js/render_math.js."""
_OPENING = re.compile(r"\\\$|\$\$|\$|\\\[|\\\(|\\begin\{(" + "|".join(ENVIRONMENTS) + r")(\*?)\}")
_CLOSING = {"$$": "$$", "$": "$", "\\[": "\\]", "\\(": "\\)"}
_MATH_TOKEN = re.compile(r"\\.|[{}$]", re.S)
"""What a formula's closing is looked for among: a backslash and the character it escapes, a brace, a dollar."""


@dataclass(frozen=True)
class TexSpan:
    """A formula of a text as the page script draws it: `text[start:end]`, delimiters included."""

    start: int
    end: int
    display: bool


def tex_spans(text: str) -> list[TexSpan]:
    """The formulas of `text` as render_math.js finds them: from the left, the first opening delimiter, then the
    first closing one outside braces (a backslash escapes the character after it); an opening that is never closed
    leaves the rest of the text as words, as KaTeX's auto-render does."""
    spans, position = [], 0
    while match := _OPENING.search(text, position):
        opening = match.group(0)
        if opening == "\\$":
            position = match.end()
            continue
        closing = f"\\end{{{match.group(1)}{match.group(2)}}}" if match.group(1) else _CLOSING[opening]
        end = _end_of_math(text, closing, match.end())
        if end < 0:
            break
        spans.append(TexSpan(match.start(), end + len(closing), opening in ("$$", "\\[") or bool(match.group(1))))
        position = end + len(closing)
    return spans


def _end_of_math(text: str, closing: str, position: int) -> int:
    """Where `closing` first stands at brace depth 0 from `position`, or -1 (KaTeX auto-render's findEndOfMath).
    Only a backslash pair, a brace or a dollar can stand there (every closing starts with `\\` or `$`), so the walk
    steps from one to the next rather than through every character."""
    depth = 0
    for token in _MATH_TOKEN.finditer(text, position):
        if depth <= 0 and text.startswith(closing, token.start()):
            return token.start()
        if token.group(0) == "{":
            depth += 1
        elif token.group(0) == "}":
            depth -= 1
    return -1


ELLIPSIS = "…"
COMMENT = "Comment: "
"""How thread pages write a comment into a post's text (`corpora.mse_threads`)."""

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
PART_CHARS = 200_000
"""Characters of a post's text one page shows; the rest follows in parts (`?part=2`). A post page of 50 MB of text
took 154 s to load; real posts have 1–50 KB."""
WINDOW_CHARS = 8_000
"""Characters read past a snippet's edge for the formulas it may fall inside: more than the longest formula indexing
keeps (MAX_FORMULA_CHARS), so a snippet is cut as if the whole text were read, yet a post of megabytes costs what a
short one does (finding every formula of a 40 KB post for each of its snippets took seconds)."""


@dataclass(frozen=True)
class Part:
    text: str
    anchor: str = ""
    """The id of the formula this part is, which a result's link lands on; "" for words."""
    number: str = ""
    """The number its document prints for that formula (`2.14`), or empty."""


@dataclass(frozen=True)
class Paragraph:
    parts: tuple[Part, ...]
    comment: bool

    @property
    def text(self) -> str:
        return "".join(part.text for part in self.parts)


def paragraphs(text: str, anchors: dict[tuple[int, int], str] | None = None,
               numbers: dict[str, str] | None = None) -> list[Paragraph]:
    """The blank-line separated paragraphs of a post's text, comments marked so a page can set them apart; the
    formulas at `anchors` ((start, end) of their `$…$` in `text` → id) are parts of their own, with their number
    from `numbers` (id → number)."""
    placed, numbers = sorted((anchors or {}).items()), numbers or {}
    found, start = [], 0
    for gap in [*_BLANK_LINE.finditer(text), None]:
        end = gap.start() if gap else len(text)
        stripped = text[start:end].strip()
        if stripped:
            first = start + text[start:end].index(stripped)
            found.append(Paragraph(_parts(text, first, first + len(stripped), placed, numbers),
                                   stripped.startswith(COMMENT)))
        start = gap.end() if gap else end
    return found


def _parts(text: str, start: int, end: int, placed: list[tuple[tuple[int, int], str]],
           numbers: dict[str, str]) -> tuple[Part, ...]:
    """The parts of `text[start:end]`; `placed` is the anchors by place, of which only those starting in it are read
    (a post of 40,000 paragraphs and as many formulas read them all for each paragraph)."""
    parts, last = [], start
    index = bisect.bisect_left(placed, start, key=lambda item: item[0][0])
    while index < len(placed) and placed[index][0][0] < end:
        (first, after), anchor = placed[index]
        if after <= end:
            parts += [Part(text[last:first]), Part(text[first:after], anchor, numbers.get(anchor, ""))]
            last = after
        index += 1
    return tuple(part for part in [*parts, Part(text[last:end])] if part.text)


def snippet(text: str, limit: int, more: bool = False) -> str:
    """The start of `text` (whitespace collapsed) in at most `limit` characters with "…" when cut: between words,
    and before a formula the limit falls in. A formula the text opens with is kept whole, even past the limit.
    `more`: the text was already cut after its end, so "…" follows it anyway. Only its first WINDOW_CHARS past the
    limit are read."""
    read = limit + WINDOW_CHARS
    more = more or len(text) > read and not text[read:].isspace()
    text = " ".join(text[:read].split())
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


def _formula_around(text: str, position: int) -> TexSpan | None:
    """The formula of `text` that `position` falls strictly inside, if any: as the page draws it, or as indexing
    read it (a cut outside both is a cut between formulas for both)."""
    inside = [(start, end) for start, end in formulas_near(text, position, position) if start < position < end]
    if not inside:
        return None
    return TexSpan(min(start for start, _ in inside), max(end for _, end in inside), False)


def formulas_near(text: str, first: int, last: int) -> list[tuple[int, int]]:
    """(start, end) of the formulas of `text` that positions `first` to `last` may fall inside, by start: as indexing
    read them and as the page draws them, which can overlap. Only WINDOW_CHARS either side are read, from a paragraph's
    start where one is near: the page draws each paragraph by itself, so no formula runs across one, and a window
    starting there pairs the delimiters after it as the whole text does."""
    start = _paragraph_start(text, max(0, first - WINDOW_CHARS), first)
    window = text[start:min(len(text), last + WINDOW_CHARS)]
    return sorted([(found.start + start, found.end + start) for found in extract_formulas(window)]
                  + [(span.start + start, span.end + start) for span in tex_spans(window)])


def _paragraph_start(text: str, low: int, high: int) -> int:
    """The last paragraph start in `text[low:high]`, or `low` if none (or if `low` is the text's start)."""
    gaps = list(_BLANK_LINE.finditer(text, low, high)) if low > 0 else []
    return gaps[-1].end() if gaps else low


@dataclass(frozen=True)
class TextPart:
    """Part `number` of `parts` of a text: its characters `start` to `end` (of `length`)."""

    text: str
    number: int
    parts: int
    start: int
    end: int
    length: int

    def paragraphs(self, anchors: dict[tuple[int, int], str], numbers: dict[str, str] | None = None) -> list[Paragraph]:
        """The part's paragraphs, the formulas at `anchors` (their places in the whole text) parts of their own,
        numbered from `numbers` (id → number)."""
        return paragraphs(self.text, {(first - self.start, after - self.start): anchor
                                      for (first, after), anchor in anchors.items()
                                      if self.start <= first and after <= self.end}, numbers)


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
