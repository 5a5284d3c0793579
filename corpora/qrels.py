"""TREC qrels, `topic 0 doc relevance` a line (TAB or SPACE separated; ARQMath writes grades as `2.0`)."""
from __future__ import annotations

from pathlib import Path

from corpora.fields import whitespace_fields
from corpora.ranking import Qrels
from corpora.tolerant import Read, parse_keyed_lines, read_text


def _qrels_line(line: str) -> tuple[str, str, int]:
    topic, _, doc, grade = whitespace_fields(line, 4, "topic iteration doc relevance")
    try:
        value = float(grade)
    except ValueError:
        raise ValueError(f"relevance {grade!r} is not a number") from None
    if not value.is_integer():
        raise ValueError(f"relevance {grade!r} is not a whole grade")
    return topic, doc, int(value)


def parse_qrels(text: str) -> Read[Qrels]:
    """{topic: {doc: grade}}; `2.0` reads as 2. A repeated (topic, doc) pair keeps the first."""
    return parse_keyed_lines(text, _qrels_line)


def read_qrels(path: str | Path) -> Read[Qrels]:
    return parse_qrels(read_text(path))
