"""One search box for formulas and questions: a formula alone lists formulas; words, with or without `$…$`
formulas, list answers, and beside them the formulas most like each of the question's formulas
(`searchapp.search.question_search.answers_with_formulas`).

People type both into the first box they see, and an empty result for `integral of x squared` read letter by letter
as a product taught them nothing. `?as=formula` keeps the formula reading whatever the box holds.
"""
from __future__ import annotations

from mathparse.extraction import extract_formulas
from searchapp.web.search_page import prose_words


def reads_as_question(text: str, notation: str) -> bool:
    """Words outside formulas make a question: two of them, or one beside a `$…$` formula (`$x^2+1$ is prime`);
    so do two `$…$` formulas. MathML and Tangent strings are formulas."""
    if notation not in ("auto", "latex") or text.lstrip().startswith("<"):
        return False
    found = extract_formulas(text)
    outside, end = [], 0
    for formula in found:
        outside.append(text[end:formula.start])
        end = formula.end
    words = prose_words(" ".join([*outside, text[end:]]))
    return len(found) >= 2 or len(words) >= 2 or (bool(found) and bool(words))
