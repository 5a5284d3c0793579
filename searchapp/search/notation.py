"""Queries read in a corpus's notation: a search in a corpus expands the macros its documents define
(`Corpus.macros`, the most common definition of each, and `Corpus.other_macros`, the others) before parsing, so
`\\norm{x}` copied from one of its books finds the formulas the book wrote with it. `parse_query` does the reading
(`corpora.documents.notation`); this module finds the macros."""
from __future__ import annotations

from corpora.documents.notation import CorpusMacros, control_sequences

NONE = CorpusMacros({}, {})


def corpus_macros(text: str, corpus: str | None, corpora) -> CorpusMacros:
    """The macros of the corpus named `corpus` (`corpora`: Corpus's manager) and their other definitions if `text`
    writes one of them, else none. One query, none for a text without a command or a search of every corpus, whose
    notations may disagree."""
    names = control_sequences(text)
    if not corpus or not names:
        return NONE
    found = corpora.filter(name=corpus, macros__has_any_keys=names).values_list("macros", "other_macros").first()
    return CorpusMacros(*found) if found else NONE
