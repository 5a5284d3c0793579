"""The search as the web layer runs it: a query that cannot be read is a 400 naming its notation and position."""
from __future__ import annotations

from ml.formula import ParseError
from searchapp.errors import parse_error
from searchapp.models import Corpus, Formula
from searchapp.search.notation import corpus_macros
from searchapp.search.query import Query, parse_query, stored_query
from searchapp.search.results import SearchHit


def read_query(text: str, notation: str, corpus: str | None = None) -> Query:
    """The query, a LaTeX one searched in `corpus` read with that corpus's macros (its `macros` name them)."""
    try:
        return parse_query(text, notation, corpus_macros(text, corpus, Corpus.objects))
    except ParseError as error:
        raise parse_error(error, notation) from None


def neighbours(formula: Formula, k: int = 10) -> list[SearchHit]:
    """The formula's nearest formulas by the search itself, from its stored vectors (itself excluded, in every
    corpus: the page names the corpora that hold it too)."""
    query = stored_query(formula)
    return Formula.objects.exclude(visual_key=formula.visual_key).search(query, k=k).hits
