"""A query's normalised form, the key its relevance feedback is shared under: `x^2+y^2`, `x^{2} + y^{2}` and the
same formula pasted as MathML are one query, and so are questions that differ only in spacing and case.

A formula query's key is its visual key: the sha256 of its canonical SLT string, the key indexing gives formulas that
render alike (`mathparse.visual_key`), so whatever the notation or spelling, what reads as one formula is one
query. A question's key hashes its words (case-folded, punctuation and spacing dropped) with each of its `$…$`
formulas in canonical SLT. Feedback rows store the key when written (`Feedback.query_key`), and searches look it up.
"""
from __future__ import annotations

import hashlib
import re

from mathparse import FormulaGraphs, ParseError, parse, to_slt_string, visual_key
from mathparse.extraction import extract_formulas
from mathparse.slt_string import looks_like_slt_string
from mathparse.tree import Tree

QUESTION_PREFIX = "question:"
"""Keeps a question's key apart from any formula's: a hash of words could otherwise never meet a visual key, but
readers of the table see at once which is which."""
KEY_CHARS = len(QUESTION_PREFIX) + 64
_WORD = re.compile(r"\w+")


def formula_key(slt: Tree) -> str:
    """The key of a formula query from its parsed layout tree (a search has it already: no second parse)."""
    return visual_key(to_slt_string(slt))


def searched_key(graphs: FormulaGraphs | None) -> str:
    """The key of a formula search from its query's parsed trees; "" for a query given as stored vectors (a
    formula's neighbours), which only its text can match."""
    return formula_key(graphs.slt) if graphs is not None else ""


def formula_text_key(text: str) -> str:
    """The key of a formula query as typed, read in the notation it looks like (as the search box's `auto` reads
    it); text that no notation reads is keyed as a question (its words), so it still meets its own repetitions."""
    try:
        return formula_key(parse(text, detect_notation(text), query=True).slt)
    except ParseError:
        return question_key(text)


def question_key(text: str) -> str:
    """The key of a question: its words, case-folded, with each `$…$` formula in canonical SLT where it stands."""
    parts, end = [], 0
    for formula in extract_formulas(text):
        parts += [*_words(text[end:formula.start]), _formula_part(formula.latex)]
        end = formula.end
    parts += _words(text[end:])
    return QUESTION_PREFIX + hashlib.sha256("\n".join(parts).encode()).hexdigest()


def feedback_key(query: str, on_formula: bool) -> str:
    """The key of a feedback row's query: a formula's feedback was given on a formula search, an answer's on a
    question search."""
    return formula_text_key(query) if on_formula else question_key(query)


def detect_notation(text: str) -> str:
    """What the search box's `auto` notation reads: MathML, a Tangent SLT string, else LaTeX."""
    if text.lstrip().startswith("<math"):
        return "mathml"
    return "slt" if looks_like_slt_string(text) else "latex"


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _formula_part(latex: str) -> str:
    try:
        return "$" + to_slt_string(parse(latex, "latex", query=True).slt)
    except ParseError:  # unreadable: its LaTeX without spaces still meets its own repetitions
        return "$" + "".join(latex.split())
