"""ARQMath Task 2 query files, `B.1 \\t f(x)=…` a line: each topic's query formula as LaTeX.

The 2020 file pads the TAB with spaces; the approach0 team's `-refined` files have the same shape.
"""
from __future__ import annotations

from pathlib import Path

from corpora.tolerant import Read, parse_keyed_lines, read_text


def _topic_line(line: str) -> tuple[str, None, str]:
    topic, tab, latex = line.partition("\t")
    if not tab or not topic.strip() or not latex.strip():
        raise ValueError("expected `topic <TAB> latex`")
    return topic.strip(), None, latex.strip()


def parse_topic_latex(text: str) -> Read[dict[str, str]]:
    """{topic: latex}; a repeated topic is a problem."""
    return parse_keyed_lines(text, _topic_line)


def read_topic_latex(path: str | Path) -> Read[dict[str, str]]:
    return parse_topic_latex(read_text(path))
