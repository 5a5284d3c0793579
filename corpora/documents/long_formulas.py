"""Formulas too long or too deep to read, set aside before a LaTeX document's structure is parsed: pylatexenc spends
minutes on a megabyte of math (84 s on one formula) and fails the whole file on a formula nested 165 deep
(RecursionError), while the formula parser refuses both anyway (MAX_FORMULA_CHARS, MAX_DEPTH). Each such formula
stays a formula of its post, as written, so that indexing reports it as a formula error (`too_long`, `too_deep`)
naming it: it is neither read for minutes nor dropped unsaid, and the rest of its document is read.

One left-to-right scan over the expanded text (its verbatim material is already set aside): outside math, an
opener (`$`, `$$`, `\\(`, `\\[`, `\\begin{equation}` and the other display environments) starts a formula; inside,
only its own closer counts, and an inline formula ends at a blank line as TeX's does.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from mathparse.errors import MAX_DEPTH
from mathparse.extraction import MAX_FORMULA_CHARS

LONG_FORMULA_MARKER = "mathsearchlongformula"

_ENVIRONMENTS = r"equation|align|alignat|flalign|gather|multline|eqnarray|displaymath|math|dmath"
_TOKEN = re.compile(r"\\[\\$]|\$\$|\$|\\\(|\\\)|\\\[|\\\]|\n[ \t]*\n"
                    rf"|\\(?P<side>begin|end)\{{(?P<name>(?:{_ENVIRONMENTS})\*?)\}}")
_BRACE = re.compile(r"(?<!\\)[{}]")
_CLOSERS = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}
_DISPLAY = frozenset({"$$", "\\["})


@dataclass(frozen=True)
class LongFormula:
    latex: str
    """What is between its delimiters, as written."""
    display: bool


def unreadable(latex: str, limit: int | None = None) -> bool:
    """Whether a formula is longer than `limit` (MAX_FORMULA_CHARS) or nests its groups deeper than MAX_DEPTH."""
    if len(latex) > (MAX_FORMULA_CHARS if limit is None else limit):
        return True
    if latex.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    for brace in _BRACE.finditer(latex):
        depth += 1 if brace.group() == "{" else -1
        if depth > MAX_DEPTH:
            return True
    return False


def set_aside_long_formulas(text: str, limit: int | None = None) -> tuple[str, list[LongFormula]]:
    """The text with each formula that is `unreadable` replaced by `\\mathsearchlongformula{n}`, and those formulas
    (n-th at n)."""
    if text.count("{") <= MAX_DEPTH and len(text) <= (MAX_FORMULA_CHARS if limit is None else limit):
        return text, []
    out: list[str] = []
    found: list[LongFormula] = []
    written = 0  # where the text not yet copied to `out` starts
    opener: re.Match[str] | None = None
    closer = ""
    for token in _TOKEN.finditer(text):
        value = token.group()
        if opener is None:
            if value in _CLOSERS or token["side"] == "begin":
                opener, closer = token, _CLOSERS.get(value, f"\\end{{{token['name']}}}")
            continue
        if value.startswith("\n") and closer in ("$", "\\)"):
            opener = None  # a paragraph ends an inline formula: this one was a stray dollar
        elif value == closer:
            inside = text[opener.end():token.start()]
            if unreadable(inside, limit):
                out += [text[written:opener.start()], f"\\{LONG_FORMULA_MARKER}{{{len(found)}}}"]
                found.append(LongFormula(inside, opener.group() in _DISPLAY or opener["side"] == "begin"))
                written = token.end()
            opener = None
    if not found:
        return text, []
    return "".join([*out, text[written:]]), found
