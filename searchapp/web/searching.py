"""The search as the web layer runs it: a query that cannot be read is a 400 naming its notation and position; a
formula too long to search whole is searched by its largest parts (`searchapp.search.long_queries`)."""
from __future__ import annotations

from mathparse import ParseError
from searchapp.errors import parse_error
from searchapp.feedback.people import Person
from searchapp.live.serving import Served, served_search
from searchapp.models import Corpus, Formula
from searchapp.search.long_queries import parse_formula
from searchapp.search.notation import corpus_macros
from searchapp.search.query import Query, stored_query
from searchapp.search.ranking import DEFAULT_ORDER
from searchapp.search.results import SearchHit


def read_query(text: str, notation: str, corpus: str | None = None) -> Query:
    """The query, a LaTeX one searched in `corpus` read with that corpus's macros (its `macros` name them); a formula
    over the node limit, its largest parts (its `parts`)."""
    try:
        return parse_formula(text, notation, *corpus_macros(text, corpus, Corpus.objects))
    except ParseError as error:
        raise parse_error(error, notation) from None


def formula_search(query: Query, person: Person, *, k: int = 10, offset: int = 0, fusion: str = DEFAULT_ORDER,
                   corpus: str | None = None, context: str = "") -> Served:
    """`served_search` of `query` for `person` (a long formula's parts are searched and fused, neither interleaved
    nor explored, and logged the same way)."""
    return served_search(query, query.text, person, k=k, offset=offset, fusion=fusion, corpus=corpus, context=context)


def neighbours(formula: Formula, k: int = 10) -> list[SearchHit]:
    """The formula's nearest formulas by the search itself, from its stored vectors (itself excluded, in every
    corpus: the page names the corpora that hold it too)."""
    query = stored_query(formula)
    return Formula.objects.exclude(visual_key=formula.visual_key).search(query, k=k).hits
