"""The search as people are served it: logged as an impression, and, on a share of a corpus's searches while it has
a candidate ranker, the team-draft interleaving of the ranking in use and the candidate's (`ml.ranking.interleaving`).
Clicks on interleaved pages credit the team that placed the clicked result; `interleaving_outcome` adds them up.

Which searches are interleaved, and the coin of each, follow from a hash of the person, the query, the corpus and
the candidate: a person paging through one query's results, or reloading them, sees one list. Searches of all
corpora, with context words (their scores blend the ranker's with words, which the candidate's would need too), or
ordered by a dense fusion are not interleaved: the installed ranker alone orders them.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from django.conf import settings

from mathparse import ParseError
from ml.ranking.interleaving import Outcome, credit, outcome
from searchapp.errors import parse_error
from searchapp.feedback.impressions import log_impression
from searchapp.feedback.people import Person
from searchapp.models import CorpusRanker, Feedback, Formula, Impression
from searchapp.search.formula_search import read_formula
from searchapp.search.ranking import DEFAULT_ORDER, LEARNED, Interleave
from searchapp.search.results import SearchResults

SHARE_SCALE = 2**64


@dataclass(frozen=True)
class Served:
    results: SearchResults
    impression: Impression | None
    """None when nothing was shown."""


def served_search(text: str, person: Person, *, notation: str = "latex", k: int = 10, offset: int = 0,
                  fusion: str = DEFAULT_ORDER, corpus: str | None = None, context: str = "",
                  share: float | None = None) -> Served:
    """`Formula.objects.search` of `text` read in `notation` (`read_formula`: a query that cannot be read is a 400
    naming its notation and position) for `person`, interleaved with the corpus's candidate on `share` of searches
    (default: settings.MATHSEARCH_INTERLEAVE_SHARE), exploring on the others (settings.MATHSEARCH_EXPLORE_PLACES),
    and logged (`log_impression`: not for a crawler, and a person's repeat is the page it repeats). A long formula's
    parts are searched and fused, neither interleaved nor explored, and logged the same way."""
    try:
        query = read_formula(text, notation, corpus)
    except ParseError as error:
        raise parse_error(error, notation) from None
    share = settings.MATHSEARCH_INTERLEAVE_SHARE if share is None else share
    interleave = interleave_for(query.text, person, fusion, corpus, context, share)
    results = Formula.objects.search(query, k=k, offset=offset, fusion=fusion, corpus=corpus, context=context,
                                     interleave=interleave, explore=settings.MATHSEARCH_EXPLORE_PLACES)
    candidate = interleave.candidate.id if interleave else ""
    return Served(results, log_impression(results, query.text, corpus, offset, person, candidate))


def interleave_for(text: str, person: Person, fusion: str, corpus: str | None, context: str,
                   share: float) -> Interleave | None:
    """Whether this search is interleaved, and its coin's seed (see the module's docstring)."""
    if fusion != LEARNED or context.strip() or not corpus or share <= 0:
        return None
    candidate = CorpusRanker.objects.candidate_for(corpus)
    if candidate is None:
        return None
    seed = _person_seed(person, text, corpus, candidate.id)
    return Interleave(candidate, seed) if seed / SHARE_SCALE < share else None


def _person_seed(person: Person, text: str, corpus: str, candidate: str) -> int:
    """64 bits that stay the same for this person, query, corpus and candidate; random for a client who is no one
    (an API call without a session), whose searches would otherwise all fall on one side together."""
    who = f"user:{person.user_id}" if person.user_id is not None else f"session:{person.session_key}"
    if person.user_id is None and not person.session_key:
        return random.getrandbits(64)
    digest = hashlib.sha256("\x1f".join((who, corpus, candidate, text)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def interleaving_outcome(corpus: str, candidate: str) -> Outcome:
    """Wins, losses and ties of `candidate` against the ranking in use, over the corpus's interleaved impressions
    with at least one click that names them; clicks without an impression cannot be credited."""
    clicked: dict[int, set[int]] = {}
    rows = Feedback.objects.filter(kind=Feedback.Kind.CLICK, impression__candidate=candidate,
                                   impression__corpus__name=corpus)
    for impression, formula in rows.values_list("impression_id", "formula_id"):
        clicked.setdefault(impression, set()).add(formula)
    pages = Impression.objects.filter(pk__in=list(clicked)).values_list("pk", "formula_ids", "teams")
    return outcome([credit(teams, [i for i, formula in enumerate(formulas) if formula in clicked[pk]])
                    for pk, formulas, teams in pages])
