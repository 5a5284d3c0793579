"""A query whose macros its corpus's documents define in more than one way is searched in each of its readings
(`Query.readings`, `corpora.documents.notation.readings`), and a formula ranks by its best score in any: the reader
copied the formula from one of the documents, whichever it was, and its own reading finds it."""
from __future__ import annotations

import time
from dataclasses import replace

from searchapp.search.query import Query
from searchapp.search.results import SearchResults, best_hits


def search_readings(formulas, query: Query, *, k: int, offset: int, **options) -> SearchResults:
    """The hits of `query` among `formulas` (a Formula queryset) in all its readings, each searched as
    `formulas.search` searches one (with the same `options`: fusion, corpus, context), fused by their best score.
    The results are the query's: the page says which macros it was read with."""
    started = time.perf_counter()
    found = [formulas.search(reading, k=offset + k, **options) for reading in (replace(query, readings=()),
                                                                                *query.readings)]
    ranked = sorted(best_hits(found).values(), key=lambda hit: -hit.score)[offset:offset + k]
    hits = [replace(hit, rank=rank) for rank, hit in enumerate(ranked, start=offset + 1)]
    return SearchResults(query, found[0].fusion, hits, max(results.candidates for results in found),
                         (time.perf_counter() - started) * 1000)
