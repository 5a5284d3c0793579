"""Math StackExchange thread pages of ARQMath (`threads-mathdowsers/`, one page per question and answer).

Every formula is a `<span class="math-container" id=FORMULA_ID visual_id=VISUAL_ID>` around LaTeXML
Presentation MathML whose `alttext` is the LaTeX, HTML-escaped and sometimes escaped twice (`&amp;gt;`, which
LaTeXML may have split: `&amp;\\displaystyle amp;=`);
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
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath

from corpora.records import MSE_URL, IndexRecord, Item, PostRecord, RecordError, SourceFormula
from corpora.tolerant import Problem, Read, read_text
from mathparse import ParseError, parse, slt_to_latex

_TAG_BODY = r"""(?:[^>"']|"[^"]*"|'[^']*')*"""  # attribute values may hold `>`
_FORMULA_SPAN = re.compile(rf'<span\b{_TAG_BODY}\bclass="math-container"{_TAG_BODY}>')
_MATH = re.compile(rf"\s*(?:<\?xml[^>]*\?>\s*)?(<math\b{_TAG_BODY}>).*?</math>", re.S)  # group 1: the start tag
_ATTRIBUTE = re.compile(r"""([\w-]+)=(?:"([^"]*)"|'([^']*)')""")
_ENTITY = re.compile(r"&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);")
_SPLIT_ENTITY = re.compile(r"&(?:%\s*)?(\$?(?:%\s*)?(?:\\displaystyle\s*)?)(amp|lt|gt|quot);")
"""An entity escaped twice that LaTeXML then read as LaTeX, its `&` an alignment tab: split from its name by a
line-wrap `%` (`\\delta&% gt;0`) or by what LaTeXML opens every cell with (`&\\displaystyle amp;=`, and in an
eqnarray `&$\\displaystyle amp;`)."""


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


MAX_PAGE_BYTES = 2_000_000
"""A page (in a folder or a zip archive) is refused above this size, read no further than that: the pages have
5–200 KB, and parsing a 19 MB one held a worker for ~12 s and its text, tree and post several times over in memory."""
UNREADABLE_PAGE = (OSError, ValueError, zipfile.BadZipFile, zlib.error)
"""What reading a page may raise (a bad encoding is a ValueError)."""


def page_texts(path: str | Path) -> Iterator[tuple[str, Callable[[], str]]]:
    """Each page's name and a reader of its text (raising one of UNREADABLE_PAGE): the `.html` pages of a folder
    or of a zip archive, the way a folder is uploaded, in name order; or the one page given. macOS's `__MACOSX/`
    copies in an archive are not pages."""
    path = Path(path)
    if path.is_file() and zipfile.is_zipfile(path):
        try:
            archive = zipfile.ZipFile(path)
        except zipfile.BadZipFile as error:  # a file problem, as a missing folder is
            raise ValueError(f"{path.name}: not a readable zip archive ({error})") from None
        with archive:
            members = sorted((info for info in archive.infolist() if info.filename.endswith(".html")
                              and not info.is_dir() and not info.filename.startswith("__MACOSX/")),
                             key=lambda info: info.filename)
            for info in members:
                yield PurePosixPath(info.filename).name, partial(_archived_text, archive, info)
        return
    for page in thread_pages(path):
        yield page.name, partial(_page_text, page)


def _archived_text(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> str:
    with archive.open(info) as member:  # whatever size the archive declares
        return _bounded_text(member)


def _page_text(path: Path) -> str:
    with open(path, "rb") as handle:
        return _bounded_text(handle)


def _bounded_text(handle) -> str:
    """UTF-8 text of a page, line endings untouched, reading at most one byte past MAX_PAGE_BYTES."""
    data = handle.read(MAX_PAGE_BYTES + 1)
    if len(data) > MAX_PAGE_BYTES:
        raise ValueError(f"more than {MAX_PAGE_BYTES:,} bytes; a page is refused above that")
    return data.decode("utf-8")


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


def _rejoined(entity: re.Match) -> str:
    """The character a split entity stands for; an `&` stays an alignment tab opening its cell, another character
    joins the cell before (an eqnarray's `$` kept, so its math stays paired)."""
    character = html.unescape(f"&{entity[2]};")
    return "&" + entity[1] if character == "&" else entity[1].removesuffix(entity[1].lstrip("$")) + character


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
    latex = _SPLIT_ENTITY.sub(_rejoined, _ENTITY.sub(lambda entity: html.unescape(entity.group(0)),
                                                      html.unescape(alttext)))
    mathml = math.group(0)[math.start(1) - math.start():]
    if latex.strip():
        return ThreadFormula(attributes["id"], attributes["visual_id"], latex, "latex", line, mathml)
    return ThreadFormula(attributes["id"], attributes["visual_id"], mathml, "mathml", line, mathml)


# The pages as posts: a question and its answer, with their text and formulas (`index_corpus --format mse_html`)

_SECTIONS = {"question-title": "title", "question": "question", "tags": "tags", "question-comments": "question_comments",
             "answer": "answer", "answer-comments": "answer_comments"}
_BREAKS = {"p": "\n\n", "div": "\n\n", "pre": "\n\n", "blockquote": "\n\n", "h1": "\n\n", "h2": "\n\n", "h3": "\n\n",
           "ol": "\n\n", "ul": "\n\n", "li": "\n\n- ", "tr": "\n\n", "br": "\n", "hr": "\n\n"}
_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")  # private-use characters: a formula's place in the page's text
_SPAN_END = re.compile(r"\s*</span>")
MAX_TITLE = 500


def thread_records(path: str | Path) -> Iterator[Item]:
    """Each page of a folder, a zip archive (or the one page) as two records, its question and its answer,
    numbered by page; a page that cannot be read is one `RecordError` naming the file."""
    for number, (name, read) in enumerate(page_texts(path), start=1):
        try:
            text = read()
        except UNREADABLE_PAGE as error:
            yield RecordError(number, f"{name}: {error}")
            continue
        try:
            yield from thread_posts(text, number, name)
        except ValueError as error:
            yield RecordError(number, f"{name}: {error}")


def thread_posts(text: str, number: int, name: str = "") -> tuple[IndexRecord, IndexRecord]:
    """The question (with title and tags) and the answer (linked to its question) of one page, their text with
    every formula written `$LaTeX$` where it stands; comments follow their post's text. ValueError says what is missing."""
    formulas: list[ThreadFormula] = []
    marked = _mark_formulas(text, formulas)
    sections = _PageSections()
    sections.feed(marked)
    sections.close()
    question_id, answer_id = sections.ids.get("question"), sections.ids.get("answer")
    if not question_id or not answer_id:
        raise ValueError("expected a question (question_id) and an answer (answer_id)")
    title, in_title = _unmark(_paragraphs(sections.text("title")), formulas)
    tags = [tag.strip() for tag in sections.parts["tags"] if tag.strip()]
    question = _post_record(number, PostRecord(question_id, title[:MAX_TITLE], url=MSE_URL.format(kind="q", id=question_id),
                                               tags=tags),
                            sections.text("question"), sections.comments("question_comments"), formulas)
    # a title's formulas belong to the question; they have no place in its body (start = end = 0)
    question = replace(question, formulas=tuple(replace(f, start=0, end=0) for f in in_title) + question.formulas)
    answer = _post_record(number, PostRecord(answer_id, url=MSE_URL.format(kind="a", id=answer_id), parent=question_id),
                          sections.text("answer"), sections.comments("answer_comments"), formulas)
    return question, answer


def _mark_formulas(text: str, formulas: list[ThreadFormula]) -> str:
    """The page with each formula span (and its MathML) replaced by a placeholder numbering it in `formulas`;
    a span that cannot be read keeps its text."""
    pieces, last, line, counted = [], 0, 1, 0
    for span in _FORMULA_SPAN.finditer(text):
        if span.start() < last:  # inside a formula already replaced (a wrapper's inner span)
            continue
        line, counted = line + text.count("\n", counted, span.start()), span.start()
        try:
            formula = _formula(_attributes(span.group(0)), text, span.end(), line)
        except ValueError:
            continue
        if not isinstance(formula, ThreadFormula):
            continue
        math_end = _MATH.match(text, span.end()).end()  # type: ignore[union-attr]  # _formula found it
        closing = _SPAN_END.match(text, math_end)
        pieces += [text[last:span.start()], f"\ue000{len(formulas)}\ue001"]
        formulas.append(formula)
        last = closing.end() if closing else math_end
    return "".join(pieces) + text[last:]


class _PageSections(HTMLParser):
    """The text of each section of a page (`<div id=…>`), with block elements as paragraph breaks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: dict[str, list[str]] = {name: [] for name in _SECTIONS.values()}
        self.ids: dict[str, str] = {}
        self._divs: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "div":
            section = _SECTIONS.get(attributes.get("id") or "")
            self._divs.append(section or (self._divs[-1] if self._divs else None))
            for kind in ("question", "answer"):
                if section == kind and attributes.get(f"{kind}_id"):
                    self.ids[kind] = str(attributes[f"{kind}_id"]).strip()
        section = self._divs[-1] if self._divs else None
        if section and tag in _BREAKS:
            self.parts[section].append(_BREAKS[tag])
        if section == "tags" and tag == "span":
            self.parts[section].append("")  # each tag is its own part

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self._divs:
            self._divs.pop()
        elif tag in ("td", "p") and self._divs and self._divs[-1]:
            self.parts[self._divs[-1]].append("\n\n")

    def handle_data(self, data: str) -> None:
        if self._divs and self._divs[-1]:
            parts = self.parts[self._divs[-1]]
            if self._divs[-1] == "tags" and parts:
                parts[-1] += data
            else:
                parts.append(data)

    def text(self, section: str) -> str:
        return "".join(self.parts[section])

    def comments(self, section: str) -> list[str]:
        return [comment for comment in (_paragraphs(part) for part in self.text(section).split("\n\n")) if comment]


def _paragraphs(text: str) -> str:
    """Whitespace collapsed inside paragraphs, paragraphs separated by one blank line."""
    paragraphs = (re.sub(r"\s+", " ", paragraph).strip() for paragraph in re.split(r"\n\s*\n", text))
    return "\n\n".join(paragraph for paragraph in paragraphs if paragraph and paragraph != "-")


def _post_record(number: int, post: PostRecord, text: str, comments: list[str],
                 formulas: list[ThreadFormula]) -> IndexRecord:
    body = _paragraphs(text)
    if comments:
        body += "\n\n" + "\n\n".join(f"Comment: {comment}" for comment in comments)
    body, found = _unmark(body.strip(), formulas)
    return IndexRecord(number, replace(post, body=body), tuple(found))


def _unmark(text: str, formulas: list[ThreadFormula]) -> tuple[str, list[SourceFormula]]:
    """The text with each placeholder written as `$LaTeX$`, and its formulas with their place in it (a formula's
    ARQMath id is its position, as in the formula TSV)."""
    pieces, found, last, length = [], [], 0, 0
    for mark in _PLACEHOLDER.finditer(text):
        formula = formulas[int(mark.group(1))]
        shown = f"${_shown_latex(formula)}$"
        pieces.append(text[last:mark.start()])
        length += mark.start() - last
        found.append(SourceFormula(formula.text, formula.notation, int(formula.formula_id), length, length + len(shown)))
        pieces.append(shown)
        length += len(shown)
        last = mark.end()
    return "".join(pieces) + text[last:], found


def _shown_latex(formula: ThreadFormula) -> str:
    """What the post's text shows for a formula: its LaTeX, or for one given only as MathML the LaTeX of its tree."""
    if formula.notation == "latex":
        return " ".join(formula.text.split())
    try:
        return slt_to_latex(parse(formula.text, "mathml").slt)
    except ParseError:
        return r"\text{(unreadable formula)}"
