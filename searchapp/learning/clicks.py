"""Clicks as training signal, corrected for position bias: people click what is shown high whether or not it is the
best, so a raw click count teaches a ranker its own order back.

Only what people saw counts (`searchapp.search.looks`): the results their pages reported on screen and those down to
a click; a page served to an API client, a crawler or a script counts nothing. The examination propensity of each
rank is estimated from those looks on the logged pages and their clicks (`ml.ranking.click_model`, EM of the
position-based model; the prior 1/rank while the logs hold few clicks). Each result seen for a query then gets its
IPW relevance, Σ click/θ_rank over the people who saw it ÷ their number (each person once, by their look), turned
into a grade (`click_grade`). Grades rather than LightGBM weights: the ranker is trained and cross-validated on
graded topics (`training.feedback_topics`), and the offline check that guards installation scores rankers against
those same grades; weights would enter the training but not the check.

Explicit judgments always beat clicks; a click sent without the page it was made on counts nothing.
"""
from __future__ import annotations

import datetime

from django.db.models import Q

from ml.ranking.click_model import Propensities, estimate_propensities, ipw_relevance
from searchapp.feedback.qrels import judgements
from searchapp.models import Feedback, Formula, Impression
from searchapp.search.looks import clicked_per_page, page_looks, people_looks
from searchapp.sql import id_array

IMPRESSIONS_READ = 20_000
"""The latest pages people saw that the propensities are estimated from: position bias is a property of the page,
and changes with it, so recent logs of every corpus count."""
MIN_EXAMINED = 2.0
"""A result's examination mass (Σ θ over the people who saw it) below which their clicks, or their absence, set no
grade of their own: seen by two people at rank 1, or by twenty near rank 10."""
MAX_CLICK_WEIGHT = 10.0
"""A click's weight 1/θ is clipped here when clicks are counted: one click deep down must not count as fifty."""
GRADE_CUTS = ((0.5, 2), (0.2, 1))
"""IPW relevance from which a result gets grade 2 (as a "relevant" judgment), else 1; below 0.2, 0. Half of those
who look at it click it: what people do for results they judge relevant."""


def estimated_propensities(corpus: str | None = None, limit: int = IMPRESSIONS_READ) -> Propensities:
    """θ per rank from the latest `limit` pages people saw (of `corpus`, or of all) and the clicks made on them: each
    page's looks a row, so a result seen at several ranks tells position from relevance."""
    impressions = Impression.objects.looked_at().order_by("-id")
    if corpus:
        impressions = impressions.filter(corpus__name=corpus)
    pages = list(impressions.values_list("pk", "query", "formula_ids", "offset", "seen")[:limit])
    clicked = clicked_per_page(Feedback.objects.clicks_on([page[0] for page in pages]))
    results, ranks, clicks = [], [], []
    for pk, query, formulas, offset, seen in pages:
        for formula, rank, was_clicked in page_looks(formulas, offset, seen, clicked.get(pk, set())):
            results.append((query, formula))
            ranks.append(rank)
            clicks.append(was_clicked)
    return estimate_propensities(results, ranks, clicks)


def click_grade(relevance: float, examined: float, was_clicked: bool) -> int | None:
    """A result's grade from its IPW relevance and examination mass (`ml.ranking.click_model.ipw_relevance`); None
    when the logs say nothing of it (seldom looked at, never clicked)."""
    if examined < MIN_EXAMINED:
        return 1 if was_clicked else None
    return next((grade for cut, grade in GRADE_CUTS if relevance >= cut), 0)


def ipw_grades(corpus: str, propensities: Propensities) -> dict[str, dict[int, int]]:
    """{query: {formula_id: grade}} of the corpus's formulas people saw on logged pages (of this corpus, or of a
    search of all corpora), from their clicks: each person once per query and formula."""
    pages = Impression.objects.looked_at().filter(Q(corpus__name=corpus) | Q(corpus__isnull=True))
    looks = people_looks(pages.values_list("pk", "query", "formula_ids", "offset", "seen", "user_id", "session_key"),
                         Feedback.objects.clicks_on(pages))
    own = set(Formula.objects.filter(corpus__name=corpus, pk__in=id_array({formula for _, formula in looks}))
              .values_list("pk", flat=True))
    grades: dict[str, dict[int, int]] = {}
    for (query, formula), people in looks.items():
        seen = list(people.values())
        relevance, examined = ipw_relevance([look.rank for look in seen], [look.clicked for look in seen], propensities)
        grade = click_grade(relevance, examined, any(look.clicked for look in seen))
        if grade is not None and formula in own:
            grades.setdefault(str(query), {})[formula] = grade
    return grades


def feedback_grades(corpus: str, propensities: Propensities | None = None) -> dict[str, dict[int, int]]:
    """{query: {formula_id: grade}} of the corpus's formulas: the IPW grades of what people saw, overridden by
    explicit judgments (the latest of each result)."""
    propensities = propensities if propensities is not None else estimated_propensities()
    grades: dict[str, dict[int, int]] = {}
    for layer in (ipw_grades(corpus, propensities), judgements(Feedback.objects.judgments(), corpus)):
        for query, judged in layer.items():
            grades.setdefault(query, {}).update(judged)
    return grades


def new_signals(corpus: str, since: datetime.datetime | None, propensities: Propensities) -> float:
    """The corpus's judgments since `since` (all, without one), plus its clicks since on the pages they were made on,
    each person's once per query and formula at their deepest rank, weighted 1/θ of it (at most MAX_CLICK_WEIGHT):
    how much the feedback changed since the last training."""
    rows = Feedback.objects.filter(formula__corpus__name=corpus)
    if since is not None:
        rows = rows.filter(created_at__gt=since)
    judged = rows.filter(~Q(kind=Feedback.Kind.CLICK)).count()
    deepest: dict[tuple, int] = {}
    clicks = rows.filter(kind=Feedback.Kind.CLICK, impression__isnull=False)
    for user, session, key, formula, rank in clicks.values_list("user_id", "session_key", "query_key", "formula_id",
                                                                "rank"):
        person = (user if user is not None else session, key, formula)
        deepest[person] = max(rank, deepest.get(person, 0))
    return judged + sum(min(1 / propensities.at(rank), MAX_CLICK_WEIGHT) for rank in deepest.values())
