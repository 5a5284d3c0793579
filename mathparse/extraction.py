"""Find the formulas in a post's text: `$…$`, `$$…$$`, `\\(…\\)`, `\\[…\\]` and MSE `math-container` spans.

Positions are character offsets into the original text, so a snippet can show a formula in context.
An escaped dollar (`\\$`) is text, not a delimiter.

The text is read in one left-to-right pass, in time linear in its length. A regular expression with a lazy body
(`\\((.+?)\\)`) searches the rest of the text for a closer from every opener that has none, so 20,000 unclosed `\\(`
in a 40 KB post took 12 s. Here each kind of closer remembers where it was last searched for and what was found, so
no stretch of text is searched twice for one closer, and an opener found without one is not looked for again.
"""
from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

_CONTAINER_OPEN = re.compile(r'<span class="math-container"')
_TAG_END = re.compile(">")
_CONTAINER_CLOSE = re.compile("</span>")
_BRACKETS = ("\\[", "\\(")
_DOLLARS = r"(?<!\\)\$\$|(?<!\\)\$(?P<inline>[^$]+)(?<!\\)\$"
"""An unescaped `$$`, whose closer is searched for, or a whole `$…$`: it holds no `$`, so the first one after its
opener closes it (or nothing, if escaped), and the regular expression finds it in one pass over the text."""
_OPENERS = {unclosed: re.compile("|".join([_DOLLARS, *(re.escape(b) for b in _BRACKETS if b not in unclosed)]))
            for unclosed in (frozenset(), frozenset({"\\["}), frozenset({"\\("}), frozenset(_BRACKETS))}
"""Where a delimited formula may start, by the brackets with no closer left in the text: those are no longer looked
for, so 20,000 unclosed `\\(` cost one search."""
_CLOSERS = {"$$": re.compile(r"(?<!\\)\$\$"), "\\[": re.compile(r"\\\]"), "\\(": re.compile(r"\\\)")}
_DISPLAY = ("$$", "\\[")
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
    for start, end, inner in _math_containers(text):
        inner = html.unescape(inner).strip()
        latex = inner.strip("$").strip()
        if latex:
            found.append(FoundFormula(latex, start, end, inner.startswith("$$")))
        covered.append((start, end))
    spans = iter(covered)  # both by start, so one walk finds the container a delimited formula starts in
    span = next(spans, None)
    for opener, start, end, latex in _delimited(text):
        while span is not None and span[1] <= start:
            span = next(spans, None)
        if span is not None and span[0] <= start:
            continue
        if latex and len(latex) <= MAX_FORMULA_CHARS:
            found.append(FoundFormula(latex, start, end, opener in _DISPLAY))
    return sorted(found, key=lambda formula: formula.start)


def _search(pattern: re.Pattern[str], text: str, position: int) -> re.Match[str] | None:
    """Every search of the text goes through here: the seam where a test counts the characters a scan examines."""
    return pattern.search(text, position)


def _math_containers(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, inner HTML) of each `<span class="math-container" …>…</span>`, the first `</span>` ending it. An
    opener without a `>` or a `</span>` after it means no opener after it has one either: the scan stops there."""
    position = 0
    while opening := _search(_CONTAINER_OPEN, text, position):
        tag_end = _search(_TAG_END, text, opening.end())
        closing = _search(_CONTAINER_CLOSE, text, tag_end.end()) if tag_end else None
        if tag_end is None or closing is None:
            return
        yield opening.start(), closing.end(), text[tag_end.end():closing.start()]
        position = closing.end()


def _delimited(text: str) -> Iterator[tuple[str, int, int, str]]:
    """(opener, start, end, stripped latex) of each delimited formula, as a leftmost-first regular expression with
    lazy bodies finds them (`$$…$$`, then `$…$`, `\\[…\\]`, `\\(…\\)`): an opener that is not closed is skipped by one
    character."""
    closers, unclosed = _Closers(text), frozenset[str]()
    position = 0
    while opening := _search(_OPENERS[unclosed], text, position):
        start, opener, inline = opening.start(), opening.group(0), opening.group("inline")
        if inline is not None:
            position = opening.end()
            yield "$", start, position, inline.strip()
            continue
        close = closers.find(opener, start + len(opener) + 1)  # a formula holds at least one character
        if close < 0:  # an unclosed `$$` fails as `$` too, since `$…$` holds at least one character
            if opener in _BRACKETS:  # no closer after this one, so none after a later one either
                unclosed |= {opener}
            position = start + 1
            continue
        position = close + len(opener)  # each closer is as long as its opener
        yield opener, start, position, text[start + len(opener):close].strip()


class _Closers:
    """Where each kind of closer first stands from a position. The positions asked for grow, so the last answer
    serves every question up to it, and a closer not found is not found from any later position either."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._last: dict[str, tuple[int, int]] = {}
        """opener → (position searched from, where its closer was found there or -1)."""

    def find(self, opener: str, position: int) -> int:
        searched, found = self._last.get(opener, (len(self._text) + 1, -1))
        if searched <= position and (found < 0 or found >= position):
            return found
        match = _search(_CLOSERS[opener], self._text, position)
        found = match.start() if match else -1
        self._last[opener] = (position, found)
        return found
