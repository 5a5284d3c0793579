"""A query read in a corpus's notation: the macros its documents define (`\\norm`, `\\inner`), expanded before the
query is parsed, so a formula copied from a book with its macros is searched as the book's formulas were indexed.

Only a query that writes one of the macros is expanded, by the documents' own expander (its limits bound the work),
with the package macros the documents were read with, and then written as their formulas were stored (`renderable`);
one that it cannot expand cleanly (a problem, verbatim material, a comment that TeX would drop and the formula parser
keeps) is left as typed, which is how it was searched before.

Documents of one corpus may define a name differently: isomath's test file and another manual each have their own
`\\teststring`, and 14 manuals each their own `\\test`. A corpus keeps each name's most common definition and the
others (`CorpusMacros`); a query is read with the definitions that fit how it writes the macro (a `\\test
xlongequal/` only with a definition delimited by `/`), most common first, and up to MAX_READINGS readings are
searched (`readings`).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

from corpora.documents.latex_conditionals import BRANCHES
from corpora.documents.latex_definitions import DEFINING
from corpora.documents.latex_expansion import NOTHING, THEOREM_DECLARATIONS, expand
from corpora.documents.latex_includes import INCLUDES, MissingInclude
from corpora.documents.latex_macros import Macro
from corpora.documents.latex_verbatim import VERBATIM_MACROS
from corpora.documents.package_macros import package_macros
from corpora.documents.renderable import katex_names, renderable

_CONTROL_SEQUENCE = re.compile(r"\\([A-Za-z]+|.)", re.DOTALL)
"""`\\name` (a control word: the letters up to the first non-letter) or `\\` and one character: read left to right,
`\\\\norm` is a line break and the letters `norm`, and `\\normal` is not `\\norm`."""
_COMMENT = re.compile(r"(?<!\\)%")
QUERY_FILE = "query"
MAX_READINGS = 3
"""Readings of one query searched at most: each costs a search."""
MAX_OTHER_DEFINITIONS = 15
"""Other definitions of a name a corpus keeps: enough for the 14 manuals that each define `\\test`."""

Definitions = Mapping[str, dict[str, Any]]
"""name → `Macro.to_json()`."""
OtherDefinitions = Mapping[str, Sequence[dict[str, Any]]]
"""name → its other definitions, most common first."""


class CorpusMacros(NamedTuple):
    macros: dict[str, dict[str, Any]]
    """Each name's definition a query is read with first."""
    others: dict[str, list[dict[str, Any]]]
    """The other definitions documents give a name of `macros`, most common first."""


def corpus_macros(documents: Iterable[Mapping[str, dict[str, Any]]]) -> CorpusMacros:
    """The macros a corpus's queries are read with, from each document's (name → `Macro.to_json()`): for each name
    the definition most of them give, the first given on a tie, and the others.

    A command KaTeX knows (in math or text) or the expander reads itself (`\\ensuremath`, `\\csname`, `\\xspace`)
    keeps its meaning unless at least half of the documents redefine it, and has no other readings: one plain-TeX manual's
    `\\def\\frac#1#2{{#1\\over#2}}` read every `\\frac` of every query in a corpus of 3,000 documents its way, and
    one manual's delimited `\\textbackslash` broke every query whose macro writes one."""
    counts: dict[str, Counter[str]] = {}
    first: dict[tuple[str, str], dict[str, Any]] = {}
    total = 0
    for macros in documents:
        total += 1
        for name, definition in macros.items():
            key = repr(sorted(definition.items()))
            counts.setdefault(name, Counter())[key] += 1
            first.setdefault((name, key), definition)
    chosen: dict[str, dict[str, Any]] = {}
    others: dict[str, list[dict[str, Any]]] = {}
    for name, counter in sorted(counts.items()):
        ranked = [first[(name, key)] for key, _ in counter.most_common(1 + MAX_OTHER_DEFINITIONS)]
        if not _known(name):
            chosen[name] = ranked[0]
            if len(ranked) > 1:
                others[name] = ranked[1:]
        elif 2 * counter.total() >= total:
            chosen[name] = ranked[0]
    return CorpusMacros(chosen, others)


@cache
def _known_names() -> frozenset[str]:
    """KaTeX's commands, and those the expander reads itself or TeX's primitives its macros' bodies use: one manual's
    `\\csname` or `\\string` of its own broke every query whose macro writes one."""
    names = katex_names()
    interpreted = {*DEFINING, *INCLUDES, *VERBATIM_MACROS, *BRANCHES, *NOTHING, *THEOREM_DECLARATIONS, "ensuremath",
                   "csname", "endcsname", "expandafter", "noexpand", "string", "makeatletter", "makeatother", "catcode",
                   "newif", "else", "fi", "begin", "end", "global", "long", "protected", "outer"}
    return frozenset(names.math) | frozenset(names.text) | interpreted


def _known(name: str) -> bool:
    return name in _known_names() or (name.startswith("if") and name != "iff")  # TeX's conditionals


def control_sequences(latex: str) -> list[str]:
    """The names of the commands `latex` writes (no backslash), each once, in order of first use."""
    return list(dict.fromkeys(match.group(1) for match in _CONTROL_SEQUENCE.finditer(latex)))


def readings(latex: str, macros: Definitions, others: OtherDefinitions) -> list[tuple[str, list[str]]]:
    """The ways to read `latex` with a corpus's `macros` (name → `Macro.to_json()`) and their `others`, at most
    MAX_READINGS and each once: the text with the macros it writes expanded, and their names in order of first use.
    Each name is read with its definitions that expand the text cleanly, those it is written for first, then the
    most common (the first reading takes each name's first such definition, the next its second, …);
    `[(latex, [])]` when it writes none of the macros or none expands it."""
    used = [name for name in control_sequences(latex) if name in macros]
    if not used or _COMMENT.search(latex):
        return [(latex, [])]
    known = _with_packages(macros)
    fitting = {name: _fitting(latex, known, name, [macros[name], *others.get(name, ())]) for name in used}
    found: dict[str, list[str]] = {}
    for reading in range(max(len(definitions) for definitions in fitting.values())):
        chosen = {name: Macro.from_json(definitions[min(reading, len(definitions) - 1)])
                  for name, definitions in fitting.items() if definitions}
        expanded = _expanded(latex, {**known, **chosen})
        if expanded is not None and expanded not in found:
            found[expanded] = used
            if len(found) == MAX_READINGS:
                break
    return list(found.items()) or [(latex, [])]


def _fitting(latex: str, known: dict[str, Macro], name: str,
             definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The `definitions` of `name` with which `latex` expands cleanly (the other names read as `known` says), those
    whose delimiters `latex` writes first (`\\test xlongequal/` is written for a `\\def\\test#1/`); all of them
    when there is one, whose problem then leaves the text as typed."""
    if len(definitions) == 1:
        return definitions
    clean = [definition for definition in definitions
             if _expanded(latex, {**known, name: Macro.from_json(definition)}) is not None]
    return sorted(clean, key=lambda definition: not _delimiters_written(latex, Macro.from_json(definition)))


def _delimiters_written(latex: str, macro: Macro) -> bool:
    delimiters = [delimiter for param in macro.params if param.kind == "u" for delimiter in param.delimiters]
    return bool(delimiters) and all(delimiter in latex for delimiter in delimiters)


def _with_packages(macros: Definitions) -> dict[str, Macro]:
    """The corpus's `macros` over the package macros its documents were read with (their own over the packages')."""
    known = package_macros()
    known.update((name, Macro.from_json(definition)) for name, definition in macros.items())
    return known


def _expanded(latex: str, known: dict[str, Macro]) -> str | None:
    """`latex` expanded with the `known` macros and written as the documents' formulas were stored; None when the
    expansion has a problem."""
    try:
        expansion = expand(latex, QUERY_FILE, _no_includes, known)
    except ValueError:  # the text grew past the expander's bound
        return None
    if expansion.problems or expansion.verbatim:
        return None
    return renderable(" ".join(expansion.text.split()))


def _no_includes(command: str, argument: str, including: str) -> tuple[str, str]:
    raise MissingInclude(f"a query includes no file (\\{command}{{{argument}}})")
