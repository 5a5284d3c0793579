"""ARQMath topic posts: the official `*-origin.xml` topic files and the `*-context.json` files.

A topic or formula that cannot be read becomes a `Problem`, and a file that breaks off mid-way still yields the
topics before the break.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html import escape, unescape
from pathlib import Path
from xml.parsers import expat

from corpora.tolerant import Problem, Read, read_text


@dataclass(frozen=True)
class TopicFormula:
    formula_id: str
    latex: str


@dataclass(frozen=True)
class Topic:
    """One ARQMath topic post. Task 2 topics also name their query formula (`formula_id`, `latex`)."""

    number: str
    title: str
    question: str
    tags: tuple[str, ...]
    formula_id: str | None
    latex: str | None
    formulas: tuple[TopicFormula, ...]
    """The `math-container` formulas of title then question, `$`/`$$` delimiters stripped."""


@dataclass(frozen=True)
class TopicContext:
    """The question as plain text: the query formula kept as `[imath]…[/imath]`, the others as `[MASK]`."""

    topic: str
    formula_id: str
    context: str


_MATH_SPAN = re.compile(r"<span\b([^>]*)>((?:(?!<span\b).)*?)</span>", re.DOTALL)
"""Innermost spans only: one 2021 post wraps an id'd container in an id-less one."""
_ATTRIBUTE = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def math_containers(html: str) -> tuple[list[TopicFormula], list[str]]:
    """The formulas of a post's HTML, and a reason for each container that has no id.

    A regex rather than an HTML parser: the LaTeX inside the spans holds raw `<` (`0<t<\\infty`), which an
    HTML parser takes for tags, losing the rest of the post's formulas.
    """
    formulas, reasons = [], []
    for match in _MATH_SPAN.finditer(html):
        attributes = {name: double or single for name, double, single in _ATTRIBUTE.findall(match[1])}
        if "math-container" not in attributes.get("class", "").split():
            continue
        text = unescape(match[2]).strip().strip("$").strip()
        if attributes.get("id"):
            formulas.append(TopicFormula(attributes["id"], text))
        else:
            reasons.append(f"math-container without an id: {text[:40]!r}")
    return formulas, reasons


class _TopicElements:
    """expat handlers gathering each complete <Topic>'s child texts, with the line it starts on."""

    FIELDS = ("Formula_Id", "Latex", "Title", "Question", "Tags")

    def __init__(self, parser: expat.XMLParserType) -> None:
        self.parser = parser
        self.topics: list[tuple[int, dict[str, str]]] = []
        self._current: tuple[int, dict[str, str]] | None = None
        self._field: str | None = None
        parser.StartElementHandler, parser.EndElementHandler = self.start, self.end
        parser.CharacterDataHandler = self.data

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "Topic":
            self._current = (self.parser.CurrentLineNumber, {"number": attrs.get("number", "")})
        elif name in self.FIELDS and self._current:
            self._field = name
            self._current[1].setdefault(name, "")

    def end(self, name: str) -> None:
        if name == self._field:
            self._field = None
        elif name == "Topic" and self._current:
            self.topics.append(self._current)  # only whole topics: a file cut off mid-topic drops that one
            self._current = None

    def data(self, text: str) -> None:
        if self._field and self._current:
            self._current[1][self._field] += text


def _topic(fields: dict[str, str]) -> tuple[Topic, list[str]]:
    title, question = fields.get("Title", ""), fields.get("Question", "")
    title_formulas, title_reasons = math_containers(title)
    question_formulas, question_reasons = math_containers(question)
    topic = Topic(
        number=fields["number"].strip(),
        title=title.strip(),
        question=question.strip(),
        tags=tuple(tag.strip() for tag in fields.get("Tags", "").split(",") if tag.strip()),
        formula_id=fields.get("Formula_Id", "").strip() or None,
        latex=fields.get("Latex", "").strip() or None,
        formulas=(*title_formulas, *question_formulas),
    )
    return topic, title_reasons + question_reasons


def parse_topic_xml(text: str) -> Read[dict[str, Topic]]:
    """An ARQMath `<Topics>` file (Task 1 or Task 2) → {topic number: Topic}."""
    elements, read = _topic_elements(text)
    for line_no, fields in elements:
        topic, reasons = _topic(fields)
        read.problems += [Problem(line_no, f"topic {topic.number}: {reason}") for reason in reasons]
        _add(read, line_no, topic.number, topic)
    return read


def parse_topic_queries(text: str) -> Read[dict[str, str]]:
    """The query LaTeX of each Task 2 topic, {topic number: latex}; the posts are not read, so not checked."""
    elements, read = _topic_elements(text)
    for line_no, fields in elements:
        if fields.get("Latex", "").strip():
            _add(read, line_no, fields["number"].strip(), fields["Latex"].strip())
    return read


def _topic_elements(text: str) -> tuple[list[tuple[int, dict[str, str]]], Read[dict]]:
    """The complete <Topic> elements, and an empty Read holding the problem of malformed XML, if any."""
    parser = expat.ParserCreate()
    elements = _TopicElements(parser)
    read: Read[dict] = Read({})
    try:
        parser.Parse(text, True)
    except expat.ExpatError as error:
        read.problems.append(Problem(error.lineno, f"malformed XML: {expat.errors.messages[error.code]}"))
    return elements.topics, read


def _add(read: Read[dict], line_no: int, number: str, value) -> None:
    if not number:
        read.problems.append(Problem(line_no, "topic without a number"))
    elif number in read.value:
        read.problems.append(Problem(line_no, f"duplicate topic {number}"))
    else:
        read.value[number] = value


def parse_topic_contexts(text: str) -> Read[dict[str, TopicContext]]:
    """`topics.arqmath-*-task2-context.json` (a list of {"context", "formulaID", "qid"}) → {qid: TopicContext}."""
    read: Read[dict[str, TopicContext]] = Read({})
    try:
        entries = json.loads(text)
    except json.JSONDecodeError as error:
        read.problems.append(Problem(error.lineno, f"malformed JSON: {error.msg}"))
        return read
    if not isinstance(entries, list):
        read.problems.append(Problem(1, "expected a JSON list of topics"))
        return read
    for number, entry in enumerate(entries, start=1):
        try:
            context = TopicContext(str(entry["qid"]), str(entry["formulaID"]), str(entry["context"]))
        except (KeyError, TypeError):
            read.problems.append(Problem(number, "entry needs the keys qid, formulaID and context"))
            continue
        if context.topic in read.value:
            read.problems.append(Problem(number, f"duplicate topic {context.topic}"))
            continue
        read.value[context.topic] = context
    return read


def read_topic_xml(path: str | Path) -> Read[dict[str, Topic]]:
    return parse_topic_xml(read_text(path))


def read_topic_queries(path: str | Path) -> Read[dict[str, str]]:
    return parse_topic_queries(read_text(path))


_TAG = re.compile(r"<[^>]+>")


def question_text(topic: Topic) -> str:
    """A topic as a question search reads it: the title, a blank line, the question; tags dropped, the formulas'
    own `$…$` kept, `<p>` breaks as blank lines."""
    def text(html: str) -> str:
        html = _MATH_SPAN.sub(lambda span: escape(span[2], quote=False), html)  # LaTeX may hold a raw `<`
        paragraphs = re.split(r"(?i)</p>|<br\s*/?>", html)
        return "\n\n".join(" ".join(unescape(_TAG.sub(" ", p)).split()) for p in paragraphs if _TAG.sub("", p).strip())
    return f"{text(topic.title)}\n\n{text(topic.question)}".strip()
