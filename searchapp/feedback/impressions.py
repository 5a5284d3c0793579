"""Impressions: each page of formula results logged as it is served, in one INSERT (~1 ms), so clicks can be read
against what was shown (position bias, `searchapp.learning.clicks`) and who placed it (interleaving,
`searchapp.learning.online`)."""
from __future__ import annotations

from searchapp.feedback.actions import Person
from searchapp.models import Impression
from searchapp.search.query_keys import searched_key
from searchapp.search.results import SearchResults


def log_impression(results: SearchResults, query: str, corpus: str | None, offset: int, person: Person,
                   candidate: str = "") -> Impression | None:
    """Record the page `results` served for `query` (as the person typed it, the text their clicks carry); None when
    it showed nothing, which no click can follow. `candidate` names the ranker under test of an interleaved page."""
    if not results.hits:
        return None
    return Impression.objects.create(
        corpus_id=results.hits[0].formula.corpus_id if corpus else None, query=query,
        query_key=searched_key(results.query.graphs),
        formula_ids=[hit.formula_id for hit in results.hits], offset=offset, teams=results.teams,
        candidate=candidate if results.teams else "", user_id=person.user_id, session_key=person.session_key)
