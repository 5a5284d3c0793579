"""ARQMath formula-representation TSVs (`Topics_2021_Formulas_{SLT,OPT}_V1.1.tsv`, …): LaTeXML MathML per formula.

Columns `id topic_id thread_id type formula` after a header line; the formula is Presentation or Content
MathML, CSV-quoted, whose `alttext` attribute keeps the LaTeX it was made from.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from corpora.fields import tsv_columns
from corpora.tolerant import Read, parse_keyed_lines, read_text

_LINE_BREAK = re.compile(r"(?<!\\)%\s*")  # LaTeXML wraps long alttext with `%` + newline


def _representation_line(line: str) -> tuple[str, None, str]:
    formula_id, _topic, _thread, _kind, markup = tsv_columns(line, 5)
    return formula_id, None, markup


def parse_formula_representations(text: str) -> Read[dict[str, str]]:
    """{formula id: MathML}; a repeated formula id is a problem."""
    return parse_keyed_lines(text, _representation_line, skip_header=True)


def read_formula_representations(path: str | Path) -> Read[dict[str, str]]:
    return parse_formula_representations(read_text(path))


def alttext(mathml: str) -> str:
    """The LaTeX source LaTeXML kept in `alttext`, with its `%`-line-breaks removed; "" when there is none."""
    try:
        text = ET.fromstring(mathml).get("alttext", "")
    except ET.ParseError:
        return ""
    return _LINE_BREAK.sub("", text)
