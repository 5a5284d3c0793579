"""Math StackExchange thread pages of ARQMath (`threads-mathdowsers/`, one page per question and answer).

Every formula is a `<span class="math-container" id=FORMULA_ID visual_id=VISUAL_ID>` around LaTeXML
Presentation MathML whose `alttext` is the LaTeX, HTML-escaped and sometimes escaped twice (`&amp;gt;`);
a formula without `alttext` is given as its MathML. Two other spans are not formulas of their own: one that
wraps another formula span (the inner span is read), and a *fragment*, a span with neither visual id nor
MathML, which is text between two mis-paired dollars (`b<span …>y</span> the`); fragments are counted, not read.
A formula is the `<math>` element that opens its span, found by pattern rather than by matching `</span>`:
four pages lost a formula span's `</span>` (`<span="" class=…>`), and the pattern keeps the raw MathML and
the line number at hand.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from ml.data.tolerant import Problem, Read, read_text

_TAG_BODY = r"""(?:[^>"']|"[^"]*"|'[^']*')*"""  # attribute values may hold `>`
_FORMULA_SPAN = re.compile(rf'<span\b{_TAG_BODY}\bclass="math-container"{_TAG_BODY}>')
_MATH = re.compile(rf"\s*(?:<\?xml[^>]*\?>\s*)?(<math\b{_TAG_BODY}>).*?</math>", re.S)  # group 1: the start tag
_ATTRIBUTE = re.compile(r"""([\w-]+)=(?:"([^"]*)"|'([^']*)')""")
_ENTITY = re.compile(r"&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);")


@dataclass(frozen=True)
class ThreadFormula:
    formula_id: str
    visual_id: str
    text: str
    notation: str
    """"latex" (the alttext) or "mathml" (the `<math>` element)."""
    line: int
    mathml: str = field(default="", compare=False, repr=False)
    """The `<math>` element, also when `text` is its LaTeX: the two spellings of one formula."""


@dataclass
class ThreadPage:
    formulas: list[ThreadFormula] = field(default_factory=list)
    fragments: int = 0


def thread_pages(path: str | Path) -> list[Path]:
    """The `.html` pages of a folder in name order, or the one page given."""
    path = Path(path)
    if path.is_dir():
        return sorted(path.glob("*.html"))
    if path.is_file():
        return [path]
    raise ValueError(f"{path}: no such page or folder of pages")


def read_thread_page(path: str | Path) -> Read[ThreadPage]:
    return parse_thread_page(read_text(path))


def parse_thread_page(text: str) -> Read[ThreadPage]:
    """The formulas of one page; a span that cannot be read is a problem at its line."""
    read: Read[ThreadPage] = Read(ThreadPage())
    line, counted = 1, 0
    for span in _FORMULA_SPAN.finditer(text):
        line, counted = line + text.count("\n", counted, span.start()), span.start()
        attributes = _attributes(span.group(0))
        try:
            formula = _formula(attributes, text, span.end(), line)
        except ValueError as error:
            read.problems.append(Problem(line, f"formula span {attributes.get('id', '?')}: {error}"))
            continue
        if isinstance(formula, ThreadFormula):
            read.value.formulas.append(formula)
        elif formula == "fragment":
            read.value.fragments += 1
    return read


def _attributes(tag: str) -> dict[str, str]:
    return {name: double or single for name, double, single in _ATTRIBUTE.findall(tag)}


def _formula(attributes: dict[str, str], text: str, start: int, line: int) -> ThreadFormula | str:
    """The formula whose `<math>` opens the span (the span's `</span>` may be lost in a broken page), or
    "wrapper" / "fragment" for a span without a visual id; ValueError says what is missing."""
    math = _MATH.match(text, start)
    if "visual_id" not in attributes and math is None:
        return "wrapper" if text.startswith("<span", start) else "fragment"
    if math is None:
        raise ValueError("no <math> element inside")
    if "id" not in attributes or "visual_id" not in attributes:
        raise ValueError("expected both an id and a visual_id attribute")
    alttext = _attributes(math.group(1)).get("alttext", "")
    latex = _ENTITY.sub(lambda entity: html.unescape(entity.group(0)), html.unescape(alttext))
    mathml = math.group(0)[math.start(1) - math.start():]
    if latex.strip():
        return ThreadFormula(attributes["id"], attributes["visual_id"], latex, "latex", line, mathml)
    return ThreadFormula(attributes["id"], attributes["visual_id"], mathml, "mathml", line, mathml)
