"""The known-item test of a document collection: a formula searched as its document writes it, and again with one
variable renamed (what a reader who remembers the formula but not its letters types).

Renaming works on the LaTeX: a variable is a single letter outside command names and outside the arguments of
commands that set words (`\\text{if}`, `\\operatorname{Tr}`); every occurrence of it takes a letter the formula
does not use.
"""
from __future__ import annotations

import random
import re
import string

_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|[A-Za-z]|\{|\}|.", re.S)
WORD_COMMANDS = frozenset(r"\text \textrm \textit \textbf \mathrm \operatorname \operatorname* \mbox \label \tag "
                          r"\begin \end \mathop \hbox \textsf \texttt \emph".split())
"""Commands whose braced argument is words or a name, not variables."""


def variables(latex: str) -> list[str]:
    """The distinct single-letter variables of `latex`, in order of first appearance."""
    return list(dict.fromkeys(latex[start:end] for start, end in _variable_spans(latex)))


def rename_variable(latex: str, rng: random.Random) -> str | None:
    """`latex` with one of its variables (chosen by `rng`) renamed everywhere to an unused letter of the same case;
    None when it has no variable."""
    found = variables(latex)
    if not found:
        return None
    old = rng.choice(found)
    letters = string.ascii_lowercase if old.islower() else string.ascii_uppercase
    unused = [letter for letter in letters if letter not in found]
    if not unused:
        return None
    new = rng.choice(unused)
    spans = [span for span in _variable_spans(latex) if latex[span[0]:span[1]] == old]
    pieces, last = [], 0
    for start, end in spans:
        pieces += [latex[last:start], new]
        last = end
    return "".join(pieces) + latex[last:]


def _variable_spans(latex: str) -> list[tuple[int, int]]:
    spans, depth_of_words, depth, pending_words = [], None, 0, False
    for token in _TOKEN.finditer(latex):
        text = token.group(0)
        if text == "{":
            depth += 1
            if pending_words and depth_of_words is None:
                depth_of_words = depth
            pending_words = False
        elif text == "}":
            if depth_of_words == depth:
                depth_of_words = None
            depth -= 1
        elif text.startswith("\\"):
            pending_words = text in WORD_COMMANDS
        elif text.isalpha() and depth_of_words is None:
            spans.append(token.span())
            pending_words = False
        elif not text.isspace():
            pending_words = False
    return spans
