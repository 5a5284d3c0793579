"""A query read in a corpus's notation: the macros its documents define (`\\norm`, `\\inner`), expanded before the
query is parsed, so a formula copied from a book with its macros is searched as the book's formulas were indexed.

Only a query that writes one of the macros is expanded, by the documents' own expander (its limits bound the work),
with the package macros the documents were read with, and then written as their formulas were stored (`renderable`);
one that it cannot expand cleanly (a problem, verbatim material, a comment that TeX would drop and the formula parser
keeps) is left as typed, which is how it was searched before.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ml.data.documents.latex_expansion import expand
from ml.data.documents.latex_macros import Macro
from ml.data.documents.package_macros import package_macros
from ml.data.documents.renderable import renderable

_CONTROL_SEQUENCE = re.compile(r"\\([A-Za-z]+|.)", re.DOTALL)
"""`\\name` (a control word: the letters up to the first non-letter) or `\\` and one character: read left to right,
`\\\\norm` is a line break and the letters `norm`, and `\\normal` is not `\\norm`."""
_COMMENT = re.compile(r"(?<!\\)%")
QUERY_FILE = "query"


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
