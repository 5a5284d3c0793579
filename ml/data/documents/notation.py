"""A query read in a corpus's notation: the macros its documents define (`\\norm`, `\\inner`), expanded before the
query is parsed, so a formula copied from a book with its macros is searched as the book's formulas were indexed.

Only a query that writes one of the macros is expanded, by the documents' own expander (its limits bound the work),
with the package macros the documents were read with, and then written as their formulas were stored (`renderable`);
one that it cannot expand cleanly (a problem, verbatim material, a comment that TeX would drop and the formula parser
keeps) is left as typed, which is how it was searched before.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from ml.data.documents.latex_expansion import expand
from ml.data.documents.latex_macros import Macro
from ml.data.documents.package_macros import package_macros
from ml.data.documents.renderable import katex_names, renderable

_CONTROL_SEQUENCE = re.compile(r"\\([A-Za-z]+|.)", re.DOTALL)
"""`\\name` (a control word: the letters up to the first non-letter) or `\\` and one character: read left to right,
`\\\\norm` is a line break and the letters `norm`, and `\\normal` is not `\\norm`."""
_COMMENT = re.compile(r"(?<!\\)%")
QUERY_FILE = "query"


def corpus_macros(documents: Iterable[Mapping[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """The macros a corpus's queries are read with, from each document's (name → `Macro.to_json()`, in the order the
    documents were read): for each name the definition most of them give, the first read on a tie.

    A command KaTeX knows keeps its own meaning unless at least half of the documents redefine it: one plain-TeX
    manual's `\\def\\frac#1#2{{#1\\over#2}}` read every `\\frac` of every query in a corpus of 3,000 documents
    its way, and the query found nothing it wrote."""
    counts: dict[str, Counter[str]] = {}
    first: dict[tuple[str, str], dict[str, Any]] = {}
    total = 0
    for macros in documents:
        total += 1
        for name, definition in macros.items():
            key = repr(sorted(definition.items()))
            counts.setdefault(name, Counter())[key] += 1
            first.setdefault((name, key), definition)
    known = katex_names().math
    return {name: first[(name, counter.most_common(1)[0][0])] for name, counter in sorted(counts.items())
            if name not in known or 2 * counter.total() >= total}


def control_sequences(latex: str) -> list[str]:
    """The names of the commands `latex` writes (no backslash), each once, in order of first use."""
    return list(dict.fromkeys(match.group(1) for match in _CONTROL_SEQUENCE.finditer(latex)))


def read_in_notation(latex: str, macros: Mapping[str, dict[str, Any]]) -> tuple[str, list[str]]:
    """`latex` with the `macros` it uses expanded (name → `Macro.to_json()`, the corpus's), and the names it
    wrote, in order of first use; `(latex, [])` when it writes none or its expansion fails."""
    used = [name for name in control_sequences(latex) if name in macros]
    if not used or _COMMENT.search(latex):
        return latex, []
    known = package_macros()  # as the corpus's documents were read: their own macros over the packages'
    known.update((name, Macro.from_json(definition)) for name, definition in macros.items())
    try:
        expansion = expand(latex, QUERY_FILE, _no_includes, known)
    except ValueError:  # the text grew past the expander's bound
        return latex, []
    if expansion.problems or expansion.verbatim:
        return latex, []
    return renderable(" ".join(expansion.text.split())), used


def _no_includes(command: str, argument: str, including: str) -> tuple[str, str]:
    raise ValueError(f"a query includes no file (\\{command}{{{argument}}})")
